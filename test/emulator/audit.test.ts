/**
 * The audit log as the data label, data type and instance operations leave it: one entry per
 * successful change, none for a rejected call or a read.
 */
import { areas, endpoints } from "../../src/api/endpoints";
import type { AnyEndpoint } from "../../src/api/endpoint";
import { useEmulator, pathOf, type Json } from "../helpers/emulator";

const emu = useEmulator();

const AREAS = ["datalabels", "datatypes", "instance"];
const ADMIN_ID = "6f1c2a7e-0000-4000-8000-000000000001";

interface Call {
  /** The endpoint id the call exercises. */
  op: string;
  method?: "GET" | "POST";
  path: string;
  body?: unknown;
  query?: Record<string, string | string[]>;
}
interface Change extends Call {
  action: string;
  namespace: string;
  identifier: string;
}

const dataLabel = { label_name: "anomaly", start_date: "2024-05-01T10:00:00.000001Z", end_date: "2024-05-01T11:00:00Z" };

/** Every change of the three areas, in an order where each finds what it needs. */
const CHANGES: Change[] = [
  {
    op: "datalabels.labelCreate",
    path: "/datalabels/labels/create",
    body: { name: "anomaly", title: "A" },
    action: "LABEL-CREATE-DATALABELS",
    namespace: "svc-datalabels",
    identifier: "anomaly",
  },
  {
    op: "datalabels.labelUpdate",
    path: "/datalabels/labels/anomaly/update",
    body: { title: "Anomaly" },
    action: "LABEL-UPDATE-DATALABELS",
    namespace: "svc-datalabels",
    identifier: "anomaly",
  },
  {
    op: "datalabels.labelMetadataCreate",
    path: "/datalabels/labels/anomaly/metadata/create",
    body: { name: "colour", payload: {} },
    action: "LABEL-METADATA-CREATE-DATALABELS",
    namespace: "svc-datalabels",
    identifier: "anomaly/colour",
  },
  {
    op: "datalabels.labelMetadataUpdate",
    path: "/datalabels/labels/anomaly/metadata/colour/update",
    body: { payload: { hex: "red" } },
    action: "LABEL-METADATA-UPDATE-DATALABELS",
    namespace: "svc-datalabels",
    identifier: "anomaly/colour",
  },
  {
    op: "datalabels.labelMetadataBulkCreate",
    path: "/datalabels/labels/metadata/create",
    body: [
      { label_name: "anomaly", name: "size", payload: {} },
      { label_name: "anomaly", name: "owner", payload: {} },
    ],
    action: "LABEL-METADATA-BULK-CREATE-DATALABELS",
    namespace: "svc-datalabels",
    identifier: "anomaly",
  },
  {
    op: "datalabels.labelMetadataDelete",
    path: "/datalabels/labels/anomaly/metadata/colour/delete",
    action: "LABEL-METADATA-DELETE-DATALABELS",
    namespace: "svc-datalabels",
    identifier: "anomaly/colour",
  },
  {
    op: "datalabels.labelMetadataBulkDelete",
    path: "/datalabels/labels/metadata/delete",
    body: { label_name: "anomaly", names: ["size", "owner"] },
    action: "LABEL-METADATA-BULK-DELETE-DATALABELS",
    namespace: "svc-datalabels",
    identifier: "anomaly",
  },
  { op: "datalabels.create", path: "/datalabels/create", body: dataLabel, action: "CREATE-DATALABELS", namespace: "svc-datalabels", identifier: "1" },
  {
    op: "datalabels.update",
    path: "/datalabels/1/update",
    body: { ...dataLabel, description: "noise" },
    action: "UPDATE-DATALABELS",
    namespace: "svc-datalabels",
    identifier: "1",
  },
  { op: "datalabels.delete", path: "/datalabels/1/delete", action: "DELETE-DATALABELS", namespace: "svc-datalabels", identifier: "1" },
  { op: "datalabels.labelDelete", path: "/datalabels/labels/anomaly/delete", action: "LABEL-DELETE-DATALABELS", namespace: "svc-datalabels", identifier: "anomaly" },
  {
    op: "datatypes.create",
    path: "/datatypes/create",
    body: { icd: { name: "sensor.temp", class_name: "Temp", version: "1.0.0", fields: [] } },
    action: "CREATE-DATATYPES",
    namespace: "svc-datatypes",
    identifier: "sensor.temp:1.0.0",
  },
  {
    op: "instance.settingsUpdate",
    path: "/instance/settings/update",
    body: { acp: { status: { interval: 15 } } },
    action: "SETTINGS-UPDATE-INSTANCE",
    namespace: "svc-instance",
    identifier: "settings",
  },
];

