import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf, type Json } from "../helpers/emulator";

const emu = useEmulator();

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

async function type(name = "pump", title = "Pump") {
  const a = await emu.post(pathOf(areas.assets.typeCreate), { name, title });
  expect(a.status).toBe(201);
}
async function asset(name: string, extra: Record<string, unknown> = {}) {
  const a = await emu.post(pathOf(areas.assets.create), { name, title: `Title ${name}`, asset_type_name: "pump", ...extra });
  expect(a.status).toBe(201);
  return a.body;
}
const names = (a: { body: { data: Array<{ name: string }> } }) => a.body.data.map((x) => x.name);

describe("Assets: create (facts §3.8 AssetCreate, §4.5 Asset record)", () => {
  beforeEach(() => type());

  test("create answers 201 with the full Asset record: path, type title, status unknown, properties, metadata", async () => {
    await asset("plant");
    const a = await emu.post(pathOf(areas.assets.create), {
      name: "pump-1",
      title: "Pump 1",
      asset_type_name: "pump",
      asset_parent_name: "plant",
      location: { lat: 48.1, lon: 11.5 },
      metadata: { vendor: { brand: "acme" } },
      properties: [{ name: "serial", title: "Serial number", value: "SN-1" }],
    });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({
      name: "pump-1",
      title: "Pump 1",
      path: "plant/pump-1",
      asset_type_name: "pump",
      asset_type_title: "Pump",
      asset_parent_name: "plant",
      location: { lat: 48.1, lon: 11.5 },
      metadata: { vendor: { brand: "acme" } },
      status: { state: "unknown" },
      properties: [{ name: "serial", title: "Serial number", value: "SN-1" }],
      created: expect.stringMatching(TIMESTAMP),
      updated: expect.stringMatching(TIMESTAMP),
    });
    const md = await emu.get(pathOf(areas.assets.metadataGet, { asset_name: "pump-1", asset_metadata_name: "vendor" }));
    expect(md.body).toMatchObject({ asset_name: "pump-1", name: "vendor", payload: { brand: "acme" } });
  });

  test("a root asset has no parent, no location and its own name as path", async () => {
    const a = await asset("plant");
    expect(a).toMatchObject({ path: "plant", asset_parent_name: null, location: null, metadata: {}, properties: [] });
  });

  test("a duplicate name answers 409", async () => {
    await asset("plant");
    const a = await emu.post(pathOf(areas.assets.create), { name: "plant", title: "Again", asset_type_name: "pump" });
    expectErrorBody(a, 409);
    expect(messages(a)).toMatch(/'plant' already exists/);
  });

  test("name 1..64 with the name charset, title and asset_type_name required: 400 naming the field", async () => {
    const bad = await emu.post(pathOf(areas.assets.create), { name: "Pump 1", title: "x", asset_type_name: "pump" });
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/body\.name/);
    const long = await emu.post(pathOf(areas.assets.create), { name: "a".repeat(65), title: "x", asset_type_name: "pump" });
    expect(messages(long)).toMatch(/body\.name: must be at most 64/);
    const noTitle = await emu.post(pathOf(areas.assets.create), { name: "p", asset_type_name: "pump" });
    expect(messages(noTitle)).toMatch(/body\.title: is required/);
    const extra = await emu.post(pathOf(areas.assets.create), { name: "p", title: "x", asset_type_name: "pump", colour: "red" });
    expect(messages(extra)).toMatch(/unknown field.*colour/);
  });

  test("asset_type_name must exist: 404 naming the type", async () => {
    const a = await emu.post(pathOf(areas.assets.create), { name: "p", title: "x", asset_type_name: "valve" });
    expectErrorBody(a, 404);
    expect(messages(a)).toMatch(/body\.asset_type_name: asset type 'valve' not found/);
    expect(emu.store.table("assets").size).toBe(0);
  });

  test("asset_parent_name must exist: 404 naming the parent", async () => {
    const a = await emu.post(pathOf(areas.assets.create), { name: "p", title: "x", asset_type_name: "pump", asset_parent_name: "ghost" });
    expectErrorBody(a, 404);
    expect(messages(a)).toMatch(/body\.asset_parent_name: asset 'ghost' not found/);
  });

  test("an explicit null is treated like an absent field", async () => {
    const a = await emu.post(pathOf(areas.assets.create), { name: "p", title: "x", asset_type_name: "pump", asset_parent_name: null, location: null, properties: null });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ asset_parent_name: null, location: null, properties: [] });
  });

  test("a rejected create (bad property) leaves nothing behind, metadata included", async () => {
    await asset("other", { properties: [{ name: "serial", title: "Serial", value: "1" }] });
    const a = await emu.post(pathOf(areas.assets.create), {
      name: "p",
      title: "x",
      asset_type_name: "pump",
      metadata: { m: { a: 1 } },
      properties: [{ name: "sn", title: "Serial", value: "2" }],
    });
    expectErrorBody(a, 409);
    expect(emu.store.table("assets").has("p")).toBe(false);
    expect(emu.store.table("asset_metadata").size).toBe(0);
  });

  test("the viewer (asset.read only) cannot create: 403", async () => {
    expectErrorBody(await emu.post(pathOf(areas.assets.create), { name: "p", title: "x", asset_type_name: "pump" }, { as: "viewer" }), 403);
  });
});

