/**
 * The emulator's store: one table per record kind, keyed by the record's identity. Records are
 * frozen plain JSON values; a handler changes a record by putting a new one. Every request runs
 * inside a transaction: a rejected request is rolled back whole, a successful one hands its changes
 * to the listeners (persistence) before the answer is sent.
 *
 * A table can also keep ordered indexes over its records (`table.index`), so that a list page is a
 * seek and a short walk instead of a sort of the whole table. Every change to the rows goes through
 * put/delete/restore/clear, and each of them updates the indexes, so an index always holds exactly
 * the table's current rows: a rollback (which restores the previous values) restores the indexes too.
 */
import BTree from "sorted-btree";

export interface Change {
  table: string;
  key: string;
  /** The new value, or undefined for a delete. */
  value: unknown;
}

type Snapshot = Record<string, Array<[string, unknown]>>;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Ordered indexes

/** A value an index orders by; `undefined` from a key function counts as null. */
export type IndexValue = string | number | boolean | null | undefined;

/**
 * Placed in a probe, sorts after every value: `[v, ABOVE]` is just past the last entry whose first
 * value is v. (A probe shorter than the entries, `[v]`, is just before the first of them.)
 */
export const ABOVE: unique symbol = Symbol("above");

/** An index entry `[...values, key]`, or a probe to seek with (shorter, or holding ABOVE). */
export type IndexTuple = ReadonlyArray<IndexValue | typeof ABOVE>;

/**
 * The order of non-null sort values, shared with the list engine's sort: strings by code unit,
 * numbers numerically, anything else (mixed types, booleans) by its text.
 */
export function compareSortValues(a: NonNullable<IndexValue>, b: NonNullable<IndexValue>): number {
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const as = String(a);
  const bs = String(b);
  return as < bs ? -1 : as > bs ? 1 : 0;
}

/** One position of a tuple: nulls before every value, ABOVE after every value. */
function compareComponent(a: IndexValue | typeof ABOVE, b: IndexValue | typeof ABOVE): number {
  if (a === b) return 0;
  if (a === ABOVE) return 1;
  if (b === ABOVE) return -1;
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an && bn ? 0 : an ? -1 : 1;
  return compareSortValues(a as NonNullable<IndexValue>, b as NonNullable<IndexValue>);
}

