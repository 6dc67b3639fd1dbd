/**
 * Concurrency: rounds of 16 parallel creates, updates and deletes of assets on a few overlapping
 * names must have the outcome of some serial order of the same requests: every answer and the final
 * records are explained by one sequence (found by search), so no create is duplicated, no update is
 * lost and no delete is half done. Each successful write leaves exactly one audit entry; references
 * stay whole (no asset of a deleted type or parent). The same holds with a state file (group
 * commit), and the state reloaded from it equals the state served before the restart.
 */
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { MODE, SEED, sendRaw, SOAK, stateOf } from "./helpers";
import { Figures, report } from "./reliability";

const ROUNDS = SOAK ? 300 : 20;
const PARALLEL = 16;
const NAMES = ["n0", "n1", "n2"];
const figures = new Figures();

afterAll(() => report(__filename, MODE, figures));

type Kind = "create" | "update" | "delete";
interface Op {
  kind: Kind;
  name: string;
  title: string;
}
interface Outcome extends Op {
  status: number;
}

const opArbitrary = (i: number): fc.Arbitrary<Op> =>
  fc.record({ kind: fc.constantFrom<Kind>("create", "create", "update", "update", "delete"), name: fc.constantFrom(...NAMES), title: fc.constant(`t${i}`) });
const roundArbitrary = fc.record({
  initial: fc.subarray(NAMES),
  ops: fc.tuple(...Array.from({ length: PARALLEL }, (_, i) => opArbitrary(i))),
});

/** What a serial execution answers: create 201 or 409, update 200 or 404, delete 200 or 404. */
const SUCCESS: Record<Kind, number> = { create: 201, update: 200, delete: 200 };
const FAILURE: Record<Kind, number> = { create: 409, update: 404, delete: 404 };

interface RecordState {
  exists: boolean;
  title?: string;
}

function step(s: RecordState, op: Op): { status: number; next: RecordState } {
  switch (op.kind) {
    case "create":
      return s.exists ? { status: FAILURE.create, next: s } : { status: SUCCESS.create, next: { exists: true, title: op.title } };
    case "update":
      return s.exists ? { status: SUCCESS.update, next: { exists: true, title: op.title } } : { status: FAILURE.update, next: s };
    case "delete":
      return s.exists ? { status: SUCCESS.delete, next: { exists: false } } : { status: FAILURE.delete, next: s };
  }
}

/**
 * True when some order of the name's requests, run one at a time from `start`, gives every observed
 * status and ends in `end` (depth-first search with memo over the set of requests done and the state).
 */
export function serialOrderExists(start: RecordState, outcomes: Outcome[], end: RecordState): boolean {
  const seen = new Set<string>();
  const search = (done: number, s: RecordState): boolean => {
    if (done === (1 << outcomes.length) - 1) return s.exists === end.exists && (!s.exists || s.title === end.title);
    const key = `${done}:${s.exists ? s.title : "-"}`;
    if (seen.has(key)) return false;
    seen.add(key);
    for (let i = 0; i < outcomes.length; i++) {
      if (done & (1 << i)) continue;
      const r = step(s, outcomes[i]);
      if (r.status === outcomes[i].status && search(done | (1 << i), r.next)) return true;
    }
    return false;
  };
  return search(0, start);
}

async function assetTitles(emu: TestEmulator): Promise<Map<string, string>> {
  const list = await emu.get("/assets/list", { page_size: 1000 });
  figures.requests++;
  expect(list.status).toBe(200);
  const names = (list.body.data as Array<{ name: string; title: string }>).map((a) => a.name);
  expect(new Set(names).size).toBe(names.length);
  return new Map((list.body.data as Array<{ name: string; title: string }>).map((a) => [a.name, a.title]));
}

async function runRound(emu: TestEmulator, token: string, initial: string[], ops: Op[]): Promise<string[]> {
  await emu.reset();
  expect((await emu.post("/assets/types/create", { name: "t", title: "T" })).status).toBe(201);
  for (const n of initial) expect((await emu.post("/assets/create", { name: n, title: "initial", asset_type_name: "t" })).status).toBe(201);
  figures.requests += 1 + initial.length;
  const auditBefore = emu.store.table("audit_log").size;

  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const outcomes: Outcome[] = await Promise.all(
    ops.map(async (op) => {
      const req =
        op.kind === "create"
          ? { path: "/api/v4/assets/create", body: JSON.stringify({ name: op.name, title: op.title, asset_type_name: "t" }) }
          : op.kind === "update"
            ? { path: `/api/v4/assets/${op.name}/update`, body: JSON.stringify({ title: op.title }) }
            : { path: `/api/v4/assets/${op.name}/delete`, body: undefined };
      const a = await sendRaw(emu.baseUrl, { method: "POST", headers, ...req });
      if (a.status >= 500) figures.status5xx++;
      return { ...op, status: a.status };
    }),
  );
  figures.requests += ops.length;
  figures.concurrentRounds++;

  const problems: string[] = [];
  const final = await assetTitles(emu);
  for (const name of NAMES) {
    const mine = outcomes.filter((o) => o.name === name);
    const start: RecordState = initial.includes(name) ? { exists: true, title: "initial" } : { exists: false };
    const end: RecordState = final.has(name) ? { exists: true, title: final.get(name) } : { exists: false };
    if (!serialOrderExists(start, mine, end)) {
      problems.push(`${name}: no serial order explains ${JSON.stringify(mine.map((o) => `${o.kind} ${o.title} -> ${o.status}`))} ending ${JSON.stringify(end)}`);
    }
  }
  const writes = outcomes.filter((o) => o.status === SUCCESS[o.kind]).length;
  const auditAfter = emu.store.table("audit_log").size;
  if (auditAfter - auditBefore !== writes) problems.push(`${writes} successful writes left ${auditAfter - auditBefore} audit entries`);
  for (const a of emu.store.table<{ name: string; asset_type_name: string }>("assets").values()) {
    if (!emu.store.table("asset_types").has(a.asset_type_name)) problems.push(`asset ${a.name} refers to the missing type ${a.asset_type_name}`);
  }
  if (problems.length > 0) figures.serializabilityViolations++;
  return problems;
}

