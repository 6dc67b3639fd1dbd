/**
 * Runs a sequence of operations on one stack (the engine kit and the real dynamic-provider host)
 * against one emulator, keeps a model of what the platform and the state should hold, and checks the
 * provider's promises after every step:
 * - after an up the preview is empty, the platform's records equal the program's (field by field on
 *   what it declares), nothing exists twice, and the state holds each declared resource once, with
 *   the declared inputs;
 * - a refresh reports no drift, and after an out-of-band edit exactly that edit; the preview then
 *   plans exactly the change that undoes it;
 * - destroy leaves only what the platform cannot delete (released clusters and data types, the
 *   instance settings at their defaults), and the next up takes those back;
 * - an up under injected faults (429/502/503/504, resets, answers lost after the change applied)
 *   ends as it would without them;
 * - no secret appears in the state (on disk) or in the provider host's output.
 * A failed check throws a `SequenceFailure` whose message is a readable reproduction: the seed,
 * every step with what it changed, the program at the failing step as TypeScript, and the same
 * sequence as data to paste into a regression test.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SvcClient } from "../../src/client";
import type { FaultConfigInput } from "../../src/emulator";
import * as testing from "../../src/testing";
import { deepEqual, naturalId, platformProblems, release, type PlatformModel } from "./expect";
import { World } from "./generate";
import { MODELS } from "../kinds";
import { clone, plainArgs, programText, secretsOf, toProgram, type Decl, type ProgramSpec } from "./program";
import { Rng } from "./rng";

export const EDITS = ["add", "add", "remove", "update", "update", "replace", "rename", "adopt", "move", "running", "enabled"] as const;
export type EditType = (typeof EDITS)[number];
export interface Edit {
  type: EditType;
  seed: number;
}
export interface Faults {
  mode: "before" | "after_apply";
  seed: number;
  /** Percent of the requests that fail. */
  percent: number;
}

/** One operation of a sequence: generated ones carry seeds, replayed ones the literal program. */
export type Step =
  | { op: "up"; edits: Edit[]; faults?: Faults }
  | { op: "up"; program: ProgramSpec; faults?: Faults }
  | { op: "preview" }
  | { op: "refresh" }
  | { op: "destroy" }
  | { op: "drift"; seed: number };

export interface Sequence {
  /** The seed the sequence was generated from (for the record). */
  seed?: number;
  /** The stack's most provider operations at once. */
  parallel: number;
  steps: Step[];
}

/** What the model tests count (into RELIABILITY.md). */
export interface ModelCounts {
  sequences: number;
  steps: number;
  invariants: number;
  violations: number;
  faults: number;
  kinds: Set<string>;
}
export const newCounts = (): ModelCounts => ({ sequences: 0, steps: 0, invariants: 0, violations: 0, faults: 0, kinds: new Set() });

export class SequenceFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SequenceFailure";
  }
}

/** A drift the state has taken in by refresh and the next up undoes. */
interface Drift {
  resource: string;
  /** The edited arg, or undefined when the object was deleted. */
  field?: string;
}

/** Fault settings of an up under faults: requests fail at `percent`%, either before they take effect or after (answer lost). */
function faultConfig(f: Faults): FaultConfigInput {
  const rate = f.percent / 100;
  const common = { seed: f.seed, include_auth: true, retry_after_s: 0, latency_ms: 0 } as const;
  return f.mode === "before"
    ? { ...common, rate: rate * 0.75, reset_rate: rate * 0.25, statuses: [429, 502, 503, 504] }
    : { ...common, rate, mode: "after_apply", after_apply_action: f.seed % 2 === 0 ? "reset" : "502" };
}

const SERVICE_SECRET = "svc-admin-secret";

/** Longest a step may take: a provider operation that waits forever (a deadlock) fails the step. */
const STEP_TIMEOUT_MS = Number(process.env.MODEL_STEP_TIMEOUT_MS ?? 180_000);

