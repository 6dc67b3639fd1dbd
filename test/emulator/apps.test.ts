import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf, type Json } from "../helpers/emulator";

const emu = useEmulator();

/** A minimal manifest; `extra` adds or overrides fields. */
const manifest = (name: string, version: string, extra: Record<string, unknown> = {}) => ({
  name,
  title: `Title of ${name}`,
  description: `The ${name} app`,
  type: "app",
  version,
  ...extra,
});

async function createVersion(name: string, version: string, extra: Record<string, unknown> = {}) {
  const a = await emu.post(pathOf(areas.apps.create), manifest(name, version, extra));
  if (a.status !== 201) throw new Error(`create ${name} ${version}: ${a.status} ${a.text}`);
  return a.body;
}

/** A workload of the app serving the given assets (through the workloads area). */
async function createWorkload(name: string, app: string, version: string, assets: string[]) {
  if ((await emu.get(pathOf(areas.clusters.get, { cluster_name: "plant" }))).status === 404) await emu.post(pathOf(areas.clusters.create), { name: "plant" });
  const a = await emu.post(pathOf(areas.workloads.create), {
    name,
    app_name: app,
    app_version: version,
    cluster_name: "plant",
    runtime: { resources: assets.map((x) => ({ resource: `krn:asset:${x}` })) },
  });
  if (a.status !== 201) throw new Error(`workload ${name}: ${a.status} ${a.text}`);
}

const names = (a: { body: { data: Array<{ name: string }> } }) => a.body.data.map((x) => x.name);

describe("Apps: create (spec Apps, POST /apps/create; facts §3.1, §6.7)", () => {
  test("the first version creates the app; the answer is the version with the platform's defaults filled in", async () => {
    const a = await emu.post(
      "/apps/create",
      manifest("simulator", "1.0.0", {
        flags: { enable_runtime_update: { io: true } },
        io: [{ name: "temperature", data_type: "number" }],
        dynamic_io: [{ type_name: "signals", data_types: ["number"] }],
        parameters: [{ name: "speed", data_type: "number", default: 10 }],
      }),
    );
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      name: "simulator",
      version: "1.0.0",
      type: "app",
      flags: { enable_runtime_update: { io: true, configuration: false, resource_parameters: true, resource_properties: true } },
      io: [{ name: "temperature", data_type: "number", way: "output", storage: "node-and-cloud" }],
      dynamic_io: [{ type_name: "signals", ownership: "both", type: "both", data_types: ["number"] }],
      created_by: "krn:user:admin@example.com",
      updated_by: "krn:user:admin@example.com",
    });
    expect(a.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const stored = await emu.get(pathOf(areas.apps.versionGet, { app_name: "simulator", app_version: "1.0.0" }));
    expect(stored.body).toEqual(a.body);
    const app = await emu.get(pathOf(areas.apps.get, { app_name: "simulator" }));
    expect(app.body).toMatchObject({ name: "simulator", title: "Title of simulator", type: "app", latest_version: "1.0.0" });
  });

  test("flags.enable_runtime_update is present with its defaults even when no flags are sent", async () => {
    const v = await createVersion("simulator", "1.0.0");
    expect(v.flags).toEqual({ enable_runtime_update: { io: false, configuration: false, resource_parameters: true, resource_properties: true } });
  });

  test("a later create adds a version; a duplicate version answers 409; another type answers 400", async () => {
    await createVersion("simulator", "1.0.0");
    expect((await emu.post(pathOf(areas.apps.create), manifest("simulator", "1.1.0"))).status).toBe(201);
    const dup = await emu.post(pathOf(areas.apps.create), manifest("simulator", "1.1.0"));
    expectErrorBody(dup, 409);
    expect(messages(dup)).toMatch(/simulator.*1\.1\.0/);
    const otherType = await emu.post(pathOf(areas.apps.create), manifest("simulator", "2.0.0", { type: "docker" }));
    expectErrorBody(otherType, 400);
    expect(messages(otherType)).toMatch(/body\.type/);
    expectErrorBody(await emu.get(pathOf(areas.apps.versionGet, { app_name: "simulator", app_version: "2.0.0" })), 404);
    expect((await emu.get(pathOf(areas.apps.get, { app_name: "simulator" }))).body.versions.map((v: Json) => v.version)).toEqual(["1.0.0", "1.1.0"]);
  });

  test("latest_version follows semver order, not creation order", async () => {
    await createVersion("simulator", "1.10.0");
    await createVersion("simulator", "1.9.0");
    await createVersion("simulator", "2.0.0-rc.1");
    expect((await emu.get(pathOf(areas.apps.get, { app_name: "simulator" }))).body.latest_version).toBe("2.0.0-rc.1");
    await createVersion("simulator", "2.0.0");
    await createVersion("simulator", "1.11.0");
    expect((await emu.get(pathOf(areas.apps.get, { app_name: "simulator" }))).body.latest_version).toBe("2.0.0");
  });

  test("bad names, bad semver, unknown enum values and unknown fields answer 400 naming the field", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [manifest("Simulator", "1.0.0"), /body\.name/],
      [manifest("simulator", "1.0"), /body\.version/],
      [manifest("simulator", "1.0.0", { type: "service" }), /body\.type/],
      [manifest("simulator", "1.0.0", { io: [{ name: "t", data_type: "number", way: "sideways" }] }), /body\.io\[0\]\.way/],
      [manifest("simulator", "1.0.0", { colour: "red" }), /colour/],
      [manifest("simulator", "1.0.0", { parameters: [{ name: "speed", data_type: "number", default: "fast" }] }), /body\.parameters\[0\]\.default/],
      [manifest("simulator", "1.0.0", { parameters: [{ name: "speed" }, { name: "speed" }] }), /defined twice/],
    ];
    for (const [body, field] of cases) {
      const a = await emu.post(pathOf(areas.apps.create), body);
      expectErrorBody(a, 400);
      expect(messages(a)).toMatch(field);
    }
    expect((await emu.get(pathOf(areas.apps.list))).body.data).toEqual([]);
  });

  test("an explicit null on an optional manifest field counts as absent", async () => {
    const v = await createVersion("simulator", "1.0.0", { image: null, category: null });
    expect(v).not.toHaveProperty("image");
    expect(v).not.toHaveProperty("category");
  });

  test("only callers holding app.create may create (viewer answers 403)", async () => {
    expectErrorBody(await emu.post(pathOf(areas.apps.create), manifest("simulator", "1.0.0"), { as: "viewer" }), 403);
  });
});