describe("Assets: get and list (facts §3.8, operations outside the spec)", () => {
  beforeEach(async () => {
    await type();
    await type("valve", "Valve");
  });

  test("GET /assets/{asset_name}/get answers the record; an unknown asset is 404", async () => {
    await asset("p1");
    const a = await emu.get(pathOf(areas.assets.get, { asset_name: "p1" }), undefined, { as: "viewer" });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ name: "p1", asset_type_title: "Pump" });
    const missing = await emu.get(pathOf(areas.assets.get, { asset_name: "nope" }));
    expectErrorBody(missing, 404);
    expect(messages(missing)).toMatch(/asset 'nope' not found/);
  });

  test("GET /assets/list filters by search[] (name or title), names[], asset_type_name[], status_state[]", async () => {
    await asset("p1", { title: "Main pump" });
    await asset("p2");
    await asset("v1", { asset_type_name: "valve" });
    expect(names(await emu.get(pathOf(areas.assets.list), { search: ["main"] }))).toEqual(["p1"]);
    expect(names(await emu.get(pathOf(areas.assets.list), { names: ["p2", "v1"] }))).toEqual(["p2", "v1"]);
    expect(names(await emu.get(pathOf(areas.assets.list), { asset_type_name: ["valve"] }))).toEqual(["v1"]);
    expect(names(await emu.get(pathOf(areas.assets.list), { status_state: ["unknown"] }))).toEqual(["p1", "p2", "v1"]);
    expect(names(await emu.get(pathOf(areas.assets.list), { status_state: ["online"] }))).toEqual([]);
    expectErrorBody(await emu.get(pathOf(areas.assets.list), { status_state: ["broken"] }), 400);
  });

  test("list items are full Asset records", async () => {
    await asset("p1", { properties: [{ name: "serial", value: 7 }] });
    const a = await emu.get(pathOf(areas.assets.list));
    expect(a.body.data[0]).toMatchObject({ name: "p1", path: "p1", properties: [{ name: "serial", title: "serial", value: "7" }], status: { state: "unknown" } });
  });

  test("sortable: asset.name, asset.title, asset.created, asset.updated, asset_type.title; others are 400", async () => {
    await asset("b", { title: "Zeta" });
    await asset("a", { title: "Alpha", asset_type_name: "valve" });
    await asset("c", { title: "Mid" });
    expect(names(await emu.get(pathOf(areas.assets.list)))).toEqual(["a", "b", "c"]);
    expect(names(await emu.get(pathOf(areas.assets.list), { sort_by: "asset.title" }))).toEqual(["a", "c", "b"]);
    expect(names(await emu.get(pathOf(areas.assets.list), { sort_by: "asset.title", sort_asc: false }))).toEqual(["b", "c", "a"]);
    expect(names(await emu.get(pathOf(areas.assets.list), { sort_by: "asset_type.title", sort_asc: false }))).toEqual(["a", "c", "b"]);
    expect((await emu.get(pathOf(areas.assets.list), { sort_by: "asset.created" })).status).toBe(200);
    expect((await emu.get(pathOf(areas.assets.list), { sort_by: "asset.updated" })).status).toBe(200);
    const bad = await emu.get(pathOf(areas.assets.list), { sort_by: "asset.path" });
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/query\.sort_by/);
  });

  test("paging: page_size 1..1000 (default 20), starting_after / ending_before cursors", async () => {
    for (let i = 0; i < 23; i++) await asset(`a${String(i).padStart(2, "0")}`);
    const first = await emu.get(pathOf(areas.assets.list));
    expect(first.body.data).toHaveLength(20);
    const p1 = await emu.get(pathOf(areas.assets.list), { page_size: 10 });
    const p2 = await emu.get(pathOf(areas.assets.list), { page_size: 10, starting_after: p1.body.pagination.next_page });
    expect(names(p2)[0]).toBe("a10");
    const back = await emu.get(pathOf(areas.assets.list), { page_size: 10, ending_before: p2.body.pagination.previous_page });
    expect(names(back)).toEqual(names(p1));
    expectErrorBody(await emu.get(pathOf(areas.assets.list), { page_size: 0 }), 400);
    expectErrorBody(await emu.get(pathOf(areas.assets.list), { page_size: 1001 }), 400);
  });

  test("POST /assets/list takes the filters in the body and the paging in the query", async () => {
    await asset("p1");
    await asset("p2");
    await asset("v1", { asset_type_name: "valve" });
    const a = await emu.call("POST", pathOf(areas.assets.filter), { body: { asset_type_name: ["pump"], search: ["p"] }, query: { page_size: 1, sort_asc: false } });
    expect(a.status).toBe(200);
    expect(names(a)).toEqual(["p2"]);
    const all = await emu.call("POST", pathOf(areas.assets.filter), { as: "viewer" });
    expect(names(all)).toEqual(["p1", "p2", "v1"]);
    expectErrorBody(await emu.post(pathOf(areas.assets.filter), { colour: ["red"] }), 400);
    // An audit entry is written only for changes; a filter-bodied read is none.
    expect(emu.store.table("audit_log").size).toBe(5);
  });
});

