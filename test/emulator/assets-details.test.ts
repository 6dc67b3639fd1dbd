import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf, type Json } from "../helpers/emulator";

const emu = useEmulator();

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const names = (a: { body: { data: Array<{ name: string }> } }) => a.body.data.map((x) => x.name);

async function created(path: string, body: unknown) {
  const a = await emu.post(path, body);
  expect(a.status).toBe(201);
  return a.body;
}
const type = (name: string, title = name.toUpperCase(), extra: Record<string, unknown> = {}) => created("/assets/types/create", { name, title, ...extra });
const asset = (name: string, extra: Record<string, unknown> = {}) => created("/assets/create", { name, title: name, asset_type_name: "pump", ...extra });

describe("Asset properties (spec: create, get, list, update, delete; facts §6.5 item 24)", () => {
  beforeEach(async () => {
    await type("pump");
    await asset("p1");
    await asset("p2");
  });

  test("create answers 201 with {asset_name, name, title, value, created, updated}", async () => {
    const p = await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name: "serial", title: "Serial number", value: "SN-1" });
    expect(p.status).toBe(201);
    expect(p.body).toEqual({
      asset_name: "p1",
      name: "serial",
      title: "Serial number",
      value: "SN-1",
      created: expect.stringMatching(TIMESTAMP),
      updated: expect.stringMatching(TIMESTAMP),
    });
    expect((await emu.get(pathOf(areas.assets.get, { asset_name: "p1" }))).body.properties).toEqual([{ name: "serial", title: "Serial number", value: "SN-1" }]);
  });

  test("the value accepts string, number, boolean or an array of one of these, and is stored as text", async () => {
    const value = async (name: string, v: unknown) => (await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name, value: v })).body.value;
    expect(await value("s", "abc")).toBe("abc");
    expect(await value("n", 1.5)).toBe("1.5");
    expect(await value("b", true)).toBe("true");
    expect(await value("an", [1, 2])).toBe("[1,2]");
    expect(await value("as", ["x", "y"])).toBe('["x","y"]');
    expect(await value("ab", [false])).toBe("[false]");
    for (const bad of [null, { a: 1 }, [1, "x"], [[1]]]) {
      const a = await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name: "bad", value: bad });
      expectErrorBody(a, 400);
      expect(messages(a)).toMatch(/body\.value/);
    }
  });

  test("a name already defined anywhere keeps its title: the sent title is ignored", async () => {
    await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name: "serial", title: "Serial number", value: "1" });
    const p = await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p2" }), { name: "serial", title: "Something else", value: "2" });
    expect(p.status).toBe(201);
    expect(p.body.title).toBe("Serial number");
  });

  test("a title already used by a different property name is 409", async () => {
    await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name: "serial", title: "Serial number", value: "1" });
    const a = await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p2" }), { name: "sn", title: "Serial number", value: "2" });
    expectErrorBody(a, 409);
    expect(messages(a)).toMatch(/body\.title: the title 'Serial number' belongs to property 'serial'/);
  });

  test("without a title a new property is titled with its name; the same property twice on one asset is 409", async () => {
    expect((await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name: "rpm", value: 1 })).body.title).toBe("rpm");
    const again = await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name: "rpm", value: 2 });
    expectErrorBody(again, 409);
    expect(messages(again)).toMatch(/property 'rpm' of asset 'p1' already exists/);
  });

  test("the same name twice in one asset body is 400", async () => {
    const a = await emu.post(pathOf(areas.assets.create), {
      name: "p3",
      title: "x",
      asset_type_name: "pump",
      properties: [
        { name: "a", value: 1 },
        { name: "a", value: 2 },
      ],
    });
    expectErrorBody(a, 400);
    expect(messages(a)).toMatch(/body\.properties\[1\]\.name: property 'a' is sent twice/);
  });

  test("get answers the property; unknown asset or property is 404", async () => {
    await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name: "rpm", value: 1 });
    expect((await emu.get(pathOf(areas.assets.propertyGet, { asset_name: "p1", asset_property_name: "rpm" }), undefined, { as: "viewer" })).body).toMatchObject({
      name: "rpm",
      value: "1",
    });
    const missing = await emu.get(pathOf(areas.assets.propertyGet, { asset_name: "p1", asset_property_name: "flow" }));
    expectErrorBody(missing, 404);
    expect(messages(missing)).toMatch(/property 'flow' of asset 'p1' not found/);
    expectErrorBody(await emu.get(pathOf(areas.assets.propertyGet, { asset_name: "ghost", asset_property_name: "rpm" })), 404);
    expectErrorBody(await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "ghost" }), { name: "rpm", value: 1 }), 404);
  });

  test("list: search on name, title or value; sortable asset_property.name, .title, .value, .created, .updated", async () => {
    await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name: "a-rpm", title: "Speed", value: 300 });
    await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name: "b-flow", title: "Flow", value: 20 });
    await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name: "c-vendor", title: "Vendor", value: "acme" });
    await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p2" }), { name: "other", value: 1 });
    const list = (q: Record<string, Json>) => emu.get(pathOf(areas.assets.propertyList, { asset_name: "p1" }), q);
    expect(names(await list({}))).toEqual(["a-rpm", "b-flow", "c-vendor"]);
    expect(names(await list({ search: ["speed"] }))).toEqual(["a-rpm"]);
    expect(names(await list({ search: ["acm"] }))).toEqual(["c-vendor"]);
    expect(names(await list({ search: ["flow", "vendor"] }))).toEqual(["b-flow", "c-vendor"]);
    expect(names(await list({ sort_by: "asset_property.title" }))).toEqual(["b-flow", "a-rpm", "c-vendor"]);
    expect(names(await list({ sort_by: "asset_property.value" }))).toEqual(["b-flow", "a-rpm", "c-vendor"]);
    expect(names(await list({ sort_by: "asset_property.name", sort_asc: false }))).toEqual(["c-vendor", "b-flow", "a-rpm"]);
    for (const k of ["asset_property.created", "asset_property.updated"]) expect((await list({ sort_by: k })).status).toBe(200);
    expectErrorBody(await list({ sort_by: "asset_property.asset_name" }), 400);
    expectErrorBody(await emu.get(pathOf(areas.assets.propertyList, { asset_name: "ghost" })), 404);
  });

  test("update replaces the value; a new title renames the property on every asset; a taken title is 409", async () => {
    await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name: "rpm", title: "Speed", value: 1 });
    await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p2" }), { name: "rpm", value: 2 });
    await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p2" }), { name: "flow", title: "Flow", value: 3 });
    const a = await emu.post(pathOf(areas.assets.propertyUpdate, { asset_name: "p1", asset_property_name: "rpm" }), { value: [1, 2, 3] });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ name: "rpm", title: "Speed", value: "[1,2,3]" });
    const renamed = await emu.post(pathOf(areas.assets.propertyUpdate, { asset_name: "p1", asset_property_name: "rpm" }), { title: "Rotation", value: 5 });
    expect(renamed.body).toMatchObject({ title: "Rotation", value: "5" });
    expect((await emu.get(pathOf(areas.assets.propertyGet, { asset_name: "p2", asset_property_name: "rpm" }))).body).toMatchObject({ title: "Rotation", value: "2" });
    const taken = await emu.post(pathOf(areas.assets.propertyUpdate, { asset_name: "p1", asset_property_name: "rpm" }), { title: "Flow", value: 6 });
    expectErrorBody(taken, 409);
    expect((await emu.get(pathOf(areas.assets.propertyGet, { asset_name: "p1", asset_property_name: "rpm" }))).body.value).toBe("5");
    expectErrorBody(await emu.post(pathOf(areas.assets.propertyUpdate, { asset_name: "p1", asset_property_name: "rpm" }), { title: "x" }), 400);
    expectErrorBody(await emu.post(pathOf(areas.assets.propertyUpdate, { asset_name: "p1", asset_property_name: "ghost" }), { value: 1 }), 404);
  });

  test("delete answers 200 empty; a name whose last record is gone is free for a new title", async () => {
    await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p1" }), { name: "rpm", title: "Speed", value: 1 });
    const d = await emu.post(pathOf(areas.assets.propertyDelete, { asset_name: "p1", asset_property_name: "rpm" }));
    expect(d.status).toBe(200);
    expect(d.text).toBe("");
    expectErrorBody(await emu.get(pathOf(areas.assets.propertyGet, { asset_name: "p1", asset_property_name: "rpm" })), 404);
    expect((await emu.post(pathOf(areas.assets.propertyCreate, { asset_name: "p2" }), { name: "rpm", title: "Revolutions", value: 1 })).body.title).toBe("Revolutions");
    expectErrorBody(await emu.post(pathOf(areas.assets.propertyDelete, { asset_name: "p1", asset_property_name: "rpm" })), 404);
  });
});