describe("16 parallel writes on overlapping names have the outcome of some serial order", () => {
  test("the serial-order search itself refuses an impossible history (two creates of one name both 201)", () => {
    const impossible: Outcome[] = [
      { kind: "create", name: "n", title: "a", status: 201 },
      { kind: "create", name: "n", title: "b", status: 201 },
    ];
    expect(serialOrderExists({ exists: false }, impossible, { exists: true, title: "b" })).toBe(false);
    const lostUpdate: Outcome[] = [
      { kind: "update", name: "n", title: "a", status: 200 },
      { kind: "update", name: "n", title: "b", status: 200 },
    ];
    expect(serialOrderExists({ exists: true, title: "x" }, lostUpdate, { exists: true, title: "x" })).toBe(false);
    expect(serialOrderExists({ exists: true, title: "x" }, lostUpdate, { exists: true, title: "a" })).toBe(true);
  });

  test(`in memory: ${ROUNDS} rounds of creates, updates and deletes of assets`, async () => {
    const emu = await startTestEmulator();
    try {
      const token = await emu.token("admin");
      await fc.assert(
        fc.asyncProperty(roundArbitrary, async ({ initial, ops }) => {
          expect(await runRound(emu, token, initial, ops)).toEqual([]);
        }),
        { numRuns: ROUNDS, seed: SEED, endOnFailure: true },
      );
    } finally {
      await emu.close();
    }
  });

  test(`with a state file (group commit): ${Math.ceil(ROUNDS / 2)} rounds, then the reloaded state equals the served one`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-robust-conc-"));
    const file = join(dir, "state.json");
    try {
      const emu = await startTestEmulator({ statePath: file, persistence: { compactRecords: 40 } });
      let served: string;
      try {
        const token = await emu.token("admin");
        await fc.assert(
          fc.asyncProperty(roundArbitrary, async ({ initial, ops }) => {
            expect(await runRound(emu, token, initial, ops)).toEqual([]);
          }),
          { numRuns: Math.ceil(ROUNDS / 2), seed: SEED + 1, endOnFailure: true },
        );
        served = stateOf(emu.store);
      } finally {
        await emu.close();
      }
      const reloaded = await startTestEmulator({ statePath: file });
      try {
        expect(stateOf(reloaded.store)).toBe(served);
      } finally {
        await reloaded.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("parallel asset creates under a type being deleted leave no asset of a missing type", async () => {
    const emu = await startTestEmulator();
    try {
      const token = await emu.token("admin");
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      for (let round = 0; round < (SOAK ? 50 : 5); round++) {
        await emu.reset();
        expect((await emu.post("/assets/types/create", { name: "doomed", title: "D" })).status).toBe(201);
        const requests = Array.from({ length: PARALLEL }, (_, i) =>
          i % 4 === 0
            ? { path: "/api/v4/assets/types/doomed/delete" }
            : { path: "/api/v4/assets/create", body: JSON.stringify({ name: `a${i}`, title: "A", asset_type_name: "doomed" }) },
        );
        const answers = await Promise.all(requests.map((r) => sendRaw(emu.baseUrl, { method: "POST", headers, ...r })));
        figures.requests += 1 + requests.length;
        figures.concurrentRounds++;
        expect(answers.filter((a) => a.status >= 500)).toEqual([]);
        const typeExists = emu.store.table("asset_types").has("doomed");
        const assets = [...emu.store.table<{ name: string }>("assets").values()];
        if (!typeExists && assets.length > 0) figures.serializabilityViolations++;
        expect(typeExists || assets.length === 0).toBe(true);
        // Created assets all answered 201, and the type's delete succeeded only with no asset left.
        expect(assets.length).toBe(answers.filter((a, i) => i % 4 !== 0 && a.status === 201).length);
      }
    } finally {
      await emu.close();
    }
  });
});
