/**
 * Bringing a platform under code, the whole round trip through HTTP and the real dynamic-provider
 * host: an emulator seeded from a fixture is snapshotted, the program generated from THAT snapshot
 * type-checks (strict, its own tsconfig), its adoption plan is empty, and its up with `adopt: true`
 * takes every object over without changing a record; the next preview and a refresh are empty, and
 * removing `adopt` afterwards changes nothing.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import * as testing from "../../src/testing";
import { generateProgram, writeProgram } from "../../src/plant/generate";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { generatePlant } from "./generate";
import { beyondDroppingAdopt, programOf, SERVICE, tables, take } from "./helpers";

const root = path.join(__dirname, "..", "..");
const PLANT = path.join(root, "examples", "fixtures", "plant.yaml");

/** Type-checks the program folder with its own tsconfig; the compiler's output on failure. */
function typeCheck(dir: string): void {
  try {
    execFileSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", dir, "--noEmit"], { stdio: "pipe" });
  } catch (e) {
    throw new Error(`tsc -p ${dir}: ${String((e as { stdout?: Buffer }).stdout ?? (e as Error).message)}`, { cause: e });
  }
}

/** Actions of the audit log (one entry per mutating call; seeding writes none). */
async function auditActions(emu: TestEmulator): Promise<string[]> {
  const state = (await (await fetch(`${emu.baseUrl}/emulator/state`)).json()) as Record<string, Array<Record<string, unknown>>>;
  return (state.audit_log ?? []).map((e) => `${String(e.action)} ${String(e.resource ?? e.path ?? "")}`);
}

const withoutAdopt = (_file: string, text: string) => text.replace(/\n(\s*)adopt: true,/g, "").replace(/, adopt: true \}/g, " }");

describe.each([
  ["examples/fixtures/plant.yaml", () => PLANT as string | Record<string, unknown[]>, 80],
  ["a generated plant of 500 assets with every kind", () => generatePlant({ assets: 500 }), 500],
])("Round trip of %s: snapshot, generate, compile, adopt", (_name, seedOf, least) => {
  let emu: TestEmulator | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await emu?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    emu = dir = undefined;
  });

  test("the up adopts every object and changes no record; preview, refresh and dropping adopt are empty", async () => {
    emu = await startTestEmulator({ seed: seedOf() as never });
    const before = await tables(emu);

    // Snapshot through HTTP; the program is generated from the snapshot, not from the seed.
    const taken = await take(emu);
    expect(taken.problems).toEqual([]);
    const snap = parseYaml(taken.text) as Record<string, unknown>;
    const files = generateProgram(snap);
    dir = mkdtempSync(path.join(os.tmpdir(), "svc-roundtrip-"));
    writeProgram(dir, files);
    symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
    const kinds = new Set(
      (
        Object.values(files)
          .join("\n")
          .match(/new svc\.(\w+)\(/g) ?? []
      ).map((m) => m.slice(8, -1)),
    );
    if (least >= 500) {
      // Every kind the package declares with a record in the plant is present in the program.
      // Every kind a snapshot's sections declare is in the program.
      expect([...kinds].sort()).toEqual([
        "AppParameterValues",
        "AppVersion",
        "Asset",
        "AssetClass",
        "AssetMetadata",
        "AssetProperty",
        "AssetType",
        "Bridge",
        "Cluster",
        "DataType",
        "InstanceSettings",
        "Label",
        "Workload",
      ]);
    }
    typeCheck(dir);

    const stack = await testing.stack(programOf(dir), {
      cwd: root,
      config: { "svc:baseUrl": emu.baseUrl, "svc:clientId": SERVICE.clientId, "svc:clientSecret": SERVICE.clientSecret },
    });
    try {
      const plan = await stack.adoptionPlan();
      expect(plan.operations.length).toBeGreaterThanOrEqual(least);
      expect(plan.operations.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.type} ${o.name}: ${plan.render()}`)).toEqual([]);
      expect(plan.changes).toBe(0);

      const up = await stack.up();
      expect(up.operations.filter((o) => o.op !== "create").map((o) => `${o.op} ${o.name}`)).toEqual([]);
      expect(up.operations.length).toBe(plan.operations.length);
      expect(await auditActions(emu)).toEqual([]);
      expect(await tables(emu)).toEqual(before);

      expect((await stack.preview()).changes).toBe(0);
      expect((await stack.refresh()).changes).toBe(0);

      const again = await stack.up(programOf(dir, withoutAdopt));
      expect(beyondDroppingAdopt(again)).toEqual([]);
      expect(await auditActions(emu)).toEqual([]);
      expect(await tables(emu)).toEqual(before);
      expect((await stack.preview()).changes).toBe(0);
    } finally {
      await stack.close();
    }
  }, 600_000);
});

describe("InstanceSettings taken over", () => {
  test("a create that declares the values the platform holds writes nothing; one that differs writes them", async () => {
    const emu = await startTestEmulator({ seed: { instance_settings: [{ acp: { metrics: { enabled: true, interval: 120 } } }] } as never });
    const config = { "svc:baseUrl": emu.baseUrl, "svc:clientId": SERVICE.clientId, "svc:clientSecret": SERVICE.clientSecret };
    const declare =
      (interval: number): testing.Program =>
      () => {
        const svc = require("pulumi-svc");
        new svc.InstanceSettings("settings", { acp: { metrics: { enabled: true, interval } } });
      };
    try {
      const same = await testing.stack(declare(120), { cwd: root, config, checkDestroy: false });
      try {
        const before = await tables(emu);
        await same.up();
        expect(await auditActions(emu)).toEqual([]);
        expect(await tables(emu)).toEqual(before);
      } finally {
        await same.close();
      }
      const other = await testing.stack(declare(90), { cwd: root, config, checkDestroy: false });
      try {
        await other.up();
        expect(await auditActions(emu)).toEqual(["SETTINGS-UPDATE-INSTANCE "]);
        const state = (await (await fetch(`${emu.baseUrl}/emulator/state`)).json()) as { instance_settings: Array<{ acp: { metrics: unknown } }> };
        expect(state.instance_settings[0].acp.metrics).toEqual({ enabled: true, interval: 90 });
      } finally {
        await other.close();
      }
    } finally {
      await emu.close();
    }
  }, 60_000);
});