/** Ascending order of tuples, position by position; a tuple that is a prefix of another comes first. */
export function compareTuples(a: IndexTuple, b: IndexTuple): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareComponent(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/**
 * The table's records in ascending order of `[...keyOf(row), key]` (nulls first at every position;
 * the record key last makes every entry unique). Walks go either way from any position.
 */
export class OrderedIndex<T> {
  private readonly tree = new BTree<IndexTuple, undefined>(undefined, compareTuples);
  /** How many entries hold null at each value position. */
  private readonly nullCounts: number[] = [];

  constructor(private readonly keyOf: (row: T) => readonly IndexValue[]) {}

  get size(): number {
    return this.tree.size;
  }

  /** Whether any entry holds null at value position `i`. */
  hasNullsAt(i: number): boolean {
    return (this.nullCounts[i] ?? 0) > 0;
  }

  /** Entries from `from` (or the first) upwards; `from` itself is skipped when `exclusive`. */
  *ascending(from?: IndexTuple, exclusive = false): IterableIterator<IndexTuple> {
    let skip = exclusive && from !== undefined;
    for (const k of this.tree.keys(from)) {
      if (skip) {
        // Only the first entry can equal `from`.
        skip = false;
        if (compareTuples(k, from!) === 0) continue;
      }
      yield k;
    }
  }

  /** Entries from `from` (or the last) downwards; `from` itself is skipped when `exclusive`. */
  *descending(from?: IndexTuple, exclusive = false): IterableIterator<IndexTuple> {
    for (const [k] of this.tree.entriesReversed(from, undefined, exclusive)) yield k;
  }

  /** Keys of the records whose values begin with `prefix`, in the index's order. */
  *keysWith(prefix: readonly IndexValue[]): IterableIterator<string> {
    const probe = prefix.map((v) => (v === undefined ? null : v));
    for (const tuple of this.ascending(probe)) {
      for (let i = 0; i < probe.length; i++) if (compareComponent(tuple[i], probe[i]) !== 0) return;
      yield tuple[tuple.length - 1] as string;
    }
  }

  /** @internal kept current by the table */
  update(key: string, before: T | undefined, after: T | undefined): void {
    const old = before === undefined ? undefined : this.tupleOf(key, before);
    const next = after === undefined ? undefined : this.tupleOf(key, after);
    if (old && next && compareTuples(old, next) === 0) return;
    if (old) {
      this.tree.delete(old);
      this.countNulls(old, -1);
    }
    if (next) {
      this.tree.set(next, undefined);
      this.countNulls(next, 1);
    }
  }

  /** @internal */
  clear(): void {
    this.tree.clear();
    this.nullCounts.length = 0;
  }

  private tupleOf(key: string, row: T): IndexTuple {
    // undefined and null are the same position; store one of them so that entries compare equal.
    return [...this.keyOf(row).map((v) => (v === undefined ? null : v)), key];
  }

  private countNulls(tuple: IndexTuple, delta: number): void {
    for (let i = 0; i < tuple.length - 1; i++) {
      if (tuple[i] === null) this.nullCounts[i] = (this.nullCounts[i] ?? 0) + delta;
    }
  }
}

/**
 * How many indexes a table keeps. Sort orders are chosen by callers, so the least recently used
 * index goes when another one is asked for: every put pays for each index the table keeps.
 */
const MAX_INDEXES_PER_TABLE = 8;

// ---------------------------------------------------------------------------------------------
// Tables

export class Table<T> {
  private readonly rows = new Map<string, T>();
  /** Named ordered indexes, least recently used first. */
  private readonly indexes = new Map<string, OrderedIndex<T>>();
  private newestIndex: string | undefined;

  constructor(
    readonly name: string,
    private readonly store: Store,
  ) {}

  get(key: string): T | undefined {
    return this.rows.get(key);
  }
  has(key: string): boolean {
    return this.rows.has(key);
  }
  get size(): number {
    return this.rows.size;
  }
  values(): IterableIterator<T> {
    return this.rows.values();
  }
  entries(): IterableIterator<[string, T]> {
    return this.rows.entries();
  }
  /** Records matching a predicate, in insertion order. */
  filter(pred: (row: T) => boolean): T[] {
    const out: T[] = [];
    for (const r of this.rows.values()) if (pred(r)) out.push(r);
    return out;
  }

  /**
   * The ordered index `name` over `[...keyOf(row), key]`, built on first use and kept current from
   * then on. The name stands for the key function: callers that order differently use other names.
   * `keyOf` must read only the stored record (nothing that changes with time or other tables).
   */
  index(name: string, keyOf: (row: T) => readonly IndexValue[]): OrderedIndex<T> {
    let ix = this.indexes.get(name);
    // Already the most recently used: nothing to reorder (the common case, one index read again and again).
    if (ix && name === this.newestIndex) return ix;
    if (ix) {
      this.indexes.delete(name);
    } else {
      ix = new OrderedIndex(keyOf);
      for (const [key, row] of this.rows) ix.update(key, undefined, row);
      if (this.indexes.size >= MAX_INDEXES_PER_TABLE) this.indexes.delete(this.indexes.keys().next().value!);
    }
    this.indexes.set(name, ix);
    this.newestIndex = name;
    return ix;
  }

  /** The records whose `keyOf` values begin with `prefix` (through the index `name`), in the index's order. */
  lookup(name: string, keyOf: (row: T) => readonly IndexValue[], prefix: readonly IndexValue[]): T[] {
    return [...this.index(name, keyOf).keysWith(prefix)].map((key) => this.rows.get(key)!);
  }

  put(key: string, value: T): T {
    const frozen = deepFreeze(value);
    const prev = this.rows.get(key);
    this.store.record(this.name, key, prev);
    this.rows.set(key, frozen);
    this.reindex(key, prev, frozen);
    return frozen;
  }

  delete(key: string): boolean {
    if (!this.rows.has(key)) return false;
    const prev = this.rows.get(key);
    this.store.record(this.name, key, prev);
    this.rows.delete(key);
    this.reindex(key, prev, undefined);
    return true;
  }

  /** Loads a row without journaling (restore from disk or fixtures outside a transaction, rollback). */
  restore(key: string, value: T | undefined): void {
    const prev = this.rows.get(key);
    if (value === undefined) {
      if (!this.rows.delete(key)) return;
      this.reindex(key, prev, undefined);
    } else {
      const frozen = deepFreeze(value);
      this.rows.set(key, frozen);
      this.reindex(key, prev, frozen);
    }
  }

  clear(): void {
    this.rows.clear();
    for (const ix of this.indexes.values()) ix.clear();
  }

  private reindex(key: string, before: T | undefined, after: T | undefined): void {
    for (const ix of this.indexes.values()) ix.update(key, before, after);
  }
}

interface JournalEntry {
  table: string;
  key: string;
  prev: unknown;
}

export type CommitListener = (changes: Change[]) => void | Promise<void>;

/** The changes of a transaction that changed nothing (most reads): shared, never written to. */
const NO_CHANGES: Change[] = Object.freeze([]) as unknown as Change[];

export class Store {
  private readonly tables = new Map<string, Table<unknown>>();
  private journal: JournalEntry[] | null = null;
  private readonly listeners: CommitListener[] = [];
  private readonly resetListeners: Array<() => void> = [];

  table<T>(name: string): Table<T> {
    let t = this.tables.get(name);
    if (!t) {
      t = new Table<unknown>(name, this);
      this.tables.set(name, t);
    }
    return t as Table<T>;
  }

  tableNames(): string[] {
    return [...this.tables.keys()];
  }

  /** Next value of a named sequence (integer ids of data labels, audit entries, ...). */
  nextSeq(name: string): number {
    const seq = this.table<number>("_seq");
    const next = (seq.get(name) ?? 0) + 1;
    seq.put(name, next);
    return next;
  }

  /** @internal called by tables before each change */
  record(table: string, key: string, prev: unknown): void {
    if (this.journal) this.journal.push({ table, key, prev });
  }

  /** The changes of the running transaction so far, with the value each had before it. */
  pendingChanges(): Array<Change & { prev: unknown }> {
    const journal = this.journal ?? [];
    const seen = new Set<string>();
    const out: Array<Change & { prev: unknown }> = [];
    for (const e of journal) {
      const id = `${e.table}\u0000${e.key}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ table: e.table, key: e.key, prev: e.prev, value: this.table(e.table).get(e.key) });
    }
    return out;
  }

  /** Runs `fn` as one transaction: all of its changes land, or none do. */
  transaction<R>(fn: () => R): { result: R; changes: Change[] } {
    if (this.journal) throw new Error("nested transaction");
    this.journal = [];
    try {
      const result = fn();
      if (result instanceof Promise) throw new Error("transactions must be synchronous");
      return { result, changes: this.finish() };
    } catch (err) {
      this.rollback();
      throw err;
    }
  }

  private finish(): Change[] {
    if (this.journal!.length === 0) {
      // A read: nothing to collect, nothing to hand to the listeners.
      this.journal = null;
      return NO_CHANGES;
    }
    const changes = this.pendingChanges().map(({ table, key, value }) => ({ table, key, value }));
    this.journal = null;
    return changes;
  }

  private rollback(): void {
    const journal = this.journal ?? [];
    this.journal = null;
    for (let i = journal.length - 1; i >= 0; i--) {
      const e = journal[i];
      this.table(e.table).restore(e.key, e.prev);
    }
  }

  onCommit(listener: CommitListener): void {
    this.listeners.push(listener);
  }

  /** Hands committed changes to the listeners (persistence); resolves once they are durable. */
  async publish(changes: Change[]): Promise<void> {
    if (changes.length === 0) return;
    for (const l of this.listeners) await l(changes);
  }

  /** `listener` runs whenever the state is reset or cleared: things derived from it (verified tokens) are forgotten. */
  onReset(listener: () => void): void {
    this.resetListeners.push(listener);
  }

  /** Tells the onReset listeners that the state was emptied (POST /emulator/reset does). */
  notifyReset(): void {
    for (const l of this.resetListeners) l();
  }

  snapshot(): Snapshot {
    const out: Snapshot = {};
    for (const [name, t] of this.tables) {
      if (t.size > 0) out[name] = [...t.entries()];
    }
    return out;
  }

  load(snapshot: Snapshot): void {
    this.clear();
    for (const [name, rows] of Object.entries(snapshot)) {
      const t = this.table(name);
      for (const [k, v] of rows) t.restore(k, v);
    }
  }

  /** Applies changes read back from a log, outside any transaction. */
  apply(changes: Change[]): void {
    for (const c of changes) this.table(c.table).restore(c.key, c.value as never);
  }

  clear(): void {
    for (const t of this.tables.values()) t.clear();
    this.notifyReset();
  }
}
