import { registerAcp } from "../../src/emulator/areas/acps/model";
import type { AcpRegistration } from "../../src/api/acps";
import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf, type Json } from "../helpers/emulator";

const emu = useEmulator();

const NOW = () => new Date().toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

/**
 * The API has no ACP create: compute nodes register themselves. This is the one place these tests
 * put data in without HTTP, through the same registration the fixture loader uses.
 */
function seed(input: AcpRegistration, now = NOW()) {
  return emu.store.transaction(() => registerAcp(emu.store, input, now)).result;
}

const names = (a: { body: { data: Array<{ name: string }> } }) => a.body.data.map((x) => x.name);

describe("Compute node registration (no create in the API)", () => {
  test("a registered node is read back with the platform's defaults filled in", async () => {
    seed({ name: "edge-1", title: "Edge 1" });
    const a = await emu.get(pathOf(areas.acps.get, { acp_name: "edge-1" }));
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      name: "edge-1",
      title: "Edge 1",
      cluster_name: "edge-1",
      node_name: "edge-1",
      metadata: {},
      manifests_scrape_enabled: true,
      metrics_enabled: true,
      status_scrape_enabled: true,
      status_scrape_interval: 30,
    });
    expect(a.body).not.toHaveProperty("status");
    expect(a.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  test("registration input is validated like a request (400 naming the field)", () => {
    expect(() => seed({ name: "Bad Name" })).toThrow(/acp\.name/);
  });
});

describe("GET /acps/list", () => {
  beforeEach(() => {
    seed({ name: "a-node", title: "Press line", status: { state: "online" } });
    seed({ name: "b-node", title: "Paint shop", status: { state: "offline" } });
    seed({ name: "c-node", title: "Press backup", status: { state: "warning" } });
  });

  test("names[] and search[] (name or title, partial, case-insensitive) filter", async () => {
    expect(names(await emu.get(pathOf(areas.acps.list), { names: ["a-node", "c-node"] }))).toEqual(["a-node", "c-node"]);
    expect(names(await emu.get(pathOf(areas.acps.list), { search: ["PRESS"] }))).toEqual(["a-node", "c-node"]);
    expect(names(await emu.get(pathOf(areas.acps.list), { search: ["b-no"] }))).toEqual(["b-node"]);
  });

  test("connected filters on the online status (online, connected and warning count as online)", async () => {
    expect(names(await emu.get(pathOf(areas.acps.list), { connected: true }))).toEqual(["a-node", "c-node"]);
    expect(names(await emu.get(pathOf(areas.acps.list), { connected: false }))).toEqual(["b-node"]);
    expectErrorBody(await emu.get(pathOf(areas.acps.list), { connected: "maybe" }), 400);
  });

  test("metadata[] injects the named metadata records into each item's metadata object", async () => {
    await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "a-node" }), { name: "site", payload: { plant: "north" } });
    await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "a-node" }), { name: "owner", payload: { team: "ops" } });
    const a = await emu.get(pathOf(areas.acps.list), { metadata: ["site"] });
    expect(a.body.data[0].metadata).toEqual({ site: { plant: "north" } });
    expect(a.body.data[1].metadata).toEqual({});
  });

  test("metadata_filter[]: OR within one metadata name, AND across names", async () => {
    await emu.post(pathOf(areas.acps.metadataBulkCreate), [
      { acp_name: "a-node", name: "site", payload: { plant: "north" } },
      { acp_name: "b-node", name: "site", payload: { plant: "south" } },
      { acp_name: "c-node", name: "site", payload: { plant: "east" } },
      { acp_name: "a-node", name: "owner", payload: { team: "ops" } },
      { acp_name: "b-node", name: "owner", payload: { team: "it" } },
    ]);
    const or = await emu.get(pathOf(areas.acps.list), { metadata_filter: ["site.plant=north", "site.plant=south"] });
    expect(names(or)).toEqual(["a-node", "b-node"]);
    const and = await emu.get(pathOf(areas.acps.list), { metadata_filter: ["site.plant=north", "site.plant=south", "owner.team=it"] });
    expect(names(and)).toEqual(["b-node"]);
    const bad = await emu.get(pathOf(areas.acps.list), { metadata_filter: ["site-plant"] });
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/metadata_filter/);
  });

  test("sortable: acp.name, acp.title, acp.created, acp.updated, status_state, status_last_seen; others answer 400", async () => {
    expect(names(await emu.get(pathOf(areas.acps.list), { sort_by: "acp.title" }))).toEqual(["b-node", "c-node", "a-node"]);
    expect(names(await emu.get(pathOf(areas.acps.list), { sort_by: "status_state", sort_asc: false }))).toEqual(["c-node", "a-node", "b-node"]);
    for (const s of ["acp.created", "acp.updated", "status_last_seen"]) {
      expect((await emu.get(pathOf(areas.acps.list), { sort_by: s })).status).toBe(200);
    }
    const bad = await emu.get(pathOf(areas.acps.list), { sort_by: "acp.cluster_name" });
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/sort_by/);
  });

  test("page_size and starting_after / ending_before walk the pages", async () => {
    const p1 = await emu.get(pathOf(areas.acps.list), { page_size: 2 });
    expect(names(p1)).toEqual(["a-node", "b-node"]);
    const p2 = await emu.get(pathOf(areas.acps.list), { page_size: 2, starting_after: p1.body.pagination.next_page });
    expect(names(p2)).toEqual(["c-node"]);
    expect(p2.body.pagination.next_page).toBeNull();
    const back = await emu.get(pathOf(areas.acps.list), { page_size: 2, ending_before: p2.body.pagination.previous_page });
    expect(names(back)).toEqual(["a-node", "b-node"]);
    expectErrorBody(await emu.get(pathOf(areas.acps.list), { page_size: 0 }), 400);
  });
});

