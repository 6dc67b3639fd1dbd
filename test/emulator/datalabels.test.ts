import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf, type Json } from "../helpers/emulator";

const emu = useEmulator();

const T = (hms: string) => `2024-05-01T${hms}Z`;

/** A valid DataLabelCreate body. */
const body = (over: Record<string, unknown> = {}) => ({
  label_name: "anomaly",
  start_date: T("12:00:00.000000"),
  end_date: T("13:00:00.000000"),
  metrics: [{ asset_name: "pump-1", name: "temperature" }],
  source: { type: "user", info: {} },
  ...over,
});

async function createLabel(over: Record<string, unknown> = {}): Promise<Json> {
  const a = await emu.post(pathOf(areas.datalabels.create), body(over));
  expect(a.status).toBe(201);
  return a.body;
}

const ids = (a: { body: { data: Array<{ id: number }> } }) => a.body.data.map((d) => d.id);

describe("Data labels (spec Part 2, Data labels and labels)", () => {
  test("create answers 201 with an integer id, the dates in the API's form and the zero values of omitted fields", async () => {
    const a = await emu.post(pathOf(areas.datalabels.create), body({ start_date: "2024-05-01T14:00:00.1234567+02:00", end_date: T("13:00:00.5") }));
    expect(a.status).toBe(201);
    expect(a.body).toEqual({
      id: 1,
      label_name: "anomaly",
      description: "",
      confidence: 0,
      validation: false,
      start_date: "2024-05-01T12:00:00.123456Z",
      end_date: "2024-05-01T13:00:00.500000Z",
      info: {},
      metrics: [{ asset_name: "pump-1", name: "temperature" }],
      source: { type: "user", info: {} },
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      updated: expect.any(String),
    });
    expect((await createLabel()).id).toBe(2);
  });

  test("create: a label_name that does not exist creates a new label", async () => {
    expectErrorBody(await emu.get(pathOf(areas.datalabels.labelGet, { label_name: "leak" })), 404);
    await createLabel({ label_name: "leak" });
    const l = await emu.get(pathOf(areas.datalabels.labelGet, { label_name: "leak" }));
    expect(l.status).toBe(200);
    expect(l.body).toMatchObject({ name: "leak", title: "leak", metadata: {} });
  });

  test("create: end_date must lie after start_date, else 400 naming end_date", async () => {
    const equal = await emu.post(pathOf(areas.datalabels.create), body({ end_date: T("12:00:00.000000") }));
    expectErrorBody(equal, 400);
    expect(messages(equal)).toMatch(/body\.end_date: must be after start_date/);
    // One microsecond earlier is earlier: the comparison keeps microseconds.
    const before = await emu.post(pathOf(areas.datalabels.create), body({ start_date: T("12:00:00.000002"), end_date: T("12:00:00.000001") }));
    expectErrorBody(before, 400);
    expect((await emu.get(pathOf(areas.datalabels.list))).body.data).toEqual([]);
  });

  test("create: source.type is workload or user; required fields and unknown fields are 400 naming the field", async () => {
    const badSource = await emu.post(pathOf(areas.datalabels.create), body({ source: { type: "robot", info: {} } }));
    expectErrorBody(badSource, 400);
    expect(messages(badSource)).toMatch(/body\.source\.type/);
    const workload = await emu.post(pathOf(areas.datalabels.create), body({ source: { type: "workload", info: { name: "detector" } } }));
    expect(workload.body.source).toEqual({ type: "workload", info: { name: "detector" } });
    const { label_name: _l, ...noLabel } = body();
    expect(messages(await emu.post(pathOf(areas.datalabels.create), noLabel))).toMatch(/body\.label_name: is required/);
    expect(messages(await emu.post(pathOf(areas.datalabels.create), body({ colour: "red" })))).toMatch(/unknown field\(s\) 'colour'/);
    expect(messages(await emu.post(pathOf(areas.datalabels.create), body({ start_date: "yesterday" })))).toMatch(/body\.start_date: must be an RFC 3339/);
    expect(messages(await emu.post(pathOf(areas.datalabels.create), body({ confidence: 1.5 })))).toMatch(/body\.confidence/);
    expect(messages(await emu.post(pathOf(areas.datalabels.create), body({ metrics: [{ asset_name: "pump-1" }] })))).toMatch(/body\.metrics\[0\]\.name/);
  });

  test("create needs data_label.create: a viewer gets 403 and nothing is created", async () => {
    expectErrorBody(await emu.post(pathOf(areas.datalabels.create), body(), { as: "viewer" }), 403);
    expectErrorBody(await emu.post(pathOf(areas.datalabels.create), body(), { as: "none" }), 401);
    expect((await emu.get(pathOf(areas.datalabels.list), undefined, { as: "viewer" })).body.data).toEqual([]);
  });

  test("get answers the data label; an unknown id is 404 and a non-integer id is 400", async () => {
    const created = await createLabel({ description: "bearing noise", confidence: 80, validation: true, info: { by: "model-7" } });
    const a = await emu.get(pathOf(areas.datalabels.get, { datalabel_id: created.id }));
    expect(a.status).toBe(200);
    expect(a.body).toEqual(created);
    expectErrorBody(await emu.get(pathOf(areas.datalabels.get, { datalabel_id: "99" })), 404);
    const bad = await emu.get(pathOf(areas.datalabels.get, { datalabel_id: "abc" }));
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/path\.datalabel_id/);
  });

  test("update takes the create body: supplied metrics replace the whole list, omitted optional fields stay", async () => {
    const created = await createLabel({
      description: "first",
      confidence: 70,
      metrics: [
        { asset_name: "pump-1", name: "temperature" },
        { asset_name: "pump-1", name: "pressure" },
      ],
    });
    const a = await emu.post(pathOf(areas.datalabels.update, { datalabel_id: created.id }), {
      label_name: "anomaly",
      start_date: T("12:30:00"),
      end_date: T("14:00:00"),
      metrics: [{ asset_name: "pump-2", name: "flow" }],
    });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      id: created.id,
      description: "first",
      confidence: 70,
      start_date: T("12:30:00.000000"),
      end_date: T("14:00:00.000000"),
      metrics: [{ asset_name: "pump-2", name: "flow" }],
      source: { type: "user", info: {} },
      created: created.created,
    });
    // Without metrics the list stays as it is; an explicit null counts as absent.
    const b = await emu.post(pathOf(areas.datalabels.update, { datalabel_id: created.id }), {
      label_name: "anomaly",
      start_date: T("12:30:00"),
      end_date: T("14:00:00"),
      description: null,
    });
    expect(b.body.metrics).toEqual([{ asset_name: "pump-2", name: "flow" }]);
    expect(b.body.description).toBe("first");
  });

  test("update: a label_name that does not exist creates the label; unknown id 404; end before start 400", async () => {
    const created = await createLabel();
    const a = await emu.post(pathOf(areas.datalabels.update, { datalabel_id: created.id }), body({ label_name: "cavitation" }));
    expect(a.body.label_name).toBe("cavitation");
    expect((await emu.get(pathOf(areas.datalabels.labelGet, { label_name: "cavitation" }))).status).toBe(200);
    expectErrorBody(await emu.post(pathOf(areas.datalabels.update, { datalabel_id: "42" }), body()), 404);
    const bad = await emu.post(pathOf(areas.datalabels.update, { datalabel_id: created.id }), body({ end_date: T("11:00:00") }));
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/body\.end_date/);
    expect((await emu.get(pathOf(areas.datalabels.get, { datalabel_id: created.id }))).body.label_name).toBe("cavitation");
  });

  test("delete answers 200 with an empty body; the label is gone; an unknown id is 404", async () => {
    const created = await createLabel();
    const a = await emu.post(pathOf(areas.datalabels.delete, { datalabel_id: created.id }));
    expect(a.status).toBe(200);
    expect(a.text).toBe("");
    expectErrorBody(await emu.get(pathOf(areas.datalabels.get, { datalabel_id: created.id })), 404);
    expectErrorBody(await emu.post(pathOf(areas.datalabels.delete, { datalabel_id: created.id })), 404);
  });

  test("list: newest first by default (sort_asc false), search on description and label name", async () => {
    await createLabel({ description: "Bearing noise" });
    await createLabel({ label_name: "leak" });
    await createLabel({ description: "valve stuck" });
    expect(ids(await emu.get(pathOf(areas.datalabels.list)))).toEqual([3, 2, 1]);
    expect(ids(await emu.get(pathOf(areas.datalabels.list), { sort_asc: true }))).toEqual([1, 2, 3]);
    expect(ids(await emu.get(pathOf(areas.datalabels.list), { search: ["bearing"] }))).toEqual([1]);
    expect(ids(await emu.get(pathOf(areas.datalabels.list), { search: ["LEAK", "valve"] }))).toEqual([3, 2]);
  });

  test("list: page_size 1..1000, starting_after/ending_before cursors, sort_by only data_label.id", async () => {
    for (let i = 0; i < 5; i++) await createLabel();
    const p1 = await emu.get(pathOf(areas.datalabels.list), { page_size: 2 });
    expect(ids(p1)).toEqual([5, 4]);
    const p2 = await emu.get(pathOf(areas.datalabels.list), { page_size: 2, starting_after: p1.body.pagination.next_page });
    expect(ids(p2)).toEqual([3, 2]);
    const back = await emu.get(pathOf(areas.datalabels.list), { page_size: 2, ending_before: p2.body.pagination.previous_page });
    expect(ids(back)).toEqual([5, 4]);
    expect((await emu.get(pathOf(areas.datalabels.list))).body.data).toHaveLength(5);
    expectErrorBody(await emu.get(pathOf(areas.datalabels.list), { page_size: 0 }), 400);
    expectErrorBody(await emu.get(pathOf(areas.datalabels.list), { page_size: 1001 }), 400);
    const badSort = await emu.get(pathOf(areas.datalabels.list), { sort_by: "data_label.start_date" });
    expectErrorBody(badSort, 400);
    expect(messages(badSort)).toMatch(/query\.sort_by/);
  });
});