describe("Assets: update (facts §6.5 item 21: title required, omitted fields unchanged)", () => {
  beforeEach(async () => {
    await type();
    await type("valve", "Valve");
  });

  test("update without title is 400; with title it changes only what is sent", async () => {
    await asset("p1", { location: { lat: 1, lon: 2 }, properties: [{ name: "serial", value: "A" }] });
    const noTitle = await emu.post(pathOf(areas.assets.update, { asset_name: "p1" }), { asset_type_name: "valve" });
    expectErrorBody(noTitle, 400);
    expect(messages(noTitle)).toMatch(/body\.title: is required/);
    const a = await emu.post(pathOf(areas.assets.update, { asset_name: "p1" }), { title: "Renamed" });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ title: "Renamed", asset_type_name: "pump", location: { lat: 1, lon: 2 }, properties: [{ name: "serial", value: "A" }] });
  });

  test("asset_type_name changes the type and its title; an unknown type is 404 and changes nothing", async () => {
    await asset("p1");
    const a = await emu.post(pathOf(areas.assets.update, { asset_name: "p1" }), { title: "T", asset_type_name: "valve" });
    expect(a.body).toMatchObject({ asset_type_name: "valve", asset_type_title: "Valve" });
    const bad = await emu.post(pathOf(areas.assets.update, { asset_name: "p1" }), { title: "Other", asset_type_name: "ghost" });
    expectErrorBody(bad, 404);
    expect(messages(bad)).toMatch(/asset type 'ghost'/);
    expect((await emu.get(pathOf(areas.assets.get, { asset_name: "p1" }))).body.title).toBe("T");
  });

  test("sent properties are set (new ones created, values replaced); others stay", async () => {
    await asset("p1", {
      properties: [
        { name: "serial", value: "A" },
        { name: "rpm", value: 100 },
      ],
    });
    const a = await emu.post(pathOf(areas.assets.update, { asset_name: "p1" }), {
      title: "T",
      properties: [
        { name: "rpm", value: 120 },
        { name: "flow", value: [1, 2] },
      ],
    });
    expect(a.body.properties).toEqual([
      { name: "flow", title: "flow", value: "[1,2]" },
      { name: "rpm", title: "rpm", value: "120" },
      { name: "serial", title: "serial", value: "A" },
    ]);
  });

  test("a failing property rejects the whole update (never 207): nothing changes", async () => {
    await asset("p1");
    await asset("p2", { properties: [{ name: "serial", title: "Serial", value: "1" }] });
    const a = await emu.post(pathOf(areas.assets.update, { asset_name: "p1" }), {
      title: "Changed",
      properties: [
        { name: "ok", value: 1 },
        { name: "sn", title: "Serial", value: 2 },
      ],
    });
    expectErrorBody(a, 409);
    expect(messages(a)).toMatch(/body\.properties\[1\]\.title: the title 'Serial' belongs to property 'serial'/);
    const now = (await emu.get(pathOf(areas.assets.get, { asset_name: "p1" }))).body;
    expect(now).toMatchObject({ title: "Title p1", properties: [] });
  });

  test("changing asset_parent_name recomputes the path of the asset and its whole subtree", async () => {
    await asset("site");
    await asset("line");
    await asset("cell", { asset_parent_name: "line" });
    await asset("pump", { asset_parent_name: "cell" });
    const a = await emu.post(pathOf(areas.assets.update, { asset_name: "line" }), { title: "Line", asset_parent_name: "site" });
    expect(a.body).toMatchObject({ asset_parent_name: "site", path: "site/line" });
    expect((await emu.get(pathOf(areas.assets.get, { asset_name: "pump" }))).body.path).toBe("site/line/cell/pump");
  });

  test("a parent that is the asset itself or below it is a cycle: 400", async () => {
    await asset("line");
    await asset("cell", { asset_parent_name: "line" });
    const self = await emu.post(pathOf(areas.assets.update, { asset_name: "line" }), { title: "L", asset_parent_name: "line" });
    expectErrorBody(self, 400);
    const below = await emu.post(pathOf(areas.assets.update, { asset_name: "line" }), { title: "L", asset_parent_name: "cell" });
    expectErrorBody(below, 400);
    expect(messages(below)).toMatch(/body\.asset_parent_name: 'cell' is 'line' itself or lies below it/);
    expectErrorBody(await emu.post(pathOf(areas.assets.update, { asset_name: "line" }), { title: "L", asset_parent_name: "ghost" }), 404);
  });

  test("the asset name is not part of the body; an unknown asset is 404", async () => {
    await asset("p1");
    expectErrorBody(await emu.post(pathOf(areas.assets.update, { asset_name: "p1" }), { title: "x", name: "p9" }), 400);
    expectErrorBody(await emu.post(pathOf(areas.assets.update, { asset_name: "nope" }), { title: "x" }), 404);
  });
});

