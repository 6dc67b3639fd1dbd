import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf } from "../helpers/emulator";

const emu = useEmulator();
beforeEach(async () => {
  await emu.post(pathOf(areas.assets.typeCreate), { name: "pump", title: "Pump" });
  await emu.post(pathOf(areas.assets.typeCreate), { name: "valve", title: "Valve" });
  const assets = [
    { name: "pump-1", title: "Main Pump", asset_type_name: "pump", properties: [{ name: "serial", value: "SN-100" }] },
    { name: "pump-2", title: "Spare Pump", asset_type_name: "pump", properties: [{ name: "serial", value: "SN-200" }] },
    { name: "valve-1", title: "Inlet", asset_type_name: "valve" },
  ];
  for (const a of assets) expect((await emu.post(pathOf(areas.assets.create), a)).status).toBe(201);
  await emu.post(pathOf(areas.clusters.create), { name: "plant-a" });
  await emu.post(pathOf(areas.apps.create), {
    name: "sim",
    title: "Sim",
    description: "d",
    type: "app",
    version: "1.0.0",
    parameters: [{ name: "speed", data_type: "number", default: 1 }],
  });
  await emu.post(pathOf(areas.apps.deploy, { app_name: "sim", app_version: "1.0.0" }), {
    runtime: {
      resources: [
        { resource: "krn:asset:pump-1", parameters: { speed: 5 } },
        { resource: "krn:asset:pump-2", parameters: { speed: 12 } },
      ],
    },
    deployment: { target: { cluster: { name: "plant-a" } } },
  });
});

const insights = (body?: unknown, query?: Record<string, number | string>) => emu.call("POST", pathOf(areas.insights.get), { body, query });
const names = (a: { body: { data: Array<{ name: string }> } }) => a.body.data.map((i) => i.name);

