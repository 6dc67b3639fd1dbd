import http from "node:http";
import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, type Answer, pathOf, type Json } from "../helpers/emulator";
import { TABLES } from "../../src/emulator/store/tables";

/** A clock the tests move, so that audit entries carry known times. */
let nowMs = Date.UTC(2024, 4, 1, 12, 0, 0, 345);
const emu = useEmulator({ options: { clock: () => nowMs } });

/** GET with a JSON body, which fetch cannot send; the spec's dependency graph takes one. */
async function getWithBody(path: string, body: unknown): Promise<Answer> {
  const token = await emu.token("admin");
  const payload = JSON.stringify(body);
  const url = new URL(`${emu.baseUrl}/api/v4${path}`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: "GET", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(payload) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: new Headers(res.headers as Record<string, string>), body: text ? JSON.parse(text) : undefined, text });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/**
 * Records of other areas, put with only the fields their tables promise other areas (tables.ts),
 * so that these tests do not depend on the other areas' create bodies.
 */
function seed(table: string, key: string, record: Record<string, unknown>): void {
  emu.store.transaction(() => emu.store.table(table).put(key, record));
}

describe("Instance status (spec Part 2, Instance and audit log)", () => {
  test("status needs no token and answers {status, components: [{name, status}]}", async () => {
    const a = await emu.get(pathOf(areas.instance.statusGet), undefined, { as: "none" });
    expect(a.status).toBe(200);
    expect(a.body.status).toBe(true);
    expect(a.body.components.length).toBeGreaterThan(0);
    for (const c of a.body.components) expect(c).toEqual({ name: expect.any(String), status: true });
  });
});

describe("Instance settings (spec Part 2, Instance and audit log)", () => {
  test("get answers the defaults: {acp: {auto_update, metrics, status}}, each {enabled, interval}", async () => {
    const a = await emu.get(pathOf(areas.instance.settingsGet));
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      acp: {
        auto_update: { enabled: false, interval: 86400 },
        metrics: { enabled: true, interval: 60 },
        status: { enabled: true, interval: 30 },
      },
    });
  });

  test("update: a partial body changes only the sent keys", async () => {
    const a = await emu.post(pathOf(areas.instance.settingsUpdate), { acp: { metrics: { interval: 120 }, auto_update: { enabled: true } } });
    expect(a.status).toBe(200);
    const expected = {
      acp: {
        auto_update: { enabled: true, interval: 86400 },
        metrics: { enabled: true, interval: 120 },
        status: { enabled: true, interval: 30 },
      },
    };
    expect(a.body).toEqual(expected);
    expect((await emu.get(pathOf(areas.instance.settingsGet))).body).toEqual(expected);
    expect((await emu.post(pathOf(areas.instance.settingsUpdate), {})).body).toEqual(expected);
  });

  test("update: intervals are whole seconds from 1 to 604800, unknown keys are 400, nothing changes", async () => {
    for (const bad of [
      { acp: { status: { interval: 0 } } },
      { acp: { status: { interval: 1.5 } } },
      { acp: { status: { enabled: "yes" } } },
      { acp: { logs: {} } },
      { other: 1 },
    ]) {
      expectErrorBody(await emu.post(pathOf(areas.instance.settingsUpdate), bad), 400);
    }
    expect(messages(await emu.post(pathOf(areas.instance.settingsUpdate), { acp: { status: { interval: 604801 } } }))).toMatch(/body\.acp\.status\.interval/);
    expect((await emu.get(pathOf(areas.instance.settingsGet))).body.acp.status).toEqual({ enabled: true, interval: 30 });
  });

  test("get needs instance.read and update instance.update: a viewer reads but cannot update", async () => {
    expect((await emu.get(pathOf(areas.instance.settingsGet), undefined, { as: "viewer" })).status).toBe(200);
    expectErrorBody(await emu.post(pathOf(areas.instance.settingsUpdate), { acp: {} }, { as: "viewer" }), 403);
    expectErrorBody(await emu.get(pathOf(areas.instance.settingsGet), undefined, { as: "none" }), 401);
  });
});

