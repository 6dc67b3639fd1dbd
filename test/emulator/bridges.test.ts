import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf } from "../helpers/emulator";

const emu = useEmulator();

const metricsMap = [
  { name: "temperature", asset_name: "pump-1", data_type: "number", configuration: { address: "ns=2;s=T1" } },
  { name: "running", asset_name: "pump-1", data_type: "boolean", access: "RW" },
  { name: "speed", asset_name: "pump-2" },
  { name: "pressure", asset_name: "ghost-asset" },
];

const deployBody = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  cluster_name: "plant-a",
  app_name: "opcua-bridge",
  payload: { protocol: "opcua", configuration: { url: "opc.tcp://plc:4840" }, metrics_map: metricsMap },
  ...extra,
});
const deploy = (name: string, extra: Record<string, unknown> = {}) => emu.post(pathOf(areas.bridges.deploy), deployBody(name, extra));

const names = (a: { body: { data: Array<{ name: string }> } }) => a.body.data.map((x) => x.name);

beforeEach(async () => {
  await emu.post(pathOf(areas.clusters.create), { name: "plant-a" });
  await emu.post(pathOf(areas.clusters.create), { name: "plant-b" });
  await emu.post(pathOf(areas.appregistry.create), { payload: { name: "opcua-bridge", version: "1.2.0", type: "bridge" } });
});

