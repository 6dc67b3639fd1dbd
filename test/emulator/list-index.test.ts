/**
 * The list engine's index walks (src/emulator/list.ts) against its full sort: for the workload list
 * (Part 1) and the asset list (Part 2), every page answered by walking an ordered index must be the
 * page the sort of all rows answers, byte for byte (cursors included), whatever the order, the
 * filters, the cursor direction, and whatever happened to the table between pages: records created,
 * deleted or changed, requests rolled back, the emulator reset.
 *
 * Each request is made twice, once with the index walks and once with them switched off
 * (`listEngine.useIndexes`), with nothing in between.
 */
import fc from "fast-check";
import { listEngine } from "../../src/emulator/list";
import { OrderedIndex } from "../../src/emulator/store/store";
import { areas } from "../../src/api/endpoints";
import { useEmulator, pathOf, type Json } from "../helpers/emulator";

/** Reset by freshEmulator before each test. */
const emu = useEmulator({ reset: false });
let walkCalls: Array<jest.SpyInstance>;

beforeAll(() => {
  walkCalls = [jest.spyOn(OrderedIndex.prototype, "ascending"), jest.spyOn(OrderedIndex.prototype, "descending")];
});
afterAll(() => jest.restoreAllMocks());
beforeEach(async () => {
  listEngine.useIndexes = true;
  await freshEmulator();
});

const CLUSTERS = ["plant-a", "plant-b", "plant-c"];
const APP_VERSIONS: Array<[string, string]> = [
  ["sim", "1.0.0"],
  ["sim", "1.1.0"],
  ["sim", "1.10.0"],
  ["exp", "2.0.0"],
];
const TYPES: Array<[string, string]> = [
  ["t-a", "Alpha"],
  ["t-b", "beta"],
  ["t-c", "Alpha"],
];

/** Resets the emulator and creates what the records refer to: clusters, app versions, asset types. */
async function freshEmulator() {
  await emu.reset();
  for (const name of CLUSTERS) expect((await emu.post(pathOf(areas.clusters.create), { name })).status).toBe(201);
  for (const [name, version] of APP_VERSIONS) {
    const a = await emu.post(pathOf(areas.apps.create), { name, title: name.toUpperCase(), description: "test app", type: "app", version });
    expect(a.status).toBe(201);
  }
  for (const [name, title] of TYPES) expect((await emu.post(pathOf(areas.assets.typeCreate), { name, title })).status).toBe(201);
}

interface Answer {
  status: number;
  body: Json;
  text: string;
}

/** The request with the index walks and without: the answers must be the same. */
async function bothWays(path: string, query: Record<string, Json>): Promise<{ fast: Answer; walked: boolean }> {
  for (const spy of walkCalls) spy.mockClear();
  listEngine.useIndexes = true;
  const fast = await emu.get(path, query);
  const walked = walkCalls.some((spy) => spy.mock.calls.length > 0);
  listEngine.useIndexes = false;
  const slow = await emu.get(path, query);
  listEngine.useIndexes = true;
  expect(fast.status).toBe(slow.status);
  if (fast.headers.get("content-type")?.includes("json")) expect(fast.body).toEqual(slow.body);
  expect(fast.text).toBe(slow.text);
  return { fast, walked };
}

const names = (page: { data: Array<{ name: string }> }) => page.data.map((r) => r.name);

// ---------------------------------------------------------------------------------------------
// Records

interface WorkloadSpec {
  title: string;
  app: [string, string];
  cluster: string;
  node: string | null;
  state: "running" | "stopped" | "pending";
}

const workloadSpec: fc.Arbitrary<WorkloadSpec> = fc.record({
  title: fc.constantFrom("Alpha", "alpha", "Beta", "mid", "Zed"),
  app: fc.constantFrom(...APP_VERSIONS),
  cluster: fc.constantFrom(...CLUSTERS),
  node: fc.constantFrom(null, null, "node-1", "node-2"),
  state: fc.constantFrom("running", "stopped", "pending"),
});