describe("Instance dependency graph (spec Part 2: GET /instance/graph/dependencies/get with a body)", () => {
  test("an asset type answers the assets that use it, as {collection, name, title}", async () => {
    seed(TABLES.assetTypes, "pump", { name: "pump", title: "Pump" });
    seed(TABLES.assetTypes, "valve", { name: "valve", title: "Valve" });
    seed(TABLES.assets, "p2", { name: "p2", title: "Pump 2", asset_type_name: "pump" });
    seed(TABLES.assets, "p1", { name: "p1", title: "Pump 1", asset_type_name: "pump" });
    seed(TABLES.assets, "v1", { name: "v1", title: "Valve 1", asset_type_name: "valve" });
    const a = await getWithBody("/instance/graph/dependencies/get", { collection: "asset_types", name: "pump" });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      data: [
        { collection: "assets", name: "p1", title: "Pump 1" },
        { collection: "assets", name: "p2", title: "Pump 2" },
      ],
    });
  });

  test("an asset class answers the asset types that use it", async () => {
    seed(TABLES.assetClasses, "rotating", { name: "rotating", title: "Rotating" });
    seed(TABLES.assetTypes, "pump", { name: "pump", title: "Pump", asset_class_name: "rotating" });
    seed(TABLES.assetTypes, "tank", { name: "tank", title: "Tank" });
    const a = await getWithBody("/instance/graph/dependencies/get", { collection: "asset_classes", name: "rotating" });
    expect(a.body.data).toEqual([{ collection: "asset_types", name: "pump", title: "Pump" }]);
  });

  test("an app and a cluster answer the workloads that use them", async () => {
    await emu.post(pathOf(areas.clusters.create), { name: "plant-a", title: "Plant A" });
    seed(TABLES.apps, "detector", { name: "detector", type: "app", latest_version: "1.0.0" });
    seed(TABLES.workloads, "det-1", { name: "det-1", title: "Detector 1", app_name: "detector", app_version: "1.0.0", cluster_name: "plant-a" });
    seed(TABLES.workloads, "other", { name: "other", title: "Other", app_name: "other", app_version: "1.0.0", cluster_name: "plant-b" });
    expect((await getWithBody("/instance/graph/dependencies/get", { collection: "apps", name: "detector" })).body.data).toEqual([
      { collection: "workloads", name: "det-1", title: "Detector 1" },
    ]);
    expect((await getWithBody("/instance/graph/dependencies/get", { collection: "clusters", name: "plant-a" })).body.data).toEqual([
      { collection: "workloads", name: "det-1", title: "Detector 1" },
    ]);
  });

  test("a label answers the data labels that use it; a record without dependents answers an empty list", async () => {
    await emu.post(pathOf(areas.datalabels.labelCreate), { name: "idle", title: "Idle" });
    const dl = await emu.post(pathOf(areas.datalabels.create), {
      label_name: "anomaly",
      start_date: "2024-05-01T10:00:00Z",
      end_date: "2024-05-01T11:00:00Z",
      description: "noise",
    });
    expect((await getWithBody("/instance/graph/dependencies/get", { collection: "labels", name: "anomaly" })).body.data).toEqual([
      { collection: "data_labels", name: String(dl.body.id), title: "noise" },
    ]);
    expect((await getWithBody("/instance/graph/dependencies/get", { collection: "labels", name: "idle" })).body.data).toEqual([]);
  });

  test("the same question may come as query parameters, for clients that cannot send a GET body", async () => {
    await emu.post(pathOf(areas.datalabels.create), { label_name: "anomaly", start_date: "2024-05-01T10:00:00Z", end_date: "2024-05-01T11:00:00Z" });
    const a = await emu.get(pathOf(areas.instance.graphDependenciesGet), { collection: "labels", name: "anomaly" });
    expect(a.status).toBe(200);
    expect(a.body.data).toEqual([{ collection: "data_labels", name: "1", title: "anomaly" }]);
  });

  test("an unknown record is 404; an unknown collection or a missing name is 400 naming the field", async () => {
    expectErrorBody(await getWithBody("/instance/graph/dependencies/get", { collection: "labels", name: "nope" }), 404);
    const coll = await getWithBody("/instance/graph/dependencies/get", { collection: "planets", name: "x" });
    expectErrorBody(coll, 400);
    expect(messages(coll)).toMatch(/body\.collection: must be one of/);
    expect(messages(await getWithBody("/instance/graph/dependencies/get", { collection: "labels" }))).toMatch(/body\.name: is required/);
    expect(messages(await emu.get(pathOf(areas.instance.graphDependenciesGet)))).toMatch(/collection: is required/);
    const both = await getWithBody("/instance/graph/dependencies/get?collection=labels&name=x", { collection: "labels", name: "x" });
    expectErrorBody(both, 400);
    expect(messages(both)).toMatch(/either in the body or in the query/);
  });
});

