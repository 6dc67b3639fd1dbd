/**
 * The list engine for both conventions. Pages are cut by keyset: a cursor carries the sort values
 * and identity of the record it points at, so records added or removed between pages never make a
 * record that existed throughout be skipped or repeated.
 *
 * Two ways to the same answer:
 * - rows given as any iterable are sorted whole on every request (O(n log n));
 * - rows given as `indexedRows(table, ...)` are walked in an ordered index of the table (kept by the
 *   store), from the cursor's position until the page is full: O(log n + page + rows the filter
 *   skips). An `in` filter on the leading sort key (`only`) turns the walk into one range per value.
 *   Orders the index cannot serve (a sort key that is not a stored field, `nulls` against the index's
 *   placement where a non-leading sort value is null) fall back to the sort.
 */
import type { z } from "zod";
import type { AnyEndpoint } from "../api/endpoint";
import { errors } from "../api/errors";
import { PART1_DEFAULT_PAGE_SIZE, type InventoryListQuery, type PaginationType, type Part1ListQuery } from "../api/common";
import type { Reply } from "./handler";
import { ABOVE, compareSortValues, compareTuples, type IndexTuple, type OrderedIndex, type Table } from "./store/store";

export type Sortable = string | number | boolean | null | undefined;

/** The sort keys endpoint E's list query names (`sort_by`), as literal types. */
export type SortKeyOf<E extends AnyEndpoint> =
  NonNullable<E["query"]> extends z.ZodType
    ? z.output<NonNullable<E["query"]>> extends { sort_by: infer S }
      ? (S extends ReadonlyArray<infer I> ? I : S) & string
      : never
    : never;

/** A getter for every sort key of endpoint E's list over rows T; `satisfies` it where the getters are declared apart from the call. */
export type SortGetters<E extends AnyEndpoint, T> = Record<SortKeyOf<E>, (row: T) => Sortable>;

/** `K`: the sort keys of the endpoint's query, so that a getter missing or named wrong does not compile. */
export interface ListSpec<T, K extends string = string> {
  /** The record's identity: the final tie-break of every sort, so that the order is total. */
  key: (row: T) => string;
  /** A getter for every sort key the endpoint's enum names, and no other. */
  sort: Record<K, (row: T) => Sortable>;
  /** Shapes a stored record into a list item. */
  item?: (row: T) => unknown;
}

interface Order {
  keys: string[];
  desc: boolean;
  nullsFirst: boolean;
}

interface Cursor {
  o: string;
  v: Sortable[];
  k: string;
}

const signature = (o: Order) => `${o.keys.join(",")}|${o.desc ? "d" : "a"}|${o.nullsFirst ? "f" : "l"}`;

