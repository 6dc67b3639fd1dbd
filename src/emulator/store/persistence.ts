/**
 * Durable emulator state: one snapshot file plus an append-only log next to it.
 *
 * Files, for a state path FILE:
 * - FILE: the snapshot. Newline-delimited JSON: a header `{format, version, seq}`, one
 *   `[table, key, value]` line per record, and a trailer `{end, records, sha256}` whose hash covers
 *   every byte before it. Always replaced whole (temp file, fsync, rename, fsync of the directory), so
 *   a crash leaves the old snapshot or the new one.
 * - FILE.log: the changes committed since the snapshot, one line per commit:
 *   `<crc32 hex> {"s":<seq>,"c":[[table,key,value] | [table,key] (a delete), ...]}`. A commit is
 *   answered only after its line is written and synced. The log is opened with O_DSYNC where the
 *   platform has it, so one write call is the write and its sync (elsewhere the write is followed by
 *   fdatasync). Group commit, with no timer: the commits of the requests handled in one turn of the
 *   event loop go together in one write, made right after that turn (setImmediate), and the commits
 *   made while a write is under way go together in the next one. Writes run in the I/O thread pool,
 *   so requests (and a client in the same process) go on while the disk syncs.
 *   A torn last line (a crash mid-write, never acknowledged) fails its checksum and is dropped on
 *   load; a bad line followed by good ones means damage, and loading fails.
 * - FILE.lock (a directory, proper-lockfile) and FILE.lock-owner (pid and host of the holder) while an
 *   emulator has the state open.
 *
 * The log is folded into a new snapshot in the background once it is as large as the snapshot (and at
 * least 16 MiB), and on close; a request never rewrites the whole state. Folding costs in proportion
 * to the state's size, so it is spread over a log as large as the state: each logged byte causes at
 * most about one byte of snapshot to be written, and reopening replays at most a state's worth of log.
 * `compactRecords` or `compactBytes`, when given, fold at that many commits or bytes instead. Each log line carries
 * a sequence number and the snapshot records the last one it contains, so a crash between writing a
 * snapshot and trimming the log replays nothing twice.
 *
 * One writer at a time: the state path is locked for the emulator's lifetime. A second emulator on the
 * same path waits up to `lockTimeoutMs` for the first to close, then fails naming the file. A lock left
 * by a killed process on this host is recognised by its dead pid and taken over at once; any other
 * stale lock expires after `lockStaleMs`.
 *
 * Rows of `_meta` (the token signing key) are written outside transactions; they are compared with
 * what was last written at every commit and at `persistUnjournaled()`, and logged when they changed.
 */
import { createHash } from "node:crypto";
import { constants as fsConstants, createReadStream, promises as fsp } from "node:fs";
import { dirname } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { crc32 } from "node:zlib";
import { lockFile } from "./file-lock";
import type { Change, Store } from "./store";

export const STATE_FORMAT = "svc-emulator-state";
export const STATE_VERSION = 1;

/** A state file or log that cannot be used; the message names the file and what to do. */
export class StateFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = "StateFileError";
  }
}

export interface PersistenceOptions {
  /** How long to wait for another emulator to release the state file, ms (default 10 000). */
  lockTimeoutMs?: number;
  /** Age after which an unrefreshed lock of another host or process counts as abandoned, ms (default 10 000, at least 2 000). */
  lockStaleMs?: number;
  /**
   * Fold the log into the snapshot once it holds this many commits... (default: neither this nor
   * `compactBytes`; the log is folded once it is as large as the snapshot, and at least 16 MiB).
   */
  compactRecords?: number;
  /** ...or this many bytes. */
  compactBytes?: number;
  /** Where background failures are reported. */
  log?: (line: string) => void;
  /** @internal How a batch of log lines is appended and made durable (tests delay it or make it fail). */
  writeLog?: (fh: fsp.FileHandle, data: Buffer) => Promise<void>;
}

export interface PersistenceStats {
  /** Sequence number of the last commit handed to the log. */
  seq: number;
  /** Commits and bytes in the log since the last snapshot. */
  logRecords: number;
  logBytes: number;
  /** Snapshots written since open, and fsyncs of the log (fewer than commits under load: group commit). */
  compactions: number;
  fsyncs: number;
  commits: number;
}