describe("Assets: delete (facts §1.2: 200 with an empty body)", () => {
  beforeEach(() => type());

  test("delete answers 200 empty and removes the asset with its metadata and properties", async () => {
    await asset("p1", { metadata: { m: { a: 1 } }, properties: [{ name: "serial", value: "1" }] });
    const a = await emu.post(pathOf(areas.assets.delete, { asset_name: "p1" }));
    expect(a.status).toBe(200);
    expect(a.text).toBe("");
    expectErrorBody(await emu.get(pathOf(areas.assets.get, { asset_name: "p1" })), 404);
    expect(emu.store.table("asset_metadata").size).toBe(0);
    expect(emu.store.table("asset_properties").size).toBe(0);
  });

  test("creating an asset of the same name again starts without the old metadata or properties", async () => {
    await asset("p1", { metadata: { m: { a: 1 } }, properties: [{ name: "serial", value: "1" }] });
    await emu.post(pathOf(areas.assets.delete, { asset_name: "p1" }));
    const again = await asset("p1");
    expect(again).toMatchObject({ metadata: {}, properties: [] });
  });

  test("delete is refused (409) while other assets name it as their parent, naming them", async () => {
    await asset("line");
    await asset("c1", { asset_parent_name: "line" });
    await asset("c2", { asset_parent_name: "line" });
    const a = await emu.post(pathOf(areas.assets.delete, { asset_name: "line" }));
    expectErrorBody(a, 409);
    expect(messages(a)).toMatch(/'line' is the parent of 'c1', 'c2'/);
    expect((await emu.get(pathOf(areas.assets.get, { asset_name: "line" }))).status).toBe(200);
  });

  test("an unknown asset is 404; the viewer is 403", async () => {
    expectErrorBody(await emu.post(pathOf(areas.assets.delete, { asset_name: "nope" })), 404);
    await asset("p1");
    expectErrorBody(await emu.post(pathOf(areas.assets.delete, { asset_name: "p1" }), undefined, { as: "viewer" }), 403);
  });
});

