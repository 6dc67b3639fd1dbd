/** What a run did (or, for a preview, would do) to each resource. */

export type OperationKind = "create" | "update" | "replace" | "delete" | "same" | "read" | "import";

export interface OperationReport {
  urn: string;
  type: string;
  name: string;
  op: OperationKind;
  /** Properties that differ (for refresh: outputs the provider reads back differently). */
  diffs?: string[];
  /** Properties whose change forces the replacement. */
  replaces?: string[];
  /** For refresh: the inputs (what the program writes) that the platform now states differently. */
  inputDiffs?: string[];
  /**
   * For a delete: the object was released, not deleted. It stays on the platform and only left the
   * stack (a kind the API cannot delete, such as a cluster, or `retainOnDelete`).
   */
  released?: boolean;
}

export type RunKind = "up" | "preview" | "refresh" | "destroy";

export interface RunResult {
  kind: RunKind;
  operations: OperationReport[];
  /** Number of operations per kind. */
  totals: Partial<Record<OperationKind, number>>;
  /** Number of operations that change something (all but "same" and "read"). */
  changes: number;
  /** The program's stack outputs, secrets shown as "[secret]" (TestStack.outputs has their values); in a preview, unknowns are the runtime's unknown sentinel. */
  outputs: Record<string, unknown>;
}

export const isChange = (op: OperationKind) => op !== "same" && op !== "read";

export function runResult(kind: RunKind, operations: OperationReport[], outputs: Record<string, unknown>): RunResult {
  const totals: Partial<Record<OperationKind, number>> = {};
  for (const o of operations) totals[o.op] = (totals[o.op] ?? 0) + 1;
  return { kind, operations, totals, changes: operations.filter((o) => isChange(o.op)).length, outputs };
}

/** The operation's verb for people: `release` for a delete that released the object. */
export const verb = (o: OperationReport): string => (o.released ? "release" : o.op);

/** One line per operation, e.g. `update fixture:Record "b" (value)`. */
export function describeOperations(operations: readonly OperationReport[]): string {
  return operations
    .map((o) => {
      const detail = o.replaces?.length ? ` (replaces: ${o.replaces.join(", ")})` : o.diffs?.length ? ` (${o.diffs.join(", ")})` : "";
      return `  ${verb(o)} ${o.type} "${o.name}"${detail}`;
    })
    .join("\n");
}
