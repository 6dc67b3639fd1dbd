import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf, type Json } from "../helpers/emulator";

const emu = useEmulator();
beforeEach(async () => {
  await createVersion("simulator", "1.0.0", [
    { name: "speed", title: "Speed", data_type: "number", default: 10 },
    { name: "mode", title: "Operating mode", data_type: "string", default: "auto" },
    { name: "active", data_type: "boolean" },
  ]);
});

const P1 = "krn:asset:press-1";
const P2 = "krn:asset:press-2";

async function createVersion(name: string, version: string, parameters: unknown[]) {
  const a = await emu.post(pathOf(areas.apps.create), { name, title: name, description: "d", type: "app", version, parameters });
  if (a.status !== 201) throw new Error(`create ${name} ${version}: ${a.status} ${a.text}`);
}

type Param = { name: string; value: string | number | boolean; comment?: string };
const setValues = (
  resourceParameters: Array<{ resource: string; parameters: Param[] }>,
  opts: { patch?: boolean; app?: string; version?: string; as?: Json; source?: string } = {},
) =>
  emu.post(
    `/apps/${opts.app ?? "simulator"}/v/${opts.version ?? "1.0.0"}/parameters/values/update`,
    { resource_parameters: resourceParameters, ...(opts.source ? { source: opts.source } : {}) },
    { query: opts.patch === undefined ? undefined : { patch: opts.patch }, as: opts.as },
  );

const valuesOf = async (filter: Record<string, unknown> = {}, query?: Record<string, Json>) =>
  (await emu.post(pathOf(areas.parameters.valuesList), filter, { query })).body.data.map((v: Json) => `${v.resource.slice(10)}/${v.name}=${v.value}`);

const fallback = async (resources: string[]) =>
  (await emu.post(pathOf(areas.parameters.fallbackValuesGet, { app_name: "simulator", app_version: "1.0.0" }), { resources })).body.resource_parameters;

describe("Parameter definitions (POST /apps/parameters/list; facts §3.3)", () => {
  test("definitions come from the app version manifest's parameters", async () => {
    const a = await emu.post(pathOf(areas.parameters.list), {});
    expect(a.status).toBe(200);
    expect(a.body.data).toEqual([
      expect.objectContaining({ name: "active", title: "active", app_name: "simulator", data_type: "boolean", created_by: "krn:user:admin@example.com" }),
      expect.objectContaining({ name: "mode", title: "Operating mode", data_type: "string" }),
      expect.objectContaining({ name: "speed", title: "Speed", data_type: "number" }),
    ]);
  });

  test("filters app_names, names, search (name and title) and data_types; sort keys of the spec", async () => {
    await createVersion("oven", "1.0.0", [{ name: "temperature", title: "Oven temperature", data_type: "number" }]);
    const list = async (body: Record<string, unknown>, query?: Record<string, Json>) =>
      (await emu.post(pathOf(areas.parameters.list), body, { query })).body.data.map((d: Json) => `${d.app_name}.${d.name}`);
    expect(await list({ app_names: ["oven"] })).toEqual(["oven.temperature"]);
    expect(await list({ names: ["speed", "temperature"] })).toEqual(["simulator.speed", "oven.temperature"]);
    expect(await list({ search: ["OPERATING", "temp"] })).toEqual(["simulator.mode", "oven.temperature"]);
    expect(await list({ data_types: ["number"] }, { sort_by: ["app_name", "name"] })).toEqual(["oven.temperature", "simulator.speed"]);
    expect(await list({}, { sort_by: ["data_type", "name"], direction: "desc" })).toEqual(["simulator.mode", "oven.temperature", "simulator.speed", "simulator.active"]);
    expectErrorBody(await emu.post(pathOf(areas.parameters.list), { data_types: ["date"] }), 400);
    expectErrorBody(await emu.post(pathOf(areas.parameters.list), { app_names: ["Bad Name"] }), 400);
  });
});