describe("Assets: bulk create and bulk delete (facts §3.8, §6.5 item 25)", () => {
  beforeEach(() => type());
  const item = (name: string, extra: Record<string, unknown> = {}) => ({ name, title: name, asset_type_name: "pump", ...extra });

  test("all succeed: 201 with a result per asset; parents in the batch come first whatever the order", async () => {
    const a = await emu.post(pathOf(areas.assets.bulkCreate), { assets: [item("child", { asset_parent_name: "root" }), item("root")] });
    expect(a.status).toBe(201);
    expect(a.body.results).toEqual([
      { name: "child", http_status_code: 201 },
      { name: "root", http_status_code: 201 },
    ]);
    expect((await emu.get(pathOf(areas.assets.get, { asset_name: "child" }))).body.path).toBe("root/child");
  });

  test("partial success: 207 with multiStatusBody; the good ones are created", async () => {
    await asset("taken");
    const a = await emu.post(pathOf(areas.assets.bulkCreate), { assets: [item("new1"), item("taken"), item("bad", { asset_type_name: "ghost" }), item("new2")] });
    expect(a.status).toBe(207);
    expect(a.body.results).toEqual([
      { name: "new1", http_status_code: 201 },
      { name: "taken", http_status_code: 409, message: [expect.stringContaining("body.assets[1].name")] },
      { name: "bad", http_status_code: 404, message: [expect.stringContaining("asset type 'ghost'")] },
      { name: "new2", http_status_code: 201 },
    ]);
    expect(names(await emu.get(pathOf(areas.assets.list)))).toEqual(["new1", "new2", "taken"]);
  });

  test("a loop of parents within the batch fails those items with 400", async () => {
    const a = await emu.post(pathOf(areas.assets.bulkCreate), { assets: [item("x", { asset_parent_name: "y" }), item("y", { asset_parent_name: "x" }), item("z")] });
    expect(a.status).toBe(207);
    expect(a.body.results.map((r: Json) => r.http_status_code)).toEqual([400, 400, 201]);
  });

  test("dry_run=true validates only: the same answer as a real run and nothing created", async () => {
    await asset("taken");
    const dry = await emu.post(pathOf(areas.assets.bulkCreate), { assets: [item("n1"), item("taken")] }, { query: { dry_run: true } });
    expect(dry.status).toBe(207);
    expect(dry.body.results.map((r: Json) => r.http_status_code)).toEqual([201, 409]);
    const clean = await emu.post(pathOf(areas.assets.bulkCreate), { assets: [item("n1")] }, { query: { dry_run: true } });
    expect(clean.status).toBe(201);
    expect(names(await emu.get(pathOf(areas.assets.list)))).toEqual(["taken"]);
  });

  test("at least one asset; each is validated like a single create", async () => {
    const empty = await emu.post(pathOf(areas.assets.bulkCreate), { assets: [] });
    expectErrorBody(empty, 400);
    expect(messages(empty)).toMatch(/body\.assets: must hold at least one/);
    const bad = await emu.post(pathOf(areas.assets.bulkCreate), { assets: [{ name: "x" }] });
    expect(messages(bad)).toMatch(/body\.assets\[0\]\.title/);
  });

  test("bulk delete: 200 empty when all go; a parent goes together with its children", async () => {
    await asset("line");
    await asset("c1", { asset_parent_name: "line" });
    const a = await emu.post(pathOf(areas.assets.bulkDelete), { names: ["line", "c1"] });
    expect(a.status).toBe(200);
    expect(a.text).toBe("");
    expect(emu.store.table("assets").size).toBe(0);
  });

  test("bulk delete: 207 with a result per name for unknown names and parents of remaining children", async () => {
    await asset("line");
    await asset("c1", { asset_parent_name: "line" });
    await asset("solo");
    const a = await emu.post(pathOf(areas.assets.bulkDelete), { names: ["line", "solo", "ghost"] });
    expect(a.status).toBe(207);
    expect(a.body.results).toEqual([
      { name: "line", http_status_code: 409, message: [expect.stringContaining("parent of 'c1'")] },
      { name: "solo", http_status_code: 200 },
      { name: "ghost", http_status_code: 404, message: ["asset 'ghost' not found"] },
    ]);
    expect(names(await emu.get(pathOf(areas.assets.list)))).toEqual(["c1", "line"]);
    expectErrorBody(await emu.post(pathOf(areas.assets.bulkDelete), { names: [] }), 400);
  });
});