function timed<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${STEP_TIMEOUT_MS / 1000} s`)), STEP_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export async function runSequence(seq: Sequence, counts: ModelCounts = newCounts()): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-model-"));
  const statePath = path.join(dir, "state.json");
  const logs: string[] = [];
  // Operations that wait (an app's deletion waits for its workloads to go) give up after 30 s, not 10 min.
  const config = { "svc:operationTimeoutSeconds": "30" };
  const stack = await testing.stack(toProgram([]), { emulator: { log: () => undefined }, parallel: seq.parallel, statePath, config, log: (l) => logs.push(l) });
  const emulator = stack.emulator!;
  const client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: SERVICE_SECRET });
  const world = new World();
  const model: PlatformModel = { declared: [], released: new Map() };
  let pending: Drift[] = [];
  /** Whether the last change of the platform was a destroy (the program still declares what it destroyed). */
  let destroyed = false;
  const transcript: string[] = [];
  const literal: Step[] = [];
  const secrets = new Set<string>([SERVICE_SECRET]);
  counts.sequences++;

  const fail = (index: number, step: string, problems: string[], program: ProgramSpec): never => {
    counts.violations++;
    const lines = [
      `the provider broke a promise at step ${index + 1} (${step}) of a sequence${seq.seed !== undefined ? ` generated from seed ${seq.seed}` : ""} (parallel ${seq.parallel}):`,
      ...problems.map((p) => `  - ${p}`),
      "",
      "steps:",
      ...transcript.map((t, i) => `  ${i + 1}. ${t}`),
      "",
      "the program at that step:",
      programText(program),
      "",
      "the sequence as data (for a regression test):",
      JSON.stringify({ parallel: seq.parallel, steps: literal }),
    ];
    throw new SequenceFailure(lines.join("\n"));
  };
  /** Counts an invariant checked; records the problems found. */
  const check = (problems: string[], found: string[]) => {
    counts.invariants++;
    return problems.push(...found);
  };

  try {
    for (const [index, step] of seq.steps.entries()) {
      counts.steps++;
      const problems: string[] = [];
      let label: string = step.op;
      switch (step.op) {
        case "up": {
          let what: string;
          if ("program" in step) {
            world.spec = clone(step.program);
            what = "the program given";
          } else {
            const done = step.edits.map((e) => edit(world, e)).filter((d): d is string => d !== undefined);
            what = done.length ? done.join("; ") : "no edit";
          }
          const program = world.snapshot();
          literal.push({ op: "up", program, ...(step.faults ? { faults: step.faults } : {}) });
          for (const s of secretsOf(program)) secrets.add(s);
          for (const d of program) counts.kinds.add(d.kind);
          label = step.faults ? `up under ${step.faults.percent}% faults (${step.faults.mode}, seed ${step.faults.seed})` : "up";
          if (step.faults) emulator.faults.configure(faultConfig(step.faults));
          let result: testing.RunResult | undefined;
          try {
            // The kit checks that the preview right after the up is empty.
            result = await timed(stack.up(toProgram(program)), "the up");
          } catch (e) {
            problems.push(`the up failed: ${(e as Error).message}`);
          } finally {
            if (step.faults) {
              counts.faults += emulator.faults.status().counters.total;
              emulator.faults.configure({});
            }
          }
          counts.invariants++;
          transcript.push(`${label}: ${what}${result ? ` → ${totals(result)}` : " → FAILED"}`);
          if (problems.length) fail(index, label, problems, program);
          model.declared = program;
          release(model, program);
          pending = [];
          destroyed = false;
          check(problems, platformProblems(emulator.store, model, stateIds(stack)));
          check(problems, stateProblems(stack, program));
          check(problems, secretProblems(stack, statePath, logs, secrets));
          if (problems.length) fail(index, label, problems, program);
          break;
        }
        case "preview": {
          literal.push(step);
          const result = await timed(stack.preview(), "the preview").catch((e: Error) => fail(index, label, [`the preview failed: ${e.message}`], world.spec));
          transcript.push(`preview → ${totals(result)}`);
          check(problems, planProblems(result, expectedPlan(world.spec, destroyed, pending), "the preview"));
          if (problems.length) fail(index, label, problems, model.declared);
          break;
        }
        case "refresh": {
          literal.push(step);
          const result = await timed(stack.refresh(), "the refresh").catch((e: Error) => fail(index, label, [`the refresh failed: ${e.message}`], model.declared));
          transcript.push(`refresh → ${totals(result)}`);
          check(problems, refreshProblems(result, undefined));
          const planned = await stack.preview();
          check(problems, planProblems(planned, expectedPlan(world.spec, destroyed, pending), "the preview after the refresh"));
          if (problems.length) fail(index, label, problems, model.declared);
          break;
        }
        case "destroy": {
          literal.push(step);
          let result: testing.RunResult | undefined;
          try {
            // The kit reads every deleted object back and fails if one is still there.
            result = await timed(stack.destroy(), "the destroy");
          } catch (e) {
            problems.push(`the destroy failed: ${(e as Error).message}`);
          }
          counts.invariants++;
          transcript.push(`destroy → ${result ? totals(result) : "FAILED"}`);
          if (problems.length) fail(index, label, problems, model.declared);
          const before = model.declared;
          model.declared = [];
          pending = [];
          destroyed = true;
          check(problems, platformProblems(emulator.store, model, new Map()));
          check(
            problems,
            stack.resources().length === 0
              ? []
              : [
                  `the state still holds ${stack
                    .resources()
                    .map((r) => r.name)
                    .join(", ")} after destroy`,
                ],
          );
          check(problems, secretProblems(stack, statePath, logs, secrets));
          if (problems.length) fail(index, label, problems, before);
          break;
        }
        case "drift": {
          literal.push(step);
          const drift = await driftOnce(model, stateIds(stack), client, new Rng(step.seed), pending);
          label = drift ? `out-of-band ${drift.what}` : "out-of-band edit";
          if (!drift) {
            transcript.push("out-of-band edit: nothing to edit");
            break;
          }
          const result = await stack.refresh().catch((e: Error) => fail(index, label, [`the refresh failed: ${e.message}`], model.declared));
          transcript.push(`out-of-band ${drift.what}, then refresh → ${totals(result)}`);
          check(problems, refreshProblems(result, drift));
          pending = [...pending, drift];
          const planned = await stack.preview();
          check(problems, planProblems(planned, expectedPlan(world.spec, destroyed, pending), "the preview after the refresh"));
          if (problems.length) fail(index, label, problems, model.declared);
          break;
        }
      }
    }
  } finally {
    await client.close();
    // A step that timed out may still hold the stack: do not wait on it for ever.
    await Promise.race([stack.close(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function edit(world: World, e: Edit): string | undefined {
  const r = new Rng(e.seed);
  switch (e.type) {
    case "add":
      return world.addEdit(r);
    case "remove":
      return world.removeEdit(r);
    case "update":
      return world.updateEdit(r);
    case "replace":
      return world.replaceEdit(r);
    case "rename":
      return world.renameEdit(r);
    case "adopt":
      return world.adoptEdit(r);
    case "move":
      return world.moveWorkloadEdit(r);
    case "running":
      return world.runningEdit(r);
    case "enabled":
      return world.enabledEdit(r);
  }
}

function totals(result: testing.RunResult): string {
  const t = Object.entries(result.totals)
    .filter(([op]) => op !== "same")
    .map(([op, n]) => `${op} ${n}`);
  return t.length ? t.join(", ") : "no changes";
}

/** The ids the state gives each resource, by logical name. */
function stateIds(stack: testing.TestStack): Map<string, string> {
  return new Map(stack.resources().map((r) => [r.name, r.id ?? ""]));
}

/** The state holds each declared resource once, with the declared inputs and the id its identity gives; nothing else. */
function stateProblems(stack: testing.TestStack, program: ProgramSpec): string[] {
  const problems: string[] = [];
  const all = stack.state.resources;
  const waiting = all.filter((r) => r.delete);
  if (waiting.length) problems.push(`the state still holds replaced objects waiting for deletion: ${waiting.map((r) => `${r.name} (${r.id})`).join(", ")}`);
  const views = stack.resources();
  const byUrn = new Map<string, number>();
  for (const v of views) byUrn.set(v.urn, (byUrn.get(v.urn) ?? 0) + 1);
  for (const [urn, n] of byUrn) if (n > 1) problems.push(`the state holds ${urn} ${n} times`);
  const ids = new Map<string, string>();
  for (const v of views) {
    const key = `${v.type}#${v.id}`;
    if (ids.has(key)) problems.push(`${v.name} and ${ids.get(key)} have the same object (${key})`);
    ids.set(key, v.name);
  }
  for (const d of program) {
    const v = views.find((x) => x.name === d.name && x.type.endsWith(`:${d.kind}`));
    if (!v) {
      problems.push(`${d.kind} ${d.name} is missing from the state`);
      continue;
    }
    const want = plainArgs(program, d);
    if (!deepEqual(v.inputs, want)) problems.push(`${d.kind} ${d.name}: the state's inputs ${JSON.stringify(v.inputs)} are not the declared ${JSON.stringify(want)}`);
    const id = naturalId(program, d);
    if (!v.id) problems.push(`${d.kind} ${d.name} has no id in the state`);
    else if (id !== undefined && v.id !== id) problems.push(`${d.kind} ${d.name} has id ${v.id} in the state, not ${id}`);
  }
  for (const v of views) if (!program.some((d) => d.name === v.name)) problems.push(`the state holds ${v.name}, which the program does not declare`);
  return problems;
}

