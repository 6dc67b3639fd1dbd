/**
 * Snapshot (src/plant/snapshot.ts, reading with src/emulator/snapshot/reader.ts) through HTTP: an emulator seeded from a fixture is snapshotted, a
 * second emulator is seeded from the snapshot, and the two compare equal table by table.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { parse as parseYaml } from "yaml";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { generatePlant } from "./generate";
import { fileWith, SERVICE, tables, take } from "./helpers";

const PLANT = resolve(__dirname, "../../examples/fixtures/plant.yaml");

const open: TestEmulator[] = [];
async function emulator(seed?: NonNullable<Parameters<typeof startTestEmulator>[0]>["seed"]): Promise<TestEmulator> {
  const emu = await startTestEmulator({ seed });
  open.push(emu);
  return emu;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

describe.each([
  ["examples/fixtures/plant.yaml", () => PLANT],
  ["a generated plant of 600 assets with every area", () => generatePlant({ assets: 600 })],
])("Round trip of %s", (_name, seedOf) => {
  test("seeded from the snapshot, a second emulator holds the same tables; its snapshot is the same file", async () => {
    const a = await emulator(seedOf());
    const first = await take(a);
    expect(first.problems).toEqual([]);
    expect(first.text).toMatch(/# Left out: records this fixture cannot hold \(0\): none\n/);
    const b = await emulator(fileWith(first.text));
    expect(await tables(b)).toEqual(await tables(a));
    const second = await take(b);
    expect(second.text).toBe(first.text);
  });
});

/** The fixture as data. */
const parsed = (text: string) => parseYaml(text) as Record<string, Array<Record<string, unknown>>>;