/** Every read of the three areas, against the state a label, a data label and a data type make. */
const READS: Call[] = [
  { op: "datalabels.list", method: "GET", path: "/datalabels/list" },
  { op: "datalabels.filter", path: "/datalabels/filter", body: { label_names: ["anomaly"] } },
  { op: "datalabels.get", method: "GET", path: "/datalabels/1/get" },
  { op: "datalabels.rangeGet", path: "/datalabels/range/get", body: {} },
  { op: "datalabels.clusteringGet", path: "/datalabels/clustering/get", body: { time_bucket: "1h" } },
  { op: "datalabels.labelList", method: "GET", path: "/datalabels/labels/list" },
  { op: "datalabels.labelGet", method: "GET", path: "/datalabels/labels/anomaly/get" },
  { op: "datalabels.labelMetadataList", method: "GET", path: "/datalabels/labels/anomaly/metadata/list" },
  { op: "datalabels.labelMetadataGet", method: "GET", path: "/datalabels/labels/anomaly/metadata/colour/get" },
  { op: "datatypes.list", method: "GET", path: "/datatypes/list" },
  { op: "datatypes.get", method: "GET", path: "/datatypes/sensor.temp/versions/1.0.0/get" },
  { op: "datatypes.latestGet", method: "GET", path: "/datatypes/sensor.temp/versions/latest/get" },
  { op: "datatypes.dependenciesGet", method: "GET", path: "/datatypes/sensor.temp/versions/1.0.0/dependencies/get" },
  { op: "datatypes.schemaGet", method: "GET", path: "/datatypes/sensor.temp/versions/1.0.0/schema/get" },
  { op: "instance.statusGet", method: "GET", path: "/instance/status/get" },
  { op: "instance.settingsGet", method: "GET", path: "/instance/settings/get" },
  { op: "instance.graphDependenciesGet", method: "GET", path: "/instance/graph/dependencies/get", query: { collection: "labels", name: "anomaly" } },
  { op: "instance.auditLogGet", method: "GET", path: "/instance/auditlog/1/get" },
  { op: "instance.auditLogList", method: "GET", path: "/instance/auditlog/list" },
];

const ours = (e: AnyEndpoint) => AREAS.includes(e.tags[0]);
const templateMatches = (e: AnyEndpoint, path: string) => new RegExp(`^${e.path.replace(/\{[a-z_]+\}/g, "[^/]+")}$`).test(path);

function send(call: Call, requestId: string, as: "admin" | "service" | "viewer" | "none" = "admin") {
  return emu.call(call.method ?? "POST", call.path, { body: call.body, query: call.query, as, headers: { "x-request-id": requestId } });
}

const auditEntries = () => [...emu.store.table<Json>("audit_log").values()];
const entriesOf = async (requestId: string) => (await emu.get(pathOf(areas.instance.auditLogList), { request_id: [requestId] })).body.data;