describe("Parameter values update (POST .../parameters/values/update; facts §6.2)", () => {
  test("patch=true (the default): only the parameters sent change", async () => {
    expect(
      (
        await setValues([
          {
            resource: P1,
            parameters: [
              { name: "speed", value: 20 },
              { name: "mode", value: "manual" },
            ],
          },
        ])
      ).status,
    ).toBe(204);
    await setValues([{ resource: P1, parameters: [{ name: "speed", value: 30 }] }]);
    expect(await valuesOf()).toEqual(["press-1/mode=manual", "press-1/speed=30"]);
  });

  test("patch=false: the body is the complete set; parameters left out fall back to their default", async () => {
    await setValues([
      {
        resource: P1,
        parameters: [
          { name: "speed", value: 20 },
          { name: "mode", value: "manual" },
        ],
      },
    ]);
    expect((await setValues([{ resource: P1, parameters: [{ name: "active", value: true }] }], { patch: false })).status).toBe(204);
    expect(await valuesOf()).toEqual(["press-1/active=true"]);
    expect(await fallback([P1])).toEqual({ [P1]: { speed: 10, mode: "auto", active: true } });
  });

  test("unknown parameter names answer 400 naming them; a value of the wrong type answers 400; nothing changes", async () => {
    await setValues([{ resource: P1, parameters: [{ name: "speed", value: 20 }] }]);
    const unknown = await setValues([
      {
        resource: P1,
        parameters: [
          { name: "speed", value: 1 },
          { name: "colour", value: "red" },
        ],
      },
    ]);
    expectErrorBody(unknown, 400);
    expect(messages(unknown)).toMatch(/'colour'/);
    const wrong = await setValues([
      { resource: P2, parameters: [{ name: "speed", value: 1 }] },
      { resource: P1, parameters: [{ name: "speed", value: "fast" }] },
    ]);
    expectErrorBody(wrong, 400);
    expect(messages(wrong)).toMatch(/resource_parameters\[1\].*'speed' must be a number/);
    expect(await valuesOf()).toEqual(["press-1/speed=20"]);
  });

  test("an unknown app or version answers 404; a bad resource KRN answers 400", async () => {
    expectErrorBody(await setValues([{ resource: P1, parameters: [] }], { version: "2.0.0" }), 404);
    expectErrorBody(await setValues([{ resource: P1, parameters: [] }], { app: "nothing" }), 404);
    const bad = await setValues([{ resource: "krn:user:x", parameters: [] }]);
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/body\.resource_parameters\[0\]\.resource/);
  });

  test("only service accounts may set source: a user sending it answers 403 naming the field", async () => {
    const user = await setValues([{ resource: P1, parameters: [{ name: "speed", value: 5 }] }], { source: "krn:workload:sim-1" });
    expectErrorBody(user, 403);
    expect(messages(user)).toMatch(/source/);
    const service = await setValues([{ resource: P1, parameters: [{ name: "speed", value: 5 }] }], { source: "krn:workload:sim-1", as: "service" });
    expect(service.status).toBe(204);
    const v = (await emu.post(pathOf(areas.parameters.valuesList), {})).body.data[0];
    expect(v).toMatchObject({ name: "speed", value: 5, source: "krn:workload:sim-1", created_by: "krn:service-account:svc-admin" });
  });

  test("viewers cannot update values (403)", async () => {
    expectErrorBody(await setValues([{ resource: P1, parameters: [{ name: "speed", value: 5 }] }], { as: "viewer" }), 403);
  });
});