async function createWorkload(name: string, s: WorkloadSpec) {
  const a = await emu.call("POST", pathOf(areas.workloads.create), {
    body: {
      name,
      title: s.title,
      app_name: s.app[0],
      app_version: s.app[1],
      cluster_name: s.cluster,
      ...(s.node ? { node_name: s.node } : {}),
      ...(s.state === "pending" ? { enabled: false } : {}),
    },
    query: { stopped: s.state === "stopped" },
  });
  expect(a.status).toBe(201);
}

interface AssetSpec {
  title: string;
  type: string;
}

const assetSpec: fc.Arbitrary<AssetSpec> = fc.record({
  title: fc.constantFrom("Pump 1", "pump 2", "Valve", "Tank 10", "Tank 9"),
  type: fc.constantFrom(...TYPES.map(([n]) => n)),
});

const assetItem = (name: string, s: AssetSpec) => ({ name, title: s.title, asset_type_name: s.type });

async function createAssets(entries: Array<[string, AssetSpec]>) {
  if (entries.length === 0) return;
  const a = await emu.post(pathOf(areas.assets.bulkCreate), { assets: entries.map(([n, s]) => assetItem(n, s)) });
  expect(a.status).toBe(201);
}

// ---------------------------------------------------------------------------------------------
// Walks with changes between pages

/** `onPage`: the record is taken from the page just read (the one the cursor points at, often), else from all. */
type Op =
  { kind: "none" } | { kind: "create"; id: number } | { kind: "delete"; pick: number; onPage: boolean } | { kind: "change"; pick: number; onPage: boolean } | { kind: "rejected" };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constant<Op>({ kind: "none" }),
  fc.nat(999).map<Op>((id) => ({ kind: "create", id })),
  fc.record({ pick: fc.nat(), onPage: fc.boolean() }).map<Op>((r) => ({ kind: "delete", ...r })),
  fc.record({ pick: fc.nat(), onPage: fc.boolean() }).map<Op>((r) => ({ kind: "change", ...r })),
  fc.constant<Op>({ kind: "rejected" }),
);

/** What one list area needs for a walk with changes in between. */
interface Subject {
  path: string;
  nextParam: string;
  previousParam: string;
  /** The largest page, to read the whole list at the end. */
  maxPage: number;
  create(name: string): Promise<void>;
  remove(name: string): Promise<void>;
  /** Changes a sort value of the record. */
  change(name: string): Promise<void>;
  /** A request that changes records (sort values included) and is then rejected and rolled back. */
  rejected(existing: string[]): Promise<void>;
}

/**
 * Reads the list page by page forwards, then backwards from the last page, applying one operation
 * before each page; each page must be the same with and without the index. Afterwards: no record
 * left unchanged is listed twice on the way forwards, and every record that existed unchanged
 * throughout and matches the filters was listed, in the order the whole list gives them.
 */
