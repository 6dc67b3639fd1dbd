/**
 * Fuzzing every operation of the endpoint table with fast-check, as the admin identity: random and
 * mutated path values, query strings and bodies built from the endpoint's own schemas. Every answer
 * must be 2xx or 4xx (never 5xx, never a hang), every 4xx must carry the spec's error body, and a
 * rejected request must leave the state (audit log included) exactly as it was.
 */
import fc from "fast-check";
import { writeFileSync } from "node:fs";
import { useEmulator } from "../helpers/emulator";
import { requestArbitrary } from "./arbitraries";
import { ENDPOINTS, MODE, probe, prototypeKeys, SEED, seededKeys, SOAK, startSeededEmulator } from "./helpers";
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
          if (problems.length > 0) throw new Error(problems.join("\n"));
          if (STATS_FILE && answer) statuses.set(`${ep.id} ${answer.status}`, (statuses.get(`${ep.id} ${answer.status}`) ?? 0) + 1);
        }),
        { numRuns: RUNS_PER_ENDPOINT, seed: SEED + index, endOnFailure: true },
      );
    });
  });
});

describe("Prototype pollution", () => {
  test("after the fuzz, plain objects have no `polluted` property and Object.prototype has no new keys", () => {
    const polluted = (({}) as Record<string, unknown>).polluted !== undefined || prototypeKeys().join() !== prototypeBefore.join();
    if (polluted) figures.pollutedPrototypes++;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(prototypeKeys()).toEqual(prototypeBefore);
  });
});