describe("Asset insights (POST /asset-insights/get; facts §3.7, §4.5, §6.7)", () => {
  test("answers every asset in a cursor page with the item fields (page_size defaults to 10000)", async () => {
    const a = await insights();
    expect(a.status).toBe(200);
    expect(a.body.pagination).toEqual({ next_page: null, previous_page: null });
    expect(a.body.data[0]).toEqual({
      name: "pump-1",
      title: "Main Pump",
      asset_type_name: "pump",
      asset_type_title: "Pump",
      state: "unknown",
      last_seen: null,
      pinned: false,
      extra_fields: {},
    });
  });

  test("page and page_size cut pages of the sorted result in the limits shape", async () => {
    const p2 = await insights({}, { pagination_type: "limits", page_size: 2, page: 2 });
    expect(p2.headers.get("content-type")).toMatch(/^application\/x-json-limits/);
    expect(names(p2)).toEqual(["valve-1"]);
    expect(p2.body.pagination).toEqual({ page: 2, total_pages: 2, total_items: 3 });
    expectErrorBody(await insights({}, { page_size: 10001 }), 400);
  });

  test("cursor pages follow the body's order: next, then previous, return the same items", async () => {
    const order = { sort_by: [{ field: "title", direction: "desc" }] };
    const all = names(await insights(order));
    const p1 = await insights(order, { page_size: 2 });
    expect(names(p1)).toEqual(all.slice(0, 2));
    const p2 = await insights(order, { page_size: 2, next: p1.body.pagination.next_page });
    expect(names(p2)).toEqual(all.slice(2));
    expect(p2.body.pagination.next_page).toBeNull();
    expect(names(await insights(order, { page_size: 2, previous: p2.body.pagination.previous_page }))).toEqual(all.slice(0, 2));
  });

  test("filters: asset_names, asset_types, asset_states, search (name or title, case-insensitive)", async () => {
    expect(names(await insights({ asset_names: ["pump-2", "valve-1"] }))).toEqual(["pump-2", "valve-1"]);
    expect(names(await insights({ asset_types: ["valve"] }))).toEqual(["valve-1"]);
    expect(names(await insights({ asset_states: ["online"] }))).toEqual([]);
    expect(names(await insights({ asset_states: ["unknown"] }))).toHaveLength(3);
    expect(names(await insights({ search: ["SPARE", "inlet"] }))).toEqual(["pump-2", "valve-1"]);
    expectErrorBody(await insights({ asset_states: ["sleeping"] }), 400);
    expectErrorBody(await insights({ asset_names: [""] }), 400);
  });

  test("pinned assets are marked pinned and come first", async () => {
    const a = await insights({ pinned_assets: ["valve-1"] });
    expect(names(a)).toEqual(["valve-1", "pump-1", "pump-2"]);
    expect(a.body.data[0].pinned).toBe(true);
  });

  test("extra_fields columns: apps from workloads' resources, parameters from parameter values, asset properties", async () => {
    const a = await insights({ asset_names: ["pump-1", "valve-1"], extra_fields: { apps: {}, parameters: {}, asset_properties: {}, recommendations: {} } });
    expect(a.body.data[0].extra_fields).toEqual({
      apps: [{ app_name: "sim", app_version: "1.0.0", workload_name: "sim-1-0-0-1", status: "running" }],
      parameters: { sim: { speed: 5 } },
      asset_properties: { serial: "SN-100" },
      recommendations: [],
    });
    expect(a.body.data[1].extra_fields).toEqual({ apps: [], parameters: {}, asset_properties: {}, recommendations: [] });
  });

  test("parameters_schedule lists the asset's schedules still to run", async () => {
    const at = new Date(Date.now() + 3600_000).toISOString();
    const s = await emu.post(pathOf(areas.schedules.create), {
      app_name: "sim",
      app_version: "1.0.0",
      scheduled_for: at,
      resources: ["krn:asset:pump-2"],
      parameters: { speed: 3 },
    });
    expect(s.status).toBe(201);
    const a = await insights({ asset_names: ["pump-2"], extra_fields: { parameters_schedule: {} } });
    expect(a.body.data[0].extra_fields.parameters_schedule).toEqual([expect.objectContaining({ id: s.body.id, app_name: "sim", state: "scheduled", type: "permanent" })]);
  });

  test("column filters with the operators of facts §5: numbers compare as numbers; !op negates", async () => {
    const q = (field: string, operator: string, value?: unknown, column = "parameters") => insights({ extra_fields: { [column]: { filters: [{ field, operator, value }] } } });
    expect(names(await q("sim.speed", ">", 6))).toEqual(["pump-2"]);
    expect(names(await q("sim.speed", "<=", 5))).toEqual(["pump-1"]);
    expect(names(await q("sim.speed", "==", 12))).toEqual(["pump-2"]);
    expect(names(await q("sim.speed", "!=", 12))).toEqual(["pump-1", "valve-1"]);
    expect(names(await q("sim.speed", "has"))).toEqual(["pump-1", "pump-2"]);
    expect(names(await q("sim.speed", "!has"))).toEqual(["valve-1"]);
    expect(names(await q("serial", "starts_with", "sn-2", "asset_properties"))).toEqual(["pump-2"]);
    expect(names(await q("serial", "!contains", "100", "asset_properties"))).toEqual(["pump-2", "valve-1"]);
    expect(names(await q("serial", "ends_with", "00", "asset_properties"))).toEqual(["pump-1", "pump-2"]);
    expect(names(await q("app_name", "==", "sim", "apps"))).toEqual(["pump-1", "pump-2"]);
    const missing = await q("sim.speed", ">");
    expectErrorBody(missing, 400);
    expect(messages(missing)).toMatch(/body\.extra_fields\.parameters\.filters\[0\]\.value/);
    expectErrorBody(await q("sim.speed", "~=", 1), 400);
  });

  test("sort_by: item fields (default name asc) and extra fields; unknown fields are 400", async () => {
    expect(names(await insights({ sort_by: [{ field: "title", direction: "desc" }] }))).toEqual(["pump-2", "pump-1", "valve-1"]);
    expect(
      names(
        await insights({
          sort_by: [
            { field: "asset_type_name", direction: "desc" },
            { field: "name", direction: "desc" },
          ],
        }),
      ),
    ).toEqual(["valve-1", "pump-2", "pump-1"]);
    const byExtra = await insights({ extra_fields: { parameters: {} }, sort_by: [{ field: "parameters.sim.speed", direction: "desc", sort_by_extra_field: true }] });
    expect(names(byExtra)).toEqual(["pump-2", "pump-1", "valve-1"]);
    const bad = await insights({ sort_by: [{ field: "colour" }] });
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/body\.sort_by\[0\]\.field/);
    expectErrorBody(await insights({ sort_by: [{ field: "apps.app_name", sort_by_extra_field: true }] }), 400);
  });

  test("needs asset_insights.read: viewers may read; no token is 401; unknown body fields are 400", async () => {
    expect((await emu.post(pathOf(areas.insights.get), {}, { as: "viewer" })).status).toBe(200);
    expectErrorBody(await emu.post(pathOf(areas.insights.get), {}, { as: "none" }), 401);
    expectErrorBody(await insights({ colour: "red" }), 400);
    expectErrorBody(await insights({ extra_fields: { weather: {} } }), 400);
  });
});