describe("Audit log (spec Part 2, Instance and audit log)", () => {
  const tick = (ms = 1000) => {
    nowMs += ms;
  };
  /** Six entries: label creates and updates by the admin and the service account, a second apart. */
  async function seedAudit(): Promise<Json[]> {
    nowMs = Date.UTC(2024, 4, 1, 12, 0, 0, 345);
    const calls: Array<[string, unknown, "admin" | "service"]> = [
      ["/datalabels/labels/create", { name: "anomaly", title: "A" }, "admin"],
      ["/datalabels/labels/create", { name: "leak", title: "L" }, "service"],
      ["/datalabels/labels/anomaly/update", { title: "Anomaly" }, "admin"],
      ["/datalabels/labels/leak/update", { title: "Leak" }, "service"],
      ["/datatypes/create", { icd: { name: "sensor.temp", class_name: "Temp", fields: [] } }, "admin"],
      ["/instance/settings/update", { acp: { metrics: { interval: 10 } } }, "admin"],
    ];
    for (const [i, [path, body, as]] of calls.entries()) {
      tick();
      const a = await emu.post(path, body, { as, headers: { "x-request-id": `req-${i + 1}` } });
      expect(a.status).toBeLessThan(300);
    }
    return (await emu.get(pathOf(areas.instance.auditLogList), { sort_asc: true })).body.data;
  }
  const idsOf = (a: Json) => a.body.data.map((e: Json) => e.id);
  const list = (query: Record<string, Json>) => emu.get(pathOf(areas.instance.auditLogList), query);

  test("list: newest first by default; sort_asc=true oldest first", async () => {
    const entries = await seedAudit();
    expect(entries.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(idsOf(await list({}))).toEqual([6, 5, 4, 3, 2, 1]);
  });

  test("get answers one entry with the spec's fields; an unknown id is 404", async () => {
    await seedAudit();
    const a = await emu.get(pathOf(areas.instance.auditLogGet, { audit_logger_id: "2" }));
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      id: 2,
      action: "LABEL-CREATE-DATALABELS",
      identifier: "leak",
      namespace: "svc-datalabels",
      request_id: "req-2",
      username: "svc-admin",
      user_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      meta: expect.any(Object),
      created: "2024-05-01T12:00:02.345000Z",
    });
    expectErrorBody(await emu.get(pathOf(areas.instance.auditLogGet, { audit_logger_id: "99" })), 404);
    expectErrorBody(await emu.get(pathOf(areas.instance.auditLogGet, { audit_logger_id: "x" })), 400);
  });

  test("list filters: action[], user_id[], namespace[], identifier[], username[], request_id[] (OR within, AND across)", async () => {
    const entries = await seedAudit();
    expect(idsOf(await list({ action: ["LABEL-CREATE-DATALABELS"] }))).toEqual([2, 1]);
    expect(idsOf(await list({ action: ["LABEL-CREATE-DATALABELS", "CREATE-DATATYPES"] }))).toEqual([5, 2, 1]);
    expect(idsOf(await list({ user_id: [entries[1].user_id] }))).toEqual([4, 2]);
    expect(idsOf(await list({ namespace: ["svc-instance", "svc-datatypes"] }))).toEqual([6, 5]);
    expect(idsOf(await list({ identifier: ["anomaly"] }))).toEqual([3, 1]);
    expect(idsOf(await list({ username: ["admin@example.com"] }))).toEqual([6, 5, 3, 1]);
    expect(idsOf(await list({ request_id: ["req-4", "req-5"] }))).toEqual([5, 4]);
    expect(idsOf(await list({ username: ["admin@example.com"], identifier: ["leak"] }))).toEqual([]);
    expect(idsOf(await list({ username: ["svc-admin"], action: ["LABEL-UPDATE-DATALABELS"] }))).toEqual([4]);
  });

  test("list: search[] matches action, username or namespace (partial, case-insensitive)", async () => {
    await seedAudit();
    expect(idsOf(await list({ search: ["svc-admin"] }))).toEqual([4, 2]);
    expect(idsOf(await list({ search: ["settings-update"] }))).toEqual([6]);
    expect(idsOf(await list({ search: ["DATATYPES", "instance"] }))).toEqual([6, 5]);
    expect(idsOf(await list({ search: ["anomaly"] }))).toEqual([]);
  });

  test("list: from_date_time and to_date_time select entries at or after and at or before, at microsecond precision", async () => {
    await seedAudit();
    // Entry 3 was written at 12:00:03.345000Z.
    expect(idsOf(await list({ from_date_time: "2024-05-01T12:00:03.345000Z" }))).toEqual([6, 5, 4, 3]);
    expect(idsOf(await list({ from_date_time: "2024-05-01T12:00:03.345001Z" }))).toEqual([6, 5, 4]);
    expect(idsOf(await list({ to_date_time: "2024-05-01T12:00:03.345000Z" }))).toEqual([3, 2, 1]);
    expect(idsOf(await list({ to_date_time: "2024-05-01T12:00:03.344999Z" }))).toEqual([2, 1]);
    expect(idsOf(await list({ from_date_time: "2024-05-01T14:00:02+02:00", to_date_time: "2024-05-01T12:00:04.345Z" }))).toEqual([4, 3, 2]);
    const bad = await list({ from_date_time: "yesterday" });
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/query\.from_date_time/);
  });

  test("list: sortable by audit_log.id, audit_log.action, audit_log.username, audit_log.created, request_uri; others are 400", async () => {
    await seedAudit();
    expect(idsOf(await list({ sort_by: "audit_log.action", sort_asc: true }))).toEqual([5, 1, 2, 3, 4, 6]);
    expect(idsOf(await list({ sort_by: "audit_log.username", sort_asc: true }))).toEqual([1, 3, 5, 6, 2, 4]);
    expect(idsOf(await list({ sort_by: "audit_log.created" }))).toEqual([6, 5, 4, 3, 2, 1]);
    const byUri = await list({ sort_by: "request_uri", sort_asc: true });
    const uris = byUri.body.data.map((e: Json) => e.request_uri);
    expect(uris).toEqual([...uris].sort());
    expectErrorBody(await list({ sort_by: "audit_log.namespace" }), 400);
  });

  test("list: page_size and starting_after/ending_before cursors", async () => {
    await seedAudit();
    const p1 = await list({ page_size: 4 });
    expect(idsOf(p1)).toEqual([6, 5, 4, 3]);
    const p2 = await list({ page_size: 4, starting_after: p1.body.pagination.next_page });
    expect(idsOf(p2)).toEqual([2, 1]);
    expect(p2.body.pagination.next_page).toBeNull();
    expect(idsOf(await list({ page_size: 4, ending_before: p2.body.pagination.previous_page }))).toEqual([6, 5, 4, 3]);
    expectErrorBody(await list({ page_size: 1001 }), 400);
    expectErrorBody(await list({ starting_after: "garbage" }), 400);
  });

  test("the audit log needs audit_log.read: a viewer may read it, an anonymous caller may not", async () => {
    await seedAudit();
    expect((await emu.get(pathOf(areas.instance.auditLogList), undefined, { as: "viewer" })).status).toBe(200);
    expectErrorBody(await emu.get(pathOf(areas.instance.auditLogList), undefined, { as: "none" }), 401);
  });
});
