import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf, type Json } from "../helpers/emulator";

const emu = useEmulator();
beforeEach(async () => {
  const a = await emu.post(pathOf(areas.apps.create), {
    name: "simulator",
    title: "Simulator",
    description: "d",
    type: "app",
    version: "1.0.0",
    parameters: [
      { name: "speed", data_type: "number", default: 10 },
      { name: "mode", data_type: "string", default: "auto" },
    ],
  });
  if (a.status !== 201) throw new Error(a.text);
});

const P1 = "krn:asset:press-1";
const P2 = "krn:asset:press-2";
const HOUR = 3600_000;
const at = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

const schedule = (extra: Record<string, unknown> = {}) => ({
  app_name: "simulator",
  app_version: "1.0.0",
  scheduled_for: at(HOUR),
  resources: [P1, P2],
  parameters: { speed: 50 },
  ...extra,
});
const revertFor = (ms: number, speeds: Record<string, number> = { [P1]: 10, [P2]: 20 }) => ({
  scheduled_for: at(ms),
  resource_parameters: Object.entries(speeds).map(([resource, speed]) => ({ resource, parameters: { speed } })),
});

async function create(body: Record<string, unknown>) {
  const a = await emu.post(pathOf(areas.schedules.create), body);
  if (a.status !== 201) throw new Error(`create schedule: ${a.status} ${a.text}`);
  return a.body;
}
const apply = (id: string, type: string) => emu.post(pathOf(areas.schedules.apply, { schedule_id: id }), { type });
const get = async (id: string) => (await emu.get(pathOf(areas.schedules.get, { schedule_id: id }))).body;
const fallback = async () =>
  (await emu.post(pathOf(areas.parameters.fallbackValuesGet, { app_name: "simulator", app_version: "1.0.0" }), { resources: [P1, P2] })).body.resource_parameters;
const setSpeed = (resource: string, speed: number) =>
  emu.post(pathOf(areas.parameters.valuesUpdate, { app_name: "simulator", app_version: "1.0.0" }), {
    resource_parameters: [{ resource, parameters: [{ name: "speed", value: speed }] }],
  });

