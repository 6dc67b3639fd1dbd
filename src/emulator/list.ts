/**
 * The list engine for both conventions. Pages are cut by keyset: a cursor carries the sort values
 * and identity of the record it points at, so records added or removed between pages never make a
 * record that existed throughout be skipped or repeated.
 */
import { ApiError, ErrorCode } from "../api/errors";
import { PART1_DEFAULT_PAGE_SIZE, type InventoryListQuery, type Part1ListQuery } from "../api/common";
import type { Reply } from "./http";

export type Sortable = string | number | boolean | null | undefined;

export interface ListSpec<T> {
  /** The record's identity: the final tie-break of every sort, so that the order is total. */
  key: (row: T) => string;
  /** Sort keys as the endpoint's enum names them. */
  sort: Record<string, (row: T) => Sortable>;
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

function decodeCursor(order: Order, token: string, param: string): Cursor {
  let c: Cursor;
  try {
    c = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as Cursor;
  } catch {
    throw new ApiError(400, ErrorCode.VALIDATION_FAILED, [`query.${param}: not a cursor this API issued`]);
  }
  if (!c || typeof c !== "object" || !Array.isArray(c.v) || typeof c.k !== "string" || typeof c.o !== "string") {
    throw new ApiError(400, ErrorCode.VALIDATION_FAILED, [`query.${param}: not a cursor this API issued`]);
  }
  if (c.o !== signature(order)) {
    throw new ApiError(400, ErrorCode.VALIDATION_FAILED, [
      `query.${param}: the cursor belongs to another sort order; repeat the request with the same sort_by and direction`,
    ]);
  }
  return c;
}

function compareValues(a: Sortable, b: Sortable, nullsFirst: boolean): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) {
    if (an && bn) return 0;
    return an === nullsFirst ? -1 : 1;
  }
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const as = String(a);
  const bs = String(b);
  return as < bs ? -1 : as > bs ? 1 : 0;
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
      // Nulls sit where `nulls` says whatever the direction: compare them outside the sign.
      const an = a.values[i] === null || a.values[i] === undefined;
      const bn = b.values[i] === null || b.values[i] === undefined;
      if (an !== bn) return an === order.nullsFirst ? -1 : 1;
      const c = compareValues(a.values[i], b.values[i], order.nullsFirst);
      if (c !== 0) return sign * c;
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

/** Cuts one keyset page: after `after`, or before `before`, or from the start. */
function keysetPage<T>(entries: Entry<T>[], order: Order, size: number, after?: Cursor, before?: Cursor) {
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

const itemOf = <T>(spec: ListSpec<T>) => (e: Entry<T>) => (spec.item ? spec.item(e.row) : e.row);

/** Answers a Part 1 list (limits, cursor or stream) from the rows that passed the endpoint's filters. */
export function part1List<T>(rows: Iterable<T>, q: Part1ListQuery, spec: ListSpec<T>): Reply {
  const desc = q.direction === "desc";
  const order: Order = { keys: q.sort_by, desc, nullsFirst: q.nulls ? q.nulls === "first" : !desc };
  const entries = sortedEntries(rows, spec, order);
  const item = itemOf(spec);
  const size = q.page_size ?? PART1_DEFAULT_PAGE_SIZE;
  if (q.pagination_type === "stream") {
    const lines = entries.map((e) => JSON.stringify(item(e))).join("\n");
    return { status: 200, headers: { "content-type": "application/x-json-stream" }, raw: lines.length ? lines + "\n" : "" };
  }
  if (q.pagination_type === "limits") {
    const page = q.page ?? 1;
    const totalPages = Math.max(1, Math.ceil(entries.length / size));
    const data = entries.slice((page - 1) * size, page * size).map(item);
    return {
      status: 200,
      headers: { "content-type": "application/x-json-limits" },
      body: { data, pagination: { page, total_pages: totalPages, total_items: entries.length } },
    };
  }
  const after = q.next ? decodeCursor(order, q.next, "next") : undefined;
  const before = !after && q.previous ? decodeCursor(order, q.previous, "previous") : undefined;
  const { page, next, previous } = keysetPage(entries, order, size, after, before);
  return {
    status: 200,
    headers: { "content-type": "application/json-cursor" },
    body: { data: page.map(item), pagination: { next_page: next, previous_page: previous } },
  };
}

/** Answers a Part 2 inventory list (starting_after / ending_before). */
export function inventoryList<T>(rows: Iterable<T>, q: InventoryListQuery, spec: ListSpec<T>): Reply {
  const order: Order = { keys: [q.sort_by], desc: !q.sort_asc, nullsFirst: q.sort_asc };
  const entries = sortedEntries(rows, spec, order);
  const after = q.starting_after ? decodeCursor(order, q.starting_after, "starting_after") : undefined;
  const before = !after && q.ending_before ? decodeCursor(order, q.ending_before, "ending_before") : undefined;
  const { page, next, previous } = keysetPage(entries, order, q.page_size, after, before);
  return { status: 200, body: { data: page.map(itemOf(spec)), pagination: { next_page: next, previous_page: previous } } };
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

/** Exact match against an array filter; an absent or empty filter matches everything. */
export function inFilter<V>(filter: readonly V[] | undefined, value: V): boolean {
  return !filter || filter.length === 0 || filter.includes(value);
}

/**
 * `metadata_filter[]` entries `<name>.<key>=<value>`: OR within one metadata name, AND across names.
 * `lookup(name)` returns the payload of the record's metadata of that name.
 */
export function matchesMetadataFilter(
  filters: string[] | undefined,
  lookup: (metadataName: string) => Record<string, unknown> | undefined,
): boolean {
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
