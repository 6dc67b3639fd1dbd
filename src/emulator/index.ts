/**
 * The emulator of the platform API v4, served over real HTTP. `startEmulator` is the only way to run
 * it: the CLI, the provider's embedded mode and the tests all call it.
 *
 * Options beyond serving: `statePath` keeps the state on disk (store/persistence.ts), `seed` loads a
 * fixture document into an empty emulator (fixtures.ts), `faults` injects failures (faults.ts).
 */
import { adminRoutes } from "./admin";
import { consoleRoutes } from "./console";
import { SYSTEM_IDENTITY, type TokenLifetimes } from "./areas/auth/model";
import { edgeOf, type Edge } from "./edge";
import { FaultInjector, type FaultConfigInput } from "./faults";
import { resolveSeed, seedStore, type FixtureDocument } from "./fixtures";
import { startServer, type RunningServer } from "./server";
import { StatePersistence, type PersistenceOptions } from "./store/persistence";
import { Store } from "./store/store";

export interface EmulatorOptions {
  /** Interface to bind; loopback unless told otherwise. */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** Serve the admin endpoints (/emulator/state, /reset, /faults, /seed, /snapshot) and the console at /emulator/ui (default: true when bound to loopback). */
  admin?: boolean;
  /** Test clock (epoch ms). */
  clock?: () => number;
  tokenLifetimes?: TokenLifetimes;
  /** Where internal errors are reported (default: stderr). */
  log?: (line: string) => void;
  /**
   * Keep the state in this file (plus FILE.log beside it) across restarts; the file is locked while
   * the emulator runs. Without it, the state lives in memory only.
   */
  statePath?: string;
  /** How long to wait for another emulator to release `statePath`, ms (default 10 000). */
  lockTimeoutMs?: number;
  /** Tuning of the state file (compaction thresholds, lock staleness). */
  persistence?: Omit<PersistenceOptions, "lockTimeoutMs" | "log">;
  /**
   * Fixtures loaded into the (empty) emulator at start: a YAML file path or a parsed document. A
   * state the same fixture seeded (same content) is left as it is, so a restart with it works.
   */
  seed?: string | FixtureDocument;
  /** Fault injection from the start (see faults.ts); POST /emulator/faults changes it at run time. */
  faults?: FaultConfigInput;
  /**
   * How long the emulated edge takes to download a workload package, ms (default 1000; 0: at once).
   * A staged update is applied (instant-apply) or can be applied (staged-only) once it is downloaded.
   */
  packageMs?: number;
  /**
   * Serve without keeping the process alive: the listening socket and its connections do not hold
   * Node's event loop (the provider's embedded emulator in a program's process, which must end when
   * the program does).
   */
  unref?: boolean;
}

export interface Emulator {
  /** e.g. http://127.0.0.1:41234 — the API is under `${baseUrl}/api/v4`. */
  baseUrl: string;
  /** Direct access to the records, for tests. */
  store: Store;
  /** The fault injector (configure it here or through POST /emulator/faults). */
  faults: FaultInjector;
  /** The state file's writer, when `statePath` was given. */
  persistence?: StatePersistence;
  close(): Promise<void>;
}

const isLoopback = (host: string) => host === "127.0.0.1" || host === "::1" || host === "localhost" || host.startsWith("127.");

/** Empties every table but the signing key's, as POST /emulator/reset does. */
async function resetStore(store: Store): Promise<void> {
  const changes = store.transaction(() => {
    for (const name of store.tableNames()) {
      if (name === "_meta") continue;
      const t = store.table(name);
      for (const [k] of [...t.entries()]) t.delete(k);
    }
  }).changes;
  await store.publish(changes);
}

/** The emulated edge's package time, checked: an integer of milliseconds up to an hour. */
function packageMsOf(ms: number | undefined): number | undefined {
  if (ms !== undefined && !(Number.isInteger(ms) && ms >= 0 && ms <= 3_600_000)) throw new RangeError(`packageMs must be an integer from 0 to 3600000 (milliseconds), got ${ms}`);
  return ms;
}

/** What the emulator needs to load a fixture or read a snapshot once its server runs. */
interface Running {
  store: Store;
  server: () => RunningServer;
  clock: () => number;
  edge: Edge;
  log: (line: string) => void;
}

/** Loads a fixture document into the running emulator's store (POST /emulator/seed, `--seed`). */
async function seedRunning(r: Running, doc: unknown, source: string) {
  const { auth, baseUrl } = r.server();
  const { changes, counts, skipped } = seedStore(doc as FixtureDocument, { store: r.store, auth, baseUrl, nowMs: r.clock(), source, log: r.log, edge: r.edge });
  await r.store.publish(changes);
  return { counts, ...(skipped ? { skipped } : {}) };
}

/**
 * The running emulator's inventory as a fixture document (GET /emulator/snapshot). Loaded on first
 * use: serving needs neither the snapshot reader nor the client's paging, and start-up stays short without them.
 */
async function snapshotRunning(r: Running): Promise<string> {
  const [{ localSource }, { readPlant }, { memorySink }] = await Promise.all([import("./snapshot/local"), import("./snapshot/reader"), import("./snapshot/writer")]);
  const sink = memorySink();
  const { auth, baseUrl } = r.server();
  await readPlant(localSource({ store: r.store, auth, baseUrl, clock: r.clock }), { out: sink });
  return sink.text();
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const store = new Store();
  const admin = options.admin ?? isLoopback(host);
  // Validated before anything is opened, so a bad configuration fails without side effects.
  const faults = new FaultInjector(options.faults);
  const edge = edgeOf(packageMsOf(options.packageMs), faults.edge());
  const seed = options.seed === undefined ? undefined : resolveSeed(options.seed);
  const persistence = options.statePath ? await StatePersistence.open(store, options.statePath, { ...options.persistence, lockTimeoutMs: options.lockTimeoutMs, log }) : undefined;

  let running: RunningServer | undefined;
  const r: Running = { store, server: () => running!, clock: options.clock ?? Date.now, edge, log };
  const hooks = { reset: () => resetStore(store), faults, seed: (doc: unknown, source: string) => seedRunning(r, doc, source), snapshot: () => snapshotRunning(r) };
  try {
    const extraRoutes = admin ? { ...adminRoutes(store, hooks), ...consoleRoutes() } : undefined;
    running = await startServer({ store, clock: options.clock, tokenLifetimes: options.tokenLifetimes, extraRoutes, faults: faults.hooks(), edge, log }, host, options.port ?? 0);
    if (options.unref) {
      running.server.unref();
      running.server.on("connection", (socket) => socket.unref());
    }
    // Creates the token signing key now, so it is on disk before the first token is handed out.
    running.auth.issue(SYSTEM_IDENTITY);
    await persistence?.persistUnjournaled();
    if (seed) await seedRunning(r, seed.doc, seed.source);
  } catch (err) {
    await running?.close().catch(() => undefined);
    await persistence?.close().catch(() => undefined);
    throw err;
  }

  const server = running;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await server.close();
      await persistence?.close();
    })());
  return { baseUrl: server.baseUrl, store, faults, persistence, close };
}

export { Store } from "./store/store";
export { StateFileError } from "./store/persistence";
export { FixtureError } from "./fixtures";
export { FaultConfigError, type FaultConfigInput } from "./faults";
export { BUILTIN_USERS, BUILTIN_CLIENTS, EDGE_USERS } from "./areas/auth/model";