async function walkWithChanges(subject: Subject, query: Record<string, Json>, initial: string[], ops: Op[]) {
  const existing = new Set(initial);
  const touched = new Set<string>();
  let opIndex = 0;
  let onPage: string[] = [];
  const applyNext = async () => {
    const o = ops[opIndex++];
    if (!o || o.kind === "none") return;
    const all = [...existing].sort();
    const current = o.kind !== "create" && o.kind !== "rejected" && o.onPage && onPage.length > 0 ? onPage.filter((n) => existing.has(n)) : all;
    if (o.kind === "create") {
      const name = `new-${o.id}-${opIndex}`;
      if (existing.has(name)) return;
      await subject.create(name);
      existing.add(name);
      touched.add(name);
    } else if (o.kind === "rejected") {
      await subject.rejected(all);
    } else if (current.length > 0) {
      const name = current[o.pick % current.length];
      if (name === ANCHOR) return;
      touched.add(name);
      if (o.kind === "delete") {
        await subject.remove(name);
        existing.delete(name);
      } else {
        await subject.change(name);
      }
    }
  };

  let page = (await bothWays(subject.path, query)).fast.body;
  const forward = (onPage = names(page)).slice();
  for (let steps = 0; page.pagination.next_page; steps++) {
    expect(steps).toBeLessThan(200);
    await applyNext();
    page = (await bothWays(subject.path, { ...query, [subject.nextParam]: page.pagination.next_page })).fast.body;
    forward.push(...(onPage = names(page)));
  }
  for (let steps = 0; page.pagination.previous_page; steps++) {
    expect(steps).toBeLessThan(200);
    await applyNext();
    page = (await bothWays(subject.path, { ...query, [subject.previousParam]: page.pagination.previous_page })).fast.body;
    onPage = names(page);
  }

  // A changed record may move past the cursor and be listed again; no other record may.
  const steadyListed = forward.filter((n) => !touched.has(n));
  expect(new Set(steadyListed).size).toBe(steadyListed.length);
  const whole = names((await bothWays(subject.path, { ...query, page_size: subject.maxPage })).fast.body);
  const steady = whole.filter((n) => initial.includes(n) && !touched.has(n));
  expect(forward.filter((n) => steady.includes(n))).toEqual(steady);
}

const workloads: Subject = {
  path: "/apps/workloads/list",
  nextParam: "next",
  previousParam: "previous",
  maxPage: 10000,
  create: (name) => createWorkload(name, { title: "mid", app: ["sim", "1.1.0"], cluster: "plant-b", node: null, state: "running" }),
  remove: async (name) => {
    expect((await emu.post(pathOf(areas.workloads.delete), { workload_names: [name] })).status).toBe(204);
  },
  change: async (name) => {
    expect((await emu.post(pathOf(areas.workloads.patch, { workload_name: name }), { title: `Moved ${name}`, node_name: "node-0" })).status).toBe(200);
  },
  // Updates every named workload in turn; the exp workload (always there, last) has no 1.1.0, so the
  // request fails after the others were changed, and all of it is rolled back.
  rejected: async (existing) => {
    const a = await emu.post(pathOf(areas.workloads.bulkUpdate), { workload_names: [...existing.filter((n) => n !== ANCHOR).slice(0, 4), ANCHOR], app_version: "1.1.0" });
    expect(a.status).toBe(404);
  },
};
/** A workload of the exp app, never deleted: what makes the bulk update above fail. */
const ANCHOR = "zz-anchor";

const assets: Subject = {
  path: "/assets/list",
  nextParam: "starting_after",
  previousParam: "ending_before",
  maxPage: 1000,
  create: (name) => createAssets([[name, { title: "Tank 5", type: "t-b" }]]),
  remove: async (name) => {
    expect((await emu.post(pathOf(areas.assets.delete, { asset_name: name }))).status).toBe(200);
  },
  change: async (name) => {
    expect((await emu.post(pathOf(areas.assets.update, { asset_name: name }), { title: `Moved ${name}` })).status).toBe(200);
  },
  // A dry run creates the assets inside its transaction and is then rolled back.
  rejected: async () => {
    const a = await emu.post(
      pathOf(areas.assets.bulkCreate),
      { assets: [assetItem("aaa-dry", { title: "AAA", type: "t-a" }), assetItem("zzz-dry", { title: "zzz", type: "t-c" })] },
      { query: { dry_run: true } },
    );
    expect(a.status).toBe(201);
  },
};

const WORKLOAD_KEYS = ["name", "title", "app_name", "app_version", "cluster_name", "node_name", "status_last_seen", "status_state", "created_at", "updated_at"];

/**
 * At most one filter, and the sort often led by the filtered field (what lets the walk jump from
 * value to value); both nulls placements, and the direction's default.
 */
