/**
 * Fuzzing every operation of the endpoint table with fast-check, as the admin identity: random and
 * mutated path values, query strings and bodies built from the endpoint's own schemas. Every answer
 * must be 2xx or 4xx (never 5xx, never a hang), every 2xx body must be what the endpoint's success
 * schema describes, every 4xx must carry the spec's error body, and a rejected request must leave the
 * state (audit log included) exactly as it was.
 */
import fc from "fast-check";
import { writeFileSync } from "node:fs";
import type { z } from "zod";
import { multiStatusBody, part1Shapes } from "../../src/api/common";
import { pathParamNames, type AnyEndpoint } from "../../src/api/endpoint";
import { servedPath } from "../../src/emulator/paths";
import { formatIssuePath } from "../../src/client/decode";
import { useEmulator } from "../helpers/emulator";
import { requestArbitrary } from "./arbitraries";
import { ENDPOINTS, MODE, probe, prototypeKeys, SEED, SEEDED, seededKeys, SOAK, startSeededEmulator, type RawAnswer } from "./helpers";
import { Figures, report } from "./reliability";

const RUNS_PER_ENDPOINT = Number(process.env.FUZZ_RUNS ?? (SOAK ? 500 : 6));
/** FUZZ_STATS=FILE writes how often each endpoint answered each status (to tune the generators). */
const STATS_FILE = process.env.FUZZ_STATS;

/**
 * The seeded state is put back before each endpoint's run so that no endpoint meets the leftovers of
 * another (by the store: reseeding over HTTP per endpoint is slower than the fuzz itself, and ACPs
 * have no create operation).
 */
const emu = useEmulator({ start: startSeededEmulator });

/** The first zod issue of `value` against `schema`, as `path: message`; undefined when it fits. */
function issueOf(schema: z.ZodType, value: unknown): string | undefined {
  const r = schema.safeParse(value);
  if (r.success) return undefined;
  const i = r.error.issues[0];
  return `${formatIssuePath(i.path) || "(body)"}: ${i.message}`;
}

/**
 * What is wrong with a 2xx answer against the endpoint's success schema, or undefined. The declared
 * status is checked against the declared body (a Part 1 list in the shape its content type names),
 * a 207 against the multi-status body, a 204 must be empty; newline-delimited answers line by line.
 */
export function successProblem(ep: AnyEndpoint, a: RawAnswer): string | undefined {
  const type = String(a.headers["content-type"] ?? "");
  if (a.status === 204) return a.text === "" ? undefined : `a 204 with a body: ${a.text.slice(0, 120)}`;
  const lines = (schema: z.ZodType | undefined) => {
    const rows = a.text.split("\n").filter((l) => l.trim() !== "");
    for (let n = 0; n < rows.length; n++) {
      let value: unknown;
      try {
        value = JSON.parse(rows[n]);
      } catch {
        return `line ${n + 1} is not JSON`;
      }
      const issue = schema && issueOf(schema, value);
      if (issue) return `line ${n + 1} ${issue}`;
    }
    return undefined;
  };
  if (ep.success.kind === "ndjson") return lines(ep.success.body);
  if (ep.success.kind !== "json") return undefined;
  if (ep.list && ep.success.body && type.includes("x-json-stream")) return lines(part1Shapes(ep.success.body)?.item);
  if (a.json === undefined) return `not a JSON body (content-type ${type || "none"}): ${a.text.slice(0, 120)}`;
  let schema: z.ZodType | undefined;
  if (a.status === 207) schema = multiStatusBody;
  else if (a.status !== ep.success.status) return `status ${a.status}, where the table declares ${ep.success.status}`;
  else if (ep.list && ep.success.body && type.includes("x-json-limits")) schema = part1Shapes(ep.success.body)?.limits;
  else schema = ep.success.body;
  return schema && issueOf(schema, a.json);
}

let token: string;
let knownNames: string[];
const figures = new Figures();
const statuses = new Map<string, number>();
const prototypeBefore = prototypeKeys();

