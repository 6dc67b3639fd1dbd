/**
 * The differential suite's runner: the same steps through the kit's engine and through `pulumi`, each
 * run's operation per resource (or its failure), and the state and the backend's records after them.
 */
import * as testing from "../../src/testing";
import type { Program, StackOptions } from "../../src/testing";
import { backend } from "../engine/fixtures/harness";
import { pulumiDir, tempDir } from "./harness";

export type Engine = "kit" | "pulumi";

export interface Step {
  run: "up" | "preview" | "refresh" | "destroy";
  program?: Program;
}

/** What one run did: the operation per resource name, or the failure. */
export type RunTrace = { ops: Record<string, string> } | { failed: string };

export interface Trace {
  runs: RunTrace[];
  /** Resource name → inputs, as the state holds them after the last run. */
  state: Record<string, unknown>;
  /** The backend's records (ids left out: they are random), sorted by key. */
  records: Array<Record<string, unknown>>;
  /** Resource name → the paths of its outputs that the state holds as secrets. */
  secretOutputs: Record<string, string[]>;
}

/** What a scenario may look at besides the trace, which the engines are not expected to share. */
export interface Extras {
  /** Resource name → outputs, secrets revealed (a fresh provider host per CLI command makes counters differ). */
  outputs: Record<string, Record<string, unknown>>;
  /** The state as the backend keeps it (secrets encrypted), as JSON. */
  stateText: string;
  /** Each run's warnings (none for a failed run). */
  warnings: string[][];
}

export async function play(engine: Engine, steps: Step[], options: StackOptions = {}): Promise<Trace & { extras: Extras }> {
  const storeDir = tempDir("svc-diff-");
  const first = steps.find((s) => s.program)?.program ?? (() => undefined);
  const common: StackOptions = { expectEmptyPlanAfterUp: false, ...options, config: { ...options.config, "fixture:storeDir": storeDir } };
  const stack = engine === "pulumi" ? await testing.stack(first, { ...common, engine: "pulumi", pulumiPath: pulumiDir }) : await testing.stack(first, common);
  const runs: RunTrace[] = [];
  const warnings: string[][] = [];
  try {
    for (const step of steps) {
      try {
        const result =
          step.run === "up"
            ? await stack.up(step.program)
            : step.run === "preview"
              ? await stack.preview(step.program)
              : step.run === "refresh"
                ? await stack.refresh()
                : await stack.destroy();
        runs.push({ ops: Object.fromEntries(result.operations.map((o) => [o.name, o.op])) });
        warnings.push(result.warnings);
      } catch (e) {
        runs.push({ failed: (e as Error).message });
        warnings.push([]);
      }
    }
    const resources = stack.resources();
    const state = Object.fromEntries(resources.map((r) => [r.name, r.inputs]));
    const secretOutputs = Object.fromEntries(resources.map((r) => [r.name, [...r.secretOutputs].sort()]));
    const extras = { outputs: Object.fromEntries(resources.map((r) => [r.name, r.outputs])), stateText: JSON.stringify(stack.state), warnings };
    const records = Object.values(backend.records(storeDir))
      .map(({ serial: _serial, ...r }) => r)
      .sort((a, b) => String(a.key).localeCompare(String(b.key)));
    return { runs, state, records, secretOutputs, extras };
  } finally {
    await stack.close();
  }
}

/** Failures compare by whether they happened; the words are checked per scenario. */
export const comparable = ({ runs, state, records, secretOutputs }: Trace) => ({
  runs: runs.map((r) => ("failed" in r ? { failed: true } : r)),
  state,
  records,
  secretOutputs,
});

export async function bothEngines(steps: Step[], options: StackOptions = {}): Promise<{ kit: Trace & { extras: Extras }; cli: Trace & { extras: Extras } }> {
  const [kit, cli] = [await play("kit", steps, options), await play("pulumi", steps, options)];
  return { kit, cli };
}

export const failure = (t: Trace, run: number) => {
  const r = t.runs[run];
  return "failed" in r ? r.failed : undefined;
};