/** No secret (the service account's, or a secret value of the program) in the state file, the state or the host's output. */
function secretProblems(stack: testing.TestStack, statePath: string, logs: string[], secrets: Set<string>): string[] {
  const problems: string[] = [];
  const places: Array<[string, string]> = [
    ["the state file", fs.existsSync(statePath) ? fs.readFileSync(statePath, "utf8") : ""],
    ["the state", JSON.stringify(stack.state)],
    ["the provider host's output", logs.join("\n")],
  ];
  for (const s of secrets) for (const [where, text] of places) if (text.includes(s)) problems.push(`the secret ${JSON.stringify(s.slice(0, 4) + "…")} appears in ${where}`);
  return problems;
}

/** A refresh must report exactly `drift` (or nothing): an input changed, or an object gone. */
function refreshProblems(result: testing.RunResult, drift: Drift | undefined): string[] {
  const problems: string[] = [];
  const changed = result.operations.filter((o) => o.op === "delete" || (o.op === "update" && (o.inputDiffs ?? []).length > 0));
  for (const o of changed) {
    if (drift && o.name === drift.resource) {
      if (drift.field === undefined && o.op !== "delete") problems.push(`refresh reports ${o.name} as ${o.op} (${(o.inputDiffs ?? []).join(", ")}), but it was deleted`);
      if (drift.field !== undefined && (o.op !== "update" || !deepEqual(o.inputDiffs, [drift.field]))) {
        problems.push(`refresh reports ${o.name} as ${o.op} of [${(o.inputDiffs ?? []).join(", ")}], but only ${drift.field} was edited`);
      }
      continue;
    }
    problems.push(`refresh reports ${o.op} of ${o.name}${o.inputDiffs ? ` (${o.inputDiffs.join(", ")})` : ""}, which nothing changed`);
  }
  if (drift && !changed.some((o) => o.name === drift.resource))
    problems.push(`refresh does not report the out-of-band ${drift.field ? `edit of ${drift.resource}.${drift.field}` : `deletion of ${drift.resource}`}`);
  return problems;
}