describe("Parameter values list (POST /apps/parameters/values/list)", () => {
  beforeEach(async () => {
    await createVersion("simulator", "1.1.0", [{ name: "speed", data_type: "number" }]);
    await setValues([
      { resource: P1, parameters: [{ name: "speed", value: 1, comment: "slow" }] },
      { resource: P2, parameters: [{ name: "mode", value: "manual" }] },
    ]);
    await setValues([{ resource: P1, parameters: [{ name: "speed", value: 2 }] }], { version: "1.1.0" });
  });

  test("a value carries name, app_name, app_version, resource, value, comment, source and audit fields", async () => {
    const a = await emu.post(pathOf(areas.parameters.valuesList), { parameter_names: ["speed"], apps: [{ name: "simulator", version: "1.0.0" }] });
    expect(a.body.data).toEqual([
      {
        name: "speed",
        app_name: "simulator",
        app_version: "1.0.0",
        resource: P1,
        value: 1,
        comment: "slow",
        source: null,
        created_at: expect.any(String),
        created_by: "krn:user:admin@example.com",
        updated_at: expect.any(String),
        updated_by: "krn:user:admin@example.com",
      },
    ]);
  });

  test("apps entries are ORed (a version narrows its entry); resources and parameter_names filter exactly", async () => {
    expect(await valuesOf({ apps: [{ name: "simulator", version: "1.1.0" }] })).toEqual(["press-1/speed=2"]);
    expect(
      await valuesOf(
        {
          apps: [
            { name: "simulator", version: "1.1.0" },
            { name: "simulator", version: "1.0.0" },
          ],
        },
        { sort_by: ["app_version", "name"] },
      ),
    ).toEqual(["press-2/mode=manual", "press-1/speed=1", "press-1/speed=2"]);
    expect(await valuesOf({ resources: [P2] })).toEqual(["press-2/mode=manual"]);
    expect(await valuesOf({ apps: [{ name: "oven" }] })).toEqual([]);
    expectErrorBody(await emu.post(pathOf(areas.parameters.valuesList), { apps: [{ name: "simulator", version: "one" }] }), 400);
    expectErrorBody(await emu.post(pathOf(areas.parameters.valuesList), {}, { query: { sort_by: ["value"] } }), 400);
  });
});

describe("Parameter history (POST /apps/parameters/history/list; facts §6.2 item 7)", () => {
  test("every replaced or removed value becomes a history entry with invalidated_at and invalidated_by", async () => {
    await setValues([
      {
        resource: P1,
        parameters: [
          { name: "speed", value: 1 },
          { name: "mode", value: "manual" },
        ],
      },
    ]);
    await setValues([{ resource: P1, parameters: [{ name: "speed", value: 2 }] }], { as: "service" });
    // Timestamps have millisecond resolution; the wait keeps the two invalidations apart so the order is defined.
    await new Promise((r) => setTimeout(r, 5));
    await setValues([{ resource: P1, parameters: [{ name: "speed", value: 2 }] }], { patch: false });
    const h = await emu.post(pathOf(areas.parameters.historyList), {}, { query: { sort_by: ["invalidated_at", "name"] } });
    expect(h.body.data).toEqual([
      expect.objectContaining({ name: "speed", value: 1, invalidated_by: "krn:service-account:svc-admin", invalidated_at: expect.stringMatching(/Z$/) }),
      // Writing the same value again leaves the value (and the history) alone; patch=false removed mode.
      expect.objectContaining({ name: "mode", value: "manual", invalidated_by: "krn:user:admin@example.com" }),
    ]);
    expect(await valuesOf()).toEqual(["press-1/speed=2"]);
  });

  test("start_date and end_date select entries by the time their value was set", async () => {
    await setValues([{ resource: P1, parameters: [{ name: "speed", value: 1 }] }]);
    await new Promise((r) => setTimeout(r, 20));
    const middle = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    await setValues([{ resource: P1, parameters: [{ name: "speed", value: 2 }] }]);
    await setValues([{ resource: P1, parameters: [{ name: "speed", value: 3 }] }]);
    const values = async (body: Record<string, unknown>) => (await emu.post(pathOf(areas.parameters.historyList), body)).body.data.map((e: Json) => e.value).sort();
    expect(await values({})).toEqual([1, 2]);
    expect(await values({ start_date: middle })).toEqual([2]);
    expect(await values({ end_date: middle })).toEqual([1]);
    expect(await values({ start_date: middle, parameter_names: ["mode"] })).toEqual([]);
    expectErrorBody(await emu.post(pathOf(areas.parameters.historyList), { start_date: "yesterday" }), 400);
  });
});