describe("Data label filter, range and clustering (spec: filter semantics)", () => {
  /** Four labels over two label names, two assets and four hours. */
  async function seed() {
    await createLabel({ label_name: "anomaly", start_date: T("10:00:00.000001"), end_date: T("10:30:00"), metrics: [{ asset_name: "pump-1", name: "temperature" }] });
    await createLabel({ label_name: "leak", start_date: T("10:45:00"), end_date: T("11:15:00"), metrics: [{ asset_name: "pump-2", name: "flow" }] });
    await createLabel({ label_name: "anomaly", start_date: T("12:00:00"), end_date: T("12:10:00.999999"), metrics: [{ asset_name: "pump-2", name: "pressure" }] });
    await createLabel({
      label_name: "normal",
      start_date: T("13:00:00"),
      end_date: T("14:00:00"),
      metrics: [
        { asset_name: "pump-1", name: "temperature" },
        { asset_name: "pump-2", name: "flow" },
      ],
    });
  }
  const filter = (f: unknown, query?: Record<string, string | number | boolean>) => emu.call("POST", pathOf(areas.datalabels.filter), { body: f, query });

  test("filter: label_names matches any of the names (OR); an empty or absent body matches everything", async () => {
    await seed();
    expect(ids(await filter({ label_names: ["anomaly", "leak"] }))).toEqual([3, 2, 1]);
    expect(ids(await filter({}))).toEqual([4, 3, 2, 1]);
    expect(ids(await emu.call("POST", pathOf(areas.datalabels.filter)))).toEqual([4, 3, 2, 1]);
  });

  test("filter: metrics matches any of the given metrics (OR), by asset and metric name together", async () => {
    await seed();
    expect(ids(await filter({ metrics: [{ asset_name: "pump-2", name: "flow" }] }))).toEqual([4, 2]);
    expect(
      ids(
        await filter({
          metrics: [
            { asset_name: "pump-2", name: "flow" },
            { asset_name: "pump-2", name: "pressure" },
          ],
        }),
      ),
    ).toEqual([4, 3, 2]);
    expect(ids(await filter({ metrics: [{ asset_name: "pump-1", name: "flow" }] }))).toEqual([]);
  });

  test("filter: start_date selects labels starting at or after it, end_date those ending at or before it, at microsecond precision", async () => {
    await seed();
    expect(ids(await filter({ start_date: T("10:00:00.000001") }))).toEqual([4, 3, 2, 1]);
    expect(ids(await filter({ start_date: T("10:00:00.000002") }))).toEqual([4, 3, 2]);
    expect(ids(await filter({ end_date: T("12:10:00.999999") }))).toEqual([3, 2, 1]);
    expect(ids(await filter({ end_date: T("12:10:00.999998") }))).toEqual([2, 1]);
    // An offset is the same instant: 12:00 at +02:00 is 10:00Z.
    expect(ids(await filter({ start_date: "2024-05-01T12:00:00.000002+02:00" }))).toEqual([4, 3, 2]);
  });

  test("filter: the filters are combined with AND", async () => {
    await seed();
    expect(ids(await filter({ label_names: ["anomaly"], metrics: [{ asset_name: "pump-2", name: "pressure" }] }))).toEqual([3]);
    expect(ids(await filter({ label_names: ["anomaly", "normal"], start_date: T("11:00:00"), end_date: T("13:00:00") }))).toEqual([3]);
  });

  test("filter: paging stays in the query (page_size, starting_after, sort_asc); bad bodies are 400 naming the field", async () => {
    await seed();
    const p1 = await filter({ label_names: ["anomaly", "leak", "normal"] }, { page_size: 2, sort_asc: true });
    expect(ids(p1)).toEqual([1, 2]);
    expect(ids(await filter({ label_names: ["anomaly", "leak", "normal"] }, { page_size: 2, sort_asc: true, starting_after: p1.body.pagination.next_page }))).toEqual([3, 4]);
    const unknown = await filter({ labels: ["x"] });
    expectErrorBody(unknown, 400);
    expect(messages(unknown)).toMatch(/unknown field\(s\) 'labels'/);
    expect(messages(await filter({ start_date: "May 1st" }))).toMatch(/body\.start_date/);
    expectErrorBody(await filter({}, { page_size: 5000 }), 400);
  });

  test("filter is a read: a viewer may use it", async () => {
    await seed();
    expect(ids(await emu.call("POST", pathOf(areas.datalabels.filter), { body: { label_names: ["leak"] }, as: "viewer" }))).toEqual([2]);
  });

  test("range answers a stream: application/x-json-stream, one DataLabel per line, in start_date order", async () => {
    await seed();
    const a = await emu.post(pathOf(areas.datalabels.rangeGet), { label_names: ["anomaly", "normal"], end_date: T("23:00:00") });
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toBe("application/x-json-stream");
    const lines = a.text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual([1, 3, 4]);
    expect(lines[0]).toEqual((await emu.get(pathOf(areas.datalabels.get, { datalabel_id: "1" }))).body);
    const none = await emu.post(pathOf(areas.datalabels.rangeGet), { label_names: ["missing"] });
    expect(none.text).toBe("");
    expectErrorBody(await emu.post(pathOf(areas.datalabels.rangeGet), { start_date: 5 }), 400);
  });

  test("clustering aggregates the matching labels per time bucket: count, label_names, start_date, end_date", async () => {
    await seed();
    const a = await emu.post(pathOf(areas.datalabels.clusteringGet), { time_bucket: "1h" });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      data: [
        { count: 2, label_names: ["anomaly", "leak"], start_date: T("10:00:00.000001"), end_date: T("11:15:00.000000") },
        { count: 1, label_names: ["anomaly"], start_date: T("12:00:00.000000"), end_date: T("12:10:00.999999") },
        { count: 1, label_names: ["normal"], start_date: T("13:00:00.000000"), end_date: T("14:00:00.000000") },
      ],
    });
    const wide = await emu.post(pathOf(areas.datalabels.clusteringGet), { time_bucket: "1h30m", label_names: ["anomaly"] });
    expect(wide.body.data).toEqual([
      { count: 1, label_names: ["anomaly"], start_date: T("10:00:00.000001"), end_date: T("10:30:00.000000") },
      { count: 1, label_names: ["anomaly"], start_date: T("12:00:00.000000"), end_date: T("12:10:00.999999") },
    ]);
    const day = await emu.post(pathOf(areas.datalabels.clusteringGet), { time_bucket: "24h", start_date: T("10:30:00") });
    expect(day.body.data).toEqual([{ count: 3, label_names: ["anomaly", "leak", "normal"], start_date: T("10:45:00.000000"), end_date: T("14:00:00.000000") }]);
  });

  test("clustering: time_bucket takes Go duration syntax (90s, 1.5h, 500ms, 2h45m); anything else is 400 naming time_bucket", async () => {
    await seed();
    for (const d of ["90s", "1.5h", "500ms", "2h45m", "1000us", "1µs"]) {
      expect((await emu.post(pathOf(areas.datalabels.clusteringGet), { time_bucket: d })).status).toBe(200);
    }
    expect((await emu.post(pathOf(areas.datalabels.clusteringGet), { time_bucket: "90s" })).body.data).toHaveLength(4);
    for (const d of ["1 hour", "1d", "h", "", "0", "-1h", "10ns", "1h30"]) {
      const bad = await emu.post(pathOf(areas.datalabels.clusteringGet), { time_bucket: d });
      expectErrorBody(bad, 400);
      expect(messages(bad)).toMatch(/body\.time_bucket/);
    }
    expect(messages(await emu.post(pathOf(areas.datalabels.clusteringGet), {}))).toMatch(/body\.time_bucket: is required/);
  });
});