describe("Asset metadata (spec: create, get, list, update, delete)", () => {
  beforeEach(async () => {
    await type("pump");
    await asset("p1");
  });

  test("create answers 201 {asset_name, name, payload, created, updated}; a duplicate name is 409", async () => {
    const m = await emu.post(pathOf(areas.assets.metadataCreate, { asset_name: "p1" }), { name: "vendor", payload: { brand: "acme", year: 2020 } });
    expect(m.status).toBe(201);
    expect(m.body).toEqual({
      asset_name: "p1",
      name: "vendor",
      payload: { brand: "acme", year: 2020 },
      created: expect.stringMatching(TIMESTAMP),
      updated: expect.stringMatching(TIMESTAMP),
    });
    expectErrorBody(await emu.post(pathOf(areas.assets.metadataCreate, { asset_name: "p1" }), { name: "vendor", payload: {} }), 409);
    expect((await emu.get(pathOf(areas.assets.get, { asset_name: "p1" }))).body.metadata).toEqual({ vendor: { brand: "acme", year: 2020 } });
  });

  test("the name has the name charset and the payload must be an object: 400 naming the field", async () => {
    expect(messages(await emu.post(pathOf(areas.assets.metadataCreate, { asset_name: "p1" }), { name: "Bad Name", payload: {} }))).toMatch(/body\.name/);
    expect(messages(await emu.post(pathOf(areas.assets.metadataCreate, { asset_name: "p1" }), { name: "m", payload: [1] }))).toMatch(/body\.payload/);
    expectErrorBody(await emu.post(pathOf(areas.assets.metadataCreate, { asset_name: "ghost" }), { name: "m", payload: {} }), 404);
  });

  test("get, update (replaces the payload) and delete (200 empty); unknown names are 404", async () => {
    await emu.post(pathOf(areas.assets.metadataCreate, { asset_name: "p1" }), { name: "vendor", payload: { brand: "acme" } });
    expect((await emu.get(pathOf(areas.assets.metadataGet, { asset_name: "p1", asset_metadata_name: "vendor" }))).body.payload).toEqual({ brand: "acme" });
    const u = await emu.post(pathOf(areas.assets.metadataUpdate, { asset_name: "p1", asset_metadata_name: "vendor" }), { payload: { model: "X" } });
    expect(u.status).toBe(200);
    expect(u.body.payload).toEqual({ model: "X" });
    const d = await emu.post(pathOf(areas.assets.metadataDelete, { asset_name: "p1", asset_metadata_name: "vendor" }));
    expect(d.status).toBe(200);
    expect(d.text).toBe("");
    const missing = await emu.get(pathOf(areas.assets.metadataGet, { asset_name: "p1", asset_metadata_name: "vendor" }));
    expectErrorBody(missing, 404);
    expect(messages(missing)).toMatch(/metadata 'vendor' of asset 'p1' not found/);
    expectErrorBody(await emu.post(pathOf(areas.assets.metadataUpdate, { asset_name: "p1", asset_metadata_name: "vendor" }), { payload: {} }), 404);
    expectErrorBody(await emu.post(pathOf(areas.assets.metadataDelete, { asset_name: "p1", asset_metadata_name: "vendor" })), 404);
  });

  test("list: search on name or payload text; sortable asset_metadata.name, .title, .value, .created, .updated", async () => {
    await emu.post(pathOf(areas.assets.metadataCreate, { asset_name: "p1" }), { name: "b-vendor", payload: { brand: "acme" } });
    await emu.post(pathOf(areas.assets.metadataCreate, { asset_name: "p1" }), { name: "a-site", payload: { zone: "north" } });
    const list = (q: Record<string, Json>) => emu.get(pathOf(areas.assets.metadataList, { asset_name: "p1" }), q);
    expect(names(await list({}))).toEqual(["a-site", "b-vendor"]);
    expect(names(await list({ search: ["vendor"] }))).toEqual(["b-vendor"]);
    expect(names(await list({ search: ["north"] }))).toEqual(["a-site"]);
    expect(names(await list({ sort_by: "asset_metadata.value" }))).toEqual(["b-vendor", "a-site"]);
    for (const k of ["asset_metadata.title", "asset_metadata.created", "asset_metadata.updated"]) expect((await list({ sort_by: k })).status).toBe(200);
    expectErrorBody(await list({ sort_by: "asset_metadata.payload" }), 400);
  });
});

