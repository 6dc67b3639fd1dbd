/**
 * Bringing a platform under code, the whole round trip through HTTP and the real dynamic-provider
 * host: an emulator seeded from a fixture is snapshotted, the program generated from THAT snapshot
 * type-checks (strict, its own tsconfig), its adoption plan is empty, and its up with `adopt: true`
 * takes every object over without changing a record; the next preview and a refresh are empty, and
 * removing `adopt` afterwards changes nothing. Run on the example plant by roundtrip.test.ts, and on a
 * generated plant of 500 assets by the soak (test/robustness/plant-roundtrip.test.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import * as testing from "../../src/testing";
import { generateProgram, writeProgram } from "../../src/plant/generate";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { beyondDroppingAdopt, programOf, SERVICE, tables, take } from "./helpers";

export const root = path.join(__dirname, "..", "..");

/** Type-checks the program folder with its own tsconfig; the compiler's output on failure. */
function typeCheck(dir: string): void {
  try {
    execFileSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", dir, "--noEmit"], { stdio: "pipe" });
  } catch (e) {
    throw new Error(`tsc -p ${dir}: ${String((e as { stdout?: Buffer }).stdout ?? (e as Error).message)}`, { cause: e });
  }
}

/** Actions of the audit log (one entry per mutating call; seeding writes none). */
export async function auditActions(emu: TestEmulator): Promise<string[]> {
  const state = (await (await fetch(`${emu.baseUrl}/emulator/state`)).json()) as Record<string, Array<Record<string, unknown>>>;
  return (state.audit_log ?? []).map((e) => `${String(e.action)} ${String(e.resource ?? e.path ?? "")}`);
}

const withoutAdopt = (_file: string, text: string) => text.replace(/\n(\s*)adopt: true,/g, "").replace(/, adopt: true \}/g, " }");

/**
 * The round trip of an emulator seeded with `seed`, whose adoption plan must hold at least `least`
 * operations; answers the resource classes the generated program declares.
 */
export async function roundTrip(seed: string | Record<string, unknown[]>, least: number): Promise<string[]> {
  const emu = await startTestEmulator({ seed: seed as never });
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-roundtrip-"));
  try {
    const before = await tables(emu);

    // Snapshot through HTTP; the program is generated from the snapshot, not from the seed.
    const taken = await take(emu);
    expect(taken.problems).toEqual([]);
    const snap = parseYaml(taken.text) as Record<string, unknown>;
    const files = generateProgram(snap);
    writeProgram(dir, files);
    symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
    const kinds = new Set(
      (
        Object.values(files)
          .join("\n")
          .match(/new svc\.(\w+)\(/g) ?? []
      ).map((m) => m.slice(8, -1)),
    );
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
    return [...kinds].sort();
  } finally {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