describe("Labels (spec Part 2, Data labels and labels)", () => {
  test("create answers 201 with name, title and metadata; a duplicate is 409; a bad name is 400", async () => {
    const a = await emu.post(pathOf(areas.datalabels.labelCreate), { name: "anomaly", title: "Anomaly" });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({ name: "anomaly", title: "Anomaly", metadata: {}, created: expect.any(String), updated: expect.any(String) });
    expectErrorBody(await emu.post(pathOf(areas.datalabels.labelCreate), { name: "anomaly", title: "Again" }), 409);
    const bad = await emu.post(pathOf(areas.datalabels.labelCreate), { name: "Not A Name", title: "x" });
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/body\.name/);
    expect(messages(await emu.post(pathOf(areas.datalabels.labelCreate), { name: "x1" }))).toMatch(/body\.title: is required/);
  });

  test("create with metadata creates the metadata records and answers them", async () => {
    const a = await emu.post(pathOf(areas.datalabels.labelCreate), { name: "leak", title: "Leak", metadata: { colour: { hex: "#f00" } } });
    expect(a.body.metadata).toEqual({ colour: { hex: "#f00" } });
    expect((await emu.get(pathOf(areas.datalabels.labelMetadataGet, { label_name: "leak", label_metadata_name: "colour" }))).body).toMatchObject({
      label_name: "leak",
      name: "colour",
      payload: { hex: "#f00" },
    });
  });

  test("list: names[], search[] on name or title, sort by label.name, paging", async () => {
    for (const [name, title] of [
      ["anomaly", "Anomaly"],
      ["leak", "Water leak"],
      ["normal", "Normal operation"],
    ]) {
      await emu.post(pathOf(areas.datalabels.labelCreate), { name, title });
    }
    const names = (a: Json) => a.body.data.map((l: Json) => l.name);
    expect(names(await emu.get(pathOf(areas.datalabels.labelList)))).toEqual(["anomaly", "leak", "normal"]);
    expect(names(await emu.get(pathOf(areas.datalabels.labelList), { sort_asc: false }))).toEqual(["normal", "leak", "anomaly"]);
    expect(names(await emu.get(pathOf(areas.datalabels.labelList), { names: ["leak", "normal", "other"] }))).toEqual(["leak", "normal"]);
    expect(names(await emu.get(pathOf(areas.datalabels.labelList), { search: ["WATER"] }))).toEqual(["leak"]);
    expect(names(await emu.get(pathOf(areas.datalabels.labelList), { search: ["norm", "anom"] }))).toEqual(["anomaly", "normal"]);
    const p1 = await emu.get(pathOf(areas.datalabels.labelList), { page_size: 2 });
    expect(names(await emu.get(pathOf(areas.datalabels.labelList), { page_size: 2, starting_after: p1.body.pagination.next_page }))).toEqual(["normal"]);
    expectErrorBody(await emu.get(pathOf(areas.datalabels.labelList), { sort_by: "label.title" }), 400);
  });

  test("list: metadata[] injects the named metadata; metadata_filter[] is OR within a metadata name, AND across names", async () => {
    await emu.post(pathOf(areas.datalabels.labelCreate), { name: "anomaly", title: "A", metadata: { colour: { hex: "red" }, severity: { level: 3 } } });
    await emu.post(pathOf(areas.datalabels.labelCreate), { name: "leak", title: "L", metadata: { colour: { hex: "blue" }, severity: { level: 1 } } });
    await emu.post(pathOf(areas.datalabels.labelCreate), { name: "normal", title: "N", metadata: { colour: { hex: "green" } } });
    const names = (a: Json) => a.body.data.map((l: Json) => l.name);
    const injected = await emu.get(pathOf(areas.datalabels.labelList), { metadata: ["colour"] });
    expect(injected.body.data.map((l: Json) => l.metadata)).toEqual([{ colour: { hex: "red" } }, { colour: { hex: "blue" } }, { colour: { hex: "green" } }]);
    expect((await emu.get(pathOf(areas.datalabels.labelList))).body.data[0].metadata).toEqual({});
    expect(names(await emu.get(pathOf(areas.datalabels.labelList), { metadata_filter: ["colour.hex=red", "colour.hex=green"] }))).toEqual(["anomaly", "normal"]);
    expect(names(await emu.get(pathOf(areas.datalabels.labelList), { metadata_filter: ["colour.hex=red", "colour.hex=green", "severity.level=3"] }))).toEqual(["anomaly"]);
    expectErrorBody(await emu.get(pathOf(areas.datalabels.labelList), { metadata_filter: ["colour-red"] }), 400);
  });

  test("get with metadata[] injects the named metadata; an unknown label is 404", async () => {
    await emu.post(pathOf(areas.datalabels.labelCreate), { name: "anomaly", title: "A", metadata: { colour: { hex: "red" }, severity: { level: 3 } } });
    const a = await emu.get(pathOf(areas.datalabels.labelGet, { label_name: "anomaly" }), { metadata: ["severity", "missing"] });
    expect(a.body).toMatchObject({ name: "anomaly", title: "A", metadata: { severity: { level: 3 } } });
    expect(Object.keys(a.body.metadata)).toEqual(["severity"]);
    expectErrorBody(await emu.get(pathOf(areas.datalabels.labelGet, { label_name: "nope" })), 404);
  });

  test("update changes the title; an omitted title stays; an unknown label is 404", async () => {
    await emu.post(pathOf(areas.datalabels.labelCreate), { name: "anomaly", title: "A" });
    const a = await emu.post(pathOf(areas.datalabels.labelUpdate, { label_name: "anomaly" }), { title: "Anomaly" });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ name: "anomaly", title: "Anomaly" });
    expect((await emu.post(pathOf(areas.datalabels.labelUpdate, { label_name: "anomaly" }), {})).body.title).toBe("Anomaly");
    expectErrorBody(await emu.post(pathOf(areas.datalabels.labelUpdate, { label_name: "nope" }), { title: "x" }), 404);
    expectErrorBody(await emu.post(pathOf(areas.datalabels.labelUpdate, { label_name: "anomaly" }), { name: "other" }), 400);
  });

  test("delete: 409 naming the data labels that use the label; once they are gone, 200 and its metadata goes too", async () => {
    await emu.post(pathOf(areas.datalabels.labelCreate), { name: "anomaly", title: "A", metadata: { colour: { hex: "red" } } });
    const dl = await createLabel({ label_name: "anomaly" });
    const refused = await emu.post(pathOf(areas.datalabels.labelDelete, { label_name: "anomaly" }));
    expectErrorBody(refused, 409);
    expect(messages(refused)).toMatch(new RegExp(`used by data labels ${dl.id}`));
    expect((await emu.get(pathOf(areas.datalabels.labelGet, { label_name: "anomaly" }))).status).toBe(200);
    await emu.post(pathOf(areas.datalabels.delete, { datalabel_id: dl.id }));
    const a = await emu.post(pathOf(areas.datalabels.labelDelete, { label_name: "anomaly" }));
    expect(a.status).toBe(200);
    expect(a.text).toBe("");
    expectErrorBody(await emu.get(pathOf(areas.datalabels.labelGet, { label_name: "anomaly" })), 404);
    expect([...emu.store.table("label_metadata").values()]).toEqual([]);
    expectErrorBody(await emu.post(pathOf(areas.datalabels.labelDelete, { label_name: "anomaly" })), 404);
  });
});

