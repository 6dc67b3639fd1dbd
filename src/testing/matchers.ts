/**
 * Jest matchers over run results: `expect(result).toHaveNoChanges()` and
 * `expect(result).toHaveActions({ "my-cluster": "update", "asset-1": "replace" })`.
 */
import { describeOperations, isChange, verb, type OperationKind, type RunResult } from "./engine/report";
import { SvcError } from "../errors";

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

type Matcher = (this: { isNot?: boolean }, received: unknown, ...args: never[]) => MatcherResult;

function asRunResult(received: unknown): RunResult {
  const r = received as RunResult | undefined;
  if (!r || !Array.isArray(r.operations)) throw new SvcError("SVC_NOT_A_RUN_RESULT", "expected the result of up(), preview(), refresh() or destroy()");
  return r;
}

export function toHaveNoChanges(this: { isNot?: boolean }, received: unknown): MatcherResult {
  const result = asRunResult(received);
  const changes = result.operations.filter((o) => isChange(o.op));
  return {
    pass: changes.length === 0,
    message: () =>
      changes.length === 0
        ? `expected the ${result.kind} to change something, but every resource is unchanged`
        : `expected the ${result.kind} to change nothing, but it has ${changes.length} change(s):\n${describeOperations(changes)}`,
  };
}

/** What `toHaveActions` accepts for a resource: an operation, `"release"` (a delete that released the object) or `"none"`. */
export type ExpectedAction = OperationKind | "release" | "none";

/**
 * Each key is a resource name (or URN); each value the operation expected for it: an operation
 * (`"delete"` matches a release too), `"release"`, or `"none"` when the run must do nothing to it (it
 * has no operation, or it is `same`). Resources not named are not checked.
 */
export function toHaveActions(this: { isNot?: boolean }, received: unknown, expected: Record<string, ExpectedAction>): MatcherResult {
  const result = asRunResult(received);
  const mismatches: string[] = [];
  for (const [key, want] of Object.entries(expected)) {
    const ops = result.operations.filter((o) => o.name === key || o.urn === key);
    const got = ops.length === 0 ? "none" : ops.map((o) => verb(o)).join("+");
    const matches = want === "none" ? ops.every((o) => o.op === "same") : ops.length === 1 && (ops[0].op === want || verb(ops[0]) === want);
    if (!matches) mismatches.push(`"${key}": expected ${want}, got ${got}`);
  }
  return {
    pass: mismatches.length === 0,
    message: () =>
      mismatches.length === 0
        ? `expected the ${result.kind} not to have these actions: ${JSON.stringify(expected)}`
        : `the ${result.kind}'s actions differ:\n  ${mismatches.join("\n  ")}\nall operations:\n${describeOperations(result.operations)}`,
  };
}

export const matchers: Record<string, Matcher> = { toHaveNoChanges, toHaveActions: toHaveActions };

/** Registers the matchers with jest's `expect` (the global one unless given). */
export function registerMatchers(
  expect: { extend(m: Record<string, unknown>): void } | undefined = (globalThis as { expect?: { extend(m: Record<string, unknown>): void } }).expect,
): void {
  if (!expect) throw new SvcError("SVC_MATCHERS_NO_EXPECT", "registerMatchers: no jest `expect` found; pass it as the argument");
  expect.extend(matchers);
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      /** The run (typically a preview) plans or makes no change. */
      toHaveNoChanges(): R;
      /** The run performs these operations on the resources named (name or URN → operation, "release", or "none": no operation or `same`). */
      toHaveActions(expected: Record<string, ExpectedAction>): R;
    }
  }
}
