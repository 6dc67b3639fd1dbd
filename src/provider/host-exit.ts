/**
 * The dynamic-provider host leaves with its engine. The host (@pulumi/pulumi's
 * `cmd/dynamic-provider`) is a gRPC server that never exits on its own: the engine stops it at the end
 * of a command, and when the engine is killed (`kill -9`, a CI runner's cancel) nothing does, so the
 * host kept running, holding its port, long after the run was gone. This module, loaded with the
 * provider in the host (host.ts), watches the process that started it and ends the host when that
 * process is gone.
 *
 * The engine starts the plugin through the `pulumi-resource-pulumi-nodejs` shell script, which runs
 * node and waits for it: the host's parent is then the script, and the engine is the script's parent.
 * Killing the engine alone leaves the script waiting, so both links are watched: the host's parent
 * and, when the parent is that script, the script's parent. A process whose parent dies is given a
 * new parent (init or a subreaper), so a changed parent pid means the process it had is gone; that is
 * read from /proc, where the parent pid is live (Node's `process.ppid` is read once, at start). Where
 * there is no /proc, the parent's pid is checked for life instead.
 *
 * The check is a timer that does not keep the host alive; a host the engine stops normally ends as
 * before. Outside the dynamic-provider host (a program, a test runner) nothing is watched.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";

/** How often the parents are checked, ms. */
const INTERVAL_MS = 500;

/** The wrapper script through which the engine starts the Node dynamic-provider plugin. */
const WRAPPER = "pulumi-resource-pulumi-nodejs";

/** The parent pid of `pid` as /proc says now, or undefined where /proc cannot tell (no /proc, the process is gone). */
export function parentOf(pid: number | "self"): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, the fields follow the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** True in @pulumi/pulumi's dynamic-provider host: `node <.../cmd/dynamic-provider/index.js> <engine address>`. */
export function inDynamicProviderHost(argv: readonly string[] = process.argv): boolean {
  const script = argv[1];
  if (!script) return false;
  const parts = path.resolve(script).split(path.sep);
  const i = parts.lastIndexOf("dynamic-provider");
  return i >= 2 && parts[i - 1] === "cmd" && (i === parts.length - 1 || (i === parts.length - 2 && parts[i + 1] === "index.js"));
}

export interface EngineWatch {
  /** The pids watched: the host's parent, then the engine when the parent is the wrapper script. */
  readonly watched: readonly number[];
  stop(): void;
}

/**
 * Watches the host's parent (and the engine behind the wrapper script) and calls `gone` (default: ends
 * the process) once one of them is gone. Does nothing outside the dynamic-provider host unless `force`.
 */
export function watchEngine(options: { gone?: (pid: number) => void; intervalMs?: number; force?: boolean } = {}): EngineWatch | undefined {
  if (!options.force && !inDynamicProviderHost()) return undefined;
  const parent = parentOf("self") ?? process.ppid;
  // Started by init or a subreaper already: there is no engine to follow.
  if (parent <= 1) return undefined;
  const grandparent = commandLine(parent).includes(WRAPPER) ? parentOf(parent) : undefined;
  const links: Array<[child: number | "self", parent: number]> = [["self", parent]];
  if (grandparent !== undefined && grandparent > 1) links.push([parent, grandparent]);
  const gone =
    options.gone ??
    (() => {
      process.exit(0);
    });
  const timer = setInterval(() => {
    for (const [child, expected] of links) {
      const now = parentOf(child);
      // /proc says the parent changed (the old one died), or, without /proc, the parent is not alive.
      if (now === undefined ? !alive(expected) : now !== expected) {
        clearInterval(timer);
        gone(expected);
        return;
      }
    }
  }, options.intervalMs ?? INTERVAL_MS);
  timer.unref();
  return { watched: links.map(([, p]) => p), stop: () => clearInterval(timer) };
}