async function pollState(id: string, wanted: string, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const s = await get(id);
    if (s.state === wanted || Date.now() > until) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("Parameter schedules: create (spec Create rules; facts §3.4, §6.3)", () => {
  test("create answers 201 with the schedule in state scheduled and the current values in original_resource_parameters", async () => {
    await setSpeed(P1, 33);
    const a = await emu.post(pathOf(areas.schedules.create), schedule({ comment: "night shift", revert: revertFor(2 * HOUR) }));
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      app_name: "simulator",
      app_version: "1.0.0",
      resources: [P1, P2],
      parameters: { speed: 50 },
      comment: "night shift",
      state: "scheduled",
      revert: { scheduled_for: expect.stringMatching(/\.\d{6}Z$/) },
      original_resource_parameters: [
        { resource: P1, parameters: { speed: 33 } },
        { resource: P2, parameters: {} },
      ],
      error_msg: null,
      created_by: "krn:user:admin@example.com",
      applied_at: null,
      reverted_at: null,
    });
    expect(a.body.scheduled_for).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(await get(a.body.id)).toEqual(a.body);
  });

  test("the schedule time must be in the future", async () => {
    const a = await emu.post(pathOf(areas.schedules.create), schedule({ scheduled_for: at(-60_000) }));
    expectErrorBody(a, 400);
    expect(messages(a)).toMatch(/body\.scheduled_for: must be in the future/);
  });

  test("a revert must lie after the scheduled time", async () => {
    const a = await emu.post(pathOf(areas.schedules.create), schedule({ revert: revertFor(HOUR / 2) }));
    expectErrorBody(a, 400);
    expect(messages(a)).toMatch(/body\.revert\.scheduled_for: must be after/);
  });

  test("revert values must cover exactly the schedule's resources × parameters (400 naming what is missing or extra)", async () => {
    const missing = await emu.post(pathOf(areas.schedules.create), schedule({ revert: revertFor(2 * HOUR, { [P1]: 10 }) }));
    expectErrorBody(missing, 400);
    expect(messages(missing)).toMatch(/missing resource\(s\) 'krn:asset:press-2'/);
    const extra = await emu.post(pathOf(areas.schedules.create), schedule({ revert: revertFor(2 * HOUR, { [P1]: 1, [P2]: 2, "krn:asset:oven": 3 }) }));
    expectErrorBody(extra, 400);
    expect(messages(extra)).toMatch(/'krn:asset:oven' are not in the schedule's resources/);
    const params = await emu.post(
      "/apps/parameters/schedules/create",
      schedule({
        parameters: { speed: 50, mode: "manual" },
        revert: {
          scheduled_for: at(2 * HOUR),
          resource_parameters: [
            { resource: P1, parameters: { speed: 10 } },
            { resource: P2, parameters: { speed: 10, mode: "auto", colour: "red" } },
          ],
        },
      }),
    );
    expectErrorBody(params, 400);
    expect(messages(params)).toMatch(/resource_parameters\[0\]\.parameters: missing parameter\(s\) 'mode'/);
    expect(messages(params)).toMatch(/resource_parameters\[1\]\.parameters: parameter\(s\) 'colour' are not in the schedule's parameters/);
    expect((await emu.post(pathOf(areas.schedules.list), {})).body.data).toEqual([]);
  });

  test("parameters must be defined by the app version with the right type; resources must be asset KRNs, at least one", async () => {
    const unknown = await emu.post(pathOf(areas.schedules.create), schedule({ parameters: { colour: "red" } }));
    expectErrorBody(unknown, 400);
    expect(messages(unknown)).toMatch(/'colour'/);
    expectErrorBody(await emu.post(pathOf(areas.schedules.create), schedule({ parameters: { speed: "fast" } })), 400);
    expectErrorBody(await emu.post(pathOf(areas.schedules.create), schedule({ parameters: {} })), 400);
    const none = await emu.post(pathOf(areas.schedules.create), schedule({ resources: [] }));
    expectErrorBody(none, 400);
    expect(messages(none)).toMatch(/body\.resources/);
    expectErrorBody(await emu.post(pathOf(areas.schedules.create), schedule({ resources: ["press-1"] })), 400);
    expectErrorBody(await emu.post(pathOf(areas.schedules.create), schedule({ app_version: "1.0" })), 400);
  });

  test("an unknown app or version answers 400 naming it (create's table lists 400, 401, 409)", async () => {
    const a = await emu.post(pathOf(areas.schedules.create), schedule({ app_version: "2.0.0" }));
    expectErrorBody(a, 400);
    expect(messages(a)).toMatch(/simulator.*2\.0\.0.*not found/);
    const app = await emu.post(pathOf(areas.schedules.create), schedule({ app_name: "oven" }));
    expectErrorBody(app, 400);
    expect(messages(app)).toMatch(/app 'oven' not found/);
  });

  test("a pending schedule setting the same parameter on the same resource at the same time answers 409", async () => {
    const when = at(HOUR);
    await create(schedule({ scheduled_for: when }));
    expectErrorBody(await emu.post(pathOf(areas.schedules.create), schedule({ scheduled_for: when, resources: [P2] })), 409);
    expect((await emu.post(pathOf(areas.schedules.create), schedule({ scheduled_for: when, parameters: { mode: "manual" } }))).status).toBe(201);
  });
});

describe("Parameter schedules: get, list, delete", () => {
  test("get and delete answer 404 for an unknown id and 400 for a non-uuid", async () => {
    const missing = "00000000-0000-4000-8000-00000000abcd";
    const a = await emu.get(pathOf(areas.schedules.get, { schedule_id: missing }));
    expectErrorBody(a, 404);
    expect(messages(a)).toMatch(missing);
    expectErrorBody(await emu.post(pathOf(areas.schedules.delete, { schedule_id: missing })), 404);
    expectErrorBody(await emu.get(pathOf(areas.schedules.get, { schedule_id: "abc" })), 400);
  });

  test("delete removes the schedule (204)", async () => {
    const s = await create(schedule());
    const d = await emu.post(pathOf(areas.schedules.delete, { schedule_id: s.id }));
    expect(d.status).toBe(204);
    expectErrorBody(await emu.get(pathOf(areas.schedules.get, { schedule_id: s.id })), 404);
  });

  test("list filters apps, states, resources, parameter_names and sorts by the spec's keys, revert.scheduled_for included", async () => {
    await emu.post(pathOf(areas.apps.create), {
      name: "oven",
      title: "Oven",
      description: "d",
      type: "app",
      version: "2.0.0",
      parameters: [{ name: "temperature", data_type: "number" }],
    });
    const a = await create(schedule({ comment: "a", scheduled_for: at(HOUR), revert: revertFor(5 * HOUR) }));
    const b = await create(
      schedule({
        comment: "b",
        scheduled_for: at(2 * HOUR),
        resources: [P2],
        parameters: { mode: "manual" },
        revert: { scheduled_for: at(3 * HOUR), resource_parameters: [{ resource: P2, parameters: { mode: "auto" } }] },
      }),
    );
    const c = await create({ app_name: "oven", app_version: "2.0.0", scheduled_for: at(3 * HOUR), resources: [P1], parameters: { temperature: 200 }, comment: "c" });
    await apply(a.id, "schedule");
    const list = async (body: Record<string, unknown>, query?: Record<string, Json>) =>
      (await emu.post(pathOf(areas.schedules.list), body, { query })).body.data.map((s: Json) => s.comment);
    expect(await list({})).toEqual(["a", "b", "c"]);
    expect(await list({ apps: [{ name: "oven" }] })).toEqual(["c"]);
    expect(await list({ apps: [{ name: "simulator", version: "2.0.0" }] })).toEqual([]);
    expect(await list({ states: ["scheduled-revert"] })).toEqual(["a"]);
    expect(await list({ resources: [P2] })).toEqual(["a", "b"]);
    expect(await list({ parameter_names: ["mode", "temperature"] })).toEqual(["b", "c"]);
    expect(await list({}, { sort_by: ["revert.scheduled_for"] })).toEqual(["c", "b", "a"]);
    expect(await list({}, { sort_by: ["revert.scheduled_for"], direction: "desc" })).toEqual(["a", "b", "c"]);
    expect(await list({}, { sort_by: ["applied_at", "comment"], nulls: "last" })).toEqual(["a", "b", "c"]);
    expect(await list({}, { sort_by: ["state", "comment"] })).toEqual(["b", "c", "a"]);
    expect(c.id).toBeDefined();
    expect(b.id).toBeDefined();
    expectErrorBody(await emu.post(pathOf(areas.schedules.list), { states: ["done"] }), 400);
    expectErrorBody(await emu.post(pathOf(areas.schedules.list), {}, { query: { sort_by: ["parameters"] } }), 400);
  });
});

describe("Parameter schedules: apply (spec States and transitions; facts §6.3 items 12-13)", () => {
  test("apply `schedule` writes the values and moves scheduled → scheduled-revert; `schedule-revert` writes the revert → completed", async () => {
    const s = await create(schedule({ comment: "rush", revert: revertFor(2 * HOUR, { [P1]: 11, [P2]: 22 }) }));
    expect((await apply(s.id, "schedule")).status).toBe(204);
    let now = await get(s.id);
    expect(now).toMatchObject({ state: "scheduled-revert", applied_by: "krn:user:admin@example.com", applied_at: expect.stringMatching(/Z$/), reverted_at: null });
    expect(await fallback()).toEqual({ [P1]: { speed: 50, mode: "auto" }, [P2]: { speed: 50, mode: "auto" } });
    const values = await emu.post(pathOf(areas.parameters.valuesList), {});
    expect(values.body.data.map((v: Json) => v.comment)).toEqual(["rush", "rush"]);
    expect((await apply(s.id, "schedule-revert")).status).toBe(204);
    now = await get(s.id);
    expect(now).toMatchObject({ state: "completed", reverted_by: "krn:user:admin@example.com", reverted_at: expect.stringMatching(/Z$/) });
    expect(await fallback()).toEqual({ [P1]: { speed: 11, mode: "auto" }, [P2]: { speed: 22, mode: "auto" } });
    // The replaced values are in the history.
    const history = await emu.post(pathOf(areas.parameters.historyList), {});
    expect(history.body.data.map((h: Json) => h.value)).toEqual([50, 50]);
  });

  test("a schedule without revert moves scheduled → completed", async () => {
    const s = await create(schedule());
    await apply(s.id, "schedule");
    expect(await get(s.id)).toMatchObject({ state: "completed", revert: null });
  });

  test("applying a type in a state that does not match answers 400 and leaves the schedule unchanged", async () => {
    const s = await create(schedule({ revert: revertFor(2 * HOUR) }));
    const early = await apply(s.id, "schedule-revert");
    expectErrorBody(early, 400);
    expect(messages(early)).toMatch(/'schedule-revert' applies only to a schedule in state 'scheduled-revert'/);
    expect(await get(s.id)).toEqual(s);
    await apply(s.id, "schedule");
    const before = await get(s.id);
    expectErrorBody(await apply(s.id, "schedule"), 400);
    expect(await get(s.id)).toEqual(before);
    await apply(s.id, "schedule-revert");
    expectErrorBody(await apply(s.id, "schedule-revert"), 400);
    expect((await get(s.id)).state).toBe("completed");
  });

  test("apply validates its body and target: unknown type 400, unknown schedule 404, viewer 403", async () => {
    const s = await create(schedule());
    expectErrorBody(await apply(s.id, "now"), 400);
    expectErrorBody(await apply("00000000-0000-4000-8000-000000000001", "schedule"), 404);
    expectErrorBody(await emu.post(pathOf(areas.schedules.apply, { schedule_id: s.id }), { type: "schedule" }, { as: "viewer" }), 403);
    expect((await get(s.id)).state).toBe("scheduled");
  });
});

describe("Parameter schedules: applied when their time comes (facts §6.3 item 13)", () => {
  test("a due schedule is applied, then its revert when that is due", async () => {
    const s = await create(schedule({ scheduled_for: at(1200), revert: revertFor(2000) }));
    const applied = await pollState(s.id, "scheduled-revert");
    expect(applied).toMatchObject({ state: "scheduled-revert", applied_by: "krn:service-account:system" });
    const done = await pollState(s.id, "completed");
    expect(done).toMatchObject({ state: "completed", reverted_by: "krn:service-account:system" });
    expect(await fallback()).toEqual({ [P1]: { speed: 10, mode: "auto" }, [P2]: { speed: 20, mode: "auto" } });
  });

  test("a schedule that cannot be applied when due moves to error with error_msg, writing nothing", async () => {
    await emu.post(pathOf(areas.apps.create), {
      name: "simulator",
      title: "S",
      description: "d",
      type: "app",
      version: "1.1.0",
      parameters: [{ name: "speed", data_type: "number" }],
    });
    const s = await create({ ...schedule({ scheduled_for: at(1200) }), app_version: "1.1.0" });
    expect((await emu.post(pathOf(areas.apps.versionDelete, { app_name: "simulator", app_version: "1.1.0" }))).status).toBe(204);
    const failed = await pollState(s.id, "error");
    expect(failed.state).toBe("error");
    expect(failed.error_msg).toMatch(/1\.1\.0.*not found/);
    expect((await emu.post(pathOf(areas.parameters.valuesList), {})).body.data).toEqual([]);
  });
});
