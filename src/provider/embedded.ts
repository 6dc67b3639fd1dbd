/**
 * The embedded emulator (`svc:emulator`), shared by every process of one run. Resources run in the
 * provider host's process, lookups in the program's; both must see the one emulator of the state
 * file. Whichever process takes the state file's lock first serves it and publishes its address in
 * `<state file>.addr`; the others connect to that address over HTTP. When the serving process ends
 * (a program's process ends before the engine's last deletes), the others' connections are refused
 * and they attach again: one of them then takes the lock and serves.
 *
 * The lock is the truth: an address file counts only while the process it names is alive, holds the
 * lock (its `.lock-owner`) and answers at that address. Anything else is a leftover and ignored.
 */
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync, existsSync } from "node:fs";
import http from "node:http";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { pidAlive } from "../emulator/store/process";
import { SvcError } from "../errors";

export interface EmbeddedEmulator {
  baseUrl: string;
  /** True when this process serves it (and must close it). */
  served: boolean;
  /** Stops serving (and withdraws the address) when this process serves; otherwise nothing. */
  close(): Promise<void>;
}

interface Published {
  pid: number;
  host: string;
  baseUrl: string;
}

export const addressFile = (statePath: string) => `${statePath}.addr`;

const DEFAULT_TIMEOUT_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** True when something answers the emulator's health check at `baseUrl` (no token needed). */
function answers(baseUrl: string, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${baseUrl}/api/v4/instance/status/get`, { agent: false, timeout: timeoutMs, headers: { connection: "close" } }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
  });
}

/** The published address, when the process that published it is alive, holds the lock and answers there. */
async function liveAddress(statePath: string): Promise<string | undefined> {
  const published = readJson<Published>(addressFile(statePath));
  if (!published || typeof published.pid !== "number" || typeof published.baseUrl !== "string") return undefined;
  if (published.host !== hostname() || !pidAlive(published.pid)) return undefined;
  const owner = readJson<{ pid: number; host: string }>(`${statePath}.lock-owner`);
  if (!owner || owner.pid !== published.pid || owner.host !== published.host || !existsSync(`${statePath}.lock`)) return undefined;
  return (await answers(published.baseUrl)) ? published.baseUrl : undefined;
}

function publish(statePath: string, baseUrl: string): void {
  const file = addressFile(statePath);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ pid: process.pid, host: hostname(), baseUrl, since: new Date().toISOString() } satisfies Published & { since: string }));
  renameSync(tmp, file);
}

function withdraw(statePath: string, baseUrl: string): void {
  const file = addressFile(statePath);
  const published = readJson<Published>(file);
  if (published?.pid !== process.pid || published.baseUrl !== baseUrl) return;
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/**
 * The embedded emulator of `statePath`: the one another process serves, or served here when no
 * process does. Waits up to `timeoutMs` for a process that holds the lock to publish its address.
 */
export async function attachEmbedded(statePath: string, options: { timeoutMs?: number } = {}): Promise<EmbeddedEmulator> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const { startEmulator, StateFileError } = await import("../emulator");
  mkdirSync(dirname(statePath), { recursive: true });
  for (;;) {
    const address = await liveAddress(statePath);
    if (address) return { baseUrl: address, served: false, close: async () => undefined };
    try {
      // Never waits for the lock here: a holder is looked for through its address on the next round.
      const emulator = await startEmulator({ statePath, lockTimeoutMs: 0, unref: true, log: () => undefined });
      publish(statePath, emulator.baseUrl);
      return {
        baseUrl: emulator.baseUrl,
        served: true,
        close: async () => {
          withdraw(statePath, emulator.baseUrl);
          await emulator.close();
        },
      };
    } catch (err) {
      // Another process holds the lock (its lock directory exists): wait for its address, or for it to end.
      if (!(err instanceof StateFileError) || !existsSync(`${statePath}.lock`)) throw err;
    }
    if (Date.now() >= deadline) {
      const owner = readJson<{ pid: number; host: string }>(`${statePath}.lock-owner`);
      const holder = owner ? `process ${owner.pid} on ${owner.host}` : "another process";
      throw new SvcError(
        "SVC_EMULATOR_STATE_HELD",
        `the embedded emulator's state file ${statePath} is held by ${holder}, which did not publish its address in ${addressFile(statePath)} within ${timeoutMs} ms ` +
          `(an \`svc-emulator serve --state\` on the same file, or an older pulumi-svc?); stop it, or point svc:emulator at another state file`,
      );
    }
    await sleep(100);
  }
}