/**
 * What a plan must change: after a destroy, create everything the program declares; else exactly
 * what the drifts took from the program (recreate what was deleted, update what was edited).
 */
function expectedPlan(program: ProgramSpec, destroyed: boolean, pending: Drift[]): Map<string, string> {
  if (destroyed) return new Map(program.map((d) => [d.name, "create"]));
  return new Map(pending.map((d) => [d.resource, d.field === undefined ? "create" : "update"]));
}

function planProblems(result: testing.RunResult, expected: Map<string, string>, what: string): string[] {
  const problems: string[] = [];
  const changes = result.operations.filter((o) => o.op !== "same" && o.op !== "read");
  for (const o of changes) {
    const want = expected.get(o.name);
    if (o.op !== want) problems.push(`${what} plans ${o.op} of ${o.name}${o.diffs ? ` (${o.diffs.join(", ")})` : ""}${want ? `, expected ${want}` : ", expected no change"}`);
  }
  for (const [name, op] of expected) if (!changes.some((o) => o.name === name)) problems.push(`${what} does not plan the ${op} of ${name}`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Out-of-band edits

interface DriftAction extends Drift {
  what: string;
  run(client: SvcClient): Promise<unknown>;
}

/** Edits or deletes one declared object through the client, as someone outside the stack would. */
async function driftOnce(model: PlatformModel, ids: Map<string, string>, client: SvcClient, r: Rng, pending: Drift[]): Promise<DriftAction | undefined> {
  const spec = model.declared;
  const candidates = spec.filter((d) => !pending.some((p) => p.resource === d.name)).flatMap((d) => driftActions(spec, d, ids.get(d.name)));
  if (candidates.length === 0) return undefined;
  const action = r.pick(candidates);
  await action.run(client);
  return action;
}

/** What can be changed out of band on the object of `d` (whose id in the state is `id`). */
function driftActions(spec: ProgramSpec, d: Decl, id: string | undefined): DriftAction[] {
  const out: DriftAction[] = [];
  MODELS[d.kind].drift?.(plainArgs(spec, d), id, {
    edit: (field, what, run) => out.push({ resource: d.name, field, what: `edit of ${d.kind} ${d.name}: ${what}`, run }),
    del: (run) => out.push({ resource: d.name, what: `deletion of ${d.kind} ${d.name}`, run }),
  });
  return out;
}