describe("Label metadata (spec Part 2, Data labels and labels)", () => {
  beforeEach(async () => {
    await emu.post(pathOf(areas.datalabels.labelCreate), { name: "anomaly", title: "A" });
    await emu.post(pathOf(areas.datalabels.labelCreate), { name: "leak", title: "L" });
  });

  test("single create answers 201 with the record; a duplicate is 409; an unknown label is 404", async () => {
    const a = await emu.post(pathOf(areas.datalabels.labelMetadataCreate, { label_name: "anomaly" }), { name: "colour", payload: { hex: "red" } });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({ label_name: "anomaly", name: "colour", payload: { hex: "red" }, created: expect.any(String), updated: expect.any(String) });
    expectErrorBody(await emu.post(pathOf(areas.datalabels.labelMetadataCreate, { label_name: "anomaly" }), { name: "colour", payload: {} }), 409);
    expectErrorBody(await emu.post(pathOf(areas.datalabels.labelMetadataCreate, { label_name: "nope" }), { name: "colour", payload: {} }), 404);
    expect(messages(await emu.post(pathOf(areas.datalabels.labelMetadataCreate, { label_name: "anomaly" }), { name: "size" }))).toMatch(/body\.payload: is required/);
  });

  test("get, update (replaces the payload) and delete; unknown records are 404", async () => {
    await emu.post(pathOf(areas.datalabels.labelMetadataCreate, { label_name: "anomaly" }), { name: "colour", payload: { hex: "red", alpha: 1 } });
    const u = await emu.post(pathOf(areas.datalabels.labelMetadataUpdate, { label_name: "anomaly", label_metadata_name: "colour" }), { payload: { hex: "blue" } });
    expect(u.status).toBe(200);
    expect(u.body.payload).toEqual({ hex: "blue" });
    expect((await emu.get(pathOf(areas.datalabels.labelMetadataGet, { label_name: "anomaly", label_metadata_name: "colour" }))).body.payload).toEqual({ hex: "blue" });
    expectErrorBody(await emu.get(pathOf(areas.datalabels.labelMetadataGet, { label_name: "anomaly", label_metadata_name: "size" })), 404);
    expectErrorBody(await emu.post(pathOf(areas.datalabels.labelMetadataUpdate, { label_name: "anomaly", label_metadata_name: "size" }), { payload: {} }), 404);
    const d = await emu.post(pathOf(areas.datalabels.labelMetadataDelete, { label_name: "anomaly", label_metadata_name: "colour" }));
    expect(d.status).toBe(200);
    expectErrorBody(await emu.get(pathOf(areas.datalabels.labelMetadataGet, { label_name: "anomaly", label_metadata_name: "colour" })), 404);
    expectErrorBody(await emu.post(pathOf(areas.datalabels.labelMetadataDelete, { label_name: "anomaly", label_metadata_name: "colour" })), 404);
  });

  test("list: a label's records, search[] on name, sortable by label_metadata.name; unknown label 404", async () => {
    for (const n of ["colour", "severity", "owner"]) await emu.post(pathOf(areas.datalabels.labelMetadataCreate, { label_name: "anomaly" }), { name: n, payload: {} });
    await emu.post(pathOf(areas.datalabels.labelMetadataCreate, { label_name: "leak" }), { name: "colour", payload: {} });
    const names = (a: Json) => a.body.data.map((m: Json) => m.name);
    expect(names(await emu.get(pathOf(areas.datalabels.labelMetadataList, { label_name: "anomaly" })))).toEqual(["colour", "owner", "severity"]);
    expect(names(await emu.get(pathOf(areas.datalabels.labelMetadataList, { label_name: "anomaly" }), { sort_asc: false }))).toEqual(["severity", "owner", "colour"]);
    expect(names(await emu.get(pathOf(areas.datalabels.labelMetadataList, { label_name: "anomaly" }), { search: ["OWN"] }))).toEqual(["owner"]);
    expect((await emu.get(pathOf(areas.datalabels.labelMetadataList, { label_name: "anomaly" }), { sort_by: "label_metadata.label_name" })).status).toBe(200);
    expectErrorBody(await emu.get(pathOf(areas.datalabels.labelMetadataList, { label_name: "nope" })), 404);
  });

  test("bulk create: all created answers 201 with no body", async () => {
    const a = await emu.post(pathOf(areas.datalabels.labelMetadataBulkCreate), [
      { label_name: "anomaly", name: "colour", payload: { hex: "red" } },
      { label_name: "leak", name: "colour", payload: { hex: "blue" } },
    ]);
    expect(a.status).toBe(201);
    expect(a.text).toBe("");
    expect((await emu.get(pathOf(areas.datalabels.labelMetadataGet, { label_name: "leak", label_metadata_name: "colour" }))).body.payload).toEqual({ hex: "blue" });
  });

  test("bulk create: partial failure answers 207 with a result per item and keeps the created ones", async () => {
    await emu.post(pathOf(areas.datalabels.labelMetadataCreate, { label_name: "anomaly" }), { name: "colour", payload: {} });
    const a = await emu.post(pathOf(areas.datalabels.labelMetadataBulkCreate), [
      { label_name: "anomaly", name: "colour", payload: {} },
      { label_name: "nope", name: "colour", payload: {} },
      { label_name: "leak", name: "colour", payload: { hex: "blue" } },
    ]);
    expect(a.status).toBe(207);
    expect(a.body.results).toEqual([
      { name: "anomaly/colour", http_status_code: 409, message: [expect.stringContaining("already exists")] },
      { name: "nope/colour", http_status_code: 404, message: [expect.stringContaining("label 'nope' not found")] },
      { name: "leak/colour", http_status_code: 201 },
    ]);
    expect((await emu.get(pathOf(areas.datalabels.labelMetadataGet, { label_name: "leak", label_metadata_name: "colour" }))).status).toBe(200);
  });

  test("bulk create: when every item fails the call is rejected and nothing changes; an empty list is 400", async () => {
    const a = await emu.post(pathOf(areas.datalabels.labelMetadataBulkCreate), [{ label_name: "nope", name: "colour", payload: {} }]);
    expectErrorBody(a, 404);
    expectErrorBody(await emu.post(pathOf(areas.datalabels.labelMetadataBulkCreate), []), 400);
    expect(messages(await emu.post(pathOf(areas.datalabels.labelMetadataBulkCreate), [{ label_name: "leak", payload: {} }]))).toMatch(/body\[0\]\.name/);
    expect([...emu.store.table("label_metadata").values()]).toEqual([]);
  });

  test("bulk delete {label_name, names}: 200 when all are deleted, 207 naming the missing ones, 404 for an unknown label", async () => {
    for (const n of ["colour", "severity", "owner"]) await emu.post(pathOf(areas.datalabels.labelMetadataCreate, { label_name: "anomaly" }), { name: n, payload: {} });
    const all = await emu.post(pathOf(areas.datalabels.labelMetadataBulkDelete), { label_name: "anomaly", names: ["colour", "owner"] });
    expect(all.status).toBe(200);
    const partial = await emu.post(pathOf(areas.datalabels.labelMetadataBulkDelete), { label_name: "anomaly", names: ["severity", "colour"] });
    expect(partial.status).toBe(207);
    expect(partial.body.results).toEqual([
      { name: "severity", http_status_code: 200 },
      { name: "colour", http_status_code: 404, message: [expect.stringContaining("not found")] },
    ]);
    expect((await emu.get(pathOf(areas.datalabels.labelMetadataList, { label_name: "anomaly" }))).body.data).toEqual([]);
    expectErrorBody(await emu.post(pathOf(areas.datalabels.labelMetadataBulkDelete), { label_name: "nope", names: ["colour"] }), 404);
    expectErrorBody(await emu.post(pathOf(areas.datalabels.labelMetadataBulkDelete), { label_name: "anomaly", names: [] }), 400);
  });
});