describe("GET /acps/{acp_name}/get", () => {
  test("metadata[] injects the named records; unknown names are left out", async () => {
    seed({ name: "edge-1" });
    await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "edge-1" }), { name: "site", payload: { plant: "north" } });
    const a = await emu.get(pathOf(areas.acps.get, { acp_name: "edge-1" }), { metadata: ["site", "nothing"] });
    expect(a.body.metadata).toEqual({ site: { plant: "north" } });
  });

  test("an unknown ACP answers 404", async () => {
    expectErrorBody(await emu.get(pathOf(areas.acps.get, { acp_name: "nope" })), 404);
  });
});

describe("POST /acps/{acp_name}/update (ACPUpdate: title, location, scrape and metrics settings)", () => {
  test("changes only the sent fields and answers the record", async () => {
    seed({ name: "edge-1", title: "Edge 1" });
    const a = await emu.post(pathOf(areas.acps.update, { acp_name: "edge-1" }), { location: { lat: 48.1, lon: 11.5 }, metrics_scrape_interval: 120 });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ title: "Edge 1", location: { lat: 48.1, lon: 11.5 }, metrics_scrape_interval: 120, metrics_enabled: true });
    expect((await emu.get(pathOf(areas.acps.get, { acp_name: "edge-1" }))).body.metrics_scrape_interval).toBe(120);
  });

  test("an explicit null is treated like an absent field: the value stays", async () => {
    seed({ name: "edge-1", title: "Edge 1", location: { lat: 1, lon: 2 } });
    const a = await emu.post(pathOf(areas.acps.update, { acp_name: "edge-1" }), { title: null, location: null, metrics_enabled: false });
    expect(a.body).toMatchObject({ title: "Edge 1", location: { lat: 1, lon: 2 }, metrics_enabled: false });
  });

  test("out-of-range settings and unknown fields answer 400 naming the field; nothing changes", async () => {
    seed({ name: "edge-1" });
    const range = await emu.post(pathOf(areas.acps.update, { acp_name: "edge-1" }), { status_scrape_interval: 0 });
    expectErrorBody(range, 400);
    expect(messages(range)).toMatch(/body\.status_scrape_interval/);
    const unknown = await emu.post(pathOf(areas.acps.update, { acp_name: "edge-1" }), { cluster_name: "x" });
    expectErrorBody(unknown, 400);
    expect(messages(unknown)).toMatch(/cluster_name/);
    expect((await emu.get(pathOf(areas.acps.get, { acp_name: "edge-1" }))).body.status_scrape_interval).toBe(30);
  });

  test("an unknown ACP answers 404; the viewer may not update (403)", async () => {
    expectErrorBody(await emu.post(pathOf(areas.acps.update, { acp_name: "nope" }), { title: "x" }), 404);
    seed({ name: "edge-1" });
    expectErrorBody(await emu.post(pathOf(areas.acps.update, { acp_name: "edge-1" }), { title: "x" }, { as: "viewer" }), 403);
  });
});