type LogChange = [string, string, unknown] | [string, string];
interface LogRecord {
  s: number;
  c: LogChange[];
}
interface Pending {
  line: string;
  seq: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

const SNAPSHOT_CHUNK = 1 << 20;
/** Without `compactRecords`/`compactBytes`, the log is folded once it is as large as the snapshot, and at least this large. */
const MIN_COMPACT_BYTES = 16 * 1024 * 1024;
/** Opening flags of the log: append, each write synced before it returns (O_DSYNC) where available. */
const O_DSYNC = (fsConstants as { O_DSYNC?: number }).O_DSYNC;
const LOG_FLAGS = fsConstants.O_WRONLY | fsConstants.O_APPEND | fsConstants.O_CREAT | (O_DSYNC ?? 0);

/** Appends all of `data` to the log and makes it durable. */
async function appendDurably(fh: fsp.FileHandle, data: Buffer): Promise<void> {
  let off = 0;
  while (off < data.length) off += (await fh.write(data, off, data.length - off)).bytesWritten;
  if (O_DSYNC === undefined) await fh.datasync();
}
const META = "_meta";

const errText = (err: unknown) => (err as NodeJS.ErrnoException)?.code ?? (err as Error)?.message ?? String(err);
const checksum = (json: string) => crc32(json).toString(16).padStart(8, "0");

function encodeLine(record: LogRecord): string {
  const json = JSON.stringify(record);
  return `${checksum(json)} ${json}\n`;
}

/** Parses one log line; undefined when it is torn or damaged. */
function decodeLine(line: string): LogRecord | undefined {
  const m = /^([0-9a-f]{8}) (.*)$/.exec(line);
  if (!m || checksum(m[2]) !== m[1]) return undefined;
  try {
    const r = JSON.parse(m[2]) as LogRecord;
    return Number.isInteger(r.s) && Array.isArray(r.c) ? r : undefined;
  } catch {
    return undefined;
  }
}

const toChanges = (c: LogChange[]): Change[] => c.map((x) => ({ table: x[0], key: x[1], value: x.length === 3 ? x[2] : undefined }));
const fromChanges = (c: Change[]): LogChange[] => c.map((x) => (x.value === undefined ? [x.table, x.key] : [x.table, x.key, x.value]));

async function exists(path: string): Promise<boolean> {
  try {
    await fsp.access(path, fsConstants.F_OK);
    return true;
  } catch {
    return false;
  }
}

/** Makes a rename in `dir` durable; a no-op where directories cannot be opened (Windows). */
async function syncDir(dir: string): Promise<void> {
  let dh: fsp.FileHandle | undefined;
  try {
    dh = await fsp.open(dir, "r");
    await dh.sync();
  } catch {
    // Not supported on this platform; the rename is still atomic.
  } finally {
    await dh?.close().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// Lock

function acquireLock(file: string, options: PersistenceOptions): Promise<() => Promise<void>> {
  const timeoutMs = options.lockTimeoutMs ?? 10_000;
  return lockFile(file, {
    timeoutMs,
    staleMs: options.lockStaleMs ?? 10_000,
    onCompromised: (err) => options.log?.(`svc-emulator: the lock on ${file} was lost (${err.message}); another process may be writing the same state`),
    failed: (err) => new StateFileError(file, `cannot lock state file ${file}: ${errText(err)}`),
    locked: (lockPath) =>
      new StateFileError(
        file,
        `state file ${file} is locked: another emulator holds it (lock ${lockPath}); ` + `gave up after ${timeoutMs} ms. Stop the other emulator or use another --state file.`,
      ),
  });
}

// ---------------------------------------------------------------------------------------------
// Snapshot

type SnapshotData = Record<string, Array<[string, unknown]>>;

/** The lines of a file as it streams (a state larger than one string can hold still loads). */
async function* fileLines(file: string): AsyncGenerator<{ text: string; terminated: boolean }> {
  const decoder = new StringDecoder("utf8");
  let rest = "";
  for await (const chunk of createReadStream(file, { highWaterMark: SNAPSHOT_CHUNK })) {
    rest += decoder.write(chunk as Buffer);
    let start = 0;
    for (let nl = rest.indexOf("\n"); nl !== -1; nl = rest.indexOf("\n", start)) {
      yield { text: rest.slice(start, nl), terminated: true };
      start = nl + 1;
    }
    rest = rest.slice(start);
  }
  rest += decoder.end();
  if (rest.length > 0) yield { text: rest, terminated: false };
}

/** Reads and verifies a snapshot; fails naming the file on any damage. */
export async function readSnapshot(file: string): Promise<{ seq: number; tables: SnapshotData }> {
  const damaged = (why: string) =>
    new StateFileError(file, `state file ${file} is damaged (${why}); it was left untouched: restore it from a backup, or move it away to start with an empty state`);
  const parse = (text: string, why: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      throw damaged(why);
    }
  };
  const hash = createHash("sha256");
  const tables: SnapshotData = {};
  let header: { format?: string; version?: number; seq?: number } | undefined;
  let records = 0;
  // Each line is hashed and loaded once the next one shows it is not the trailer.
  let previous: { text: string; terminated: boolean; no: number } | undefined;
  try {
    let no = 0;
    for await (const line of fileLines(file)) {
      no++;
      if (!header) {
        const h = parse(line.text, "it is not an emulator state file") as { format?: string; version?: number; seq?: number } | null;
        if (h?.format !== STATE_FORMAT) throw damaged("it is not an emulator state file");
        if (h.version !== STATE_VERSION) throw damaged(`unsupported format version ${String(h.version)}; this emulator reads version ${STATE_VERSION}`);
        header = h;
        hash.update(line.text + "\n");
        continue;
      }
      if (previous) {
        hash.update(previous.text + "\n");
        const row = parse(previous.text, `line ${previous.no} is not JSON`);
        if (!Array.isArray(row) || row.length !== 3 || typeof row[0] !== "string" || typeof row[1] !== "string") {
          throw damaged(`line ${previous.no} is not a record`);
        }
        (tables[row[0]] ??= []).push([row[1], row[2]]);
        records++;
      }
      previous = { ...line, no };
    }
    if (no === 0) throw damaged("the file is empty");
  } catch (err) {
    if (err instanceof StateFileError) throw err;
    throw new StateFileError(file, `cannot read state file ${file}: ${errText(err)}`);
  }
  if (!previous || !previous.terminated) throw damaged("it is truncated");
  const trailer = parse(previous.text, "it is truncated") as { end?: boolean; records?: number; sha256?: string };
  if (!trailer?.end || typeof trailer.sha256 !== "string") throw damaged("it is truncated");
  if (hash.digest("hex") !== trailer.sha256) throw damaged("checksum mismatch");
  if (trailer.records !== records) throw damaged("record count mismatch");
  return { seq: Number(header!.seq ?? 0), tables };
}

/** Writes a snapshot atomically: temp file, fsync, rename, fsync of the directory. Returns its size in bytes. */
async function writeSnapshot(file: string, seq: number, tables: SnapshotData): Promise<number> {
  const tmp = `${file}.tmp`;
  const fh = await fsp.open(tmp, "w");
  const hash = createHash("sha256");
  let records = 0;
  let bytes = 0;
  try {
    let chunk = JSON.stringify({ format: STATE_FORMAT, version: STATE_VERSION, seq, written_at: new Date().toISOString() }) + "\n";
    const flush = async () => {
      hash.update(chunk);
      bytes += (await fh.write(chunk)).bytesWritten;
      chunk = "";
    };
    // Written in chunks so a large state does not hold the event loop; records are immutable, so
    // the rows captured when the snapshot started stay a consistent picture while this runs.
    for (const [table, rows] of Object.entries(tables)) {
      for (const [key, value] of rows) {
        chunk += JSON.stringify([table, key, value]) + "\n";
        records++;
        if (chunk.length >= SNAPSHOT_CHUNK) await flush();
      }
    }
    await flush();
    bytes += (await fh.write(JSON.stringify({ end: true, records, sha256: hash.digest("hex") }) + "\n")).bytesWritten;
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fsp.rename(tmp, file);
  await syncDir(dirname(file));
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Log

/** Reads the log: the records it holds, and the byte length of its valid part (a torn tail is cut). */
async function readLog(logFile: string): Promise<{ records: LogRecord[]; validBytes: number; totalBytes: number }> {
  let buf: Buffer;
  try {
    buf = await fsp.readFile(logFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { records: [], validBytes: 0, totalBytes: 0 };
    throw new StateFileError(logFile, `cannot read state log ${logFile}: ${errText(err)}`);
  }
  const records: LogRecord[] = [];
  let offset = 0;
  let validBytes = 0;
  let badAt: number | undefined;
  while (offset < buf.length) {
    const nl = buf.indexOf(0x0a, offset);
    const end = nl === -1 ? buf.length : nl;
    const record = nl === -1 ? undefined : decodeLine(buf.toString("utf8", offset, end));
    if (record && badAt === undefined) {
      if (records.length > 0 && record.s <= records[records.length - 1].s) {
        throw new StateFileError(logFile, `state log ${logFile} is damaged (sequence goes back at byte ${offset}); move it and the state file away to start empty`);
      }
      records.push(record);
      validBytes = end + 1;
    } else if (record) {
      throw new StateFileError(
        logFile,
        `state log ${logFile} is damaged (bad record at byte ${badAt} followed by good ones); restore it from a backup, or move it and the state file away to start empty`,
      );
    } else {
      badAt ??= offset;
    }
    offset = end + 1;
  }
  return { records, validBytes, totalBytes: buf.length };
}

// ---------------------------------------------------------------------------------------------

export class StatePersistence {
  private seq = 0;
  private logHandle: fsp.FileHandle | undefined;
  private logRecords = 0;
  private logBytes = 0;
  /** Size of the snapshot file: the default compaction waits for a log this large. */
  private snapshotBytes = 0;
  private pending: Pending[] = [];
  private flushScheduled = false;
  /** A write is under way. */
  private writing = false;
  private exclusive: Array<() => Promise<void>> = [];
  private exclusiveRunning = false;
  private idleWaiters: Array<() => void> = [];
  private failure: Error | undefined;
  private closed = false;
  private compacting: Promise<void> | undefined;
  /** While a snapshot is written: the lines logged after the point it captured. */
  private tail: { since: number; lines: string[] } | undefined;
  /** `_meta` rows as last written, JSON. */
  private readonly persistedMeta = new Map<string, string>();
  /** The same rows as values: rows are immutable, so an unchanged reference needs no JSON comparison. */
  private readonly persistedMetaValues = new Map<string, unknown>();
  private readonly counts = { compactions: 0, fsyncs: 0, commits: 0 };

  private constructor(
    readonly file: string,
    private readonly store: Store,
    private readonly options: PersistenceOptions,
    private readonly releaseLock: () => Promise<void>,
  ) {}

  get logFile(): string {
    return `${this.file}.log`;
  }

  /**
   * Locks `file`, loads the snapshot and the log into `store` (which must be empty), and from then on
   * makes every commit of the store durable before it is answered.
   */
  static async open(store: Store, file: string, options: PersistenceOptions = {}): Promise<StatePersistence> {
    // The state file's folder is made when it is missing (`--state dir/state.json` in a fresh checkout).
    await fsp.mkdir(dirname(file), { recursive: true }).catch((err: unknown) => {
      throw new StateFileError(file, `cannot create the folder of state file ${file}: ${errText(err)}`);
    });
    const release = await acquireLock(file, options);
    const p = new StatePersistence(file, store, options, release);
    try {
      await p.load();
    } catch (err) {
      await release().catch(() => undefined);
      throw err;
    }
    store.onCommit((changes) => p.commit(changes));
    return p;
  }

  private async load(): Promise<void> {
    await fsp.rm(`${this.file}.tmp`, { force: true });
    await fsp.rm(`${this.logFile}.tmp`, { force: true });
    const hasSnapshot = await exists(this.file);
    const log = await readLog(this.logFile);
    if (!hasSnapshot && log.records.length > 0) {
      throw new StateFileError(this.file, `state file ${this.file} is missing but its log ${this.logFile} holds changes; restore the state file, or remove the log to start empty`);
    }
    if (hasSnapshot) {
      const snap = await readSnapshot(this.file);
      this.store.load(snap.tables);
      this.seq = snap.seq;
      this.snapshotBytes = (await fsp.stat(this.file)).size;
    }
    for (const r of log.records) {
      if (r.s <= this.seq) continue; // already in the snapshot (a crash came before the log was trimmed)
      this.store.apply(toChanges(r.c));
      this.seq = r.s;
      this.logRecords++;
    }
    if (log.validBytes < log.totalBytes) {
      // A torn last record: it was never acknowledged. Cut it so new records follow good ones.
      await fsp.truncate(this.logFile, log.validBytes);
      this.options.log?.(`svc-emulator: dropped an incomplete last record of ${this.logFile} (${log.totalBytes - log.validBytes} bytes, never acknowledged)`);
    }
    this.logBytes = log.validBytes;
    for (const [k, v] of this.store.table(META).entries()) {
      this.persistedMeta.set(k, JSON.stringify(v));
      this.persistedMetaValues.set(k, v);
    }
    if (!hasSnapshot) this.snapshotBytes = await writeSnapshot(this.file, this.seq, this.store.snapshot());
    this.logHandle = await fsp.open(this.logFile, LOG_FLAGS);
  }

  /** `_meta` rows that changed since they were last written (they are set outside transactions). */
  private metaChanges(): Change[] {
    const out: Change[] = [];
    const meta = this.store.table(META);
    if (meta.size === this.persistedMeta.size) {
      let same = true;
      for (const [k, v] of meta.entries()) {
        if (this.persistedMetaValues.get(k) !== v || !this.persistedMetaValues.has(k)) {
          same = false;
          break;
        }
      }
      // The common case: no row was set since the last commit.
      if (same) return out;
    }
    for (const [k, v] of meta.entries()) {
      if (this.persistedMetaValues.get(k) === v && this.persistedMetaValues.has(k)) continue;
      this.persistedMetaValues.set(k, v);
      const json = JSON.stringify(v);
      if (this.persistedMeta.get(k) !== json) {
        this.persistedMeta.set(k, json);
        out.push({ table: META, key: k, value: v });
      }
    }
    for (const k of [...this.persistedMeta.keys()]) {
      if (!meta.has(k)) {
        this.persistedMeta.delete(k);
        this.persistedMetaValues.delete(k);
        out.push({ table: META, key: k, value: undefined });
      }
    }
    return out;
  }

  /**
   * Hands one commit to the log; resolves once it is on disk. Called synchronously right after the
   * transaction, so the store in memory holds exactly the commits up to this sequence number.
   */
  commit(changes: Change[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`state file ${this.file} is closed`));
    if (this.failure) return Promise.reject(this.failure);
    const all = [...this.metaChanges(), ...changes];
    if (all.length === 0) return Promise.resolve();
    const seq = ++this.seq;
    const line = encodeLine({ s: seq, c: fromChanges(all) });
    this.counts.commits++;
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ line, seq, resolve, reject });
      this.kick();
    });
  }

