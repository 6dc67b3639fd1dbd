import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf, type Json } from "../helpers/emulator";

const emu = useEmulator();

interface Field {
  name: string;
  type: string;
  description?: string;
  array?: boolean;
}

/** A DataTypeCreate body. */
const dataType = (name: string, version: string | undefined, fields: Field[] = [{ name: "value", type: "float64" }], extra: Record<string, unknown> = {}) => ({
  icd: { name, class_name: "Reading", description: `the ${name} type`, ...(version ? { version } : {}), fields },
  ...extra,
});

async function create(name: string, version?: string, fields?: Field[], extra?: Record<string, unknown>): Promise<Json> {
  const a = await emu.post(pathOf(areas.datatypes.create), dataType(name, version, fields, extra));
  expect(a.status).toBe(201);
  return a.body;
}

const refs = (a: Json) => a.body.data.map((t: Json) => `${t.name}:${t.version}`);

describe("Data types (spec Part 2, Data types)", () => {
  test("create answers 201: name, version and type come from the icd; version defaults to 0.0.1", async () => {
    const a = await emu.post(pathOf(areas.datatypes.create), {
      icd: { name: "sensor.temperature", class_name: "TemperatureReading", description: "A temperature", fields: [{ name: "celsius", type: "float64", description: "degrees" }] },
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      name: "sensor.temperature",
      version: "0.0.1",
      type: "TemperatureReading",
      source: "user",
      connect: false,
      icd: {
        name: "sensor.temperature",
        version: "0.0.1",
        class_name: "TemperatureReading",
        description: "A temperature",
        fields: [{ name: "celsius", type: "float64", description: "degrees", array: false }],
      },
      schema: { type: "object", properties: { celsius: { type: "number", description: "degrees" } } },
    });
    expect(a.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  test("name must match ^([a-z][a-z0-9_]+.)+[a-z][a-z0-9_]+$ (the spec's dot matches any character)", async () => {
    for (const bad of ["Sensor.temp", "temp", "1sensor.temp", "sensor.t", "a.temp"]) {
      const a = await emu.post(pathOf(areas.datatypes.create), dataType(bad, "1.0.0"));
      expectErrorBody(a, 400);
      expect(messages(a)).toMatch(/body\.icd\.name: must match/);
    }
    // The unescaped dot: followed as written, so a name without a dot that is long enough passes.
    expect((await emu.post(pathOf(areas.datatypes.create), dataType("sensorxtemp", "1.0.0"))).status).toBe(201);
    expect((await emu.post(pathOf(areas.datatypes.create), dataType("plant_1.line_2.pressure", "1.0.0"))).status).toBe(201);
  });

  test("class_name must match ^[a-zA-Z][a-zA-Z0-9_]+$; version must be semver; fields are checked", async () => {
    const cls = await emu.post(pathOf(areas.datatypes.create), { icd: { name: "sensor.temp", class_name: "1Reading", fields: [] } });
    expect(messages(cls)).toMatch(/body\.icd\.class_name: must match/);
    const ver = await emu.post(pathOf(areas.datatypes.create), dataType("sensor.temp", "one"));
    expect(messages(ver)).toMatch(/body\.icd\.version: must be a semantic version/);
    const type = await emu.post(pathOf(areas.datatypes.create), dataType("sensor.temp", "1.0.0", [{ name: "v", type: "Float" }]));
    expect(messages(type)).toMatch(/body\.icd\.fields\[0\]\.type: must be a primitive type/);
    const dup = await emu.post(
      pathOf(areas.datatypes.create),
      dataType("sensor.temp", "1.0.0", [
        { name: "v", type: "int32" },
        { name: "v", type: "string" },
      ]),
    );
    expect(messages(dup)).toMatch(/body\.icd\.fields\[1\]\.name: 'v' is already a field/);
    expect(messages(await emu.post(pathOf(areas.datatypes.create), { source: "user" }))).toMatch(/body\.icd: is required/);
    expect(messages(await emu.post(pathOf(areas.datatypes.create), { ...dataType("sensor.temp", "1.0.0"), name: "x" }))).toMatch(/unknown field\(s\) 'name'/);
  });

  test("versions are kept side by side; an existing name and version is 409", async () => {
    await create("sensor.temp", "1.0.0");
    await create("sensor.temp", "1.1.0");
    const again = await emu.post(pathOf(areas.datatypes.create), dataType("sensor.temp", "1.0.0"));
    expectErrorBody(again, 409);
    expect(messages(again)).toMatch(/sensor\.temp:1\.0\.0 already exists/);
    expect((await emu.get(pathOf(areas.datatypes.get, { data_type_name: "sensor.temp", data_type_version: "1.0.0" }))).body.version).toBe("1.0.0");
    expect((await emu.get(pathOf(areas.datatypes.get, { data_type_name: "sensor.temp", data_type_version: "1.1.0" }))).body.version).toBe("1.1.0");
  });

  test("a data type is a connect type when its source is connect", async () => {
    expect((await create("bridge.signal", "1.0.0", undefined, { source: "connect" })).connect).toBe(true);
    expect((await create("user.signal", "1.0.0", undefined, { source: "import" })).connect).toBe(false);
  });

  test("get by version answers that version; unknown name or version is 404; a bad version is 400", async () => {
    await create("sensor.temp", "1.0.0", [{ name: "a", type: "int32" }]);
    await create("sensor.temp", "2.0.0", [{ name: "b", type: "string" }]);
    const a = await emu.get(pathOf(areas.datatypes.get, { data_type_name: "sensor.temp", data_type_version: "1.0.0" }));
    expect(a.status).toBe(200);
    expect(a.body.icd.fields.map((f: Field) => f.name)).toEqual(["a"]);
    expectErrorBody(await emu.get(pathOf(areas.datatypes.get, { data_type_name: "sensor.temp", data_type_version: "3.0.0" })), 404);
    expectErrorBody(await emu.get(pathOf(areas.datatypes.get, { data_type_name: "sensor.other", data_type_version: "1.0.0" })), 404);
    const bad = await emu.get(pathOf(areas.datatypes.get, { data_type_name: "sensor.temp", data_type_version: "one" }));
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/path\.data_type_version/);
  });

  test("versions/latest/get wins over {data_type_version} and answers the highest version by semver", async () => {
    await create("sensor.temp", "1.10.0");
    await create("sensor.temp", "1.9.0");
    await create("sensor.temp", "2.0.0-beta.1");
    const a = await emu.get("/datatypes/sensor.temp/versions/latest/get");
    expect(a.status).toBe(200);
    expect(a.body.version).toBe("2.0.0-beta.1");
    await create("sensor.temp", "2.0.0");
    expect((await emu.get("/datatypes/sensor.temp/versions/latest/get")).body.version).toBe("2.0.0");
    expectErrorBody(await emu.get("/datatypes/sensor.none/versions/latest/get"), 404);
  });

  test("list: all=false (default) shows only the latest version of each name; all=true every version", async () => {
    await create("sensor.temp", "1.2.0");
    await create("sensor.temp", "1.10.0");
    await create("sensor.flow", "0.0.1");
    expect(refs(await emu.get(pathOf(areas.datatypes.list)))).toEqual(["sensor.flow:0.0.1", "sensor.temp:1.10.0"]);
    expect(refs(await emu.get(pathOf(areas.datatypes.list), { all: true }))).toEqual(["sensor.flow:0.0.1", "sensor.temp:1.2.0", "sensor.temp:1.10.0"]);
  });

  test("list: connect=true only connect types; search[] on name", async () => {
    await create("bridge.signal", "1.0.0", undefined, { source: "connect" });
    await create("sensor.temp", "1.0.0");
    expect(refs(await emu.get(pathOf(areas.datatypes.list), { connect: true }))).toEqual(["bridge.signal:1.0.0"]);
    expect(refs(await emu.get(pathOf(areas.datatypes.list), { connect: false }))).toEqual(["bridge.signal:1.0.0", "sensor.temp:1.0.0"]);
    expect(refs(await emu.get(pathOf(areas.datatypes.list), { search: ["TEMP"] }))).toEqual(["sensor.temp:1.0.0"]);
    expectErrorBody(await emu.get(pathOf(areas.datatypes.list), { connect: "maybe" }), 400);
  });

  test("list: sortable by data_type.name and data_type.version (semver order), with paging", async () => {
    for (const v of ["1.10.0", "1.2.0", "1.2.0-rc.1", "0.9.0"]) await create("sensor.temp", v);
    await create("aaa.first", "5.0.0");
    const byVersion = await emu.get(pathOf(areas.datatypes.list), { all: true, sort_by: "data_type.version" });
    expect(refs(byVersion)).toEqual(["sensor.temp:0.9.0", "sensor.temp:1.2.0-rc.1", "sensor.temp:1.2.0", "sensor.temp:1.10.0", "aaa.first:5.0.0"]);
    const desc = await emu.get(pathOf(areas.datatypes.list), { all: true, sort_by: "data_type.name", sort_asc: false, page_size: 2 });
    expect(refs(desc)).toEqual(["sensor.temp:1.10.0", "sensor.temp:1.2.0"]);
    const next = await emu.get(pathOf(areas.datatypes.list), {
      all: true,
      sort_by: "data_type.name",
      sort_asc: false,
      page_size: 2,
      starting_after: desc.body.pagination.next_page,
    });
    expect(refs(next)).toEqual(["sensor.temp:1.2.0-rc.1", "sensor.temp:0.9.0"]);
    expectErrorBody(await emu.get(pathOf(areas.datatypes.list), { sort_by: "data_type.created" }), 400);
  });

  test("dependencies: fields naming other types (name:version or name) give all levels as one flat list without duplicates", async () => {
    await create("geo.point", "1.0.0", [
      { name: "lat", type: "float64" },
      { name: "lon", type: "float64" },
    ]);
    await create("geo.point", "1.1.0", [{ name: "lat", type: "float64" }]);
    await create("unit.value", "1.0.0", [{ name: "v", type: "float64" }]);
    await create("site.location", "1.0.0", [
      { name: "where", type: "geo.point:1.0.0" },
      { name: "height", type: "unit.value" },
    ]);
    await create("sensor.reading", "1.0.0", [
      { name: "at", type: "site.location:1.0.0" },
      { name: "value", type: "unit.value:1.0.0" },
      { name: "track", type: "geo.point", array: true },
      { name: "extra", type: "vendor.extension" },
    ]);
    const a = await emu.get(pathOf(areas.datatypes.dependenciesGet, { data_type_name: "sensor.reading", data_type_version: "1.0.0" }));
    expect(a.status).toBe(200);
    expect(a.body.data).toEqual([
      { name: "site.location", version: "1.0.0", reference: "site.location:1.0.0" },
      { name: "unit.value", version: "1.0.0", reference: "unit.value:1.0.0" },
      { name: "geo.point", version: "1.1.0", reference: "geo.point:1.1.0" },
      { name: "vendor.extension", version: null, reference: "vendor.extension" },
      { name: "geo.point", version: "1.0.0", reference: "geo.point:1.0.0" },
    ]);
    expect((await emu.get(pathOf(areas.datatypes.dependenciesGet, { data_type_name: "geo.point", data_type_version: "1.0.0" }))).body.data).toEqual([]);
    expectErrorBody(await emu.get(pathOf(areas.datatypes.dependenciesGet, { data_type_name: "sensor.reading", data_type_version: "9.0.0" })), 404);
  });

  test("dependencies: a cycle through bare names ends instead of looping", async () => {
    await create("loop.alpha", "1.0.0", [{ name: "b", type: "loop.beta" }]);
    await create("loop.beta", "1.0.0", [{ name: "a", type: "loop.alpha" }]);
    const a = await emu.get(pathOf(areas.datatypes.dependenciesGet, { data_type_name: "loop.alpha", data_type_version: "1.0.0" }));
    expect(a.body.data.map((d: Json) => d.reference)).toEqual(["loop.beta:1.0.0"]);
  });

  test("schema get answers a JSON Schema generated from the icd fields, with referenced types under $defs", async () => {
    await create("geo.point", "1.0.0", [
      { name: "lat", type: "float64" },
      { name: "lon", type: "float64" },
    ]);
    await create("sensor.reading", "2.0.0", [
      { name: "count", type: "uint16", description: "samples" },
      { name: "label", type: "string" },
      { name: "ok", type: "bool" },
      { name: "at", type: "timestamp" },
      { name: "track", type: "geo.point:1.0.0", array: true },
      { name: "tags", type: "string", array: true },
    ]);
    const a = await emu.get(pathOf(areas.datatypes.schemaGet, { data_type_name: "sensor.reading", data_type_version: "2.0.0" }));
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: "sensor.reading:2.0.0",
      title: "Reading",
      description: "the sensor.reading type",
      type: "object",
      additionalProperties: false,
      properties: {
        count: { type: "integer", minimum: 0, maximum: 65535, description: "samples" },
        label: { type: "string", description: "" },
        ok: { type: "boolean", description: "" },
        at: { type: "string", format: "date-time", description: "" },
        track: { type: "array", items: { $ref: "#/$defs/geo.point:1.0.0" }, description: "" },
        tags: { type: "array", items: { type: "string" }, description: "" },
      },
      $defs: {
        "geo.point:1.0.0": {
          title: "Reading",
          description: "the geo.point type",
          type: "object",
          additionalProperties: false,
          properties: { lat: { type: "number", description: "" }, lon: { type: "number", description: "" } },
        },
      },
    });
    expect((await emu.get(pathOf(areas.datatypes.get, { data_type_name: "sensor.reading", data_type_version: "2.0.0" }))).body.schema).toEqual(a.body);
    expectErrorBody(await emu.get(pathOf(areas.datatypes.schemaGet, { data_type_name: "sensor.reading", data_type_version: "1.0.0" })), 404);
  });

  test("create needs data_type.create and reads need data_type.read: a viewer reads but cannot create", async () => {
    await create("sensor.temp", "1.0.0");
    expectErrorBody(await emu.post(pathOf(areas.datatypes.create), dataType("sensor.flow", "1.0.0"), { as: "viewer" }), 403);
    expect((await emu.get(pathOf(areas.datatypes.list), undefined, { as: "viewer" })).status).toBe(200);
    expectErrorBody(await emu.get(pathOf(areas.datatypes.list), undefined, { as: "none" }), 401);
  });
});