describe("POST /acps/{acp_name}/delete", () => {
  test("answers 200 with an empty body and removes the node, its metadata and its status", async () => {
    seed({ name: "edge-1" });
    await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "edge-1" }), { name: "site", payload: {} });
    const a = await emu.post(pathOf(areas.acps.delete, { acp_name: "edge-1" }));
    expect(a.status).toBe(200);
    expect(a.text).toBe("");
    expectErrorBody(await emu.get(pathOf(areas.acps.get, { acp_name: "edge-1" })), 404);
    expectErrorBody(await emu.get(pathOf(areas.acps.statusGet, { acp_name: "edge-1" })), 404);
    expect(emu.store.table("acp_metadata").size).toBe(0);
    expect((await emu.get(pathOf(areas.acps.statusCount))).body).toEqual({ online: 0, offline: 0, total: 0 });
    expectErrorBody(await emu.post(pathOf(areas.acps.delete, { acp_name: "edge-1" })), 404);
  });
});

describe("ACP metadata", () => {
  beforeEach(() => {
    seed({ name: "edge-1" });
    seed({ name: "edge-2" });
  });

  test("create answers 201 with the record; a duplicate name answers 409; an unknown ACP 404", async () => {
    const a = await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "edge-1" }), { name: "site", payload: { plant: "north" } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ acp_name: "edge-1", name: "site", payload: { plant: "north" } });
    expect(a.body.created).toBeDefined();
    expectErrorBody(await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "edge-1" }), { name: "site", payload: {} }), 409);
    expectErrorBody(await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "nope" }), { name: "site", payload: {} }), 404);
    expectErrorBody(await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "edge-1" }), { name: "x" }), 400);
  });

  test("bulk create answers 201 with no body when every record is created", async () => {
    const a = await emu.post(pathOf(areas.acps.metadataBulkCreate), [
      { acp_name: "edge-1", name: "site", payload: { plant: "north" } },
      { acp_name: "edge-2", name: "site", payload: { plant: "south" } },
    ]);
    expect(a.status).toBe(201);
    expect(a.text).toBe("");
    expect((await emu.get(pathOf(areas.acps.metadataGet, { acp_name: "edge-2", acp_metadata_name: "site" }))).body.payload).toEqual({ plant: "south" });
  });

  test("bulk create answers 207 with a result per record when part fails, and keeps the records that succeeded", async () => {
    await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "edge-1" }), { name: "site", payload: {} });
    const a = await emu.post(pathOf(areas.acps.metadataBulkCreate), [
      { acp_name: "edge-1", name: "site", payload: {} },
      { acp_name: "nope", name: "site", payload: {} },
      { acp_name: "edge-2", name: "site", payload: { plant: "south" } },
    ]);
    expect(a.status).toBe(207);
    expect(a.body.results.map((r: Json) => [r.name, r.http_status_code])).toEqual([
      ["edge-1/site", 409],
      ["nope/site", 404],
      ["edge-2/site", 201],
    ]);
    expect(a.body.results[1].message[0]).toMatch(/nope/);
    expect((await emu.get(pathOf(areas.acps.metadataGet, { acp_name: "edge-2", acp_metadata_name: "site" }))).status).toBe(200);
  });

  test("bulk create rejects a malformed item as a whole request (400) and creates nothing", async () => {
    const a = await emu.post(pathOf(areas.acps.metadataBulkCreate), [
      { acp_name: "edge-1", name: "ok", payload: {} },
      { acp_name: "edge-2", payload: {} },
    ]);
    expectErrorBody(a, 400);
    expect(messages(a)).toMatch(/body\[1\]\.name/);
    expect(emu.store.table("acp_metadata").size).toBe(0);
  });

  test("get, update (replaces the payload) and delete (200, empty) a record; unknown ones answer 404", async () => {
    await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "edge-1" }), { name: "site", payload: { plant: "north", line: 1 } });
    const u = await emu.post(pathOf(areas.acps.metadataUpdate, { acp_name: "edge-1", acp_metadata_name: "site" }), { payload: { plant: "south" } });
    expect(u.status).toBe(200);
    expect(u.body.payload).toEqual({ plant: "south" });
    expect((await emu.get(pathOf(areas.acps.metadataGet, { acp_name: "edge-1", acp_metadata_name: "site" }))).body.payload).toEqual({ plant: "south" });
    expectErrorBody(await emu.get(pathOf(areas.acps.metadataGet, { acp_name: "edge-2", acp_metadata_name: "site" })), 404);
    expectErrorBody(await emu.post(pathOf(areas.acps.metadataUpdate, { acp_name: "edge-1", acp_metadata_name: "other" }), { payload: {} }), 404);
    const d = await emu.post(pathOf(areas.acps.metadataDelete, { acp_name: "edge-1", acp_metadata_name: "site" }));
    expect(d.status).toBe(200);
    expect(d.text).toBe("");
    expectErrorBody(await emu.post(pathOf(areas.acps.metadataDelete, { acp_name: "edge-1", acp_metadata_name: "site" })), 404);
  });

  test("list: search[] on the name; sortable acp_metadata.name and acp_metadata.acp_name", async () => {
    for (const n of ["site", "owner", "site-2"]) await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "edge-1" }), { name: n, payload: {} });
    await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "edge-2" }), { name: "other", payload: {} });
    expect(names(await emu.get(pathOf(areas.acps.metadataList, { acp_name: "edge-1" })))).toEqual(["owner", "site", "site-2"]);
    expect(names(await emu.get(pathOf(areas.acps.metadataList, { acp_name: "edge-1" }), { search: ["SITE"], sort_asc: false }))).toEqual(["site-2", "site"]);
    expect((await emu.get(pathOf(areas.acps.metadataList, { acp_name: "edge-1" }), { sort_by: "acp_metadata.acp_name" })).status).toBe(200);
    expectErrorBody(await emu.get(pathOf(areas.acps.metadataList, { acp_name: "edge-1" }), { sort_by: "acp_metadata.created" }), 400);
    expectErrorBody(await emu.get(pathOf(areas.acps.metadataList, { acp_name: "nope" })), 404);
  });

  test("bulk delete removes the names from the listed ACPs, or from every ACP when none are listed", async () => {
    await emu.post(pathOf(areas.acps.metadataBulkCreate), [
      { acp_name: "edge-1", name: "site", payload: {} },
      { acp_name: "edge-2", name: "site", payload: {} },
      { acp_name: "edge-1", name: "owner", payload: {} },
      { acp_name: "edge-2", name: "owner", payload: {} },
    ]);
    const one = await emu.post(pathOf(areas.acps.metadataBulkDelete), { names: ["owner"], acp_names: ["edge-1"] });
    expect(one.status).toBe(200);
    expect(one.text).toBe("");
    expect(names(await emu.get(pathOf(areas.acps.metadataList, { acp_name: "edge-2" })))).toEqual(["owner", "site"]);
    expect((await emu.post(pathOf(areas.acps.metadataBulkDelete), { names: ["site"] })).status).toBe(200);
    expect(names(await emu.get(pathOf(areas.acps.metadataList, { acp_name: "edge-1" })))).toEqual([]);
    expect(names(await emu.get(pathOf(areas.acps.metadataList, { acp_name: "edge-2" })))).toEqual(["owner"]);
  });

  test("bulk delete answers 207 when part fails and still deletes the rest", async () => {
    await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "edge-1" }), { name: "site", payload: {} });
    const a = await emu.post(pathOf(areas.acps.metadataBulkDelete), { names: ["site", "ghost"] });
    expect(a.status).toBe(207);
    expect(a.body.results.map((r: Json) => [r.name, r.http_status_code])).toEqual([
      ["edge-1/site", 200],
      ["ghost", 404],
    ]);
    expect(emu.store.table("acp_metadata").size).toBe(0);
    expectErrorBody(await emu.post(pathOf(areas.acps.metadataBulkDelete), { names: [] }), 400);
  });

  test("the viewer may read metadata but not create or delete it (403)", async () => {
    expect((await emu.get(pathOf(areas.acps.metadataList, { acp_name: "edge-1" }), undefined, { as: "viewer" })).status).toBe(200);
    expectErrorBody(await emu.post(pathOf(areas.acps.metadataCreate, { acp_name: "edge-1" }), { name: "x", payload: {} }, { as: "viewer" }), 403);
    expectErrorBody(await emu.post(pathOf(areas.acps.metadataBulkDelete), { names: ["x"] }, { as: "viewer" }), 403);
  });
});