function listQuery(
  filters: Array<[string, string | undefined, fc.Arbitrary<string[]>]>,
  base: fc.Arbitrary<Record<string, unknown> & { sort_by: string | string[] }>,
): fc.Arbitrary<Record<string, unknown>> {
  const filter = fc.oneof(fc.constant(undefined), ...filters.map(([field, key, values]) => values.map((v) => ({ field, key, v }))));
  return fc.tuple(base, filter, fc.boolean()).map(([q, f, lead]) => {
    if (!f) return q;
    const out: Record<string, unknown> = { ...q, [f.field]: f.v };
    if (lead && f.key) out.sort_by = Array.isArray(q.sort_by) ? [f.key, ...q.sort_by] : f.key;
    return out;
  });
}

const workloadQuery = listQuery(
  [
    ["cluster_names", "cluster_name", fc.subarray(CLUSTERS, { minLength: 1 })],
    ["node_names", "node_name", fc.subarray(["node-1", "node-2", "node-9"], { minLength: 1 })],
    ["statuses", "status_state", fc.subarray(["running", "stopped", "pending_deploy"], { minLength: 1 })],
    ["app_versions", "app_version", fc.subarray(["1.0.0", "1.10.0", "2.0.0"], { minLength: 1 })],
    ["workload_names", "name", fc.subarray(["w-1", "w-2", "w-5", "w-8", "w-9", "nope"], { minLength: 1 })],
    ["search", undefined, fc.constantFrom(["a"], ["w-1"], ["ZED"])],
  ],
  fc.record(
    {
      sort_by: fc.array(fc.constantFrom(...WORKLOAD_KEYS), { minLength: 1, maxLength: 3 }),
      direction: fc.constantFrom("asc", "desc"),
      nulls: fc.constantFrom("first", "last"),
      page_size: fc.integer({ min: 1, max: 6 }),
    },
    { requiredKeys: ["sort_by", "page_size"] },
  ),
);

const assetQuery = listQuery(
  [
    ["names", "asset.name", fc.subarray(["a-1", "a-2", "a-3", "a-5", "a-8", "a-12", "nope"], { minLength: 1 })],
    [
      "asset_type_name",
      "asset_type.title",
      fc.subarray(
        TYPES.map(([n]) => n),
        { minLength: 1 },
      ),
    ],
    ["search", undefined, fc.constantFrom(["1"], ["tank"], ["A-"])],
  ],
  fc.record(
    {
      sort_by: fc.constantFrom("asset.name", "asset.title", "asset.created", "asset.updated", "asset_type.title"),
      sort_asc: fc.boolean(),
      page_size: fc.integer({ min: 1, max: 6 }),
    },
    { requiredKeys: ["sort_by", "page_size"] },
  ),
);

/** Records `w-0`.. (or `a-0`..) as the specs say. */
const labelled = <S>(prefix: string, specs: S[]): Array<[string, S]> => specs.map((s, i) => [`${prefix}-${i}`, s]);

async function seedWorkloads(specs: WorkloadSpec[]): Promise<string[]> {
  const entries = labelled("w", specs);
  for (const [name, s] of entries) await createWorkload(name, s);
  await createWorkload(ANCHOR, { title: "anchor", app: ["exp", "2.0.0"], cluster: "plant-a", node: null, state: "running" });
  return [...entries.map(([n]) => n), ANCHOR];
}

async function seedAssets(specs: AssetSpec[]): Promise<string[]> {
  const entries = labelled("a", specs);
  await createAssets(entries);
  return entries.map(([n]) => n);
}

const RUNS = { numRuns: 25 };

// ---------------------------------------------------------------------------------------------