describe("POST /bridges/deploy (BridgeDeploy)", () => {
  test("answers 201 with the bridge: acp_name mirrors cluster_name, workload_name is the bridge name, enabled and running", async () => {
    const a = await deploy("line-1-opcua", { title: "Line 1 OPC UA", node_name: "node-1" });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      name: "line-1-opcua",
      title: "Line 1 OPC UA",
      protocol: "opcua",
      cluster_name: "plant-a",
      acp_name: "plant-a",
      node_name: "node-1",
      workload_name: "line-1-opcua",
      app_name: "opcua-bridge",
      app_version: "1.2.0",
      enabled: true,
      status: { state: "running" },
      payload: { protocol: "opcua", configuration: { url: "opc.tcp://plc:4840" } },
    });
    expect(a.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  test("deploy creates the bridge's workload on the cluster, running the bridge app", async () => {
    await deploy("line-1-opcua");
    const w = await emu.get(pathOf(areas.workloads.get, { workload_name: "line-1-opcua" }));
    expect(w.status).toBe(200);
    expect(w.body).toMatchObject({ name: "line-1-opcua", app_name: "opcua-bridge", app_version: "1.2.0", cluster_name: "plant-a" });
  });

  test("without app_version the app's latest registry version runs; an unknown app then needs app_version (400)", async () => {
    await emu.post(pathOf(areas.appregistry.create), { payload: { name: "opcua-bridge", version: "1.10.0", type: "bridge" } });
    expect((await deploy("b1")).body.app_version).toBe("1.10.0");
    expect((await deploy("b2", { app_version: "1.2.0" })).body.app_version).toBe("1.2.0");
    const unknown = await deploy("b3", { app_name: "unknown-app" });
    expectErrorBody(unknown, 400);
    expect(messages(unknown)).toMatch(/body\.app_version: is required/);
    expect((await deploy("b4", { app_name: "unknown-app", app_version: "0.1.0" })).status).toBe(201);
  });

  test("an app known only to the apps area runs its latest version there", async () => {
    expect((await emu.post(pathOf(areas.apps.create), { name: "simulator", title: "Simulator", description: "Simulates", type: "importer", version: "2.1.0" })).status).toBe(201);
    expect((await deploy("b1", { app_name: "simulator" })).body.app_version).toBe("2.1.0");
  });

  test("protocol: the sent one wins over the payload's", async () => {
    expect((await deploy("b1", { protocol: "modbus" })).body.protocol).toBe("modbus");
  });

  test("a duplicate bridge name answers 409; a name taken by a workload answers 409 too, and nothing is created", async () => {
    await deploy("b1");
    expectErrorBody(await deploy("b1"), 409);
    expect((await emu.post(pathOf(areas.apps.create), { name: "simulator", title: "Simulator", description: "Simulates", type: "app", version: "1.0.0" })).status).toBe(201);
    const w = await emu.post(pathOf(areas.workloads.create), { name: "taken", app_name: "simulator", app_version: "1.0.0", cluster_name: "plant-a" });
    expect(w.status).toBe(201);
    expectErrorBody(await deploy("taken"), 409);
    expect(emu.store.table("bridges").has("taken")).toBe(false);
  });

  test("an unknown cluster answers 404 and leaves neither bridge nor workload", async () => {
    expectErrorBody(await deploy("b1", { cluster_name: "nowhere" }), 404);
    expect(emu.store.table("bridges").size).toBe(0);
    expect(emu.store.table("workloads").size).toBe(0);
  });

  test("validation: name of at most 32 characters, payload required, metrics_map entries checked and unique (400 naming the field)", async () => {
    const long = await deploy("b".repeat(33));
    expectErrorBody(long, 400);
    expect(messages(long)).toMatch(/body\.name: must be at most 32/);
    const noPayload = await emu.post(pathOf(areas.bridges.deploy), { name: "b1", cluster_name: "plant-a", app_name: "opcua-bridge" });
    expect(messages(noPayload)).toMatch(/body\.payload/);
    const badType = await deploy("b1", { payload: { metrics_map: [{ name: "t", asset_name: "pump-1", data_type: "float" }] } });
    expect(messages(badType)).toMatch(/body\.payload\.metrics_map\[0\]\.data_type/);
    const twice = await deploy("b1", {
      payload: {
        metrics_map: [
          { name: "t", asset_name: "p" },
          { name: "t", asset_name: "p" },
        ],
      },
    });
    expect(messages(twice)).toMatch(/body\.payload\.metrics_map\[1\]: metric 't' of asset 'p' is mapped twice/);
    expectErrorBody(await emu.post(pathOf(areas.bridges.deploy), { ...deployBody("b1"), enabled: true }), 400);
    expect(emu.store.table("bridges").size).toBe(0);
  });

  test("the viewer may not deploy (403)", async () => {
    expectErrorBody(await emu.post(pathOf(areas.bridges.deploy), deployBody("b1"), { as: "viewer" }), 403);
  });
});

describe("GET /bridges/list", () => {
  beforeEach(async () => {
    await deploy("alpha", { title: "Press OPC UA" });
    await deploy("beta", { title: "Paint Modbus", protocol: "modbus", cluster_name: "plant-b" });
    await deploy("gamma", { title: "Press MQTT", protocol: "mqtt" });
  });

  test("items are the bridge fields without payload", async () => {
    const a = await emu.get(pathOf(areas.bridges.list));
    expect(a.status).toBe(200);
    expect(a.body.data[0]).not.toHaveProperty("payload");
    expect(a.body.data[0]).toMatchObject({ name: "alpha", acp_name: "plant-a", workload_name: "alpha", status: { state: "running" } });
  });

  test("filters: names[], search[] (name or title), acp_name[], protocol[], workload_name[], status_state[]", async () => {
    expect(names(await emu.get(pathOf(areas.bridges.list), { names: ["alpha", "beta"] }))).toEqual(["alpha", "beta"]);
    expect(names(await emu.get(pathOf(areas.bridges.list), { search: ["press"] }))).toEqual(["alpha", "gamma"]);
    expect(names(await emu.get(pathOf(areas.bridges.list), { acp_name: ["plant-b"] }))).toEqual(["beta"]);
    expect(names(await emu.get(pathOf(areas.bridges.list), { protocol: ["opcua", "mqtt"] }))).toEqual(["alpha", "gamma"]);
    expect(names(await emu.get(pathOf(areas.bridges.list), { workload_name: ["gamma"] }))).toEqual(["gamma"]);
    expect(names(await emu.get(pathOf(areas.bridges.list), { status_state: ["stopped"] }))).toEqual([]);
    expect(names(await emu.get(pathOf(areas.bridges.list), { status_state: ["running"] }))).toEqual(["alpha", "beta", "gamma"]);
  });

  test("a bridge shows its workload's state: stopping the workload shows on the bridge", async () => {
    const stop = await emu.post(pathOf(areas.workloads.stop), { workload_names: ["beta"] });
    expect(stop.status).toBeLessThan(300);
    expect(names(await emu.get(pathOf(areas.bridges.list), { status_state: ["stopped"] }))).toEqual(["beta"]);
    expect((await emu.get(pathOf(areas.bridges.get, { bridge_name: "beta" }))).body).toMatchObject({ enabled: false, status: { state: "stopped" } });
  });

  test("sortable: bridge.name, .title, .protocol, .acp_name, .workload_name, .created, .updated, status_state, status_last_seen", async () => {
    expect(names(await emu.get(pathOf(areas.bridges.list), { sort_by: "bridge.title" }))).toEqual(["beta", "gamma", "alpha"]);
    expect(names(await emu.get(pathOf(areas.bridges.list), { sort_by: "bridge.protocol", sort_asc: false }))).toEqual(["alpha", "gamma", "beta"]);
    expect(names(await emu.get(pathOf(areas.bridges.list), { sort_by: "bridge.acp_name", sort_asc: false }))).toEqual(["beta", "gamma", "alpha"]);
    for (const s of ["bridge.name", "bridge.workload_name", "bridge.created", "bridge.updated", "status_state", "status_last_seen"]) {
      expect((await emu.get(pathOf(areas.bridges.list), { sort_by: s })).status).toBe(200);
    }
    expectErrorBody(await emu.get(pathOf(areas.bridges.list), { sort_by: "bridge.app_name" }), 400);
  });

  test("page_size with starting_after / ending_before", async () => {
    const p1 = await emu.get(pathOf(areas.bridges.list), { page_size: 2 });
    expect(names(p1)).toEqual(["alpha", "beta"]);
    const p2 = await emu.get(pathOf(areas.bridges.list), { page_size: 2, starting_after: p1.body.pagination.next_page });
    expect(names(p2)).toEqual(["gamma"]);
    expect(names(await emu.get(pathOf(areas.bridges.list), { page_size: 2, ending_before: p2.body.pagination.previous_page }))).toEqual(["alpha", "beta"]);
  });
});

describe("GET /bridges/{bridge_name}/get and POST …/delete", () => {
  test("get answers the bridge with its payload; an unknown bridge answers 404", async () => {
    await deploy("b1");
    expect((await emu.get(pathOf(areas.bridges.get, { bridge_name: "b1" }))).body.payload.metrics_map).toHaveLength(4);
    expectErrorBody(await emu.get(pathOf(areas.bridges.get, { bridge_name: "nope" })), 404);
  });

  test("delete answers 200 with an empty body and removes the bridge and its workload", async () => {
    await deploy("b1");
    const d = await emu.post(pathOf(areas.bridges.delete, { bridge_name: "b1" }));
    expect(d.status).toBe(200);
    expect(d.text).toBe("");
    expectErrorBody(await emu.get(pathOf(areas.bridges.get, { bridge_name: "b1" })), 404);
    expectErrorBody(await emu.get(pathOf(areas.workloads.get, { workload_name: "b1" })), 404);
    expectErrorBody(await emu.post(pathOf(areas.bridges.delete, { bridge_name: "b1" })), 404);
  });

  test("delete still works when the workload was removed on its own", async () => {
    await deploy("b1");
    await emu.post(pathOf(areas.workloads.delete), { workload_names: ["b1"] });
    expect((await emu.post(pathOf(areas.bridges.delete, { bridge_name: "b1" }))).status).toBe(200);
    expect(emu.store.table("bridges").size).toBe(0);
  });

  test("the viewer may read but not delete (403)", async () => {
    await deploy("b1");
    expect((await emu.get(pathOf(areas.bridges.get, { bridge_name: "b1" }), undefined, { as: "viewer" })).status).toBe(200);
    expectErrorBody(await emu.post(pathOf(areas.bridges.delete, { bridge_name: "b1" }), undefined, { as: "viewer" }), 403);
  });
});

describe("GET /bridges/{bridge_name}/assets/list (the assets named in the payload's metrics_map)", () => {
  beforeEach(async () => {
    await emu.post(pathOf(areas.assets.typeCreate), { name: "pump", title: "Pump" });
    await emu.post(pathOf(areas.assets.typeCreate), { name: "motor", title: "Motor" });
    await emu.post(pathOf(areas.assets.create), { name: "pump-1", title: "Zulu pump", asset_type_name: "pump" });
    await emu.post(pathOf(areas.assets.create), { name: "pump-2", title: "Alpha pump", asset_type_name: "motor" });
    await emu.post(pathOf(areas.assets.create), { name: "pump-3", title: "Not served", asset_type_name: "pump" });
  });

  test("lists each served asset once, from the asset records; names without an asset are left out", async () => {
    await deploy("b1");
    const a = await emu.get(pathOf(areas.bridges.assetsList, { bridge_name: "b1" }));
    expect(a.status).toBe(200);
    expect(names(a)).toEqual(["pump-1", "pump-2"]);
    expect(a.body.data[0]).toMatchObject({ name: "pump-1", title: "Zulu pump", asset_type_name: "pump", asset_type_title: "Pump" });
  });

  test("sortable: asset.name, asset.title, asset.created, asset.updated, asset_type.title", async () => {
    await deploy("b1");
    expect(names(await emu.get(pathOf(areas.bridges.assetsList, { bridge_name: "b1" }), { sort_by: "asset.title" }))).toEqual(["pump-2", "pump-1"]);
    expect(names(await emu.get(pathOf(areas.bridges.assetsList, { bridge_name: "b1" }), { sort_by: "asset_type.title", sort_asc: false }))).toEqual(["pump-1", "pump-2"]);
    for (const s of ["asset.created", "asset.updated"]) expect((await emu.get(pathOf(areas.bridges.assetsList, { bridge_name: "b1" }), { sort_by: s })).status).toBe(200);
    expectErrorBody(await emu.get(pathOf(areas.bridges.assetsList, { bridge_name: "b1" }), { sort_by: "asset.type" }), 400);
    expect(names(await emu.get(pathOf(areas.bridges.assetsList, { bridge_name: "b1" }), { page_size: 1 }))).toEqual(["pump-1"]);
  });

  test("a bridge without metrics_map serves no assets; an unknown bridge answers 404", async () => {
    await deploy("b1", { payload: { protocol: "opcua" } });
    expect((await emu.get(pathOf(areas.bridges.assetsList, { bridge_name: "b1" }))).body.data).toEqual([]);
    expectErrorBody(await emu.get(pathOf(areas.bridges.assetsList, { bridge_name: "nope" })), 404);
  });
});

describe("GET /bridges/{bridge_name}/datastreams/list (path not in the spec; asset_name[], metric_name[])", () => {
  test("one data stream per metrics_map entry, with data_type [number] and access [RO] filled in", async () => {
    await deploy("b1");
    const a = await emu.get(pathOf(areas.bridges.dataStreamsList, { bridge_name: "b1" }));
    expect(a.status).toBe(200);
    expect(a.body.data).toEqual([
      { bridge_name: "b1", asset_name: "ghost-asset", name: "pressure", data_type: "number", access: "RO", configuration: {} },
      { bridge_name: "b1", asset_name: "pump-1", name: "running", data_type: "boolean", access: "RW", configuration: {} },
      { bridge_name: "b1", asset_name: "pump-1", name: "temperature", data_type: "number", access: "RO", configuration: { address: "ns=2;s=T1" } },
      { bridge_name: "b1", asset_name: "pump-2", name: "speed", data_type: "number", access: "RO", configuration: {} },
    ]);
  });

  test("asset_name[] and metric_name[] filter; sortable datastream.asset_name, datastream.name, datastream.data_type", async () => {
    await deploy("b1");
    const byAsset = await emu.get(pathOf(areas.bridges.dataStreamsList, { bridge_name: "b1" }), { asset_name: ["pump-1"], sort_by: "datastream.name", sort_asc: false });
    expect(names(byAsset)).toEqual(["temperature", "running"]);
    expect(names(await emu.get(pathOf(areas.bridges.dataStreamsList, { bridge_name: "b1" }), { metric_name: ["speed", "pressure"], sort_by: "datastream.name" }))).toEqual([
      "pressure",
      "speed",
    ]);
    expect(names(await emu.get(pathOf(areas.bridges.dataStreamsList, { bridge_name: "b1" }), { sort_by: "datastream.data_type" }))[0]).toBe("running");
    const p1 = await emu.get(pathOf(areas.bridges.dataStreamsList, { bridge_name: "b1" }), { page_size: 3 });
    const p2 = await emu.get(pathOf(areas.bridges.dataStreamsList, { bridge_name: "b1" }), { page_size: 3, starting_after: p1.body.pagination.next_page });
    expect(names(p2)).toEqual(["speed"]);
    expectErrorBody(await emu.get(pathOf(areas.bridges.dataStreamsList, { bridge_name: "b1" }), { sort_by: "datastream.access" }), 400);
    expectErrorBody(await emu.get(pathOf(areas.bridges.dataStreamsList, { bridge_name: "b1" }), { metric: ["x"] }), 400);
  });

  test("an unknown bridge answers 404; the viewer may read (bridge.read)", async () => {
    expectErrorBody(await emu.get(pathOf(areas.bridges.dataStreamsList, { bridge_name: "nope" })), 404);
    await deploy("b1");
    expect((await emu.get(pathOf(areas.bridges.dataStreamsList, { bridge_name: "b1" }), undefined, { as: "viewer" })).status).toBe(200);
  });
});