describe("App versions: get, patch, update, delete (spec Apps rules; facts §6.1)", () => {
  const full = {
    image: "registry.local/sim:1",
    schemas: { parameters: { type: "object" }, configuration: { type: "object", properties: { a: { type: "string" } } } },
    defaults: {
      deployment: { max_resources: 5, deployment_type: "standard", target: { type: "cluster", cluster: { name: "plant" } } },
      app: { configuration: { a: "1", b: "2" } },
      system: { replicas: 1 },
    },
  };

  test("get of an unknown app or version answers 404 naming it; a bad semver in the path answers 400", async () => {
    await createVersion("simulator", "1.0.0");
    const noVersion = await emu.get(pathOf(areas.apps.versionGet, { app_name: "simulator", app_version: "9.9.9" }));
    expectErrorBody(noVersion, 404);
    expect(messages(noVersion)).toMatch(/simulator.*9\.9\.9/);
    const noApp = await emu.get(pathOf(areas.apps.versionGet, { app_name: "nothing", app_version: "1.0.0" }));
    expectErrorBody(noApp, 404);
    expect(messages(noApp)).toMatch(/app 'nothing'/);
    const bad = await emu.get(pathOf(areas.apps.versionGet, { app_name: "simulator", app_version: "latest" }));
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/app_version/);
  });

  test("patch: a sent key replaces its whole value, keys not sent keep theirs", async () => {
    await createVersion("simulator", "1.0.0", full);
    const a = await emu.post(pathOf(areas.apps.versionPatch, { app_name: "simulator", app_version: "1.0.0" }), {
      defaults: { deployment: { max_resources: 2 }, app: { configuration: { c: "3" } } },
    });
    expect(a.status).toBe(200);
    expect(a.body.defaults).toEqual({
      deployment: { max_resources: 2, deployment_type: "standard", target: { type: "cluster", cluster: { name: "plant" } } },
      app: { configuration: { c: "3" } },
      system: { replicas: 1 },
    });
    expect(a.body.image).toEqual({ mode: "manual", uri: "registry.local/sim:1" });
    expect(a.body.schemas).toEqual(full.schemas);
    expect(a.body.updated_at >= a.body.created_at).toBe(true);
    expect((await emu.get(pathOf(areas.apps.versionGet, { app_name: "simulator", app_version: "1.0.0" }))).body).toEqual(a.body);
  });

  test("patch: only the listed keys can be patched (others answer 400 and change nothing)", async () => {
    await createVersion("simulator", "1.0.0", full);
    for (const body of [{ title: "New" }, { defaults: { deployment: { replicas: 3 } } }, { schemas: { other: {} } }]) {
      expectErrorBody(await emu.post(pathOf(areas.apps.versionPatch, { app_name: "simulator", app_version: "1.0.0" }), body), 400);
    }
    expect((await emu.get(pathOf(areas.apps.versionGet, { app_name: "simulator", app_version: "1.0.0" }))).body.title).toBe("Title of simulator");
    expectErrorBody(await emu.post(pathOf(areas.apps.versionPatch, { app_name: "simulator", app_version: "2.0.0" }), { image: "x" }), 404);
  });

  test("the image: taken as {mode, uri} or as a string (the earlier form), answered as {mode, uri}; an empty one removes it", async () => {
    await createVersion("simulator", "1.0.0", full);
    const at = { app_name: "simulator", app_version: "1.0.0" };
    const current = await emu.post(pathOf(areas.apps.versionPatch, at), { image: { mode: "manual", uri: "registry.local/sim:2" } });
    expect(current.status).toBe(200);
    expect(current.body.image).toEqual({ mode: "manual", uri: "registry.local/sim:2" });
    expect((await emu.post(pathOf(areas.apps.versionPatch, at), { image: "registry.local/sim:3" })).body.image).toEqual({ mode: "manual", uri: "registry.local/sim:3" });
    expect((await emu.get(pathOf(areas.apps.versionGet, at))).body.image).toEqual({ mode: "manual", uri: "registry.local/sim:3" });
    expectErrorBody(await emu.post(pathOf(areas.apps.versionPatch, at), { image: { mode: "pushed", uri: "x" } }), 400);
    expect((await emu.post(pathOf(areas.apps.versionPatch, at), { image: "" })).body).not.toHaveProperty("image");
  });

  test("update replaces schemas and defaults as a whole", async () => {
    await createVersion("simulator", "1.0.0", full);
    const a = await emu.post(pathOf(areas.apps.versionUpdate, { app_name: "simulator", app_version: "1.0.0" }), { defaults: { system: { replicas: 2 } } });
    expect(a.status).toBe(200);
    expect(a.body.defaults).toEqual({ system: { replicas: 2 } });
    expect(a.body).not.toHaveProperty("schemas");
    expect(a.body.image).toEqual({ mode: "manual", uri: "registry.local/sim:1" });
  });

  test("deleting a version keeps the app and recomputes latest_version", async () => {
    await createVersion("simulator", "1.0.0");
    await createVersion("simulator", "1.2.0");
    const d = await emu.post(pathOf(areas.apps.versionDelete, { app_name: "simulator", app_version: "1.2.0" }));
    expect(d.status).toBe(204);
    expect(d.text).toBe("");
    expectErrorBody(await emu.get(pathOf(areas.apps.versionGet, { app_name: "simulator", app_version: "1.2.0" })), 404);
    expect((await emu.get(pathOf(areas.apps.get, { app_name: "simulator" }))).body.latest_version).toBe("1.0.0");
    await emu.post(pathOf(areas.apps.versionDelete, { app_name: "simulator", app_version: "1.0.0" }));
    expect((await emu.get(pathOf(areas.apps.get, { app_name: "simulator" }))).body).toMatchObject({ name: "simulator", latest_version: null, versions: [] });
    expectErrorBody(await emu.post(pathOf(areas.apps.versionDelete, { app_name: "simulator", app_version: "1.0.0" })), 404);
  });

  test("a version that workloads still run cannot be deleted (400 naming them)", async () => {
    await createVersion("simulator", "1.0.0");
    await createWorkload("sim-1", "simulator", "1.0.0", ["press-1"]);
    const a = await emu.post(pathOf(areas.apps.versionDelete, { app_name: "simulator", app_version: "1.0.0" }));
    expectErrorBody(a, 400);
    expect(messages(a)).toMatch(/sim-1/);
    expect((await emu.get(pathOf(areas.apps.versionGet, { app_name: "simulator", app_version: "1.0.0" }))).status).toBe(200);
  });
});