describe("Part 1 lists (workloads): the index walk answers what the full sort answers", () => {
  test("cursor pages forwards and backwards, any sort keys, direction and nulls placement, any filters, with records created, changed and deleted and requests rolled back between pages", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(workloadSpec, { maxLength: 20 }), workloadQuery, fc.array(op, { maxLength: 16 }), async (specs, query, ops) => {
        await freshEmulator();
        const initial = await seedWorkloads(specs);
        await walkWithChanges(workloads, query, initial, ops);
      }),
      RUNS,
    );
  });

  test("limits pages (totals counted without a sort) and streams are the same too", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(workloadSpec, { maxLength: 12 }), workloadQuery, fc.integer({ min: 1, max: 5 }), async (specs, query, page) => {
        await freshEmulator();
        await seedWorkloads(specs);
        const limits = (await bothWays("/apps/workloads/list", { ...query, pagination_type: "limits", page })).fast;
        expect(limits.status).toBe(200);
        const stream = (await bothWays("/apps/workloads/list", { ...query, pagination_type: "stream" })).fast;
        expect(stream.status).toBe(200);
      }),
      RUNS,
    );
  });

  test("the filtered two-key page of the benchmark is served by the index, and stays correct as it grows", async () => {
    const query = { cluster_names: ["plant-b", "plant-c"], sort_by: ["cluster_name", "name"], page_size: 3 };
    for (let i = 0; i < 9; i++) await createWorkload(`w-${(i * 7) % 9}`, { title: "t", app: ["sim", "1.0.0"], cluster: CLUSTERS[i % 3], node: null, state: "running" });
    const first = await bothWays(workloads.path, query);
    expect(first.walked).toBe(true);
    expect(names(first.fast.body)).toEqual(["w-1", "w-4", "w-7"]);
    await createWorkload("w-0b", { title: "t", app: ["sim", "1.0.0"], cluster: "plant-b", node: null, state: "running" });
    const second = await bothWays(workloads.path, { ...query, next: first.fast.body.pagination.next_page });
    expect(names(second.fast.body)).toEqual(["w-2", "w-5", "w-8"]);
    const back = await bothWays(workloads.path, { ...query, previous: second.fast.body.pagination.previous_page });
    expect(names(back.fast.body)).toEqual(["w-1", "w-4", "w-7"]);
    expect(back.fast.body.pagination.previous_page).not.toBeNull();
  });

  test("nulls placed against the index's order, with nulls behind the first sort key, fall back to the sort", async () => {
    await createWorkload("w-1", { title: "t", app: ["sim", "1.0.0"], cluster: "plant-a", node: "node-1", state: "running" });
    await createWorkload("w-2", { title: "t", app: ["sim", "1.0.0"], cluster: "plant-a", node: null, state: "running" });
    await createWorkload("w-3", { title: "t", app: ["sim", "1.0.0"], cluster: "plant-b", node: null, state: "stopped" });
    const nested = await bothWays(workloads.path, { sort_by: ["cluster_name", "node_name"], nulls: "last" });
    expect(nested.walked).toBe(false);
    expect(names(nested.fast.body)).toEqual(["w-1", "w-2", "w-3"]);
    // On the leading key the index serves either placement.
    const leading = await bothWays(workloads.path, { sort_by: ["node_name", "name"], direction: "desc", nulls: "first" });
    expect(leading.walked).toBe(true);
    expect(names(leading.fast.body)).toEqual(["w-3", "w-2", "w-1"]);
    const usual = await bothWays(workloads.path, { sort_by: ["cluster_name", "status_last_seen"], direction: "desc" });
    expect(usual.walked).toBe(true);
    // plant-b first; within plant-a the later last_seen (or, on a tie, the later name) first.
    expect(names(usual.fast.body)).toEqual(["w-3", "w-2", "w-1"]);
  });

  test("the record a cursor points at may go: the next page starts after its place, without a previous page when nothing is left before it", async () => {
    for (const n of ["w-1", "w-2", "w-3"]) await createWorkload(n, { title: "t", app: ["sim", "1.0.0"], cluster: "plant-a", node: null, state: "running" });
    const first = await bothWays(workloads.path, { page_size: 1 });
    expect(names(first.fast.body)).toEqual(["w-1"]);
    await workloads.remove("w-1");
    const second = await bothWays(workloads.path, { page_size: 1, next: first.fast.body.pagination.next_page });
    expect(second.walked).toBe(true);
    expect(names(second.fast.body)).toEqual(["w-2"]);
    expect(second.fast.body.pagination.previous_page).toBeNull();
    const back = await bothWays(workloads.path, { page_size: 1, previous: first.fast.body.pagination.next_page });
    expect(back.fast.body).toEqual({ data: [], pagination: { next_page: null, previous_page: null } });
  });

  test("a rolled-back request leaves the pages exactly as they were, cursors included", async () => {
    for (let i = 0; i < 6; i++) await createWorkload(`w-${i}`, { title: `T${i % 2}`, app: ["sim", "1.0.0"], cluster: "plant-a", node: null, state: "running" });
    await createWorkload(ANCHOR, { title: "anchor", app: ["exp", "2.0.0"], cluster: "plant-a", node: null, state: "running" });
    const query = { sort_by: ["app_version", "updated_at"], page_size: 4 };
    const before = (await bothWays(workloads.path, query)).fast.body;
    await workloads.rejected(["w-0", "w-3", "w-5"]);
    const after = await bothWays(workloads.path, query);
    expect(after.walked).toBe(true);
    expect(after.fast.body).toEqual(before);
  });

  test("after a reset the index holds only the new records", async () => {
    for (let i = 0; i < 5; i++) await createWorkload(`old-${i}`, { title: "t", app: ["sim", "1.0.0"], cluster: "plant-a", node: null, state: "running" });
    expect(names((await bothWays(workloads.path, { sort_by: ["title", "name"] })).fast.body)).toHaveLength(5);
    await freshEmulator();
    await createWorkload("new-1", { title: "t", app: ["sim", "1.0.0"], cluster: "plant-a", node: null, state: "running" });
    const a = await bothWays(workloads.path, { sort_by: ["title", "name"] });
    expect(a.walked).toBe(true);
    expect(names(a.fast.body)).toEqual(["new-1"]);
  });
});

