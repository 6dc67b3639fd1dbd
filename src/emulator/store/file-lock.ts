/**
 * One process at a time on a file: a proper-lockfile lock (`FILE.lock`, a directory, refreshed while
 * held) and `FILE.lock-owner`, which names the holder (pid, host, since) so that a refusal can say
 * who holds the file. A lock whose holder was a process of this host that no longer runs (killed) is
 * broken at once; one of another host expires when it is no longer refreshed.
 */
import { readFileSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import lockfile from "proper-lockfile";
import { pidAlive } from "./process";

/** Who holds a lock, as its owner file says. */
export interface LockHolder {
  pid: number;
  host: string;
  since?: string;
}

export interface FileLockOptions {
  /** How long to wait for the holder to let go, ms (0: fail at once). */
  timeoutMs: number;
  /** Age after which an unrefreshed lock counts as abandoned, ms (at least 2 000). */
  staleMs: number;
  /** Told when the lock is lost while held. */
  onCompromised?: (err: Error) => void;
  /** The error for a file another process holds; `holder` is undefined when the owner file is unreadable. */
  locked(lockPath: string, holder: LockHolder | undefined): Error;
  /** The error for a lock that cannot be taken for another reason. */
  failed(err: unknown): Error;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readOwner(path: string): (LockHolder & { stamp: string }) | undefined {
  try {
    const raw = readFileSync(path, "utf8");
    const o = JSON.parse(raw) as LockHolder;
    return typeof o.pid === "number" && typeof o.host === "string" ? { ...o, stamp: raw } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when the lock's holder was a process of this host that no longer runs (killed). The owner
 * file is read twice, apart, so a holder that just took the lock has time to write its own.
 */
async function holderIsDead(ownerPath: string): Promise<boolean> {
  const first = readOwner(ownerPath);
  if (!first || first.host !== hostname() || first.pid === process.pid || pidAlive(first.pid)) return false;
  await sleep(50);
  const again = readOwner(ownerPath);
  return again?.stamp === first.stamp;
}

/** Takes the lock on `file`; resolves to its release. */
export async function lockFile(file: string, options: FileLockOptions): Promise<() => Promise<void>> {
  const lockPath = `${file}.lock`;
  const ownerPath = `${file}.lock-owner`;
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    try {
      const release = await lockfile.lock(file, {
        realpath: false,
        lockfilePath: lockPath,
        stale: Math.max(options.staleMs, 2_000),
        onCompromised: (err) => options.onCompromised?.(err),
      });
      writeFileSync(ownerPath, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
      return async () => {
        try {
          unlinkSync(ownerPath);
        } catch {
          // already gone
        }
        await release();
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ELOCKED") throw options.failed(err);
    }
    if (await holderIsDead(ownerPath)) {
      try {
        rmdirSync(lockPath);
      } catch {
        // someone else broke it first; retry
      }
      continue;
    }
    if (Date.now() >= deadline) {
      const holder = readOwner(ownerPath);
      throw options.locked(lockPath, holder && { pid: holder.pid, host: holder.host, since: holder.since });
    }
    await sleep(100);
  }
}