describe("Apps: get, list, patch, delete (spec Apps; query for GET /apps/list)", () => {
  test("an app's status sums up its workloads: stopped, running, updating (staged), requires attention", async () => {
    await createVersion("sim", "1.0.0");
    await createVersion("sim", "1.1.0");
    const status = async () => {
      const got = (await emu.get(pathOf(areas.apps.get, { app_name: "sim" }))).body;
      const listed = (await emu.get(pathOf(areas.apps.list), { app_names: ["sim"] })).body.data[0];
      expect(listed.status).toBe(got.status);
      expect(got.deployment.status).toBe(got.status);
      return got.status;
    };
    expect(await status()).toBe("stopped");
    await createWorkload("w1", "sim", "1.0.0", ["pump-1"]);
    expect(await status()).toBe("running");
    await emu.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), { app_version: "1.1.0", deployment_type: "staged-only" });
    expect(await status()).toBe("updating");
  });

  test("app patch changes only the sent fields", async () => {
    await createVersion("simulator", "1.0.0", { category: "simulation" });
    const a = await emu.post(pathOf(areas.apps.patch, { app_name: "simulator" }), { title: "Simulator" });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ title: "Simulator", description: "The simulator app", category: "simulation", latest_version: "1.0.0" });
    expect((await emu.get(pathOf(areas.apps.get, { app_name: "simulator" }))).body.title).toBe("Simulator");
    expectErrorBody(await emu.post(pathOf(areas.apps.patch, { app_name: "simulator" }), { name: "other" }), 400);
    expectErrorBody(await emu.post(pathOf(areas.apps.patch, { app_name: "nothing" }), { title: "x" }), 404);
  });

  test("list filters app_names (exact), app_types, search (name and title, case-insensitive)", async () => {
    await createVersion("alpha", "1.0.0", { title: "Line Monitor" });
    await createVersion("beta", "1.0.0", { type: "docker" });
    await createVersion("gamma", "1.0.0", { type: "importer" });
    expect(names(await emu.get(pathOf(areas.apps.list), { app_names: ["beta", "gamma"] }))).toEqual(["beta", "gamma"]);
    expect(names(await emu.get(pathOf(areas.apps.list), { app_types: ["docker", "importer"] }))).toEqual(["beta", "gamma"]);
    expect(names(await emu.get(pathOf(areas.apps.list), { search: ["MONITOR"] }))).toEqual(["alpha"]);
    expect(names(await emu.get(pathOf(areas.apps.list), { search: ["gam", "bet"] }))).toEqual(["beta", "gamma"]);
  });

  test("list filter resources: an app matches when one of its resources is that asset", async () => {
    await createVersion("alpha", "1.0.0");
    await createVersion("beta", "1.0.0");
    await emu.post(pathOf(areas.apps.resourcesEnable, { app_name: "beta" }), { resources: ["krn:asset:press-1"] });
    expect(names(await emu.get(pathOf(areas.apps.list), { resources: ["krn:asset:press-1"] }))).toEqual(["beta"]);
    expect(names(await emu.get(pathOf(areas.apps.list), { resources: ["krn:asset:press-2"] }))).toEqual([]);
  });

  test("list sorts by the spec's keys (default name), latest_version in semver order, and pages by cursor", async () => {
    await createVersion("alpha", "1.10.0", { title: "C" });
    await createVersion("beta", "1.9.0", { title: "A" });
    await createVersion("gamma", "2.0.0", { title: "B" });
    expect(names(await emu.get(pathOf(areas.apps.list)))).toEqual(["alpha", "beta", "gamma"]);
    expect(names(await emu.get(pathOf(areas.apps.list), { sort_by: ["title"] }))).toEqual(["beta", "gamma", "alpha"]);
    expect(names(await emu.get(pathOf(areas.apps.list), { sort_by: ["latest_version"], direction: "desc" }))).toEqual(["gamma", "alpha", "beta"]);
    const p1 = await emu.get(pathOf(areas.apps.list), { page_size: 2 });
    expect(names(p1)).toEqual(["alpha", "beta"]);
    const p2 = await emu.get(pathOf(areas.apps.list), { page_size: 2, next: p1.body.pagination.next_page });
    expect(names(p2)).toEqual(["gamma"]);
    expect(p2.body.pagination.next_page).toBeNull();
  });

  test("list rejects bad filters: name charset, non-asset KRNs, unknown enum values and sort keys", async () => {
    for (const q of [{ app_names: ["Bad Name"] }, { resources: ["krn:user:a@b.c"] }, { app_types: ["service"] }, { sort_by: ["description"] }]) {
      const a = await emu.get(pathOf(areas.apps.list), q);
      expectErrorBody(a, 400);
      expect(messages(a)).toMatch(new RegExp(`query\\.${Object.keys(q)[0]}`));
    }
  });

  test("deleting an app removes its versions, resources and parameter values and definitions", async () => {
    await createVersion("simulator", "1.0.0", { parameters: [{ name: "speed", data_type: "number" }] });
    await createVersion("simulator", "1.1.0");
    await emu.post(pathOf(areas.apps.resourcesEnable, { app_name: "simulator" }), { resources: ["krn:asset:press-1"] });
    await emu.post(pathOf(areas.parameters.valuesUpdate, { app_name: "simulator", app_version: "1.0.0" }), {
      resource_parameters: [{ resource: "krn:asset:press-1", parameters: [{ name: "speed", value: 3 }] }],
    });
    const d = await emu.post(pathOf(areas.apps.delete, { app_name: "simulator" }));
    expect(d.status).toBe(204);
    expectErrorBody(await emu.get(pathOf(areas.apps.get, { app_name: "simulator" })), 404);
    expectErrorBody(await emu.get(pathOf(areas.apps.versionGet, { app_name: "simulator", app_version: "1.1.0" })), 404);
    expectErrorBody(await emu.get(pathOf(areas.apps.resourcesList, { app_name: "simulator" })), 404);
    expect((await emu.post(pathOf(areas.parameters.valuesList), {})).body.data).toEqual([]);
    expect((await emu.post(pathOf(areas.parameters.list), {})).body.data).toEqual([]);
    expect(emu.store.table("app_resources").size).toBe(0);
    expectErrorBody(await emu.post(pathOf(areas.apps.delete, { app_name: "simulator" })), 404);
    // The name is free again.
    expect((await emu.post(pathOf(areas.apps.create), manifest("simulator", "3.0.0", { type: "docker" }))).status).toBe(201);
  });

  test("an app that workloads still run cannot be deleted (400 naming them)", async () => {
    await createVersion("simulator", "1.0.0");
    await createWorkload("sim-1", "simulator", "1.0.0", ["press-1"]);
    const a = await emu.post(pathOf(areas.apps.delete, { app_name: "simulator" }));
    expectErrorBody(a, 400);
    expect(messages(a)).toMatch(/sim-1/);
  });
});