describe("Asset classes (spec: create, list, get, update, delete)", () => {
  test("create answers 201 {name, title, created, updated}; a duplicate is 409", async () => {
    const c = await emu.post(pathOf(areas.assets.classCreate), { name: "rotating", title: "Rotating equipment" });
    expect(c.status).toBe(201);
    expect(c.body).toEqual({ name: "rotating", title: "Rotating equipment", created: expect.stringMatching(TIMESTAMP), updated: expect.stringMatching(TIMESTAMP) });
    expectErrorBody(await emu.post(pathOf(areas.assets.classCreate), { name: "rotating", title: "Again" }), 409);
    expectErrorBody(await emu.post(pathOf(areas.assets.classCreate), { name: "x" }), 400);
  });

  test("list: search on name or title; sortable asset_class.name, .title, .created, .updated", async () => {
    await created("/assets/class/create", { name: "b", title: "Alpha" });
    await created("/assets/class/create", { name: "a", title: "Beta" });
    expect(names(await emu.get(pathOf(areas.assets.classList)))).toEqual(["a", "b"]);
    expect(names(await emu.get(pathOf(areas.assets.classList), { sort_by: "asset_class.title" }))).toEqual(["b", "a"]);
    expect(names(await emu.get(pathOf(areas.assets.classList), { search: ["alp"] }))).toEqual(["b"]);
    for (const k of ["asset_class.created", "asset_class.updated"]) expect((await emu.get(pathOf(areas.assets.classList), { sort_by: k })).status).toBe(200);
    expectErrorBody(await emu.get(pathOf(areas.assets.classList), { sort_by: "asset_type.name" }), 400);
  });

  test("get and update (title); unknown classes are 404", async () => {
    await created("/assets/class/create", { name: "rot", title: "Rotating" });
    expect((await emu.get(pathOf(areas.assets.classGet, { asset_class_name: "rot" }), undefined, { as: "viewer" })).body.title).toBe("Rotating");
    const u = await emu.post(pathOf(areas.assets.classUpdate, { asset_class_name: "rot" }), { title: "Spinning" });
    expect(u.body).toMatchObject({ name: "rot", title: "Spinning" });
    expectErrorBody(await emu.get(pathOf(areas.assets.classGet, { asset_class_name: "ghost" })), 404);
    expectErrorBody(await emu.post(pathOf(areas.assets.classUpdate, { asset_class_name: "ghost" }), { title: "x" }), 404);
    expectErrorBody(await emu.post(pathOf(areas.assets.classUpdate, { asset_class_name: "rot" }), {}), 400);
  });

  test("delete answers 200 empty; refused (409) while asset types use the class, naming them", async () => {
    await created("/assets/class/create", { name: "rot", title: "Rotating" });
    await type("pump", "Pump", { asset_class_name: "rot" });
    const refused = await emu.post(pathOf(areas.assets.classDelete, { asset_class_name: "rot" }));
    expectErrorBody(refused, 409);
    expect(messages(refused)).toMatch(/used by the asset type\(s\) 'pump'/);
    await emu.post(pathOf(areas.assets.typeDelete, { asset_type_name: "pump" }));
    const d = await emu.post(pathOf(areas.assets.classDelete, { asset_class_name: "rot" }));
    expect(d.status).toBe(200);
    expect(d.text).toBe("");
    expectErrorBody(await emu.post(pathOf(areas.assets.classDelete, { asset_class_name: "rot" })), 404);
  });

  test("class operations need asset_class.* permissions: the viewer cannot create", async () => {
    expectErrorBody(await emu.post(pathOf(areas.assets.classCreate), { name: "a", title: "A" }, { as: "viewer" }), 403);
  });
});