function encodeCursor(order: Order, values: Sortable[], key: string): string {
  const c: Cursor = { o: signature(order), v: values, k: key };
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

const isCursorValue = (v: unknown) => v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";

function decodeCursor(order: Order, token: string, param: string): Cursor {
  let c: Cursor;
  try {
    c = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as Cursor;
  } catch {
    throw errors.VALIDATION_FAILED(`query.${param}: not a cursor this API issued`);
  }
  if (!c || typeof c !== "object" || !Array.isArray(c.v) || c.v.length !== order.keys.length || !c.v.every(isCursorValue) || typeof c.k !== "string" || typeof c.o !== "string") {
    throw errors.VALIDATION_FAILED(`query.${param}: not a cursor this API issued`);
  }
  if (c.o !== signature(order)) {
    throw errors.VALIDATION_FAILED(`query.${param}: the cursor belongs to another sort order; repeat the request with the same sort_by and direction`);
  }
  return c;
}

const isNull = (v: Sortable): v is null | undefined => v === null || v === undefined;

/** One sort value against another in the list's order: nulls where `nulls` says whatever the direction. */
function compareInOrder(order: Order, a: Sortable, b: Sortable): number {
  const an = isNull(a);
  const bn = isNull(b);
  if (an || bn) return an && bn ? 0 : an === order.nullsFirst ? -1 : 1;
  return (order.desc ? -1 : 1) * compareSortValues(a, b);
}

interface Entry<T> {
  row: T;
  values: Sortable[];
  key: string;
}

function comparator(order: Order) {
  const sign = order.desc ? -1 : 1;
  return (a: { values: Sortable[]; key: string }, b: { values: Sortable[]; key: string }): number => {
    for (let i = 0; i < order.keys.length; i++) {
      const c = compareInOrder(order, a.values[i], b.values[i]);
      if (c !== 0) return c;
    }
    return sign * (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  };
}

function sortedEntries<T>(rows: Iterable<T>, spec: ListSpec<T>, order: Order): Entry<T>[] {
  const getters = order.keys.map((k) => {
    const g = spec.sort[k];
    if (!g) throw new Error(`list spec has no sort key '${k}'`);
    return g;
  });
  const entries: Entry<T>[] = [];
  for (const row of rows) entries.push({ row, values: getters.map((g) => g(row)), key: spec.key(row) });
  entries.sort(comparator(order));
  return entries;
}

/** Index of the first entry strictly after the cursor position. */
function firstAfter<T>(entries: Entry<T>[], cursor: { values: Sortable[]; key: string }, cmp: ReturnType<typeof comparator>): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(entries[mid], cursor) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
/** Index of the first entry at or after the cursor position. */
function firstAtOrAfter<T>(entries: Entry<T>[], cursor: { values: Sortable[]; key: string }, cmp: ReturnType<typeof comparator>): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(entries[mid], cursor) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Page<T> {
  page: Entry<T>[];
  next: string | null;
  previous: string | null;
}

/** Cuts one keyset page: after `after`, or before `before`, or from the start. */
function keysetPage<T>(entries: Entry<T>[], order: Order, size: number, after?: Cursor, before?: Cursor): Page<T> {
  const cmp = comparator(order);
  let start: number;
  let end: number;
  if (after) {
    start = firstAfter(entries, { values: after.v, key: after.k }, cmp);
    end = Math.min(entries.length, start + size);
  } else if (before) {
    end = firstAtOrAfter(entries, { values: before.v, key: before.k }, cmp);
    start = Math.max(0, end - size);
  } else {
    start = 0;
    end = Math.min(entries.length, size);
  }
  const page = entries.slice(start, end);
  const cursorOf = (e: Entry<T>) => encodeCursor(order, e.values, e.key);
  return {
    page,
    next: end < entries.length && page.length > 0 ? cursorOf(page[page.length - 1]) : null,
    previous: start > 0 && page.length > 0 ? cursorOf(page[0]) : start > 0 && after ? encodeCursor(order, after.v, after.k) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Index walks

/** Lets tests compare the index walks with the full sort; true outside tests. */
export const listEngine = { useIndexes: true };

export interface IndexedOptions {
  /**
   * The sort keys the index may serve: those whose getter reads the stored record only, so that
   * `visit` does not change the value. Default: every sort key of the list.
   */
  sortKeys?: readonly string[];
  /**
   * Per sort key, the only values a row that `visit` accepts can hold there (the list's `in` filter
   * on that field, when the request has one). Used when the key leads the sort.
   */
  only?: Record<string, readonly Sortable[] | undefined>;
}

/**
 * The rows of a list as a table and a filter, so that the engine can walk an index of the table
 * instead of sorting. Iterating it yields every accepted row (for the paths that need them all).
 */
export class IndexedRows<T> implements Iterable<T> {
  constructor(
    readonly table: Table<T>,
    /** Names this list's indexes on the table: lists whose getters differ for one sort key name need different names. */
    readonly name: string,
    /** The row as the list shows it (time-dependent fields brought up to the request's time), or undefined when the filters reject it. */
    readonly visit: (row: T) => T | undefined,
    readonly options: IndexedOptions = {},
  ) {}

  *[Symbol.iterator](): Iterator<T> {
    for (const stored of this.table.values()) {
      const row = this.visit(stored);
      if (row !== undefined) yield row;
    }
  }
}

export const indexedRows = <T>(table: Table<T>, name: string, visit: (row: T) => T | undefined, options?: IndexedOptions) => new IndexedRows(table, name, visit, options);

/** A run of the leading sort value, walked whole: its bounds in the index, and its place in the list's order. */
interface Segment {
  lo?: IndexTuple;
  hi?: IndexTuple;
  /** -1 when the segment comes before the leading value in the list's order, 0 when it holds it, 1 after. */
  against(lead: Sortable): number;
}

interface Walk<T> {
  rows: IndexedRows<T>;
  index: OrderedIndex<T>;
  /** Whether the list's order is the index's ascending order (else its reverse). */
  ascending: boolean;
  /** In the list's order. */
  segments: Segment[];
}

/** A position in the list's order: a cursor's record, present or not. */
interface Position {
  tuple: IndexTuple;
  lead: Sortable;
}

const positionOf = (c: Cursor): Position => ({ tuple: [...c.v, c.k], lead: c.v[0] });

function exactSegment(order: Order, v: Sortable): Segment {
  return { lo: [v], hi: [v, ABOVE], against: (lead) => Math.sign(compareInOrder(order, v, lead)) };
}
const ALL: Segment = { against: () => 0 };

/** The leading nulls and the rest, for a `nulls` placement the index's walk does not give. */
function nullSegments(order: Order): Segment[] {
  const before = order.nullsFirst ? -1 : 1;
  const nulls: Segment = { hi: [null, ABOVE], against: (lead) => (isNull(lead) ? 0 : before) };
  const values: Segment = { lo: [null, ABOVE], against: (lead) => (isNull(lead) ? -before : 0) };
  return order.nullsFirst ? [nulls, values] : [values, nulls];
}

/** The leading values an `in` filter allows, in the list's order, once each. */
function onlySegments(order: Order, values: readonly Sortable[]): Segment[] {
  const sorted = [...values].sort((a, b) => compareInOrder(order, a, b));
  const distinct = sorted.filter((v, i) => i === 0 || compareInOrder(order, sorted[i - 1], v) !== 0);
  return distinct.map((v) => exactSegment(order, v));
}

/** How to walk an index for this order, or undefined when only the sort can answer it. */
function planWalk<T>(rows: IndexedRows<T>, spec: ListSpec<T>, order: Order): Walk<T> | undefined {
  if (!listEngine.useIndexes) return undefined;
  const servable = rows.options.sortKeys ?? Object.keys(spec.sort);
  if (!order.keys.every((k) => servable.includes(k) && spec.sort[k])) return undefined;
  const getters = order.keys.map((k) => spec.sort[k]);
  const index = rows.table.index(`${rows.name}:${JSON.stringify(order.keys)}`, (row) => getters.map((g) => g(row)));
  // The index holds nulls first at every position: walked up that is ascending with nulls first,
  // walked down descending with nulls last. The other placements are served only at the leading
  // position (as separate segments); nulls further in would interleave.
  const ascending = !order.desc;
  const indexNulls = order.nullsFirst === ascending;
  if (!indexNulls && order.keys.some((_, i) => i > 0 && index.hasNullsAt(i))) return undefined;
  const only = order.keys.length > 0 ? rows.options.only?.[order.keys[0]] : undefined;
  let segments: Segment[];
  if (only && only.length > 0) segments = onlySegments(order, only);
  else if (indexNulls || !index.hasNullsAt(0)) segments = [ALL];
  else segments = nullSegments(order);
  return { rows, index, ascending, segments };
}

/**
 * The accepted rows in the list's order after `from` (or, `backwards`, before it, nearest first);
 * from the start (or the end) when there is no position. `inclusive` takes the position's own record.
 */
function* walk<T>(w: Walk<T>, from: Position | undefined, backwards: boolean, inclusive: boolean): Generator<Entry<T>> {
  const up = w.ascending !== backwards;
  const segments = backwards ? [...w.segments].reverse() : w.segments;
  for (const seg of segments) {
    let start = up ? seg.lo : seg.hi;
    let exclusive = false;
    if (from) {
      const place = seg.against(from.lead) * (backwards ? -1 : 1);
      if (place < 0) continue; // behind the position
      if (place === 0) {
        start = from.tuple;
        exclusive = !inclusive;
      }
    }
    const end = up ? seg.hi : seg.lo;
    const tuples = up ? w.index.ascending(start, exclusive) : w.index.descending(start, exclusive);
    for (const tuple of tuples) {
      if (end && (up ? compareTuples(tuple, end) > 0 : compareTuples(tuple, end) < 0)) break;
      const key = tuple[tuple.length - 1] as string;
      const row = w.rows.visit(w.rows.table.get(key)!);
      if (row !== undefined) yield { row, values: tuple.slice(0, -1) as Sortable[], key };
    }
  }
}

function take<T>(entries: Iterable<Entry<T>>, n: number): Entry<T>[] {
  const out: Entry<T>[] = [];
  if (n <= 0) return out;
  for (const e of entries) {
    out.push(e);
    if (out.length >= n) break;
  }
  return out;
}

/** The keyset page of `keysetPage`, from a walk: each side reads one row past the page to know if there is more. */
function walkedPage<T>(w: Walk<T>, order: Order, size: number, after?: Cursor, before?: Cursor): Page<T> {
  const cursorOf = (e: Entry<T>) => encodeCursor(order, e.values, e.key);
  const anyAt = (c: Cursor, backwards: boolean) => take(walk(w, positionOf(c), backwards, true), 1).length > 0;
  if (before) {
    const found = take(walk(w, positionOf(before), true, false), size + 1);
    const page = found.slice(0, size).reverse();
    return {
      page,
      next: page.length > 0 && anyAt(before, false) ? cursorOf(page[page.length - 1]) : null,
      previous: found.length > size && page.length > 0 ? cursorOf(page[0]) : null,
    };
  }
  const found = take(walk(w, after && positionOf(after), false, false), size + 1);
  const page = found.slice(0, size);
  const earlier = after !== undefined && anyAt(after, true);
  return {
    page,
    next: found.length > size && page.length > 0 ? cursorOf(page[page.length - 1]) : null,
    previous: earlier ? (page.length > 0 ? cursorOf(page[0]) : encodeCursor(order, after.v, after.k)) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The two conventions

/** The rows in the list's order, sorted or walked. */
function ordered<T>(rows: Iterable<T>, walkPlan: Walk<T> | undefined, spec: ListSpec<T>, order: Order): Iterable<Entry<T>> {
  return walkPlan ? walk(walkPlan, undefined, false, false) : sortedEntries(rows, spec, order);
}

function cursorPage<T>(rows: Iterable<T>, walkPlan: Walk<T> | undefined, spec: ListSpec<T>, order: Order, size: number, after?: Cursor, before?: Cursor): Page<T> {
  return walkPlan ? walkedPage(walkPlan, order, size, after, before) : keysetPage(sortedEntries(rows, spec, order), order, size, after, before);
}

const planFor = <T>(rows: Iterable<T>, spec: ListSpec<T>, order: Order) => (rows instanceof IndexedRows ? planWalk(rows as IndexedRows<T>, spec, order) : undefined);

const itemOf =
  <T>(spec: ListSpec<T>) =>
  (e: Entry<T>) =>
    spec.item ? spec.item(e.row) : e.row;

/** How a request pages: its pagination type and size, and the cursor it continues from (with the parameter that carried it). */
interface Paging {
  type: PaginationType;
  size: number;
  page?: number;
  after?: { token: string; param: string };
  before?: { token: string; param: string };
}

/** Answers one page of the rows in `order` the way `paging` asks: a stream, a limits page or a cursor page. */
function pageAnswer<T>(rows: Iterable<T>, spec: ListSpec<T>, order: Order, paging: Paging, cursorHeaders?: Record<string, string>): Reply {
  const plan = planFor(rows, spec, order);
  const item = itemOf(spec);
  const size = paging.size;
  if (paging.type === "stream") {
    const lines: string[] = [];
    for (const e of ordered(rows, plan, spec, order)) lines.push(JSON.stringify(item(e)));
    return { status: 200, headers: { "content-type": "application/x-json-stream" }, raw: lines.length ? lines.join("\n") + "\n" : "" };
  }
  if (paging.type === "limits") {
    // The total needs every row; only the page's rows are shaped.
    const page = paging.page ?? 1;
    const from = (page - 1) * size;
    const data: unknown[] = [];
    let total = 0;
    for (const e of ordered(rows, plan, spec, order)) {
      if (total >= from && total < from + size) data.push(item(e));
      total++;
    }
    return {
      status: 200,
      headers: { "content-type": "application/x-json-limits" },
      body: { data, pagination: { page, total_pages: Math.max(1, Math.ceil(total / size)), total_items: total } },
    };
  }
  const after = paging.after ? decodeCursor(order, paging.after.token, paging.after.param) : undefined;
  const before = !after && paging.before ? decodeCursor(order, paging.before.token, paging.before.param) : undefined;
  const { page, next, previous } = cursorPage(rows, plan, spec, order, size, after, before);
  return { status: 200, ...(cursorHeaders ? { headers: cursorHeaders } : {}), body: { data: page.map(item), pagination: { next_page: next, previous_page: previous } } };
}

const cursorParam = (token: string | undefined, param: string) => (token ? { token, param } : undefined);

/** Answers a Part 1 list (limits, cursor or stream) from the rows that passed the endpoint's filters. */
export function part1List<T, K extends string>(rows: Iterable<T>, q: Part1ListQuery<K>, spec: ListSpec<T, NoInfer<K>>): Reply {
  const desc = q.direction === "desc";
  const order: Order = { keys: q.sort_by, desc, nullsFirst: q.nulls ? q.nulls === "first" : !desc };
  const paging: Paging = {
    type: q.pagination_type,
    size: q.page_size ?? PART1_DEFAULT_PAGE_SIZE,
    page: q.page,
    after: cursorParam(q.next, "next"),
    before: cursorParam(q.previous, "previous"),
  };
  return pageAnswer(rows, spec, order, paging, { "content-type": "application/json-cursor" });
}

/** One cursor given under either of its names (the spec's, or the vendor clients' Part 1 name); 400 when both differ. */
function eitherName(spec: [string, string | undefined], client: [string, string | undefined]): { token: string; param: string } | undefined {
  if (spec[1] !== undefined && client[1] !== undefined && spec[1] !== client[1]) {
    throw errors.VALIDATION_FAILED(`query.${client[0]}: names another cursor than ${spec[0]}; send one of them`);
  }
  return cursorParam(spec[1], spec[0]) ?? cursorParam(client[1], client[0]);
}

/**
 * Answers a Part 2 inventory list: starting_after / ending_before (or their Part 1 names next /
 * previous), sort_asc (or direction); pagination_type limits or stream as Part 1 answers them.
 */
export function inventoryList<T, K extends string>(rows: Iterable<T>, q: InventoryListQuery<K>, spec: ListSpec<T, NoInfer<K>>): Reply {
  const desc = q.direction ? q.direction === "desc" : !q.sort_asc;
  const order: Order = { keys: [q.sort_by], desc, nullsFirst: q.nulls ? q.nulls === "first" : !desc };
  const paging: Paging = {
    type: q.pagination_type ?? "cursor",
    size: q.page_size,
    page: q.page,
    after: eitherName(["starting_after", q.starting_after], ["next", q.next]),
    before: eitherName(["ending_before", q.ending_before], ["previous", q.previous]),
  };
  return pageAnswer(rows, spec, order, paging);
}

/** Case-insensitive partial match of any search entry against any of the fields (OR across entries). */
export function matchesSearch(search: string[] | undefined, ...fields: Array<string | null | undefined>): boolean {
  if (!search || search.length === 0) return true;
  const hay = fields.filter((f): f is string => typeof f === "string").map((f) => f.toLowerCase());
  return search.some((s) => {
    const needle = s.toLowerCase();
    return hay.some((h) => h.includes(needle));
  });
}

/** Exact match against an array filter; an absent or empty filter matches everything, a present one never matches null. */
export function inFilter<V>(filter: readonly V[] | undefined, value: V | null): boolean {
  return !filter || filter.length === 0 || (value !== null && filter.includes(value));
}

/**
 * `metadata_filter[]` entries `<name>.<key>=<value>`: OR within one metadata name, AND across names.
 * `lookup(name)` returns the payload of the record's metadata of that name.
 */
export function matchesMetadataFilter(filters: string[] | undefined, lookup: (metadataName: string) => Record<string, unknown> | undefined): boolean {
  if (!filters || filters.length === 0) return true;
  const byName = new Map<string, Array<[string, string]>>();
  for (const f of filters) {
    const eq = f.indexOf("=");
    const lhs = f.slice(0, eq);
    const dot = lhs.indexOf(".");
    const mdName = lhs.slice(0, dot);
    const list = byName.get(mdName) ?? [];
    list.push([lhs.slice(dot + 1), f.slice(eq + 1)]);
    byName.set(mdName, list);
  }
  for (const [mdName, conditions] of byName) {
    const payload = lookup(mdName);
    if (!payload) return false;
    const ok = conditions.some(([k, v]) => {
      const actual = Object.prototype.hasOwnProperty.call(payload, k) ? payload[k] : undefined;
      return actual !== undefined && (typeof actual === "string" ? actual === v : JSON.stringify(actual) === v);
    });
    if (!ok) return false;
  }
  return true;
}