beforeAll(async () => {
  token = await emu.token("admin");
  knownNames = seededKeys(emu.store);
});
afterAll(() => {
  if (STATS_FILE) writeFileSync(STATS_FILE, JSON.stringify([...statuses].sort()));
  report(__filename, MODE, figures);
});

describe("Fuzzing: every endpoint answers 2xx or 4xx with the spec's error body, and a rejected request changes nothing", () => {
  ENDPOINTS.forEach((ep, index) => {
    test(`${ep.method} ${ep.path} (${ep.id})`, async () => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(ep, knownNames), async (req) => {
          const auditBefore = emu.store.table("audit_log").size;
          const { problems, answer, changed } = await probe(emu, figures, { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } }, { store: emu.store });
          // A change leaves exactly one audit entry; a read, none (a dry run may change nothing and leave none).
          const audited = emu.store.table("audit_log").size - auditBefore;
          const wrongAudit = ep.mutates ? audited > 1 || (changed && audited === 0) : audited !== 0;
          if (answer && wrongAudit) problems.push(`${req.method} ${req.path.slice(0, 160)} -> ${answer.status}: left ${audited} audit entries`);
          const offSchema = answer && answer.status >= 200 && answer.status < 300 ? successProblem(ep, answer) : undefined;
          if (offSchema) problems.push(`${ep.id}: ${req.method} ${req.path.slice(0, 160)} -> ${answer!.status} answered off its success schema: ${offSchema}`);
          if (problems.length > 0) throw new Error(problems.join("\n"));
          if (STATS_FILE && answer) statuses.set(`${ep.id} ${answer.status}`, (statuses.get(`${ep.id} ${answer.status}`) ?? 0) + 1);
        }),
        { numRuns: RUNS_PER_ENDPOINT, seed: SEED + index, endOnFailure: true },
      );
    });
  });
});

describe("Reads of the seeded records answer what their success schemas describe", () => {
  /** A path value naming a seeded record: the first key of its table, or the seeded names. */
  function valueFor(param: string): string {
    const first = (table: string) => [...emu.store.table(table).entries()][0]?.[0] ?? "missing";
    if (param === "schedule_id") return first("schedules");
    if (param === "datalabel_id") return first("data_labels");
    if (param === "audit_logger_id") return first("audit_log");
    if (param === "data_type_name") return SEEDED.dataType;
    if (param === "data_type_version") return "0.0.1";
    if (param === "bridge_name") return "fuzz-c";
    if (param.endsWith("_version")) return SEEDED.version;
    return SEEDED.name;
  }
  const reads = ENDPOINTS.filter((ep) => ep.method === "GET" && ep.effect === "read" && ep.success.kind === "json");

  test("each answers 2xx on-schema", async () => {
    const problems: string[] = [];
    const answered: string[] = [];
    for (const ep of reads) {
      const params = Object.fromEntries(pathParamNames(ep.path).map((p) => [p, valueFor(p)]));
      const { answer, problems: found } = await probe(emu, figures, { method: "GET", path: servedPath(ep, params), headers: { authorization: `Bearer ${token}` } });
      problems.push(...found);
      if (!answer || answer.status >= 300) continue;
      answered.push(ep.id);
      const off = successProblem(ep, answer);
      if (off) problems.push(`${ep.id}: ${answer.status} answered off its success schema: ${off}`);
    }
    expect(problems).toEqual([]);
    // The dependency graph is a GET that takes a body, which this read does not send.
    expect(reads.map((e) => e.id).filter((id) => !answered.includes(id))).toEqual(["instance.graphDependenciesGet"]);
  });
});

describe("Prototype pollution", () => {
  test("after the fuzz, plain objects have no `polluted` property and Object.prototype has no new keys", () => {
    const polluted = ({} as Record<string, unknown>).polluted !== undefined || prototypeKeys().join() !== prototypeBefore.join();
    if (polluted) figures.pollutedPrototypes++;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(prototypeKeys()).toEqual(prototypeBefore);
  });
});
