/**
 * What each operation does is declared in its row of the endpoint table, not guessed from its id:
 * every row has an effect; every create has a confirm (how a client finds out whether a create whose
 * answer was lost was applied) or is listed below with the reason it has none; and the confirms name
 * reads that exist and can answer for the create.
 */
import { defineArea, pathParamNames, type AnyEndpoint, type Effect } from "../../src/api/endpoint";
import { endpointById, endpoints } from "../../src/api/endpoints";

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
const ACTIONS_WITHOUT_CHANGE = ["auth.token", "auth.edgeToken"];

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

  test("a row without an effect, or a confirm on anything but a create, is refused when the table is built", () => {
    const endpoint = defineArea("things", "facts");
    const row = { id: "things.make", method: "POST" as const, path: "/things/make", permission: "thing.create", summary: "Make a thing", success: { status: 201 } };
    expect(() => endpoint({ ...row } as never)).toThrow("things.make: effect must be one of read, create, update, delete, action, got undefined");
    expect(() => endpoint({ ...row, effect: "update", confirm: { read: "things.get", params: () => undefined } })).toThrow(
      "things.make: only a create has a confirm (its effect is update)",
    );
    expect(endpoint({ ...row, effect: "create" }).mutates).toBe(true);
    expect(endpoint({ ...row, effect: "read" }).mutates).toBe(false);
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
      if (!c || !("read" in c)) continue;
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