describe("App resources (spec Apps: resources enable/disable/delete/list)", () => {
  const list = (query: Record<string, Json> = {}) => emu.get(pathOf(areas.apps.resourcesList, { app_name: "simulator" }), query);
  const resources = (a: Json) => a.body.data.map((r: Json) => r.resource);

  test("enable binds assets (enabled); disable keeps the binding with enabled=false", async () => {
    await createVersion("simulator", "1.0.0");
    expect((await emu.post(pathOf(areas.apps.resourcesEnable, { app_name: "simulator" }), { resources: ["krn:asset:press-1", "krn:asset:press-2"] })).status).toBe(204);
    expect((await emu.post(pathOf(areas.apps.resourcesDisable, { app_name: "simulator" }), { resources: ["krn:asset:press-2", "krn:asset:press-3"] })).status).toBe(204);
    const a = await list();
    expect(a.body.data).toEqual([
      expect.objectContaining({
        resource: "krn:asset:press-1",
        app_name: "simulator",
        enabled: true,
        app_versions: [],
        workload_names: [],
        created_by: "krn:user:admin@example.com",
      }),
      expect.objectContaining({ resource: "krn:asset:press-2", enabled: false }),
      expect.objectContaining({ resource: "krn:asset:press-3", enabled: false }),
    ]);
    expect(resources(await list({ enabled: true }))).toEqual(["krn:asset:press-1"]);
    expect(resources(await list({ sort_by: ["enabled", "resource"], direction: "desc" }))).toEqual(["krn:asset:press-1", "krn:asset:press-3", "krn:asset:press-2"]);
  });

  test("resources of the app's workloads are listed with their versions and workload names", async () => {
    await createVersion("simulator", "1.0.0");
    await createVersion("simulator", "1.1.0");
    await createWorkload("sim-a", "simulator", "1.0.0", ["press-1", "press-2"]);
    await createWorkload("sim-b", "simulator", "1.1.0", ["press-2"]);
    const a = await list();
    expect(a.body.data).toEqual([
      expect.objectContaining({ resource: "krn:asset:press-1", enabled: true, app_versions: ["1.0.0"], workload_names: ["sim-a"] }),
      expect.objectContaining({ resource: "krn:asset:press-2", enabled: true, app_versions: ["1.0.0", "1.1.0"], workload_names: ["sim-a", "sim-b"] }),
    ]);
    expect(resources(await list({ workload_names: ["sim-b"] }))).toEqual(["krn:asset:press-2"]);
    expect(resources(await list({ app_versions: ["1.0.0"] }))).toEqual(["krn:asset:press-1", "krn:asset:press-2"]);
    const context = await emu.post(pathOf(areas.apps.contextList), { resources: ["krn:asset:press-2"] }, { query: { sort_by: ["source"] } });
    expect(context.body.data.map((e: Json) => e.source)).toEqual(["krn:app:simulator", "krn:workload:sim-a", "krn:workload:sim-b"]);
    expect((await emu.get(pathOf(areas.apps.get, { app_name: "simulator" }))).body.deployment.resource_count.total).toBe(2);
    // Served assets cannot be unbound while a workload serves them.
    const del = await emu.post(pathOf(areas.apps.resourcesDelete, { app_name: "simulator" }), { resources: ["krn:asset:press-2"] });
    expectErrorBody(del, 400);
    expect(messages(del)).toMatch(/sim-a, sim-b/);
  });

  test("delete unbinds: the row goes and so do the asset's parameter values for the app", async () => {
    await createVersion("simulator", "1.0.0", { parameters: [{ name: "speed", data_type: "number" }] });
    await emu.post(pathOf(areas.apps.resourcesEnable, { app_name: "simulator" }), { resources: ["krn:asset:press-1", "krn:asset:press-2"] });
    const set = (resource: string) => ({ resource, parameters: [{ name: "speed", value: 7 }] });
    await emu.post(pathOf(areas.parameters.valuesUpdate, { app_name: "simulator", app_version: "1.0.0" }), {
      resource_parameters: [set("krn:asset:press-1"), set("krn:asset:press-2")],
    });
    expect((await emu.post(pathOf(areas.apps.resourcesDelete, { app_name: "simulator" }), { resources: ["krn:asset:press-1"] })).status).toBe(204);
    expect(resources(await list())).toEqual(["krn:asset:press-2"]);
    const values = await emu.post(pathOf(areas.parameters.valuesList), {});
    expect(values.body.data.map((v: Json) => v.resource)).toEqual(["krn:asset:press-2"]);
    const history = await emu.post(pathOf(areas.parameters.historyList), {});
    expect(history.body.data).toEqual([expect.objectContaining({ resource: "krn:asset:press-1", value: 7, invalidated_by: "krn:user:admin@example.com" })]);
  });

  test("errors: unknown app 404, unbound resource 404 naming it, non-asset KRN 400, empty list 400", async () => {
    await createVersion("simulator", "1.0.0");
    expectErrorBody(await emu.post(pathOf(areas.apps.resourcesEnable, { app_name: "nothing" }), { resources: ["krn:asset:press-1"] }), 404);
    expectErrorBody(await emu.get(pathOf(areas.apps.resourcesList, { app_name: "nothing" })), 404);
    const unbound = await emu.post(pathOf(areas.apps.resourcesDelete, { app_name: "simulator" }), { resources: ["krn:asset:press-9"] });
    expectErrorBody(unbound, 404);
    expect(messages(unbound)).toMatch(/press-9/);
    const badKrn = await emu.post(pathOf(areas.apps.resourcesEnable, { app_name: "simulator" }), { resources: ["krn:user:a@b.c"] });
    expectErrorBody(badKrn, 400);
    expect(messages(badKrn)).toMatch(/body\.resources\[0\]/);
    expectErrorBody(await emu.post(pathOf(areas.apps.resourcesDisable, { app_name: "simulator" }), { resources: [] }), 400);
    expectErrorBody(await list({ enabled: "maybe" }), 400);
  });

  test("list search matches the resource KRN (case-insensitive) and filter resources is exact", async () => {
    await createVersion("simulator", "1.0.0");
    await emu.post(pathOf(areas.apps.resourcesEnable, { app_name: "simulator" }), { resources: ["krn:asset:press-1", "krn:asset:oven-1"] });
    expect(resources(await list({ search: ["PRESS"] }))).toEqual(["krn:asset:press-1"]);
    expect(resources(await list({ resources: ["krn:asset:oven-1"] }))).toEqual(["krn:asset:oven-1"]);
  });
});