describe("Part 2 lists (assets): the index walk answers what the full sort answers", () => {
  test("starting_after and ending_before pages in both directions, any sort key and filters, with assets created, changed and deleted and dry runs rolled back between pages", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(assetSpec, { maxLength: 20 }), assetQuery, fc.array(op, { maxLength: 16 }), async (specs, query, ops) => {
        await freshEmulator();
        const initial = await seedAssets(specs);
        await walkWithChanges(assets, query, initial, ops);
      }),
      RUNS,
    );
  });

  test("a dry run (created, then rolled back) leaves no trace in the pages", async () => {
    await seedAssets([
      { title: "b", type: "t-a" },
      { title: "c", type: "t-b" },
    ]);
    const query = { sort_by: "asset.title", page_size: 5 };
    const before = (await bothWays(assets.path, query)).fast.body;
    await assets.rejected([]);
    const after = await bothWays(assets.path, query);
    expect(after.walked).toBe(true);
    expect(after.fast.body).toEqual(before);
    expect(names(after.fast.body)).toEqual(["a-0", "a-1"]);
  });

  test("a filter on names walks only those names, in either direction", async () => {
    await seedAssets(Array.from({ length: 10 }, (_, i) => ({ title: `T${9 - i}`, type: "t-a" })));
    const asc = await bothWays(assets.path, { names: ["a-7", "a-2", "a-9", "nope"], sort_by: "asset.name", page_size: 2 });
    expect(asc.walked).toBe(true);
    expect(names(asc.fast.body)).toEqual(["a-2", "a-7"]);
    const desc = await bothWays(assets.path, { names: ["a-7", "a-2", "a-9"], sort_by: "asset.name", sort_asc: false, page_size: 2 });
    expect(names(desc.fast.body)).toEqual(["a-9", "a-7"]);
    const rest = await bothWays(assets.path, {
      names: ["a-7", "a-2", "a-9"],
      sort_by: "asset.name",
      sort_asc: false,
      page_size: 2,
      starting_after: desc.fast.body.pagination.next_page,
    });
    expect(names(rest.fast.body)).toEqual(["a-2"]);
    expect(rest.fast.body.pagination.next_page).toBeNull();
  });
});