  /** Writes rows set outside transactions (the signing key) now, so they are durable before use. */
  persistUnjournaled(): Promise<void> {
    return this.commit([]);
  }

  stats(): PersistenceStats {
    return { seq: this.seq, logRecords: this.logRecords, logBytes: this.logBytes, ...this.counts };
  }

  private kick(): void {
    if (this.flushScheduled || this.writing) return;
    this.flushScheduled = true;
    // After the requests that arrived with this one were handled: they all go in the same write.
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  /**
   * The writer: writes everything pending as one write, and runs exclusive jobs (compaction's log
   * swap) between two writes. One write at a time; commits are answered in sequence order.
   */
  private flush(): void {
    if (this.exclusiveRunning || this.writing) return;
    const job = this.exclusive.shift();
    if (job) {
      this.exclusiveRunning = true;
      void job().finally(() => {
        this.exclusiveRunning = false;
        this.flush();
      });
      return;
    }
    if (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      if (this.failure) {
        for (const p of batch) p.reject(this.failure);
      } else {
        const data = Buffer.from(batch.length === 1 ? batch[0].line : batch.map((p) => p.line).join(""));
        this.writing = true;
        (this.options.writeLog ?? appendDurably)(this.logHandle!, data).then(
          () => this.written(batch, data.length),
          (err: unknown) => this.written(batch, data.length, err ?? new Error("write failed")),
        );
        return;
      }
    }
    for (const w of this.idleWaiters.splice(0)) w();
    this.maybeCompact();
  }

  /** A write ended: its commits are answered, and the writer goes on with what came meanwhile. */
  private written(batch: Pending[], bytes: number, error?: unknown): void {
    this.writing = false;
    this.answerCommits(batch, bytes, error);
    this.flush();
  }

  /** Answers the commits of a write that ended. */
  private answerCommits(batch: Pending[], bytes: number, error: unknown): void {
    if (error !== undefined) {
      // The disk refused a write: later commits cannot be made durable either.
      this.failure ??= new Error(`writing the state log ${this.logFile} failed: ${errText(error)}; the emulator no longer accepts changes`);
      this.options.log?.(this.failure.message);
      for (const p of batch) p.reject(this.failure);
      return;
    }
    this.counts.fsyncs++;
    this.logRecords += batch.length;
    this.logBytes += bytes;
    if (this.tail) for (const p of batch) if (p.seq > this.tail.since) this.tail.lines.push(p.line);
    for (const p of batch) p.resolve();
  }

  /** Runs `fn` in the writer, between two batches. */
  private runExclusive(fn: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.exclusive.push(() => fn().then(resolve, reject));
      this.kick();
    });
  }

  private maybeCompact(): void {
    if (this.closed || this.compacting || this.failure) return;
    const { compactRecords, compactBytes } = this.options;
    const due =
      compactRecords === undefined && compactBytes === undefined
        ? this.logBytes >= Math.max(MIN_COMPACT_BYTES, this.snapshotBytes)
        : this.logRecords >= (compactRecords ?? Infinity) || this.logBytes >= (compactBytes ?? Infinity);
    if (due) {
      this.compact().catch((err) => this.options.log?.(`svc-emulator: compacting ${this.file} failed: ${errText(err)}; the log keeps every change`));
    }
  }

  /**
   * Folds everything committed so far into a new snapshot (after a compaction already running), and
   * trims the log. Runs in the background: requests keep committing meanwhile.
   */
  async compact(): Promise<void> {
    while (this.compacting) await this.compacting.catch(() => undefined);
    const run = this.doCompact().finally(() => {
      if (this.compacting === run) this.compacting = undefined;
    });
    this.compacting = run;
    return run;
  }

  private async doCompact(): Promise<void> {
    // Every commit up to `since` is in memory now (commits are numbered as they happen).
    const since = this.seq;
    const tables = this.store.snapshot();
    this.tail = { since, lines: [] };
    try {
      const snapshotBytes = await writeSnapshot(this.file, since, tables);
      // The snapshot holds everything up to `since`: the log keeps only what came after.
      await this.runExclusive(async () => {
        // Commits the snapshot already holds but the log has not written yet are durable now.
        while (this.pending.length > 0 && this.pending[0].seq <= since) this.pending.shift()!.resolve();
        const lines = this.tail!.lines;
        const tmp = `${this.logFile}.tmp`;
        const data = lines.join("");
        const fh = await fsp.open(tmp, "w");
        try {
          await fh.write(data);
          await fh.sync();
        } finally {
          await fh.close();
        }
        await fsp.rename(tmp, this.logFile);
        await syncDir(dirname(this.file));
        await this.logHandle?.close();
        this.logHandle = await fsp.open(this.logFile, LOG_FLAGS);
        this.logRecords = lines.length;
        this.logBytes = Buffer.byteLength(data);
        this.snapshotBytes = snapshotBytes;
        this.counts.compactions++;
      });
    } finally {
      this.tail = undefined;
    }
  }

  private whenIdle(): Promise<void> {
    const busy = this.pending.length > 0 || this.flushScheduled || this.writing || this.exclusive.length > 0 || this.exclusiveRunning;
    if (!busy) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  /** Writes what is pending, folds the log into the snapshot, and releases the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.persistUnjournaled().catch(() => undefined);
      await this.whenIdle();
      await this.compacting?.catch(() => undefined);
      if (!this.failure) await this.compact();
    } finally {
      this.closed = true;
      await this.whenIdle();
      await this.logHandle?.close().catch(() => undefined);
      this.logHandle = undefined;
      await this.releaseLock().catch(() => undefined);
    }
  }
}