describe("App context list (spec Apps: POST /apps/context/list)", () => {
  test("entries pair each resource with its sources; filters resources/sources; sort_by resource or source", async () => {
    await createVersion("alpha", "1.0.0");
    await createVersion("beta", "1.0.0");
    await emu.post(pathOf(areas.apps.resourcesEnable, { app_name: "alpha" }), { resources: ["krn:asset:press-2"] });
    await emu.post(pathOf(areas.apps.resourcesEnable, { app_name: "beta" }), { resources: ["krn:asset:press-1", "krn:asset:press-2"] });
    const all = await emu.post(pathOf(areas.apps.contextList));
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([
      { resource: "krn:asset:press-1", source: "krn:app:beta" },
      { resource: "krn:asset:press-2", source: "krn:app:alpha" },
      { resource: "krn:asset:press-2", source: "krn:app:beta" },
    ]);
    const byResource = await emu.post(pathOf(areas.apps.contextList), { resources: ["krn:asset:press-2"] });
    expect(byResource.body.data.map((e: Json) => e.source)).toEqual(["krn:app:alpha", "krn:app:beta"]);
    const bySource = await emu.post(pathOf(areas.apps.contextList), { sources: ["krn:app:beta"] }, { query: { sort_by: ["source", "resource"], direction: "desc" } });
    expect(bySource.body.data.map((e: Json) => e.resource)).toEqual(["krn:asset:press-2", "krn:asset:press-1"]);
    expectErrorBody(await emu.post(pathOf(areas.apps.contextList), {}, { query: { sort_by: ["app_name"] } }), 400);
    expectErrorBody(await emu.post(pathOf(areas.apps.contextList), { resources: ["press-1"] }), 400);
  });
});
