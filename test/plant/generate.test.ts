/**
 * Program generation end to end: a seeded platform's snapshot becomes a TypeScript program that
 * type-checks against the package, and whose first up adopts every object without changing any
 * record on the platform. (The fixture that seeds the emulator serves as the snapshot.)
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as testing from "../../src/testing";
import { generateFromFile, generateProgram, identifier, literal } from "../../src/plant/generate";
import { beyondDroppingAdopt, programOf } from "./helpers";

const root = path.join(__dirname, "..", "..");
const plant = path.join(root, "examples", "fixtures", "plant.yaml");

async function platformState(baseUrl: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}/emulator/state`);
  return (await res.json()) as Record<string, unknown>;
}

describe("generate: snapshot to program", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "svc-generate-"));
    generateFromFile(plant, dir, { packageSpec: "file:../pulumi-svc.tgz" });
    // The program resolves pulumi-svc and @pulumi/pulumi as an install would: the repository's node_modules (pulumi-svc links to the repository).
    symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("writes one file per area, references through outputs, every object adopted", () => {
    const files = generateProgram(require("yaml").parse(readFileSync(plant, "utf8")));
    expect(Object.keys(files).sort()).toEqual([
      "Pulumi.yaml",
      "apps.ts",
      "assets.ts",
      "clusters.ts",
      "index.ts",
      "labels.ts",
      "package.json",
      "parameters.ts",
      "tsconfig.json",
      "workloads.ts",
    ]);
    expect(files["assets.ts"]).toContain(`export const line1Filler = new svc.Asset("line-1-filler", {`);
    expect(files["assets.ts"]).toMatch(/"line-1-filler", \{[^}]*assetTypeName: filler\.name,[^}]*parentName: line1\.name,/);
    expect(files["workloads.ts"]).toMatch(/"oee-lines", \{[^;]*appVersion: apps\.oeeMonitor110\.version,[^;]*clusterName: clusters\.bottlingEdge\.name,/);
    // Every resource of the package that takes `adopt` has it.
    const declared =
      Object.values(files)
        .join("\n")
        .match(/new svc\.(\w+)\(/g) ?? [];
    const adopted =
      Object.values(files)
        .join("\n")
        .match(/adopt: true(,| \})/g) ?? [];
    const withoutAdopt = declared.filter((d) => d === "new svc.AppParameterValues(").length;
    expect(adopted.length).toBe(declared.length - withoutAdopt);
    expect(JSON.parse(files["tsconfig.json"]).compilerOptions).toMatchObject({ module: "commonjs", moduleResolution: "node", strict: true });
    // Deterministic: the same snapshot gives the same program, whatever the order of its entries.
    const doc = require("yaml").parse(readFileSync(plant, "utf8"));
    const reversed = Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, Array.isArray(v) ? [...v].reverse() : v]));
    expect(generateProgram(reversed)).toEqual(files);
  });

  test("logical names and variables: stable, collisions resolved by kind then number", () => {
    expect(identifier("line-1-filler")).toBe("line1Filler");
    expect(identifier("1st-hall")).toBe("_1stHall");
    expect(identifier("default")).toBe("_default");
    const files = generateProgram({
      asset_classes: [{ name: "filler", title: "Filler class" }],
      asset_types: [{ name: "filler", title: "Filler", asset_class_name: "filler" }],
      assets: [{ name: "filler", title: "A filler", asset_type_name: "filler" }],
    });
    expect(files["assets.ts"]).toContain(`export const filler = new svc.AssetClass("filler"`);
    expect(files["assets.ts"]).toContain(`export const fillerAssetType = new svc.AssetType("filler", { name: "filler", title: "Filler", assetClassName: filler.name`);
    expect(files["assets.ts"]).toContain(`export const fillerAsset = new svc.Asset("filler", { name: "filler", title: "A filler", assetTypeName: fillerAssetType.name`);
    expect(literal({ a: [1, 2], "b-c": { d: "x" } })).toBe(`{ a: [1, 2], "b-c": { d: "x" } }`);
  });

  test("type-checks against the package (strict, as Pulumi's TypeScript template), with the snapshot's further sections", () => {
    const doc = {
      ...require("yaml").parse(readFileSync(plant, "utf8")),
      data_types: [{ icd: { name: "plant.pressure_reading", class_name: "measurement", version: "1.0.0", fields: [{ name: "bar", type: "number" }] }, source: "user" }],
      bridges: [{ name: "mqtt-hall", cluster_name: "bottling-edge", app_name: "vibration-watch", app_version: "2.0.0", protocol: "mqtt", payload: { metrics_map: { a: "b" } } }],
      instance_settings: { acp: { auto_update: { enabled: false, interval: 86400 }, metrics: { enabled: true, interval: 60 } } },
      data_labels: [{ label_name: "anomaly", start_date: "2026-01-01T00:00:00Z", end_date: "2026-01-02T00:00:00Z" }],
    };
    const typed = mkdtempSync(path.join(os.tmpdir(), "svc-generate-"));
    try {
      const files = generateProgram(doc);
      expect(files["bridges.ts"]).toMatch(/"mqtt-hall", \{[^;]*clusterName: clusters\.bottlingEdge\.name,[^;]*appVersion: apps\.vibrationWatch200\.version,/);
      expect(files["datatypes.ts"]).toContain(`new svc.DataType("plant.pressure_reading-1.0.0"`);
      expect(files["settings.ts"]).toContain(`acp: {`);
      expect(files["index.ts"]).toContain(
        "// - data labels have platform-assigned ids: declaring them would create new ones:\n//     data_labels anomaly from 2026-01-01T00:00:00Z\n",
      );
      for (const [rel, text] of Object.entries(files)) writeFileSync(path.join(typed, rel), text);
      symlinkSync(path.join(root, "node_modules"), path.join(typed, "node_modules"), "dir");
      execFileSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", typed, "--noEmit"], { stdio: "pipe" });
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${String((e as { stdout?: Buffer }).stdout ?? "")}`, { cause: e });
    } finally {
      rmSync(typed, { recursive: true, force: true });
    }
  }, 120_000);

  test("adoption plan: empty for the generated program; a hand-edited program's plan lists exactly the edits; planning applies nothing", async () => {
    const stack = await testing.stack(programOf(dir), { emulator: { seed: plant }, cwd: root });
    try {
      const baseUrl = stack.emulator!.baseUrl;
      const before = await platformState(baseUrl);

      const plan = await stack.adoptionPlan();
      expect(plan.kind).toBe("adoption");
      expect(plan.operations.length).toBeGreaterThan(80);
      expect(plan.changes).toBe(0);
      expect(plan.render()).toMatch(/^no changes \(\d+ unchanged\)\n$/);

      const edited = programOf(dir, (file, text) => {
        if (file === "assets.ts") return text.replace(`title: "Line 1 filler"`, `title: "Filler one"`);
        if (file === "workloads.ts") return text.replace(`{ resource: "krn:asset:chiller-1" }`, `{ resource: "krn:asset:boiler-1" }`);
        if (file === "parameters.ts") return text.replace(`values: { limit_mm_s: 4.5 }`, `values: { limit_mm_s: 5 }`);
        return text;
      });
      const editedPlan = await stack.adoptionPlan(edited);
      const changed = editedPlan.operations.filter((o) => o.op !== "same").sort((a, b) => a.name.localeCompare(b.name));
      expect(changed.map((o) => [o.op, o.name, testing.propertyChanges(o).map((c) => [c.path, c.old, c.new])])).toEqual([
        ["update", "line-1-filler", [["title", "Line 1 filler", "Filler one"]]],
        ["update", "vibration-utilities", [["runtime.resources[2].resource", "krn:asset:chiller-1", "krn:asset:boiler-1"]]],
        ["update", "vibration-watch-2.0.0-compressor-1", [["values.limit_mm_s", 4.5, 5]]],
      ]);
      const text = editedPlan.render();
      expect(text).toContain(`~ svc:Asset line-1-filler update\n    ~ title: "Line 1 filler" => "Filler one"\n`);
      expect(text).toContain(`~ svc:Workload vibration-utilities update\n    ~ runtime.resources[2].resource: "krn:asset:chiller-1" => "krn:asset:boiler-1"\n`);
      expect(text.trimEnd().split("\n").pop()).toMatch(/^3 to update, \d+ unchanged$/);
      // Planning applied nothing.
      expect(await platformState(baseUrl)).toEqual(before);
    } finally {
      await stack.close();
    }
  }, 240_000);

  test("adoption: up takes every object over and no record on the platform changes; refresh and preview are empty; removing adopt changes nothing", async () => {
    const program = programOf(dir);
    const stack = await testing.stack(program, { emulator: { seed: plant }, cwd: root });
    try {
      const baseUrl = stack.emulator!.baseUrl;
      const before = await platformState(baseUrl);

      // Every create takes its object over, parameter values (whose create always does) included.
      const preview = await stack.preview();
      expect(preview.operations.filter((o) => !(o.op === "create" && o.adopt)).map((o) => `${o.op} ${o.name}`)).toEqual([]);
      expect(preview.render()).toMatch(/= svc:Asset line-1-filler create \(adopt\)\n/);
      expect(preview.render()).toMatch(/= svc:AppParameterValues vibration-watch-2.0.0-compressor-1 create \(adopt\)\n/);
      expect(preview.render().trimEnd().split("\n").pop()).toBe(`${preview.operations.length} to adopt`);

      const up = await stack.up();
      expect(up.operations.filter((o) => !(o.op === "create" && o.adopt)).map((o) => `${o.op} ${o.name}`)).toEqual([]);
      expect(up.render().trimEnd().split("\n").pop()).toBe(`${up.operations.length} adopted`);
      const after = await platformState(baseUrl);
      // No mutating call: the audit log (one entry per mutating call; the seed writes none) stays empty.
      expect(((after.audit_log ?? []) as Array<Record<string, unknown>>).map((e) => String(e.action))).toEqual([]);
      expect(after).toEqual(before);

      expect((await stack.refresh()).changes).toBe(0);
      expect((await stack.preview()).changes).toBe(0);

      const withoutAdopt = programOf(dir, (_f, text) => text.replace(/\n {2}adopt: true,/g, "").replace(/, adopt: true \}/g, " }"));
      const again = await stack.up(withoutAdopt);
      expect(beyondDroppingAdopt(again)).toEqual([]);
      expect(await platformState(baseUrl)).toEqual(before);
      expect((await stack.preview()).changes).toBe(0);
    } finally {
      await stack.close();
    }
  }, 240_000);
});

describe("svc-emulator generate and adopt-plan", () => {
  test("generate writes the program; adopt-plan prints the edited property and exits 2, nothing changed on the platform", async () => {
    const { startEmulator } = await import("../../src/emulator");
    const emulator = await startEmulator({ seed: plant });
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), "svc-generate-")), "infra");
    const cli = path.join(root, "dist", "cli", "svc-emulator.js");
    try {
      const before = await platformState(emulator.baseUrl);
      execFileSync(process.execPath, [cli, "generate", "--from", plant, "--out", out, "--package-spec", "^0.1.0"], { stdio: "pipe" });
      expect(JSON.parse(readFileSync(path.join(out, "package.json"), "utf8")).dependencies["pulumi-svc"]).toBe("^0.1.0");
      symlinkSync(path.join(root, "node_modules"), path.join(out, "node_modules"), "dir");
      const assets = path.join(out, "assets.ts");
      writeFileSync(assets, readFileSync(assets, "utf8").replace(`title: "Line 1 filler"`, `title: "Filler one"`));
      const config = ["svc:baseUrl=" + emulator.baseUrl, "svc:clientId=svc-admin", "svc:clientSecret=svc-admin-secret"].flatMap((c) => ["--config", c]);
      const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = require("node:child_process").execFile(process.execPath, [cli, "adopt-plan", "--program", out, ...config], (_e: unknown, stdout: string) =>
          resolve({ code: child.exitCode, stdout }),
        );
      });
      expect(run.stdout).toBe(`~ svc:Asset line-1-filler update\n    ~ title: "Line 1 filler" => "Filler one"\n\n1 to update, 83 unchanged\n`);
      expect(run.code).toBe(2);
      expect(await platformState(emulator.baseUrl)).toEqual(before);
    } finally {
      await emulator.close();
      rmSync(path.dirname(out), { recursive: true, force: true });
    }
  }, 120_000);
});

describe("generate: CLI-less writing", () => {
  test("writes the files to the folder, created when missing, with the packed package that package.json names (the registry has none)", () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), "svc-generate-")), "infra", "nested");
    try {
      const files = generateFromFile(plant, out);
      for (const [rel, text] of Object.entries(files)) expect(readFileSync(path.join(out, rel), "utf8")).toBe(text);
      const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
      const spec: string = JSON.parse(files["package.json"]).dependencies["pulumi-svc"];
      expect(spec).toBe(`file:vendor/pulumi-svc-${version}.tgz`);
      // The tarball npm installs from: the package's own package.json and its built entry point inside.
      const listing = execFileSync("tar", ["-tzf", path.join(out, spec.slice("file:".length))], { encoding: "utf8" }).split("\n");
      expect(listing).toEqual(expect.arrayContaining(["package/package.json", "package/dist/index.js", "package/dist/plant/generate.js"]));
    } finally {
      rmSync(path.dirname(path.dirname(out)), { recursive: true, force: true });
    }
  });
});