describe("Parameter defaults update (POST .../parameters/defaults/update)", () => {
  test("patch=true changes only the defaults sent; the version and fallback values show them", async () => {
    expect((await emu.post(pathOf(areas.parameters.defaultsUpdate, { app_name: "simulator", app_version: "1.0.0" }), { parameters: [{ name: "speed", value: 15 }] })).status).toBe(
      204,
    );
    expect(await fallback([P1])).toEqual({ [P1]: { speed: 15, mode: "auto" } });
    const v = await emu.get(pathOf(areas.apps.versionGet, { app_name: "simulator", app_version: "1.0.0" }));
    expect(v.body.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "speed", default: 15 }), expect.objectContaining({ name: "mode", default: "auto" })]),
    );
  });

  test("patch=false: defaults left out are not kept", async () => {
    await emu.post(
      pathOf(areas.parameters.defaultsUpdate, { app_name: "simulator", app_version: "1.0.0" }),
      { parameters: [{ name: "active", value: false }] },
      { query: { patch: false } },
    );
    expect(await fallback([P1])).toEqual({ [P1]: { active: false } });
  });

  test("unknown names and wrong types answer 400; unknown versions 404; it needs app.update (viewer 403)", async () => {
    const unknown = await emu.post(pathOf(areas.parameters.defaultsUpdate, { app_name: "simulator", app_version: "1.0.0" }), { parameters: [{ name: "colour", value: "red" }] });
    expectErrorBody(unknown, 400);
    expect(messages(unknown)).toMatch(/'colour'/);
    expectErrorBody(
      await emu.post(pathOf(areas.parameters.defaultsUpdate, { app_name: "simulator", app_version: "1.0.0" }), { parameters: [{ name: "active", value: "yes" }] }),
      400,
    );
    expectErrorBody(await emu.post(pathOf(areas.parameters.defaultsUpdate, { app_name: "simulator", app_version: "3.0.0" }), { parameters: [] }), 404);
    expectErrorBody(await emu.post(pathOf(areas.parameters.defaultsUpdate, { app_name: "simulator", app_version: "1.0.0" }), { parameters: [] }, { as: "viewer" }), 403);
    expect(await fallback([P1])).toEqual({ [P1]: { speed: 10, mode: "auto" } });
  });
});

describe("Unique values and fallback values (facts §4.2, §6.2 item 8)", () => {
  test("unique-values answers only values actually set, defaults excluded, per app and parameter", async () => {
    await setValues([
      {
        resource: P1,
        parameters: [
          { name: "speed", value: 20 },
          { name: "active", value: true },
        ],
      },
      { resource: P2, parameters: [{ name: "speed", value: 20 }] },
      { resource: "krn:asset:press-3", parameters: [{ name: "speed", value: 5 }] },
    ]);
    const a = await emu.post(pathOf(areas.parameters.uniqueValuesGet), { app_parameters: [{ app_name: "simulator" }] });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ app_parameter_values: { simulator: { speed: [5, 20], active: [true] } } });
    const narrowed = await emu.post(pathOf(areas.parameters.uniqueValuesGet), { app_parameters: [{ app_name: "simulator", parameters: ["active"] }] });
    expect(narrowed.body.app_parameter_values).toEqual({ simulator: { active: [true] } });
    const byType = await emu.post(pathOf(areas.parameters.uniqueValuesGet), { data_types: ["number"] });
    expect(byType.body.app_parameter_values).toEqual({ simulator: { speed: [5, 20] } });
    const unknown = await emu.post(pathOf(areas.parameters.uniqueValuesGet), { app_parameters: [{ app_name: "oven" }] });
    expectErrorBody(unknown, 404);
    expect(messages(unknown)).toMatch(/oven/);
  });

  test("fallback-values answers the current value, or the default when none is set", async () => {
    await setValues([{ resource: P1, parameters: [{ name: "speed", value: 20 }] }]);
    const a = await emu.post(pathOf(areas.parameters.fallbackValuesGet, { app_name: "simulator", app_version: "1.0.0" }), { resources: [P1, P2] });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ resource_parameters: { [P1]: { speed: 20, mode: "auto" }, [P2]: { speed: 10, mode: "auto" } } });
    const all = await emu.post(pathOf(areas.parameters.fallbackValuesGet, { app_name: "simulator", app_version: "1.0.0" }));
    expect(Object.keys(all.body.resource_parameters)).toEqual([P1]);
    expectErrorBody(await emu.post(pathOf(areas.parameters.fallbackValuesGet, { app_name: "simulator", app_version: "9.0.0" }), {}), 404);
  });
});