describe("Asset types (spec: create, list, get, update, delete)", () => {
  test("create answers 201 {name, title, asset_class_name, metadata, created, updated}", async () => {
    const t = await emu.post(pathOf(areas.assets.typeCreate), { name: "pump", title: "Pump" });
    expect(t.status).toBe(201);
    expect(t.body).toEqual({
      name: "pump",
      title: "Pump",
      asset_class_name: null,
      metadata: {},
      created: expect.stringMatching(TIMESTAMP),
      updated: expect.stringMatching(TIMESTAMP),
    });
  });

  test("a duplicate is 409; asset_class_name must exist when given (404 naming it)", async () => {
    await type("pump");
    expectErrorBody(await emu.post(pathOf(areas.assets.typeCreate), { name: "pump", title: "Again" }), 409);
    const a = await emu.post(pathOf(areas.assets.typeCreate), { name: "valve", title: "Valve", asset_class_name: "ghost" });
    expectErrorBody(a, 404);
    expect(messages(a)).toMatch(/body\.asset_class_name: asset class 'ghost' not found/);
  });

  test("list: search, asset_class_name[], metadata[] injects, metadata_filter[] ORs within a name and ANDs across names", async () => {
    await created("/assets/class/create", { name: "rot", title: "Rotating" });
    await type("pump", "Pump", { asset_class_name: "rot" });
    await type("fan", "Fan", { asset_class_name: "rot" });
    await type("valve", "Valve");
    await created("/assets/types/pump/metadata/create", { name: "vendor", payload: { brand: "acme" } });
    await created("/assets/types/pump/metadata/create", { name: "site", payload: { zone: "north" } });
    await created("/assets/types/fan/metadata/create", { name: "vendor", payload: { brand: "globex" } });
    await created("/assets/types/valve/metadata/create", { name: "vendor", payload: { brand: "acme" } });
    const list = (q: Record<string, Json>) => emu.get(pathOf(areas.assets.typeList), q);
    expect(names(await list({ search: ["pu"] }))).toEqual(["pump"]);
    expect(names(await list({ asset_class_name: ["rot"] }))).toEqual(["fan", "pump"]);
    expect(names(await list({ metadata_filter: ["vendor.brand=acme"] }))).toEqual(["pump", "valve"]);
    expect(names(await list({ metadata_filter: ["vendor.brand=acme", "vendor.brand=globex"] }))).toEqual(["fan", "pump", "valve"]);
    expect(names(await list({ metadata_filter: ["vendor.brand=acme", "site.zone=north"] }))).toEqual(["pump"]);
    const plain = await list({ names: undefined });
    expect(plain.body.data.every((t: Json) => Object.keys(t.metadata).length === 0)).toBe(true);
    const injected = await list({ metadata: ["vendor"], search: ["pump"] });
    expect(injected.body.data[0].metadata).toEqual({ vendor: { brand: "acme" } });
    expectErrorBody(await list({ metadata_filter: ["nonsense"] }), 400);
  });

  test("list sortable: asset_type.name, .title, .created, .updated, asset_class.name, asset_class.title", async () => {
    await created("/assets/class/create", { name: "a-class", title: "Zulu" });
    await created("/assets/class/create", { name: "b-class", title: "Alpha" });
    await type("t1", "Charlie", { asset_class_name: "b-class" });
    await type("t2", "Bravo", { asset_class_name: "a-class" });
    await type("t3", "Alpha");
    const list = (sort_by: string, sort_asc = true) => emu.get(pathOf(areas.assets.typeList), { sort_by, sort_asc });
    expect(names(await list("asset_type.name"))).toEqual(["t1", "t2", "t3"]);
    expect(names(await list("asset_type.title"))).toEqual(["t3", "t2", "t1"]);
    expect(names(await list("asset_class.name"))).toEqual(["t3", "t2", "t1"]);
    expect(names(await list("asset_class.title"))).toEqual(["t3", "t1", "t2"]);
    for (const k of ["asset_type.created", "asset_type.updated"]) expect((await list(k)).status).toBe(200);
    expectErrorBody(await list("asset_class.created"), 400);
  });

  test("POST /assets/types/list takes names[] and search[] in the body, paging and metadata[] in the query", async () => {
    await type("pump");
    await type("fan");
    await type("valve");
    await created("/assets/types/fan/metadata/create", { name: "vendor", payload: { brand: "acme" } });
    const a = await emu.call("POST", pathOf(areas.assets.typeFilter), { body: { names: ["fan", "valve"] }, query: { metadata: ["vendor"], page_size: 1 } });
    expect(a.status).toBe(200);
    expect(a.body.data).toEqual([expect.objectContaining({ name: "fan", metadata: { vendor: { brand: "acme" } } })]);
    expect(names(await emu.post(pathOf(areas.assets.typeFilter), { search: ["valv"] }))).toEqual(["valve"]);
  });

  test("get takes metadata[]; an unknown type is 404", async () => {
    await type("pump");
    await created("/assets/types/pump/metadata/create", { name: "vendor", payload: { brand: "acme" } });
    await created("/assets/types/pump/metadata/create", { name: "site", payload: { zone: "n" } });
    expect((await emu.get(pathOf(areas.assets.typeGet, { asset_type_name: "pump" }))).body.metadata).toEqual({});
    expect((await emu.get(pathOf(areas.assets.typeGet, { asset_type_name: "pump" }), { metadata: ["site"] })).body.metadata).toEqual({ site: { zone: "n" } });
    expectErrorBody(await emu.get(pathOf(areas.assets.typeGet, { asset_type_name: "ghost" })), 404);
  });

  test("update leaves omitted fields unchanged; a new title reaches the assets' asset_type_title", async () => {
    await created("/assets/class/create", { name: "rot", title: "Rotating" });
    await type("pump", "Pump", { asset_class_name: "rot" });
    await asset("p1");
    const a = await emu.post(pathOf(areas.assets.typeUpdate, { asset_type_name: "pump" }), { title: "Centrifugal pump" });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ title: "Centrifugal pump", asset_class_name: "rot" });
    expect((await emu.get(pathOf(areas.assets.get, { asset_name: "p1" }))).body.asset_type_title).toBe("Centrifugal pump");
    expect((await emu.post(pathOf(areas.assets.typeUpdate, { asset_type_name: "pump" }), {})).body.title).toBe("Centrifugal pump");
    expectErrorBody(await emu.post(pathOf(areas.assets.typeUpdate, { asset_type_name: "pump" }), { asset_class_name: "ghost" }), 404);
    expectErrorBody(await emu.post(pathOf(areas.assets.typeUpdate, { asset_type_name: "ghost" }), { title: "x" }), 404);
    expectErrorBody(await emu.post(pathOf(areas.assets.typeUpdate, { asset_type_name: "pump" }), { name: "other" }), 400);
  });

  test("delete answers 200 empty and removes the type's metadata; refused (409) while assets use it, naming them", async () => {
    await type("pump");
    await asset("p1");
    await created("/assets/types/pump/metadata/create", { name: "vendor", payload: {} });
    const refused = await emu.post(pathOf(areas.assets.typeDelete, { asset_type_name: "pump" }));
    expectErrorBody(refused, 409);
    expect(messages(refused)).toMatch(/used by the asset\(s\) 'p1'/);
    await emu.post(pathOf(areas.assets.delete, { asset_name: "p1" }));
    const d = await emu.post(pathOf(areas.assets.typeDelete, { asset_type_name: "pump" }));
    expect(d.status).toBe(200);
    expect(d.text).toBe("");
    expect(emu.store.table("asset_type_metadata").size).toBe(0);
    expectErrorBody(await emu.post(pathOf(areas.assets.typeDelete, { asset_type_name: "pump" })), 404);
  });

  test("bulk delete POST /assets/types/delete: 200 empty; 409 (nothing deleted) when a type is in use; 207 for unknown names", async () => {
    await type("pump");
    await type("fan");
    await type("valve");
    await asset("p1");
    const inUse = await emu.post(pathOf(areas.assets.typeBulkDelete), { names: ["fan", "pump"] });
    expectErrorBody(inUse, 409);
    expect(messages(inUse)).toMatch(/'pump' is used by the asset\(s\) 'p1'/);
    expect(emu.store.table("asset_types").has("fan")).toBe(true);
    const partial = await emu.post(pathOf(areas.assets.typeBulkDelete), { names: ["fan", "ghost"] });
    expect(partial.status).toBe(207);
    expect(partial.body.results).toEqual([
      { name: "fan", http_status_code: 200 },
      { name: "ghost", http_status_code: 404, message: ["asset type 'ghost' not found"] },
    ]);
    const ok = await emu.post(pathOf(areas.assets.typeBulkDelete), { names: ["valve"] });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe("");
    expectErrorBody(await emu.post(pathOf(areas.assets.typeBulkDelete), { names: [] }), 400);
  });
});

