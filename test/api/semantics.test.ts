/**
 * What each operation does is declared in its row of the endpoint table, not guessed from its id:
 * every row has an effect; every create has a confirm (how a client finds out whether a create whose
 * answer was lost was applied) or is listed below with the reason it has none; the actions the
 * platform refuses to repeat once they took effect have a confirm too; and the confirms name reads
 * that exist and can answer for the operation. A client confirms such an action after a lost answer
 * instead of repeating it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { area, endpoint, isActionConfirm, pathParamNames, type ActionConfirm, type AnyEndpoint, type Effect } from "../../src/api/endpoint";
import { endpointById, endpoints } from "../../src/api/endpoints";
import { SvcClient, type SvcApiError } from "../../src/client";

/** Creates without a confirm, each with the reason no read can tell whether it was applied. */
const UNCONFIRMED_CREATES: Record<string, string> = {
  "apps.deploy": "makes workloads the platform names; nothing in the request names them",
  "schedules.create": "the platform assigns the schedule's id; the ParameterSchedule kind finds its schedule by its fields",
  "datalabels.create": "the platform numbers data labels; the DataLabel kind finds its label by its fields",
  "assets.bulkCreate": "answers a result per asset (207); a repeat reports the assets that exist as conflicts item by item",
  "acps.metadataBulkCreate": "answers a result per record (207); a repeat reports the records that exist item by item",
  "datalabels.labelMetadataBulkCreate": "answers a result per record (207); a repeat reports the records that exist item by item",
};

/** Rows that act without changing data (no audit entry). */
const ACTIONS_WITHOUT_CHANGE = ["auth.token", "auth.edgeToken", "auth.logout", "auth.protocolLogout"];

const EFFECTS: Effect[] = ["read", "create", "update", "delete", "action"];
const creates = endpoints.filter((e) => e.effect === "create");

/** A create's input naming everything: its own path values, and the names its body may carry. */
function sampleInput(ep: AnyEndpoint) {
  return {
    params: Object.fromEntries(pathParamNames(ep.path).map((p) => [p, `p-${p}`])),
    query: {},
    body: { name: "n-1", version: "1.2.0", icd: { name: "plant.reading", version: "1.0.0" }, payload: { name: "n-1", version: "1.2.0" } },
  };
}

describe("Effects", () => {
  test("every row declares one of the effects", () => {
    const wrong = endpoints.filter((e) => !EFFECTS.includes(e.effect)).map((e) => `${e.id}: ${String(e.effect)}`);
    expect(wrong).toEqual([]);
    expect(endpoints.length).toBeGreaterThanOrEqual(158);
  });

  test("a row changes data (and leaves an audit entry) exactly when its effect is not a read, tokens aside", () => {
    const wrong = endpoints.filter((e) => !ACTIONS_WITHOUT_CHANGE.includes(e.id) && e.mutates !== (e.effect !== "read")).map((e) => `${e.id}: ${e.effect}, mutates ${e.mutates}`);
    expect(wrong).toEqual([]);
    expect(ACTIONS_WITHOUT_CHANGE.map((id) => [endpointById(id).effect, endpointById(id).mutates])).toEqual(ACTIONS_WITHOUT_CHANGE.map(() => ["action", false]));
  });

  test("a row without an effect, or a confirm on anything but a create or an action or of the wrong form, is refused when the table is built, naming its id", () => {
    const make = (init: Parameters<typeof endpoint>[0]) => area("things", "facts", { make: endpoint(init) }).make;
    const row = { method: "POST" as const, path: "/things/make", permission: "thing.create", summary: "Make a thing", success: { status: 201 } };
    expect(() => make({ ...row } as never)).toThrow("things.make: effect must be one of read, create, update, delete, action, got undefined");
    expect(() => make({ ...row, effect: "update", confirm: { read: "things.get", params: () => undefined } })).toThrow(
      "things.make: only a create or an action has a confirm (its effect is update)",
    );
    const actionConfirm = { read: "things.get", objects: () => undefined, took: () => true };
    expect(() => make({ ...row, effect: "create", confirm: actionConfirm })).toThrow("things.make: a create's confirm reads the record it makes");
    expect(() => make({ ...row, effect: "action", confirm: { read: "things.get", params: () => undefined } })).toThrow(
      "things.make: an action's confirm names the read, the objects it acts on and what shows it took effect",
    );
    expect(() => make({ ...row, effect: "action", confirm: actionConfirm, success: { status: 200, body: z.object({}) } })).toThrow(
      "things.make: an action with a confirm answers no body",
    );
    expect(make({ ...row, effect: "action", confirm: actionConfirm, success: { status: 204 } }).confirm).toBe(actionConfirm);
    expect(make({ ...row, effect: "create" }).mutates).toBe(true);
    expect(make({ ...row, effect: "read" }).mutates).toBe(false);
  });
});