describe("GET /acps/{acp_name}/metrics/get", () => {
  test("answers the spec's metrics shape, the same values for the same node and different ones for another", async () => {
    seed({ name: "edge-1" });
    seed({ name: "edge-2" });
    const a = await emu.get(pathOf(areas.acps.metricsGet, { acp_name: "edge-1" }));
    expect(a.status).toBe(200);
    const m = a.body;
    expect(Object.keys(m).sort()).toEqual(["allocation", "cpu_utilization", "disk", "memory_usage", "network"]);
    expect(m.allocation.cpu_requests).toBeLessThanOrEqual(m.allocation.cpu_capacity);
    expect(m.allocation.memory_requests).toBeLessThanOrEqual(m.allocation.memory_capacity);
    expect(m.cpu_utilization).toHaveLength(12);
    for (const p of m.cpu_utilization) {
      expect(Number.isInteger(p.timestamp)).toBe(true);
      expect(p.value).toBeGreaterThanOrEqual(0);
      expect(p.value).toBeLessThanOrEqual(100);
    }
    expect(m.disk.used_bytes).toBeLessThan(m.disk.total_bytes);
    expect((await emu.get(pathOf(areas.acps.metricsGet, { acp_name: "edge-1" }))).body).toEqual(m);
    expect((await emu.get(pathOf(areas.acps.metricsGet, { acp_name: "edge-2" }))).body).not.toEqual(m);
    expectErrorBody(await emu.get(pathOf(areas.acps.metricsGet, { acp_name: "nope" })), 404);
  });
});

