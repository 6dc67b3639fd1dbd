/**
 * The killed-run scenarios, run under the kit's engine by killed-kit.test.ts and under `pulumi` by
 * killed.test.ts (two files, so that jest's two workers share them): the processes, the runs that
 * are killed, and the checks after them. What a scenario proves is said in killed.test.ts.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as svc from "../../src";
import { SvcClient } from "../../src/client";
import * as testing from "../../src/testing";
import { startEmulator, type Emulator } from "../../src/emulator";
import type { Change } from "../../src/emulator/store/store";
import { urnName } from "../../src/pulumi/urn";
import { pulumiDir, tempDir } from "./harness";

const RUNNER = path.join(__dirname, "killed-run.js");
const ROOT = path.join(__dirname, "..", "..");
/** The platform records the programs declare; a write is a commit that changes one of them. */
const TABLES = ["asset_classes", "asset_types", "assets", "labels"];
const TABLE_OF_KIND: Record<string, string> = { AssetClass: "asset_classes", AssetType: "asset_types", Asset: "assets", Label: "labels" };

export type Engine = "kit" | "pulumi";
type Records = Record<string, string>;

/** What each program declares: `table:name` → title (killed-run.js). */
export const DECLARED: Record<"v1" | "v2", Records> = {
  v1: {
    "asset_classes:k-class": "Killed class",
    "asset_types:k-type": "Killed type",
    ...Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`assets:k-asset-${i}`, `Asset ${i}`])),
    "labels:k-label-1": "Label 1",
    "labels:k-label-2": "Label 2",
  },
  v2: {
    "asset_classes:k-class": "Killed class",
    "asset_types:k-type": "Killed type",
    ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`assets:k-asset-${i}`, i <= 2 ? `Asset ${i}, renamed` : `Asset ${i}`])),
    "labels:k-label-1": "Label 1",
  },
};

/** An asset class the stack did not create: it must stay as it is, and out of the state. */
const FOREIGN = "asset_classes:k-foreign";

interface RunOutput {
  ok: boolean;
  error?: string;
  pending?: Array<{ urn: string }>;
  resources?: Array<{ name: string; type: string; id?: string; title?: string }>;
}

interface Outcome {
  /** The processes of the run when it was killed (it, the CLI, the provider host...). */
  killedTree?: number[];
  output?: RunOutput;
  stderr: string;
}

// ---- processes -------------------------------------------------------------------------------------

/** pid → [parent pid, state] of every process, from /proc. */
function processTable(): Map<number, { ppid: number; state: string }> {
  const table = new Map<number, { ppid: number; state: string }>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(Number(name), { ppid: Number(ppid), state });
    } catch {
      // Gone meanwhile.
    }
  }
  return table;
}

/** `root` and every process below it. */
function processTree(root: number): number[] {
  const table = processTable();
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, p] of table) if (p.ppid === tree[i] && !tree.includes(pid)) tree.push(pid);
  return tree;
}

export const commandLine = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
};

/** The pids of `pids` that still run (a zombie has ended: it only waits for its parent to reap it). */
function running(pids: readonly number[]): number[] {
  const table = processTable();
  return pids.filter((pid) => {
    const p = table.get(pid);
    return p !== undefined && p.state !== "Z";
  });
}

/** Waits (polling, at most `ms`) until none of `pids` runs; resolves to those still running then. */
export async function ended(pids: readonly number[], ms = 20_000): Promise<Array<{ pid: number; command: string }>> {
  const deadline = Date.now() + ms;
  let left = running(pids);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = running(left);
  }
  return left.map((pid) => ({ pid, command: commandLine(pid) }));
}

export function killAll(pids: readonly number[]): void {
  for (const pid of running(pids)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
  }
}

// ---- runs ------------------------------------------------------------------------------------------