describe("Creates and their confirms", () => {
  test("every create has a confirm or is listed with the reason it has none", () => {
    const unlisted = creates.filter((e) => !e.confirm && !UNCONFIRMED_CREATES[e.id]).map((e) => e.id);
    expect(unlisted).toEqual([]);
  });

  test("the list names only creates without a confirm, each with a reason", () => {
    const stale = Object.entries(UNCONFIRMED_CREATES)
      .filter(([id, why]) => !endpoints.some((e) => e.id === id && e.effect === "create" && !e.confirm) || why.length < 20)
      .map(([id]) => id);
    expect(stale).toEqual([]);
  });

  test("a confirm's read is a GET of one record answering the create's own schema, addressed in full by the create's input", () => {
    const problems: string[] = [];
    for (const ep of creates) {
      const c = ep.confirm;
      if (!c || !("params" in c)) continue;
      const read = endpoints.find((e) => e.id === c.read);
      if (!read) {
        problems.push(`${ep.id}: no read ${c.read}`);
        continue;
      }
      if (read.method !== "GET" || read.effect !== "read" || read.list) problems.push(`${ep.id}: ${read.id} is not a GET of one record`);
      if (!read.success.body || read.success.body !== ep.success.body) problems.push(`${ep.id}: ${read.id} answers another schema than the create`);
      const values = c.params(sampleInput(ep));
      if (!values) problems.push(`${ep.id}: the input names no record for ${read.id}`);
      else {
        if (Object.keys(values).sort().join() !== pathParamNames(read.path).sort().join()) problems.push(`${ep.id}: fills ${Object.keys(values).join()} of ${read.path}`);
        // The record's own name comes from the body; the others from the create's own path.
        for (const [k, v] of Object.entries(values)) if (pathParamNames(ep.path).includes(k) && v !== `p-${k}`) problems.push(`${ep.id}: ${k} is not the create's own ${k}`);
      }
      if (c.params({ params: {}, query: {}, body: {} }) !== undefined) problems.push(`${ep.id}: an input naming nothing still addresses a record`);
    }
    expect(problems).toEqual([]);
  });

  test("a confirm that finds the record names reads of the table", () => {
    const problems: string[] = [];
    for (const ep of creates) {
      const c = ep.confirm;
      if (!c || "read" in c) continue;
      if (c.reads.length === 0) problems.push(`${ep.id}: names no read`);
      for (const id of c.reads) {
        const read = endpoints.find((e) => e.id === id);
        if (!read || read.effect !== "read") problems.push(`${ep.id}: ${id} is not a read of the table`);
      }
    }
    expect(problems).toEqual([]);
  });

  test("the finds answer from their reads: the record when applied, nothing when not, and say so when they cannot tell", async () => {
    const find = (id: string) => {
      const c = endpointById(id).confirm;
      if (!c || "read" in c) throw new Error(`${id} has no find`);
      return c.find;
    };
    const reg = find("appregistry.create");
    const app = { name: "sim", versions: [{ version: "1.0.0" }] };
    const regInput = (version: string) => ({ params: {}, query: {}, body: { payload: { name: "sim", version } } });
    const reads: string[] = [];
    const reader = (answer: unknown) => async (id: string, input: { params?: Record<string, unknown> }) => {
      reads.push(`${id} ${JSON.stringify(input.params)}`);
      return answer;
    };
    expect(await reg(regInput("1.0.0"), reader(app))).toBe(app);
    expect(await reg(regInput("2.0.0"), reader(app))).toBeUndefined();
    expect(await reg(regInput("1.0.0"), reader(undefined))).toBeUndefined();
    await expect(reg({ params: {}, query: {}, body: {} }, reader(app))).rejects.toThrow("the request names no app and version to look for");
    expect(reads[0]).toBe('appregistry.get {"app_name":"sim"}');

    const add = find("workloads.resourcesAdd");
    const w = { name: "w", runtime: { resources: [{ resource: "krn:asset:a" }, { resource: "krn:asset:b" }] } };
    const addInput = (...keys: string[]) => ({ params: { workload_name: "w" }, query: {}, body: { resources: keys.map((resource) => ({ resource })) } });
    expect(await add(addInput("krn:asset:a", "krn:asset:b"), reader(w))).toBe(w);
    expect(await add(addInput("krn:asset:c"), reader(w))).toBeUndefined();
    await expect(add(addInput("krn:asset:a", "krn:asset:c"), reader(w))).rejects.toThrow("workload 'w' serves 1 of the 2 resources the request adds");
  });
});

