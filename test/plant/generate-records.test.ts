/**
 * Every record of a snapshot is declared by the generated program or listed in its index file with the
 * reason: a plant with a property and metadata on its assets, metadata on an asset type and a label,
 * staged workloads and release-candidate versions is snapshotted through HTTP; the program generated
 * from that snapshot declares them (args through each kind's own record mapping, versions in semantic
 * version order), and adopted through the kit against an emulator seeded from the snapshot its
 * adoption plan is empty, its up writes nothing, and the preview and refresh after it are empty.
 */
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import * as testing from "../../src/testing";
import { planProgram, writeProgram, type GeneratedProgram } from "../../src/plant/generate";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { programOf, tables, take } from "./helpers";

const root = path.join(__dirname, "..", "..");

/** The plant as its platform holds it (a fixture that seeds the emulator the snapshot is taken of). */
const KILNS = {
  asset_classes: [{ name: "kilns", title: "Kilns" }],
  asset_types: [
    { name: "hall", title: "Hall" },
    { name: "kiln", title: "Kiln", asset_class_name: "kilns", metadata: { maintenance: { interval_days: 30 } } },
  ],
  assets: [
    { name: "hall-1", title: "Hall 1", asset_type_name: "hall" },
    ...[1, 2].map((n) => ({
      name: `kiln-${n}`,
      title: `Kiln ${n}`,
      asset_type_name: "kiln",
      asset_parent_name: "hall-1",
      properties: [
        { name: "rated_power_kw", title: "Rated power (kW)", value: 40 + n },
        { name: "zones", title: "Heating zones", value: [1, 2, n + 2] },
      ],
      metadata: { vendor: { make: "ACME", line: `K${n}` }, commissioning: { year: 2018 + n } },
    })),
  ],
  clusters: [{ name: "edge-1", title: "Edge 1" }],
  labels: [{ name: "overheat", title: "Overheat", metadata: { severity: { levels: ["minor", "major"] } } }],
  apps: [
    {
      name: "kiln-watch",
      title: "Kiln watch",
      description: "Watches kiln temperatures",
      type: "app",
      versions: [
        { version: "1.0.0", image: "registry.example.com/kiln-watch:1.0.0", parameters: [{ name: "limit_c", data_type: "number", default: 1200 }] },
        { version: "1.0.0-rc.1", image: "registry.example.com/kiln-watch:1.0.0-rc.1" },
        { version: "1.1.0-rc.2", image: "registry.example.com/kiln-watch:1.1.0-rc.2" },
      ],
    },
  ],
  parameter_values: [{ app_name: "kiln-watch", app_version: "1.0.0", resource_parameters: [{ resource: "krn:asset:kiln-1", parameters: [{ name: "limit_c", value: 1100 }] }] }],
  workloads: [
    {
      name: "kiln-staged",
      app_name: "kiln-watch",
      app_version: "1.0.0",
      cluster_name: "edge-1",
      deployment_type: "staged-only",
      runtime: { resources: [{ resource: "krn:asset:kiln-1" }] },
    },
    {
      name: "kiln-instant",
      app_name: "kiln-watch",
      app_version: "1.1.0-rc.2",
      cluster_name: "edge-1",
      deployment_type: "staged+instant-apply",
      runtime: { resources: [{ resource: "krn:asset:kiln-2" }] },
    },
    { name: "kiln-rc", app_name: "kiln-watch", app_version: "1.0.0-rc.1", cluster_name: "edge-1", runtime: { resources: [{ resource: "krn:asset:kiln-2" }] } },
  ],
};

