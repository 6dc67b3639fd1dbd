/**
 * Fixtures (src/emulator/fixtures.ts): a YAML document replayed through the real create operations
 * into an empty emulator, and examples/fixtures/plant.yaml.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fixtureHash } from "../../src/emulator/fixtures";
import { areas } from "../../src/api/endpoints";
import { startTestEmulator, useEmulator, type TestEmulator, pathOf } from "../helpers/emulator";

const PLANT = resolve(__dirname, "../../examples/fixtures/plant.yaml");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-fixtures-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function withEmulator(options: Parameters<typeof startTestEmulator>[0], fn: (emu: TestEmulator) => Promise<void>): Promise<void> {
  const emu = await startTestEmulator(options);
  try {
    await fn(emu);
  } finally {
    await emu.close();
  }
}

function yamlFile(text: string): string {
  const file = join(dir, "fixture.yaml");
  writeFileSync(file, text);
  return file;
}

describe("Loading fixtures through the create operations", () => {
  test("clusters load with the defaults the create operation fills in, and leave no audit entries", async () => {
    await withEmulator({ seed: { clusters: [{ name: "plant-a", title: "Plant A" }, { name: "plant-b" }] } }, async (emu) => {
      const a = await emu.get(pathOf(areas.clusters.get, { cluster_name: "plant-a" }));
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ name: "plant-a", title: "Plant A", type: "k3s", status: "pending_provision", ready: false });
      expect((await emu.get(pathOf(areas.clusters.get, { cluster_name: "plant-b" }))).body.title).toBe("plant-b");
      expect(emu.store.table("audit_log").size).toBe(0);
    });
  });

  test("a YAML file path works like a parsed document", async () => {
    const file = yamlFile("clusters:\n  - name: from-yaml\n    title: From YAML\n");
    await withEmulator({ seed: file }, async (emu) => {
      expect((await emu.get(pathOf(areas.clusters.get, { cluster_name: "from-yaml" }))).body.title).toBe("From YAML");
    });
  });

  test("assets are created parents first, whatever the order in the document", async () => {
    const seed = {
      asset_types: [{ name: "machine", title: "Machine" }],
      assets: [
        { name: "pump-1", title: "Pump 1", asset_type_name: "machine", asset_parent_name: "hall" },
        { name: "hall", title: "Hall", asset_type_name: "machine", asset_parent_name: "site" },
        { name: "site", title: "Site", asset_type_name: "machine" },
      ],
    };
    await withEmulator({ seed }, async (emu) => {
      const tree = (await emu.get(pathOf(areas.assets.hierarchyGet))).body.data;
      expect(tree).toHaveLength(1);
      expect(tree[0].name).toBe("site");
      expect(tree[0].children[0].name).toBe("hall");
      expect(tree[0].children[0].children[0].name).toBe("pump-1");
    });
  });
});

describe("A bad fixture fails naming the entry and the field", () => {
  test("a schema error names the section, index, name and field", async () => {
    const seed = { clusters: [{ name: "ok" }, { name: "Plant B" }] };
    await expect(startTestEmulator({ seed })).rejects.toThrow(/^fixture seed: clusters\[1\] \(Plant B\): name: may contain only lowercase letters/);
    await expect(startTestEmulator({ seed: { clusters: [{ name: "ok", colour: "red" }] } })).rejects.toThrow(/clusters\[0\] \(ok\): unknown field\(s\) 'colour'/);
    await expect(startTestEmulator({ seed: { asset_types: [{ name: "t" }] } })).rejects.toThrow(/asset_types\[0\] \(t\): title: is required/);
  });

  test("a rule of the handler names the entry: an asset of an unknown type, a duplicate cluster", async () => {
    const unknownType = { assets: [{ name: "pump-1", title: "Pump", asset_type_name: "nope" }] };
    await expect(startTestEmulator({ seed: unknownType })).rejects.toThrow(/assets\[0\] \(pump-1\): .*nope/);
    await expect(startTestEmulator({ seed: { clusters: [{ name: "a" }, { name: "a" }] } })).rejects.toThrow(/clusters\[1\] \(a\): cluster 'a' already exists/);
  });

  test("an app version names the app and the version", async () => {
    const seed = { apps: [{ name: "oee", title: "OEE", description: "d", type: "app", versions: [{ version: "1.0.0" }, { version: "one" }] }] };
    await expect(startTestEmulator({ seed })).rejects.toThrow(/apps\[0\] \(oee\)\.versions\[1\] \(one\): version:/);
  });

  test("an ACP registration names the node and the field", async () => {
    await expect(startTestEmulator({ seed: { acps: [{ name: "node-1", status: { state: "sleepy" } }] } })).rejects.toThrow(/acps\[0\] \(node-1\): status\.state:/);
  });

  test("unknown sections, non-lists and YAML syntax errors are named", async () => {
    await expect(startTestEmulator({ seed: { cluster: [] } })).rejects.toThrow(/unknown section\(s\) 'cluster'; allowed: asset_classes, .*workloads/);
    await expect(startTestEmulator({ seed: { clusters: { name: "a" } } })).rejects.toThrow(/fixture seed: clusters: must be a list of entries/);
    const file = yamlFile("clusters:\n  - name: a\n   title: misindented\n");
    await expect(startTestEmulator({ seed: file })).rejects.toThrow(new RegExp(`fixture ${file.replace(/[.\\]/g, "\\$&")}: line \\d+, column \\d+: not valid YAML`));
    await expect(startTestEmulator({ seed: join(dir, "missing.yaml") })).rejects.toThrow(/missing\.yaml: cannot read the file \(ENOENT\)/);
  });

  test("a bad fixture loads nothing: the document is one transaction", async () => {
    const state = join(dir, "state.json");
    await expect(startTestEmulator({ statePath: state, seed: { clusters: [{ name: "first" }, { name: "Bad" }] } })).rejects.toThrow(/clusters\[1\]/);
    await withEmulator({ statePath: state }, async (emu) => {
      expect((await emu.get(pathOf(areas.clusters.list))).body.data).toEqual([]);
    });
  });
});

describe("Fixtures and persisted state", () => {
  test("seeding a state another fixture seeded fails naming both; a seeded state survives a restart", async () => {
    const state = join(dir, "state.json");
    await withEmulator({ statePath: state, seed: { clusters: [{ name: "seeded" }] } }, async () => undefined);
    await expect(startTestEmulator({ statePath: state, seed: { clusters: [{ name: "again" }] } })).rejects.toThrow(
      /fixture seed: the state was seeded from seed \(sha256 [0-9a-f]{12}, at [^)]+\) and seed \(sha256 [0-9a-f]{12}\) is a different fixture; fixtures load only into an empty emulator/,
    );
    await withEmulator({ statePath: state }, async (emu) => {
      expect((await emu.get(pathOf(areas.clusters.list))).body.data.map((c: { name: string }) => c.name)).toEqual(["seeded"]);
    });
  });

  test("the same fixture again is skipped with a log line, by content: key order and formatting do not count", async () => {
    const state = join(dir, "state.json");
    const doc = { clusters: [{ name: "line-1", title: "Line 1" }], labels: [{ name: "anomaly", title: "Anomaly" }] };
    await withEmulator({ statePath: state, seed: doc }, async (emu) => {
      expect(emu.store.table("_seed").get("fixture")).toMatchObject({ sha256: fixtureHash(doc), source: "seed", counts: { clusters: 1, labels: 1 } });
    });
    const lines: string[] = [];
    const reordered = { labels: [{ name: "anomaly", title: "Anomaly" }], clusters: [{ title: "Line 1", name: "line-1" }] };
    expect(fixtureHash(reordered)).toBe(fixtureHash(doc));
    await withEmulator({ statePath: state, seed: reordered, log: (l: string) => lines.push(l) }, async (emu) => {
      expect((await emu.get(pathOf(areas.clusters.list))).body.data).toHaveLength(1);
      expect((await emu.get(pathOf(areas.datalabels.labelList))).body.data).toHaveLength(1);
    });
    expect(lines).toEqual([expect.stringMatching(/^svc-emulator: the state already holds fixture seed \(sha256 [0-9a-f]{12}, loaded from seed at .+\); not loading it again$/)]);
    expect(fixtureHash({ ...doc, clusters: [{ name: "line-1", title: "Line one" }] })).not.toBe(fixtureHash(doc));
  });

  test("the seed record stays out of the exported state, and a reset forgets it", async () => {
    await withEmulator({ seed: { clusters: [{ name: "a" }] } }, async (emu) => {
      const state = (await fetch(`${emu.baseUrl}/emulator/state`).then((r) => r.json())) as Record<string, unknown>;
      expect(Object.keys(state).filter((k) => k.startsWith("_"))).toEqual([]);
      expect(emu.store.table("_seed").size).toBe(1);
      expect((await fetch(`${emu.baseUrl}/emulator/reset`, { method: "POST" })).status).toBe(204);
      expect(emu.store.table("_seed").size).toBe(0);
    });
  });
});

describe("examples/fixtures/plant.yaml", () => {
  const emu = useEmulator({ seed: PLANT, reset: false });

  test("loads two clusters, three ACPs and three labels", async () => {
    expect((await emu.get(pathOf(areas.clusters.list))).body.data.map((c: { name: string }) => c.name).sort()).toEqual(["bottling-edge", "utilities-edge"]);
    const acps = (await emu.get(pathOf(areas.acps.list))).body.data;
    expect(acps.map((a: { name: string }) => a.name).sort()).toEqual(["bottling-node-1", "bottling-node-2", "utilities-node-1"]);
    expect(acps.find((a: { name: string }) => a.name === "bottling-node-1")).toMatchObject({ cluster_name: "bottling-edge", location: { lat: 48.1372, lon: 11.5751 } });
    expect((await emu.get(pathOf(areas.datalabels.labelList))).body.data).toHaveLength(3);
  });

  test("loads asset classes, types and 50 assets under one root", async () => {
    expect((await emu.get(pathOf(areas.assets.classList))).body.data).toHaveLength(5);
    expect((await emu.get(pathOf(areas.assets.typeList), { page_size: 100 })).body.data).toHaveLength(15);
    expect((await emu.get(pathOf(areas.assets.list), { page_size: 100 })).body.data).toHaveLength(50);
    const tree = (await emu.get(pathOf(areas.assets.hierarchyGet))).body.data;
    expect(tree.map((n: { name: string }) => n.name)).toEqual(["riverside"]);
    const line1 = (await emu.get(pathOf(areas.assets.list), { names: ["line-1-filler-temp"] })).body.data[0];
    expect(line1).toMatchObject({ asset_parent_name: "line-1-filler", asset_type_name: "temperature-sensor" });
  });

  test("loads two apps with three versions, their parameter definitions and set values", async () => {
    const apps = (await emu.get(pathOf(areas.apps.list))).body.data;
    expect(apps.map((a: { name: string; latest_version: string }) => [a.name, a.latest_version]).sort()).toEqual([
      ["oee-monitor", "1.1.0"],
      ["vibration-watch", "2.0.0"],
    ]);
    const values = await emu.post(pathOf(areas.parameters.valuesList), { apps: [{ name: "oee-monitor", version: "1.1.0" }] });
    expect(values.status).toBe(200);
    const set = values.body.data.map((v: { resource: string; name: string; value: unknown }) => `${v.resource} ${v.name}=${v.value}`).sort();
    expect(set).toEqual(["krn:asset:line-1 ideal_cycle_time_ms=420", "krn:asset:line-3 ideal_cycle_time_ms=500", "krn:asset:line-3 shift_model=two-shift"]);
  });

  test("loads three workloads; `stopped: true` is the create operation's query flag", async () => {
    const list = (await emu.get(pathOf(areas.workloads.list))).body.data;
    expect(list.map((w: { name: string }) => w.name).sort()).toEqual(["oee-lines", "vibration-lines", "vibration-utilities"]);
    const stopped = (await emu.get(pathOf(areas.workloads.get, { workload_name: "vibration-lines" }))).body;
    const running = (await emu.get(pathOf(areas.workloads.get, { workload_name: "oee-lines" }))).body;
    expect(stopped.status.state).not.toBe(running.status.state);
    expect(JSON.stringify(stopped.status)).toMatch(/stop/);
    expect(running.runtime.resources.map((r: { resource: string }) => r.resource)).toEqual(["krn:asset:line-1", "krn:asset:line-2", "krn:asset:line-3"]);
  });
});