describe("The generated plant", () => {
  const plant = generatePlant({ assets: 600 });

  test("has every area: each section of the snapshot has entries and each table of the emulator has records", async () => {
    const a = await emulator(plant);
    const t = await take(a);
    for (const [section, n] of Object.entries(t.counts)) expect([section, n]).toEqual([section, expect.any(Number)]);
    expect(Object.entries(t.counts).filter(([, n]) => n === 0)).toEqual([]);
    expect(t.counts.assets).toBe(600);
    const held = await tables(a);
    for (const table of [
      "asset_classes",
      "asset_types",
      "asset_type_metadata",
      "assets",
      "asset_metadata",
      "asset_properties",
      "clusters",
      "acps",
      "acp_metadata",
      "labels",
      "label_metadata",
      "data_labels",
      "data_types",
      "apps",
      "app_versions",
      "parameters",
      "parameter_values",
      "schedules",
      "workloads",
      "bridges",
      "app_resources",
      "instance_settings",
    ]) {
      expect([table, held[table]?.length ?? 0]).toEqual([table, expect.any(Number)]);
      expect(held[table]?.length ?? 0).toBeGreaterThan(0);
    }
  });

  test("faults during the snapshot (20% answered 429, 502 or 503) give the same file as without them", async () => {
    const a = await emulator(plant);
    const clean = await take(a);
    const set = await fetch(`${a.baseUrl}/emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rate: 0.2, statuses: [429, 502, 503], seed: 11, retry_after_s: 0 }),
    });
    expect(set.status).toBe(200);
    // Smaller pages make more requests, so more of them fail; the page size does not change the file either.
    const faulted = await take(a, { pageSize: 40 });
    const counters = ((await (await fetch(`${a.baseUrl}/emulator/faults`)).json()) as { counters: { total: number; by_kind: Record<string, number> } }).counters;
    expect(counters.by_kind.status_429).toBeGreaterThan(0);
    expect(counters.by_kind.status_502).toBeGreaterThan(0);
    expect(counters.by_kind.status_503).toBeGreaterThan(0);
    expect(faulted.retries).toBe(counters.total);
    expect(faulted.text).toBe(clean.text);
  });

  test("no secret enters the file: cluster tokens, registry and edge API passwords, the login's secret, tokens", async () => {
    const a = await emulator(plant);
    const password = "Edge-Api-Pa55word";
    expect((await a.post("/orchestration/clusters/edge-south/update", { api_credentials: { username: "edge-admin", password } })).status).toBe(200);
    const secrets = [SERVICE.clientSecret, password, await a.token("service"), await a.token("admin")];
    for (const name of ["edge-north", "edge-south", "edge-lab"]) {
      const c = (await a.get(`/orchestration/clusters/${name}/get`)).body;
      secrets.push(c.service_account_token);
      const registry = parseYaml((await a.get(`/orchestration/clusters/${name}/private-registry/download`)).text);
      secrets.push(registry.password);
    }
    expect(secrets.every((x) => typeof x === "string" && x.length >= 8)).toBe(true);
    const t = await take(a);
    for (const secret of secrets) expect(t.text.includes(secret)).toBe(false);
    expect(t.text).not.toMatch(/eyJ[\w-]{10,}/);
    expect(t.problems).toEqual([{ kind: "incomplete", section: "clusters", name: "edge-south", reason: expect.stringMatching(/api_credentials\.password is write-only/) }]);
    expect(parsed(t.text).clusters.find((c) => c.name === "edge-south")!.api_credentials).toEqual({ username: "edge-admin" });
  });

  test("progress: every section is announced, counted as it is read, and closed with the count written", async () => {
    const a = await emulator(plant);
    const t = await take(a, { pageSize: 100 });
    const sections = Object.keys(t.counts);
    expect(t.events.filter((e) => e.type === "done")).toEqual(sections.map((section) => ({ type: "done", section, count: t.counts[section] })));
    expect(t.events.filter((e) => e.type === "reading" && e.count === 0).map((e) => (e as { section: string }).section)).toEqual(sections);
    expect(t.events.filter((e) => e.type === "reading" && e.section === "assets").map((e) => (e as { count: number }).count)).toEqual([0, 100, 200, 300, 400, 500, 600]);
  });

  describe("filters", () => {
    let a: TestEmulator;
    beforeEach(async () => {
      a = await emulator(plant);
    });

    test("--only assets,apps reads those areas only, and the fixture loads", async () => {
      const t = await take(a, { only: ["assets", "apps"] });
      expect(Object.keys(t.counts)).toEqual(["asset_classes", "asset_types", "assets", "apps", "parameter_values", "schedules", "app_resources"]);
      expect(Object.keys(parsed(t.text)).sort()).toEqual(Object.keys(t.counts).sort());
      const b = await emulator(fileWith(t.text));
      expect((await b.get("/apps/list")).body.data).toHaveLength(3);
      await expect(take(a, { only: ["asset", "apps"] })).rejects.toThrow(/--only: unknown area\(s\) 'asset'; areas: assets, clusters/);
    });

    test("--cluster keeps that cluster with its ACPs, workloads and bridges", async () => {
      const t = await take(a, { clusters: ["edge-north"] });
      const doc = parsed(t.text);
      expect(doc.clusters.map((c) => c.name)).toEqual(["edge-north"]);
      expect(doc.acps.map((x) => x.name)).toEqual(["north-1", "north-2"]);
      expect(doc.workloads.map((w) => w.name)).toEqual(["oee-north", "vibration-north"]);
      expect(doc.bridges.map((b) => b.name)).toEqual(["opcua-north"]);
      await emulator(fileWith(t.text));
    });

    test("--asset-path keeps the assets at that path and below, with their values and bindings; the top one loses its parent", async () => {
      const t = await take(a, { assetPath: "north/hall-0" });
      const doc = parsed(t.text);
      const all = (await a.get("/assets/list", { page_size: 1000 })).body.data as Array<{ name: string; path: string }>;
      const wanted = all.filter((x) => x.path === "north/hall-0" || x.path.startsWith("north/hall-0/")).map((x) => x.name);
      expect(wanted.length).toBeGreaterThan(10);
      expect(doc.assets.map((x) => x.name).sort()).toEqual(wanted.sort());
      expect(doc.assets.find((x) => x.name === "hall-0")!.asset_parent_name).toBeUndefined();
      expect(t.problems).toEqual([
        { kind: "incomplete", section: "assets", name: "hall-0", reason: "written without its parent 'north', which is outside --asset-path north/hall-0" },
      ]);
      const resources = doc.parameter_values.flatMap((v) => (v.resource_parameters as Array<{ resource: string }>).map((r) => r.resource.slice("krn:asset:".length)));
      expect(resources.length).toBeGreaterThan(0);
      expect(resources.filter((r) => !wanted.includes(r))).toEqual([]);
      const b = await emulator(fileWith(t.text));
      expect((await b.get("/assets/hall-0/get")).body.path).toBe("hall-0");
    });
  });
});

describe("Records a fixture cannot hold are reported by name, never dropped silently", () => {
  test("a schedule half applied, assets the API would refuse, registry apps, secrets in a payload, a write-only password", async () => {
    const a = await emulator(PLANT);
    const created = await a.post("/apps/parameters/schedules/create", {
      app_name: "vibration-watch",
      app_version: "2.0.0",
      scheduled_for: "2031-01-01T00:00:00Z",
      resources: ["krn:asset:compressor-1"],
      parameters: { limit_mm_s: 3 },
      revert: { scheduled_for: "2031-01-02T00:00:00Z", resource_parameters: [{ resource: "krn:asset:compressor-1", parameters: { limit_mm_s: 4.5 } }] },
    });
    expect(created.status).toBe(201);
    expect((await a.post(`/apps/parameters/schedules/${created.body.id}/apply`, { type: "schedule" })).status).toBe(204);
    // Records an older platform holds whose names today's API refuses (written to the store: no operation makes them).
    const now = new Date().toISOString();
    const legacy = (name: string, parent: string | null) => ({
      name,
      title: name,
      path: parent ? `Legacy Pump/${name}` : name,
      asset_type_name: "filler",
      asset_type_title: "Filler",
      asset_parent_name: parent,
      location: null,
      status: { state: "unknown" },
      created: now,
      updated: now,
    });
    a.store.transaction(() => {
      a.store.table("assets").put("Legacy Pump", legacy("Legacy Pump", null));
      a.store.table("assets").put("legacy-pump-sensor", legacy("legacy-pump-sensor", "Legacy Pump"));
    });
    expect((await a.post("/appregistry/create", { payload: { name: "modbus-bridge", version: "1.2.0", type: "bridge" } })).status).toBe(201);
    const plcPassword = "plc-pa55-0042";
    const bridge = await a.post("/bridges/deploy", {
      name: "opcua-1",
      cluster_name: "bottling-edge",
      app_name: "vibration-watch",
      app_version: "2.0.0",
      payload: { endpoint: "opc.tcp://plc:4840", auth: { user: "plc", password: plcPassword } },
    });
    expect(bridge.status).toBe(201);
    expect((await a.post("/orchestration/clusters/utilities-edge/update", { api_credentials: { username: "ops", password: "Utilit1es-Edge" } })).status).toBe(200);

    const t = await take(a);
    const named = t.problems.map((p) => [p.kind, p.section, p.name]);
    expect(named).toEqual([
      ["left_out", "assets", "Legacy Pump"],
      ["left_out", "assets", "legacy-pump-sensor"],
      ["incomplete", "clusters", "utilities-edge"],
      ["left_out", "schedules", created.body.id],
      ["incomplete", "bridges", "opcua-1"],
      ["left_out", "app_registry", "modbus-bridge"],
    ]);
    const reasons = Object.fromEntries(t.problems.map((p) => [p.name, p.reason]));
    expect(reasons["Legacy Pump"]).toMatch(/does not pass the API's own checks: name: may contain only lowercase letters/);
    expect(reasons["legacy-pump-sensor"]).toBe("its parent 'Legacy Pump' is left out");
    expect(reasons[created.body.id]).toMatch(/in state scheduled-revert/);
    expect(reasons["opcua-1"]).toBe("payload.auth.password left out: it looks like a secret (set it again after loading)");
    // The summary at the end of the file names each of them; the entries are not in the file.
    for (const p of t.problems) expect(t.text).toContain(`#   ${p.section} ${p.name}: ${p.reason}\n`);
    const doc = parsed(t.text);
    expect(doc.assets.map((x) => x.name)).not.toContain("Legacy Pump");
    expect(doc.schedules).toBeUndefined();
    expect(t.text).not.toContain(plcPassword);
    // What was written loads.
    const b = await emulator(fileWith(t.text));
    expect((await b.get("/bridges/opcua-1/get")).body.payload).toEqual({ endpoint: "opc.tcp://plc:4840", auth: { user: "plc" } });
  });
});

describe("svc-emulator snapshot", () => {
  const CLI = resolve(__dirname, "../../dist/cli/svc-emulator.js");
  const run = promisify(execFile);

  test("writes the same file as the library, plain progress lines on stderr (not a terminal), and a summary naming what was left out", async () => {
    const a = await emulator(PLANT);
    expect((await a.post("/appregistry/create", { payload: { name: "modbus-bridge", version: "1.2.0", type: "bridge" } })).status).toBe(201);
    const out = join(resolve(fileWith("", "unused.yaml"), ".."), "cli.yaml");
    const env = { ...process.env, SVC_BASE_URL: "", SVC_CLIENT_ID: SERVICE.clientId, SVC_CLIENT_SECRET: SERVICE.clientSecret };
    const { stderr } = await run(process.execPath, [CLI, "snapshot", "--from", a.baseUrl, "--out", out], { env });
    const text = readFileSync(out, "utf8");
    expect(text).toBe((await take(a)).text);
    expect(text).not.toContain(SERVICE.clientSecret);
    expect(stderr).not.toMatch(/\r|\x1b/);
    expect(stderr).toMatch(/^assets: 50 written$/m);
    expect(stderr).toMatch(/^left out: app_registry modbus-bridge: app registry apps are uploaded packages/m);
    expect(stderr).toMatch(new RegExp(`^svc-emulator: snapshot written to ${out.replace(/[.\\/]/g, "\\$&")}: 86 entries in 15 sections .*; \\d+ requests, 0 repeated`, "m"));
    expect(stderr).toMatch(/^1 left out \(the fixture cannot hold them\):\n {2}app_registry modbus-bridge: /m);
  });

  test("a refused login fails naming the variables, and leaves no file", async () => {
    const a = await emulator(PLANT);
    const out = join(resolve(fileWith("", "unused.yaml"), ".."), "refused.yaml");
    const env = { ...process.env, SVC_CLIENT_ID: SERVICE.clientId, SVC_CLIENT_SECRET: "wrong-secret" };
    const failed = await run(process.execPath, [CLI, "snapshot", "--from", a.baseUrl, "--out", out], { env }).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/login refused .*SVC_CLIENT_SECRET/);
    expect(failed.stderr).not.toContain("wrong-secret");
    expect(existsSync(out)).toBe(false);
  });
});