describe("Asset type metadata (spec: create, list, get, update, delete)", () => {
  beforeEach(() => type("pump"));

  test("create 201 {asset_type_name, name, payload, ...}; duplicate 409; unknown type 404", async () => {
    const m = await emu.post(pathOf(areas.assets.typeMetadataCreate, { asset_type_name: "pump" }), { name: "vendor", payload: { brand: "acme" } });
    expect(m.status).toBe(201);
    expect(m.body).toMatchObject({ asset_type_name: "pump", name: "vendor", payload: { brand: "acme" }, created: expect.stringMatching(TIMESTAMP) });
    expectErrorBody(await emu.post(pathOf(areas.assets.typeMetadataCreate, { asset_type_name: "pump" }), { name: "vendor", payload: {} }), 409);
    expectErrorBody(await emu.post(pathOf(areas.assets.typeMetadataCreate, { asset_type_name: "ghost" }), { name: "vendor", payload: {} }), 404);
  });

  test("list: search on name; sortable asset_type_metadata.name only", async () => {
    await created("/assets/types/pump/metadata/create", { name: "b-vendor", payload: {} });
    await created("/assets/types/pump/metadata/create", { name: "a-site", payload: {} });
    const list = (q: Record<string, Json>) => emu.get(pathOf(areas.assets.typeMetadataList, { asset_type_name: "pump" }), q);
    expect(names(await list({}))).toEqual(["a-site", "b-vendor"]);
    expect(names(await list({ sort_asc: false }))).toEqual(["b-vendor", "a-site"]);
    expect(names(await list({ search: ["vend"] }))).toEqual(["b-vendor"]);
    expectErrorBody(await list({ sort_by: "asset_type_metadata.created" }), 400);
  });

  test("get, update (replaces the payload), delete (200 empty); unknown names are 404", async () => {
    await created("/assets/types/pump/metadata/create", { name: "vendor", payload: { brand: "acme" } });
    expect((await emu.get(pathOf(areas.assets.typeMetadataGet, { asset_type_name: "pump", asset_type_metadata_name: "vendor" }))).body.payload).toEqual({ brand: "acme" });
    expect(
      (await emu.post(pathOf(areas.assets.typeMetadataUpdate, { asset_type_name: "pump", asset_type_metadata_name: "vendor" }), { payload: { brand: "globex" } })).body.payload,
    ).toEqual({ brand: "globex" });
    const d = await emu.post(pathOf(areas.assets.typeMetadataDelete, { asset_type_name: "pump", asset_type_metadata_name: "vendor" }));
    expect(d.status).toBe(200);
    expect(d.text).toBe("");
    expectErrorBody(await emu.get(pathOf(areas.assets.typeMetadataGet, { asset_type_name: "pump", asset_type_metadata_name: "vendor" })), 404);
    expectErrorBody(await emu.post(pathOf(areas.assets.typeMetadataUpdate, { asset_type_name: "pump", asset_type_metadata_name: "vendor" }), { payload: {} }), 404);
    expectErrorBody(await emu.post(pathOf(areas.assets.typeMetadataDelete, { asset_type_name: "pump", asset_type_metadata_name: "vendor" })), 404);
  });
});
