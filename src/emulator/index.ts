/**
 * The emulator of the platform API v4, served over real HTTP. `startEmulator` is the only way to run
 * it: the CLI, the provider's embedded mode and the tests all call it.
 */
import { adminRoutes } from "./admin";
import type { TokenLifetimes } from "./auth";
import { startServer, type RunningServer } from "./server";
import { Store } from "./store/store";

export interface EmulatorOptions {
  /** Interface to bind; loopback unless told otherwise. */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** Serve /emulator/state and /emulator/reset (default: true when bound to loopback). */
  admin?: boolean;
  /** Test clock (epoch ms). */
  clock?: () => number;
  tokenLifetimes?: TokenLifetimes;
  /** Where internal errors are reported (default: stderr). */
  log?: (line: string) => void;
}

export interface Emulator {
  /** e.g. http://127.0.0.1:41234 — the API is under `${baseUrl}/api/v4`. */
  baseUrl: string;
  /** Direct access to the records, for tests. */
  store: Store;
  close(): Promise<void>;
}

const isLoopback = (host: string) => host === "127.0.0.1" || host === "::1" || host === "localhost" || host.startsWith("127.");

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? "127.0.0.1";
  const store = new Store();
  const admin = options.admin ?? isLoopback(host);
  let running: RunningServer | undefined;
  const extraRoutes = admin
    ? adminRoutes(store, {
        reset: async () => {
          const changes = store.transaction(() => {
            for (const name of store.tableNames()) {
              if (name === "_meta") continue;
              const t = store.table(name);
              for (const [k] of [...t.entries()]) t.delete(k);
            }
          }).changes;
          await store.publish(changes);
        },
      })
    : undefined;
  running = await startServer(
    {
      store,
      clock: options.clock,
      tokenLifetimes: options.tokenLifetimes,
      extraRoutes,
      log: options.log ?? ((line) => process.stderr.write(line + "\n")),
    },
    host,
    options.port ?? 0,
  );
  const server = running;
  return {
    baseUrl: server.baseUrl,
    store,
    close: () => server.close(),
  };
}

export { Store } from "./store/store";
export { BUILTIN_USERS, BUILTIN_CLIENTS, EDGE_USERS } from "./auth";