describe("Asset hierarchy (spec: tree get, tree update)", () => {
  beforeEach(() => type());

  test("tree get answers `data`: the roots, with their children recursively, sorted by name", async () => {
    await asset("site");
    await asset("b-line", { asset_parent_name: "site" });
    await asset("a-line", { asset_parent_name: "site" });
    await asset("pump", { asset_parent_name: "a-line" });
    await asset("other");
    const a = await emu.get(pathOf(areas.assets.hierarchyGet), undefined, { as: "viewer" });
    expect(a.status).toBe(200);
    const leaf = (name: string, children: unknown[] = []) => ({ name, title: `Title ${name}`, status: { state: "unknown" }, asset_type_name: "pump", children });
    expect(a.body).toEqual({ data: [leaf("other"), leaf("site", [leaf("a-line", [leaf("pump")]), leaf("b-line")])] });
  });

  test("tree update re-parents the named assets as the tree says and recomputes paths", async () => {
    await asset("site");
    await asset("line", { asset_parent_name: "site" });
    await asset("pump", { asset_parent_name: "line" });
    await asset("spare");
    const a = await emu.post(pathOf(areas.assets.hierarchyUpdate), { data: [{ name: "line", children: [{ name: "spare" }] }, { name: "site" }] });
    expect(a.status).toBe(200);
    expect(a.text).toBe("");
    const get = async (n: string) => (await emu.get(pathOf(areas.assets.get, { asset_name: n }))).body;
    expect(await get("line")).toMatchObject({ asset_parent_name: null, path: "line" });
    expect(await get("spare")).toMatchObject({ asset_parent_name: "line", path: "line/spare" });
    // Left out of the tree: keeps its parent; its path follows the moved parent.
    expect(await get("pump")).toMatchObject({ asset_parent_name: "line", path: "line/pump" });
  });

  test("a tree read with tree get can be sent back unchanged", async () => {
    await asset("site");
    await asset("line", { asset_parent_name: "site" });
    const tree = (await emu.get(pathOf(areas.assets.hierarchyGet))).body;
    expect((await emu.post(pathOf(areas.assets.hierarchyUpdate), tree)).status).toBe(200);
    expect((await emu.get(pathOf(areas.assets.hierarchyGet))).body).toEqual(tree);
  });

  test("unknown names are 404, naming them; nothing changes", async () => {
    await asset("site");
    await asset("line");
    const a = await emu.post(pathOf(areas.assets.hierarchyUpdate), { data: [{ name: "site", children: [{ name: "line" }, { name: "ghost" }] }] });
    expectErrorBody(a, 404);
    expect(messages(a)).toMatch(/'ghost'/);
    expect((await emu.get(pathOf(areas.assets.get, { asset_name: "line" }))).body.asset_parent_name).toBeNull();
  });

  test("cycles are rejected with 400: a name inside its own subtree, or named twice", async () => {
    await asset("a");
    await asset("b");
    const cycle = await emu.post(pathOf(areas.assets.hierarchyUpdate), { data: [{ name: "a", children: [{ name: "b", children: [{ name: "a" }] }] }] });
    expectErrorBody(cycle, 400);
    expect(messages(cycle)).toMatch(/'a' appears inside its own subtree \(a \/ b \/ a\)/);
    const twice = await emu.post(pathOf(areas.assets.hierarchyUpdate), { data: [{ name: "a" }, { name: "b", children: [{ name: "a" }] }] });
    expectErrorBody(twice, 400);
    expect(messages(twice)).toMatch(/appears twice/);
  });

  test("a tree nested deeper than the limit is 400, not a server error", async () => {
    const deep = `{"data":[${'{"name":"a","children":['.repeat(5000)}{"name":"a"}${"]}".repeat(5000)}]}`;
    const a = await emu.call("POST", pathOf(areas.assets.hierarchyUpdate), { raw: deep, contentType: "application/json" });
    expectErrorBody(a, 400);
    expect(messages(a)).toMatch(/deeper than 64 levels/);
  });

  test("tree update needs asset.create (spec); the viewer is 403", async () => {
    expectErrorBody(await emu.post(pathOf(areas.assets.hierarchyUpdate), { data: [] }, { as: "viewer" }), 403);
  });
});

