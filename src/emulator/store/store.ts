/**
 * The emulator's store: one table per record kind, keyed by the record's identity. Records are
 * frozen plain JSON values; a handler changes a record by putting a new one. Every request runs
 * inside a transaction: a rejected request is rolled back whole, a successful one hands its changes
 * to the listeners (persistence) before the answer is sent.
 */

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

export class Table<T> {
  private readonly rows = new Map<string, T>();

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

  put(key: string, value: T): T {
    const frozen = deepFreeze(value);
    this.store.record(this.name, key, this.rows.get(key));
    this.rows.set(key, frozen);
    return frozen;
  }

  delete(key: string): boolean {
    if (!this.rows.has(key)) return false;
    this.store.record(this.name, key, this.rows.get(key));
    this.rows.delete(key);
    return true;
  }

  /** Loads a row without journaling (restore from disk or fixtures outside a transaction). */
  restore(key: string, value: T | undefined): void {
    if (value === undefined) this.rows.delete(key);
    else this.rows.set(key, deepFreeze(value));
  }

  clear(): void {
    this.rows.clear();
  }
}

interface JournalEntry {
  table: string;
  key: string;
  prev: unknown;
}

export type CommitListener = (changes: Change[]) => void | Promise<void>;

export class Store {
  private readonly tables = new Map<string, Table<unknown>>();
  private journal: JournalEntry[] | null = null;
  private readonly listeners: CommitListener[] = [];

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
  }
}