describe("ACP status", () => {
  test("status get with source=cache answers the last reported status", async () => {
    const seen = "2024-05-01T12:00:00.000000Z";
    seed({ name: "edge-1", status: { state: "warning", message: "disk almost full", warnings: ["disk"], last_seen: seen } });
    const a = await emu.get(pathOf(areas.acps.statusGet, { acp_name: "edge-1" }));
    expect(a.body).toEqual({ name: "edge-1", status: { state: "warning", message: "disk almost full", warnings: ["disk"], last_seen: seen } });
    expect((await emu.get(pathOf(areas.acps.statusGet, { acp_name: "edge-1" }), { source: "cache" })).body).toEqual(a.body);
  });

  test("source=live asks the node: a node that reported recently answers now; a silent one shows offline; nothing stored changes", async () => {
    const before = NOW();
    seed({ name: "fresh", status: { state: "online" } });
    seed({ name: "silent", status: { state: "online", last_seen: "2024-05-01T12:00:00.000000Z" } });
    const fresh = await emu.get(pathOf(areas.acps.statusGet, { acp_name: "fresh" }), { source: "live" });
    expect(fresh.body.status.state).toBe("online");
    expect(fresh.body.status.last_seen >= before).toBe(true);
    const silent = await emu.get(pathOf(areas.acps.statusGet, { acp_name: "silent" }), { source: "live" });
    expect(silent.body.status).toMatchObject({ state: "offline", last_seen: "2024-05-01T12:00:00.000000Z" });
    expect((await emu.get(pathOf(areas.acps.statusGet, { acp_name: "silent" }))).body.status.state).toBe("online");
    expectErrorBody(await emu.get(pathOf(areas.acps.statusGet, { acp_name: "silent" }), { source: "edge" }), 400);
  });

  test("status update sets state, message and warnings; last_seen becomes the time of the report", async () => {
    seed({ name: "edge-1", status: { state: "online", last_seen: "2024-05-01T12:00:00.000000Z" } });
    const a = await emu.post(pathOf(areas.acps.statusUpdate, { acp_name: "edge-1" }), { status: { state: "offline", message: "maintenance" } });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ name: "edge-1", status: { state: "offline", message: "maintenance", warnings: [] } });
    expect(a.body.status.last_seen > "2024-05-01T12:00:00.000000Z").toBe(true);
    expect((await emu.get(pathOf(areas.acps.statusGet, { acp_name: "edge-1" }))).body).toEqual(a.body);
    const bad = await emu.post(pathOf(areas.acps.statusUpdate, { acp_name: "edge-1" }), { status: { state: "sleeping" } });
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/body\.status\.state/);
    expectErrorBody(await emu.post(pathOf(areas.acps.statusUpdate, { acp_name: "nope" }), { status: { state: "online" } }), 404);
  });

  test("status list: acp_names[], search[] on name and title; sortable acp.status only", async () => {
    seed({ name: "a-node", title: "Press", status: { state: "offline" } });
    seed({ name: "b-node", title: "Paint", status: { state: "online" } });
    seed({ name: "c-node", title: "Press 2", status: { state: "connected" } });
    const all = await emu.get(pathOf(areas.acps.statusList), { sort_by: "acp.status" });
    expect(all.body.data.map((s: Json) => s.status.state)).toEqual(["connected", "offline", "online"]);
    expect(names(await emu.get(pathOf(areas.acps.statusList), { acp_names: ["b-node"] }))).toEqual(["b-node"]);
    // The only sort key is the state: connected before offline.
    expect(names(await emu.get(pathOf(areas.acps.statusList), { search: ["press"] }))).toEqual(["c-node", "a-node"]);
    expect((await emu.get(pathOf(areas.acps.statusList), { source: "live" })).status).toBe(200);
    expectErrorBody(await emu.get(pathOf(areas.acps.statusList), { sort_by: "acp.name" }), 400);
  });

  test("status count answers online, offline and total", async () => {
    seed({ name: "a-node", status: { state: "online" } });
    seed({ name: "b-node", status: { state: "offline" } });
    seed({ name: "c-node", status: { state: "no_connection" } });
    expect((await emu.get(pathOf(areas.acps.statusCount))).body).toEqual({ online: 1, offline: 2, total: 3 });
    await emu.post(pathOf(areas.acps.statusUpdate, { acp_name: "b-node" }), { status: { state: "online" } });
    expect((await emu.get(pathOf(areas.acps.statusCount))).body).toEqual({ online: 2, offline: 1, total: 3 });
  });
});