describe("Audit log entries (spec Part 2, Instance and audit log)", () => {
  test("the cases below cover every change and every read of the data label, data type and instance areas", () => {
    const mine = endpoints.filter(ours);
    expect(CHANGES.map((c) => c.op).sort()).toEqual(
      mine
        .filter((e) => e.mutates)
        .map((e) => e.id)
        .sort(),
    );
    expect(READS.map((c) => c.op).sort()).toEqual(
      mine
        .filter((e) => !e.mutates)
        .map((e) => e.id)
        .sort(),
    );
    for (const c of [...CHANGES, ...READS]) {
      const e = mine.find((x) => x.id === c.op)!;
      expect({ op: c.op, method: c.method ?? "POST", matches: templateMatches(e, c.path) }).toEqual({ op: c.op, method: e.method, matches: true });
    }
  });

  test("every change leaves exactly one entry with action, namespace, identifier, request_id, user and time", async () => {
    for (const [i, change] of CHANGES.entries()) {
      const requestId = `audit-${i}`;
      const before = auditEntries().length;
      const startedAt = new Date().toISOString();
      const a = await send(change, requestId);
      expect({ op: change.op, status: a.status < 300 }).toEqual({ op: change.op, status: true });
      expect(a.headers.get("x-request-id")).toBe(requestId);
      expect({ op: change.op, added: auditEntries().length - before }).toEqual({ op: change.op, added: 1 });
      const found = await entriesOf(requestId);
      expect(found).toHaveLength(1);
      const entry = found[0];
      expect({ op: change.op, action: entry.action, namespace: entry.namespace, identifier: entry.identifier }).toEqual({
        op: change.op,
        action: change.action,
        namespace: change.namespace,
        identifier: change.identifier,
      });
      expect(entry).toMatchObject({ request_id: requestId, user_id: ADMIN_ID, username: "admin@example.com", meta: expect.any(Object) });
      expect(entry.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(entry.created.slice(0, 23) >= startedAt.slice(0, 23)).toBe(true);
    }
  });

  test("the entry names the caller: a service account's change is recorded under its name", async () => {
    await send(CHANGES[0], "by-service", "service");
    const [entry] = await entriesOf("by-service");
    expect(entry).toMatchObject({ username: "svc-admin", user_id: "6f1c2a7e-0000-4000-8000-000000000003", identifier: "anomaly" });
  });

  test("the entry's meta holds the change (from/to)", async () => {
    await send(CHANGES[0], "create-label");
    await send(CHANGES[1], "update-label");
    const [entry] = await entriesOf("update-label");
    expect(entry.meta.changes).toEqual([
      expect.objectContaining({ table: "labels", key: "anomaly", from: expect.objectContaining({ title: "A" }), to: expect.objectContaining({ title: "Anomaly" }) }),
    ]);
  });

  test("a bulk call that partly fails (207) still changed something and leaves one entry", async () => {
    await send(CHANGES[0], "setup");
    const a = await send(
      {
        op: "datalabels.labelMetadataBulkCreate",
        path: "/datalabels/labels/metadata/create",
        body: [
          { label_name: "anomaly", name: "a1", payload: {} },
          { label_name: "nope", name: "a2", payload: {} },
        ],
      },
      "partial",
    );
    expect(a.status).toBe(207);
    expect(await entriesOf("partial")).toHaveLength(1);
  });

  test("a rejected call leaves no entry: validation (400), missing (404), conflict (409), permission (403), no token (401)", async () => {
    await send(CHANGES[0], "setup");
    const rejected: Array<[Call, "admin" | "viewer" | "none", number]> = [
      [{ op: "datalabels.create", path: "/datalabels/create", body: { ...dataLabel, end_date: dataLabel.start_date } }, "admin", 400],
      [{ op: "datalabels.update", path: "/datalabels/7/update", body: dataLabel }, "admin", 404],
      [{ op: "datalabels.labelCreate", path: "/datalabels/labels/create", body: { name: "anomaly", title: "again" } }, "admin", 409],
      [{ op: "datalabels.labelMetadataBulkCreate", path: "/datalabels/labels/metadata/create", body: [{ label_name: "nope", name: "x", payload: {} }] }, "admin", 404],
      [{ op: "datatypes.create", path: "/datatypes/create", body: { icd: { name: "Bad Name", class_name: "T" } } }, "admin", 400],
      [{ op: "instance.settingsUpdate", path: "/instance/settings/update", body: { acp: { status: { interval: 0 } } } }, "admin", 400],
      [{ op: "datalabels.labelDelete", path: "/datalabels/labels/anomaly/delete" }, "viewer", 403],
      [{ op: "datalabels.labelDelete", path: "/datalabels/labels/anomaly/delete" }, "none", 401],
    ];
    const before = auditEntries().length;
    for (const [i, [call, as, status]] of rejected.entries()) {
      const a = await send(call, `rejected-${i}`, as);
      expect({ op: call.op, status: a.status }).toEqual({ op: call.op, status });
      expect(await entriesOf(`rejected-${i}`)).toEqual([]);
    }
    expect(auditEntries().length).toBe(before);
    // A label delete refused because data labels use it leaves none either.
    await send(CHANGES[7], "setup-dl");
    const used = await send(CHANGES[10], "refused-delete");
    expect(used.status).toBe(409);
    expect(await entriesOf("refused-delete")).toEqual([]);
  });

  test("reads leave no entry, the filter-bodied POST reads included", async () => {
    for (const [i, change] of CHANGES.slice(0, 3).entries()) await send(change, `setup-${i}`);
    await send(CHANGES[7], "setup-dl");
    await send(CHANGES[11], "setup-dt");
    const before = auditEntries().length;
    for (const [i, read] of READS.entries()) {
      const a = await send(read, `read-${i}`);
      expect({ op: read.op, status: a.status }).toEqual({ op: read.op, status: 200 });
    }
    expect(auditEntries().length).toBe(before);
  });
});