// ---------------------------------------------------------------------------------------------
// Actions the platform refuses to repeat once they took effect

/** Actions whose repeat the platform refuses once they took effect, and why. */
const REFUSED_ON_REPEAT: Record<string, string> = {
  "workloads.enable": "enables only a pending workload (409 once it is enabled)",
  "workloads.apply": "applies only a staged version waiting for apply (409 once it is applied)",
  "schedules.apply": "applies a step only to a schedule in that step's state, which applying leaves (400)",
};

const actionConfirmOf = (id: string): ActionConfirm => {
  const c = endpointById(id).confirm;
  if (!c || !isActionConfirm(c)) throw new Error(`${id} has no action confirm`);
  return c;
};

describe("Actions refused on a repeat and their confirms", () => {
  test("exactly the listed actions have a confirm; every other action converges and is repeated", () => {
    const confirmed = endpoints.filter((e) => e.effect === "action" && e.confirm).map((e) => e.id);
    expect(confirmed.sort()).toEqual(Object.keys(REFUSED_ON_REPEAT).sort());
  });

  test("an action's confirm reads one record by GET, each object the action names in full, and nothing when it names none", () => {
    const problems: string[] = [];
    const input = { params: { schedule_id: "s-1" }, query: {}, body: { workload_names: ["w-1", "w-2"], type: "schedule" } };
    for (const id of Object.keys(REFUSED_ON_REPEAT)) {
      const ep = endpointById(id);
      const c = actionConfirmOf(id);
      const read = endpoints.find((e) => e.id === c.read);
      if (!read || read.method !== "GET" || read.effect !== "read" || read.list) problems.push(`${id}: ${c.read} is not a GET of one record`);
      if (ep.success.body) problems.push(`${id}: answers a body`);
      const objects = c.objects(input) ?? [];
      if (objects.length === 0) problems.push(`${id}: the input names no object`);
      for (const o of objects)
        if (read && Object.keys(o).sort().join() !== pathParamNames(read.path).sort().join()) problems.push(`${id}: fills ${Object.keys(o).join()} of ${read.path}`);
      if (c.objects({ params: {}, query: {}, body: {} }) !== undefined) problems.push(`${id}: an input naming nothing still names objects`);
    }
    expect(problems).toEqual([]);
    expect(actionConfirmOf("workloads.enable").objects({ params: {}, query: {}, body: { workload_names: ["w-1", "w-2"] } })).toEqual([
      { workload_name: "w-1" },
      { workload_name: "w-2" },
    ]);
    expect(actionConfirmOf("schedules.apply").objects({ params: { schedule_id: "s-1" }, query: {}, body: { type: "revert-all" } })).toBeUndefined();
  });

  test("each confirm tells the effect from the record", () => {
    const workload = (state: string, staged: unknown) => ({ name: "w-1", status: { state, message: "", last_seen: null, warnings: [] }, staged });
    const noInput = { params: {}, query: {}, body: {} };
    const enable = actionConfirmOf("workloads.enable");
    expect([enable.took(workload("pending_deploy", null), noInput), enable.took(workload("running", null), noInput), enable.took(workload("stopped", null), noInput)]).toEqual([
      false,
      true,
      true,
    ]);
    const apply = actionConfirmOf("workloads.apply");
    expect([apply.took(workload("staged", { app_version: "1.1.0" }), noInput), apply.took(workload("running", null), noInput)]).toEqual([false, true]);
    const scheduleConfirm = actionConfirmOf("schedules.apply");
    const step = (type: string) => ({ params: { schedule_id: "s-1" }, query: {}, body: { type } });
    const at = "2026-05-01T12:00:00.000000Z";
    const schedule = (state: string, applied_at: string | null, reverted_at: string | null) => ({ state, applied_at, reverted_at, error_msg: null });
    expect([
      scheduleConfirm.took(schedule("scheduled", null, null), step("schedule")),
      scheduleConfirm.took(schedule("scheduled-revert", at, null), step("schedule")),
      scheduleConfirm.took(schedule("completed", at, null), step("schedule")),
      scheduleConfirm.took(schedule("scheduled-revert", at, null), step("schedule-revert")),
      scheduleConfirm.took(schedule("completed", at, at), step("schedule-revert")),
      // The platform's own timed run failed meanwhile: the state moved on, but the step did not take effect.
      scheduleConfirm.took(schedule("error", null, null), step("schedule")),
      scheduleConfirm.took(schedule("error", at, null), step("schedule-revert")),
    ]).toEqual([false, true, true, false, true, false, false]);
  });
});