/** Counts the emulator's writes to the declared records and calls `onWrite` with each one's number. */
export class WriteCounter {
  count = 0;
  onWrite: ((n: number) => void) | undefined;
  constructor(emulator: Emulator) {
    emulator.store.onCommit((changes: Change[]) => {
      if (!changes.some((c) => TABLES.includes(c.table))) return;
      this.count++;
      this.onWrite?.(this.count);
    });
  }
}

interface RunArgs {
  engine: Engine;
  statePath: string;
  baseUrl: string;
  program: "v1" | "v2";
  command: "up" | "destroy" | "cancel" | "clear-pending" | "state";
}

/**
 * Runs killed-run.js in a process group of its own. With `kill`, the group is killed with SIGKILL
 * when the run's `kill.at`-th write is applied (`kill.only` picks which of its processes to kill
 * instead of the group).
 */
export async function run(writes: WriteCounter, args: RunArgs, kill?: { at: number; only?: (tree: number[]) => number[] }): Promise<Outcome> {
  const child = spawn(process.execPath, [RUNNER, JSON.stringify({ ...args, pulumiDir })], { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const outcome: Outcome = { stderr: "" };
  const start = writes.count;
  writes.onWrite = kill
    ? (n) => {
        if (n - start !== kill.at || outcome.killedTree) return;
        const tree = processTree(child.pid!);
        outcome.killedTree = tree;
        if (kill.only) for (const pid of kill.only(tree)) process.kill(pid, "SIGKILL");
        else process.kill(-child.pid!, "SIGKILL");
      }
    : undefined;
  await new Promise<void>((resolve) => child.once("close", () => resolve()));
  writes.onWrite = undefined;
  outcome.stderr = stderr;
  const last = stdout.trim().split("\n").pop();
  if (last?.startsWith("{")) outcome.output = JSON.parse(last) as RunOutput;
  return outcome;
}

export function succeeded(o: Outcome, what: string): RunOutput {
  if (!o.output?.ok) throw new Error(`${what} failed: ${o.output?.error ?? "no answer"}\n${o.stderr.slice(-3000)}`);
  return o.output;
}

/** The platform's records of the declared tables, as `table:name` → title. */
function platform(emulator: Emulator): Records {
  const out: Records = {};
  for (const table of TABLES) for (const [key, row] of emulator.store.table<{ title?: string }>(table).entries()) out[`${table}:${key}`] = row.title ?? "";
  return out;
}

/** The state's resources, as `table:id` → title; fails on a resource named otherwise than its id, or listed twice. */
export function stateRecords(out: RunOutput): Records {
  const records: Records = {};
  for (const r of out.resources ?? []) {
    const kind = r.type.split(":").pop()!;
    const key = `${TABLE_OF_KIND[kind] ?? kind}:${r.id}`;
    if (r.name !== r.id) throw new Error(`the state's ${r.name} has the id ${r.id}`);
    if (key in records) throw new Error(`the state lists ${key} twice`);
    records[key] = r.title ?? "";
  }
  return records;
}

type Phase = "up" | "update" | "destroy";

/** Writes each phase makes when nothing is killed: its kill points are 1..N. */
const WRITES: Record<Phase, number> = { up: 9, update: 4, destroy: 9 };
const SOAK = process.env.SOAK === "1";
/** The kill points `npm test` runs (SOAK=1: all). */
const QUICK: Record<Phase, number[]> = { up: [2, 9], update: [3], destroy: [5] };
const points = (phase: Phase) => (SOAK ? Array.from({ length: WRITES[phase] }, (_, i) => i + 1) : QUICK[phase]);

/**
 * The scenario of one kill point: the stack at its starting point (nothing; v1 for an update or a
 * destroy), the phase's command killed at its `at`-th write, then `cancel` and the command again.
 */
async function killedScenario(engine: Engine, phase: Phase, at: number): Promise<void> {
  const emulator = await startEmulator({});
  const client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  const writes = new WriteCounter(emulator);
  const dir = tempDir("svc-killed-");
  const statePath = engine === "kit" ? path.join(dir, "state.json") : path.join(dir, "backend");
  const base = { engine, statePath, baseUrl: emulator.baseUrl };
  const leftovers: number[] = [];
  try {
    await client.assets.classCreate({ body: { name: "k-foreign", title: "Not the stack's" } });
    if (phase !== "up") succeeded(await run(writes, { ...base, program: "v1", command: "up" }), "the up before");
    const program = phase === "update" ? "v2" : "v1";
    const command = phase === "destroy" ? "destroy" : "up";

    const killed = await run(writes, { ...base, program, command }, { at });
    expect(killed.killedTree).toBeDefined();
    leftovers.push(...killed.killedTree!);
    // Every process of the killed run ends: the provider host does not outlive its engine.
    expect(await ended(killed.killedTree!)).toEqual([]);

    // The one documented command, then the same command again.
    const cancelled = succeeded(await run(writes, { ...base, program, command: "cancel" }), "cancel");
    // The killed up was creating: the state lists what it was creating when it died.
    if (phase === "up") expect(cancelled.pending?.length).toBeGreaterThan(0);
    const next = succeeded(await run(writes, { ...base, program, command }), `the ${command} after the kill`);

    const declared = phase === "destroy" ? {} : DECLARED[program];
    const onPlatform = platform(emulator);
    expect(onPlatform[FOREIGN]).toBe("Not the stack's");
    delete onPlatform[FOREIGN];
    expect(onPlatform).toEqual(declared);
    expect(stateRecords(next)).toEqual(declared);
    // The creates the kill interrupted stay listed as pending, as Pulumi keeps them, until cleared;
    // each of them is an object the state now holds (or, after a destroy, no longer needs).
    const urns = new Set((next.resources ?? []).map((r) => r.name));
    for (const p of next.pending ?? []) expect(phase === "destroy" || urns.has(urnName(p.urn))).toBe(true);
    const cleared = succeeded(await run(writes, { ...base, program, command: "clear-pending" }), "clearing the pending creates");
    expect(cleared.pending).toEqual([]);
    expect(stateRecords(cleared)).toEqual(declared);
    expect(platform(emulator)).toEqual({ ...declared, [FOREIGN]: "Not the stack's" });
  } finally {
    killAll(leftovers);
    await client.close();
    await emulator.close();
  }
}

export const scenarios = (engine: Engine) => {
  for (const phase of ["up", "update", "destroy"] as const) {
    test.each(points(phase))(`${phase} killed at write %i: cancel, then the ${phase === "destroy" ? "destroy" : "up"} again converges`, (at) => killedScenario(engine, phase, at));
  }
};

/**
 * `up({ refresh: true })` reads the platform first: a title changed by hand is seen, and the up puts
 * the declared one back (a plain up trusts the state and changes nothing).
 */
export async function upWithRefresh(engine: Engine): Promise<void> {
  const program = () => {
    new svc.Label("k-label", { name: "k-label", title: "Declared" });
  };
  const stack = await testing.stack(program, { engine, pulumiPath: pulumiDir, emulator: true, expectEmptyPlanAfterUp: false, skipPreview: true });
  const client = new SvcClient({ baseUrl: stack.emulator!.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  try {
    await stack.up();
    await client.datalabels.labelUpdate({ params: { label_name: "k-label" }, body: { title: "Changed by hand" } });
    expect((await stack.up()).operations.filter((o) => o.op !== "same")).toEqual([]);
    const refreshed = await stack.up({ refresh: true });
    expect(refreshed.operations.filter((o) => o.op !== "same").map((o) => [o.name, o.op])).toEqual([["k-label", "update"]]);
    expect((await client.datalabels.labelGet({ params: { label_name: "k-label" } })).title).toBe("Declared");
  } finally {
    await client.close();
    await stack.close();
  }
}