describe("generate: every record of the snapshot declared or listed", () => {
  let platform: TestEmulator;
  let snapshot: Record<string, unknown>;
  let generated: GeneratedProgram;
  let dir: string;

  beforeAll(async () => {
    platform = await startTestEmulator({ seed: KILNS as never });
    const taken = await take(platform);
    expect(taken.problems).toEqual([]);
    snapshot = parseYaml(taken.text) as Record<string, unknown>;
    generated = planProgram(snapshot, { packageSpec: "file:../pulumi-svc.tgz" });
    dir = mkdtempSync(path.join(os.tmpdir(), "svc-generate-records-"));
    writeProgram(dir, generated.files);
    symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  }, 60_000);
  afterAll(async () => {
    await platform?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("each asset's properties and metadata are declared, through the asset's output", () => {
    // Declarations as one line each, whether the emitter wrapped them or not.
    const assets = generated.files["assets.ts"]
      .replace(/,\n\s*\}/g, " }")
      .replace(/\{\n\s*/g, "{ ")
      .replace(/,\n\s*/g, ", ");
    for (const n of [1, 2]) {
      expect(assets).toContain(
        `new svc.AssetProperty("kiln-${n}/rated_power_kw", { assetName: kiln${n}.name, name: "rated_power_kw", title: "Rated power (kW)", value: "${40 + n}", adopt: true });`,
      );
      expect(assets).toContain(
        `new svc.AssetProperty("kiln-${n}/zones", { assetName: kiln${n}.name, name: "zones", title: "Heating zones", value: "[1,2,${n + 2}]", adopt: true });`,
      );
      expect(assets).toContain(`new svc.AssetMetadata("kiln-${n}/vendor", { assetName: kiln${n}.name, name: "vendor", payload: { make: "ACME", line: "K${n}" }, adopt: true });`);
      expect(assets).toContain(
        `new svc.AssetMetadata("kiln-${n}/commissioning", { assetName: kiln${n}.name, name: "commissioning", payload: { year: ${2018 + n} }, adopt: true });`,
      );
    }
  });

  test("versions in semantic version order (1.0.0-rc.1 first, then 1.0.0): the first creates the app, the others name it through the first", () => {
    const apps = generated.files["apps.ts"];
    const order = [...apps.matchAll(/new svc\.AppVersion\("(kiln-watch-[^"]+)"/g)].map((m) => m[1]);
    expect(order).toEqual(["kiln-watch-1.0.0-rc.1", "kiln-watch-1.0.0", "kiln-watch-1.1.0-rc.2"]);
    expect(apps).toMatch(/export const kilnWatch100Rc1 = new svc\.AppVersion\("kiln-watch-1\.0\.0-rc\.1", \{\s*appName: "kiln-watch",/);
    expect(apps).toMatch(/new svc\.AppVersion\("kiln-watch-1\.0\.0", \{\s*appName: kilnWatch100Rc1\.appName,/);
  });

  test("staged workloads keep their deployment type; each workload runs the version refresh reads, through the AppVersion", () => {
    const workloads = generated.files["workloads.ts"];
    expect(workloads).toMatch(/"kiln-staged", \{[^;]*appVersion: apps\.kilnWatch100\.version,[^;]*deploymentType: "staged-only",/);
    expect(workloads).toMatch(/"kiln-instant", \{[^;]*appVersion: apps\.kilnWatch110Rc2\.version,[^;]*deploymentType: "staged\+instant-apply",/);
    expect(workloads).toMatch(/"kiln-rc", \{[^;]*appVersion: apps\.kilnWatch100Rc1\.version,/);
  });

  test("what no resource can declare is listed in index.ts with the reason, record by record", () => {
    const listed = generated.undeclared.map((u) => `${u.section} ${u.record}: ${(u.fields ?? []).join(", ")}`);
    expect(listed).toEqual(["asset_types kiln: metadata maintenance", "clusters edge-1: upgrade, edge_apps", "labels overheat: metadata severity"]);
    const index = generated.files["index.ts"];
    expect(index).toContain("// - the package has no resource for a label's metadata; adopting leaves it as the platform holds it:\n//     labels overheat: metadata severity\n");
    expect(index).toContain(
      "// - the package has no resource for an asset type's metadata; adopting leaves it as the platform holds it:\n//     asset_types kiln: metadata maintenance\n",
    );
    expect(index).toContain("//     clusters edge-1: upgrade, edge_apps\n");
  });

  test("adopted against an emulator seeded from the snapshot: an empty adoption plan, a preview that adopts every object, an up that writes nothing, then an empty preview and refresh", async () => {
    const seeded = await startTestEmulator({ seed: snapshot as never });
    const stack = await testing.stack(programOf(dir), {
      cwd: root,
      config: { "svc:baseUrl": seeded.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" },
      secretConfig: ["svc:clientSecret"],
    });
    try {
      const before = await tables(seeded);
      const plan = await stack.adoptionPlan();
      expect(plan.operations.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`)).toEqual([]);
      expect(plan.render()).toMatch(/^no changes \(\d+ unchanged\)\n$/);
      const names = plan.operations.map((o) => o.name);
      expect(names).toEqual(expect.arrayContaining(["kiln-1/rated_power_kw", "kiln-2/zones", "kiln-1/vendor", "kiln-2/commissioning", "kiln-watch-1.0.0-rc.1", "kiln-staged"]));

      // The preview counts what the plan plans: every create adopts its object, none makes a new one.
      const preview = await stack.preview();
      expect(preview.render().trimEnd().split("\n").pop()).toBe(`${plan.operations.length} to adopt`);

      const up = await stack.up();
      expect(up.operations.filter((o) => o.op !== "create").map((o) => `${o.op} ${o.name}`)).toEqual([]);
      expect(up.operations.length).toBe(plan.operations.length);
      expect(await tables(seeded)).toEqual(before);

      expect((await stack.preview()).changes).toBe(0);
      expect((await stack.refresh()).changes).toBe(0);
    } finally {
      await stack.close();
      await seeded.close();
    }
  }, 240_000);
});