describe("A client confirms an action with a confirm after a lost answer instead of repeating it", () => {
  // An action with a confirm reading data labels (datalabels.labelGet): it took effect on a label whose title is "done".
  const { finish } = area("things", "facts", {
    finish: endpoint({
      method: "POST",
      effect: "action",
      confirm: {
        read: "datalabels.labelGet",
        objects: (a) => (Array.isArray(a.body.names) ? a.body.names.map((n) => ({ label_name: String(n) })) : undefined),
        took: (r) => (r as { title?: unknown }).title === "done",
      },
      path: "/things/finish",
      permission: "thing.update",
      summary: "Finish things",
      body: z.object({ names: z.array(z.string()) }),
      success: { status: 204 },
    }),
  });

  /** A server that loses the answer of the first finish (503) and answers each label read with `titles`. */
  let server: http.Server;
  let baseUrl = "";
  const seen: string[] = [];
  let titles: Record<string, string> = {};
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      seen.push(`${req.method} ${path}`);
      req.resume();
      const reply = (status: number, body?: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(body === undefined ? "" : JSON.stringify(body));
      };
      if (path.endsWith("/things/finish")) {
        const first = seen.filter((s) => s.endsWith("/things/finish")).length === 1;
        return first ? reply(503, { errors: [{ error_code: 50301, http_status_code: 503, message: ["unavailable"] }] }) : reply(204);
      }
      const label = /\/datalabels\/labels\/([^/]+)\/get$/.exec(path)?.[1];
      if (label && titles[label] !== undefined)
        return reply(200, { name: label, title: titles[label], metadata: {}, created: "2026-01-01T00:00:00Z", updated: "2026-01-01T00:00:00Z" });
      return reply(404, { errors: [{ error_code: 40401, http_status_code: 404, message: ["not found"] }] });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  });

  const finishing = async (names: string[]) => {
    seen.length = 0;
    const client = new SvcClient({ baseUrl, token: "t", retry: { baseDelayMs: 1, maxDelayMs: 5 } });
    try {
      return await client.call(finish, { body: { names } });
    } finally {
      await client.close();
    }
  };

  test("applied: the reads show the effect on every object, and the action is not repeated", async () => {
    titles = { a: "done", b: "done" };
    await expect(finishing(["a", "b"])).resolves.toBeUndefined();
    expect(seen).toEqual(["POST /api/v4/things/finish", "GET /api/v4/datalabels/labels/a/get", "GET /api/v4/datalabels/labels/b/get"]);
  });

  test("not applied: no object shows the effect, so the action is repeated", async () => {
    titles = { a: "open" };
    await expect(finishing(["a"])).resolves.toBeUndefined();
    expect(seen).toEqual(["POST /api/v4/things/finish", "GET /api/v4/datalabels/labels/a/get", "POST /api/v4/things/finish"]);
  });

  test("cannot tell (the effect on some objects only, or an object that is not there): the error names the action and what to do", async () => {
    titles = { a: "done", b: "open" };
    const err = (await finishing(["a", "b"]).catch((e: unknown) => e)) as SvcApiError;
    expect(err.message).toMatch(
      /^POST \/things\/finish → 503: .*; things\.finish may or may not have taken effect \(datalabels\.labelGet shows the effect on 1 of the 2 objects the request names\); read the objects it acts on before repeating it/,
    );
    expect(seen.filter((s) => s.endsWith("/things/finish"))).toHaveLength(1);
    titles = {};
    const gone = (await finishing(["c"]).catch((e: unknown) => e)) as SvcApiError;
    expect(gone.message).toMatch(/things\.finish may or may not have taken effect \(datalabels\.labelGet finds no record for label_name 'c'\)/);
  });
});