describe("Asset status (spec: status count; facts: status current)", () => {
  beforeEach(() => type());

  test("status count answers online, offline, partially_online, unknown and total", async () => {
    const empty = await emu.get(pathOf(areas.assets.statusCount));
    expect(empty.body).toEqual({ online: 0, offline: 0, partially_online: 0, unknown: 0, total: 0 });
    await asset("a");
    await asset("b");
    expect((await emu.get(pathOf(areas.assets.statusCount), undefined, { as: "viewer" })).body).toEqual({ online: 0, offline: 0, partially_online: 0, unknown: 2, total: 2 });
  });

  test("status current answers {data: [{name, state}]} for every asset", async () => {
    await asset("b");
    await asset("a");
    expect((await emu.get(pathOf(areas.assets.statusCurrent))).body).toEqual({
      data: [
        { name: "a", state: "unknown" },
        { name: "b", state: "unknown" },
      ],
    });
  });
});

describe("Routes: static segments next to /assets/{asset_name}/...", () => {
  beforeEach(() => type());

  test("assets named like the static segments are still fetched, updated and deleted by name", async () => {
    for (const n of ["class", "types", "hierarchy", "status", "bulk", "list"]) await asset(n);
    for (const n of ["class", "types", "hierarchy", "status", "bulk", "list"]) {
      const got = await emu.get(pathOf(areas.assets.get, { asset_name: n }));
      expect(got.status).toBe(200);
      expect(got.body.name).toBe(n);
      expect((await emu.post(pathOf(areas.assets.update, { asset_name: n }), { title: `New ${n}` })).body.title).toBe(`New ${n}`);
      expect((await emu.post(pathOf(areas.assets.metadataCreate, { asset_name: n }), { name: "m", payload: {} })).status).toBe(201);
    }
    for (const n of ["class", "hierarchy", "status", "list"]) expect((await emu.post(pathOf(areas.assets.delete, { asset_name: n }))).status).toBe(200);
  });

  test("the static routes win: /assets/list, /assets/class/..., /assets/types/..., /assets/bulk/delete", async () => {
    await asset("bulk");
    await asset("types");
    expect((await emu.get(pathOf(areas.assets.list))).body.data).toHaveLength(2);
    expect((await emu.get(pathOf(areas.assets.classList))).body).toEqual({ data: [], pagination: { next_page: null, previous_page: null } });
    expect((await emu.get(pathOf(areas.assets.typeList))).body.data[0].name).toBe("pump");
    // `/assets/bulk/delete` is bulk delete (it needs a body), so the asset `bulk` goes through it by name.
    expectErrorBody(await emu.post(pathOf(areas.assets.bulkDelete)), 400);
    expect((await emu.post(pathOf(areas.assets.bulkDelete), { names: ["bulk", "types"] })).status).toBe(200);
    expect(emu.store.table("assets").size).toBe(0);
  });
});