describe("ACP edge apps", () => {
  test("version get answers edge_app_version, has_updates and platform_version", async () => {
    seed({ name: "old", edge_app_version: "3.2.0" });
    seed({ name: "current" });
    const old = await emu.get(pathOf(areas.acps.edgeAppsVersionGet, { acp_name: "old" }));
    expect(old.body).toEqual({ edge_app_version: "3.2.0", has_updates: true, platform_version: expect.any(String) });
    const current = await emu.get(pathOf(areas.acps.edgeAppsVersionGet, { acp_name: "current" }));
    expect(current.body).toEqual({ edge_app_version: old.body.platform_version, has_updates: false, platform_version: old.body.platform_version });
    expectErrorBody(await emu.get(pathOf(areas.acps.edgeAppsVersionGet, { acp_name: "nope" })), 404);
  });

  test("force-update answers 200 with an empty body; after it has_updates is false and the versions match", async () => {
    seed({ name: "old", edge_app_version: "3.2.0" });
    const a = await emu.post(pathOf(areas.acps.edgeAppsForceUpdate, { acp_name: "old" }));
    expect(a.status).toBe(200);
    expect(a.text).toBe("");
    const v = (await emu.get(pathOf(areas.acps.edgeAppsVersionGet, { acp_name: "old" }))).body;
    expect(v.has_updates).toBe(false);
    expect(v.edge_app_version).toBe(v.platform_version);
    expectErrorBody(await emu.post(pathOf(areas.acps.edgeAppsForceUpdate, { acp_name: "nope" })), 404);
  });

  test("force-update needs only acp.read, as the spec says, and leaves an audit entry", async () => {
    seed({ name: "old", edge_app_version: "3.2.0" });
    expect((await emu.post(pathOf(areas.acps.edgeAppsForceUpdate, { acp_name: "old" }), undefined, { as: "viewer" })).status).toBe(200);
    const audit = [...emu.store.table<Json>("audit_log").values()];
    expect(audit.map((e) => [e.action, e.identifier])).toEqual([["EDGE-APPS-FORCE-UPDATE-ACPS", "old"]]);
    expectErrorBody(await emu.post(pathOf(areas.acps.edgeAppsForceUpdate, { acp_name: "old" }), undefined, { as: "none" }), 401);
  });
});
