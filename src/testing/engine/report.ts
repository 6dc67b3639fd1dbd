import { EngineError } from "./context";
import { isObject, isSecret, mapValues, SECRET_SIG, SIG_KEY, withoutInternalKeys, type PropertyMap, type PropertyValue } from "./values";

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
  /**
   * A create that takes over the existing object (`adopt: true`): shown as `create (adopt)`. In an
   * adoption plan, set on the same/update/replace that adopting the object amounts to.
   */
  adopt?: boolean;
  /**
   * The inputs before the operation (update, replace, delete), without the serialized provider; each
   * secret is a secret marker without its value, so a report never holds a secret.
   */
  oldInputs?: Record<string, unknown>;
  /** The inputs after the operation (create, update, replace), in the same form. */
  newInputs?: Record<string, unknown>;
  /** For refresh: the outputs before and after, in the same form (what a drift of a computed output shows). */
  oldOutputs?: Record<string, unknown>;
  newOutputs?: Record<string, unknown>;
}

/** "adoption": a preview in which each create with `adopt: true` is planned against the object it takes over. */
export type RunKind = "up" | "preview" | "refresh" | "destroy" | "adoption";

export interface RunResult {
  kind: RunKind;
  operations: OperationReport[];
  /** Number of operations per kind. */
  totals: Partial<Record<OperationKind, number>>;
  /** Number of operations that change something (all but "same" and "read"). */
  changes: number;
  /** The program's stack outputs, secrets shown as "[secret]" (TestStack.outputs has their values); in a preview, unknowns are the runtime's unknown sentinel. */
  outputs: Record<string, unknown>;
  /**
   * The warnings the run printed, as `pulumi` lists them under "Diagnostics" (without the
   * `warning: ` prefix): the provider's (an `svc:` config key it does not know, with the nearest
   * one) and, under `engine: "pulumi"`, the program's own `pulumi.log.warn`.
   */
  warnings: string[];
}

export const isChange = (op: OperationKind) => op !== "same" && op !== "read";

/** The operation's verb for people: `release` for a delete that released the object. */
export const verb = (o: OperationReport): string => (o.released ? "release" : o.adopt && o.op === "create" ? "create (adopt)" : o.op);

/** One line per operation, e.g. `update fixture:Record "b" (value)`. */
export function describeOperations(operations: readonly OperationReport[]): string {
  return operations
    .map((o) => {
      const detail = o.replaces?.length ? ` (replaces: ${o.replaces.join(", ")})` : o.diffs?.length ? ` (${o.diffs.join(", ")})` : "";
      return `  ${verb(o)} ${o.type} "${o.name}"${detail}`;
    })
    .join("\n");
}

/** A secret marker without the secret's value: what reports carry in place of a secret. */
export const MASKED_SECRET: PropertyMap = Object.freeze({ [SIG_KEY]: SECRET_SIG });

/** Inputs as a report carries them: without the engine's internal properties (the serialized provider), each secret's value dropped. */
export function reportedInputs(m: PropertyMap): Record<string, unknown> {
  return mapValues(withoutInternalKeys(m), maskSecrets);
}

function maskSecrets(v: PropertyValue): PropertyValue {
  if (isSecret(v)) return MASKED_SECRET;
  if (Array.isArray(v)) return v.map(maskSecrets);
  if (isObject(v)) return mapValues(v, maskSecrets);
  return v;
}

/** How many resources a grouped failure names before it only counts them. */
const NAMED = 8;

/**
 * The message of a failed run: its first failure, and the others. Resources that failed with the
 * same provider message (a configuration or credentials problem fails every one of them) are told
 * once, with the resources it failed, rather than once per resource.
 */
export function describeFailures(kind: RunKind, failures: readonly Error[]): string {
  const groups = new Map<string, Error[]>();
  for (const f of failures) {
    const key = f instanceof EngineError ? f.providerMessage : f.message;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const told = [...groups.values()].map(([first, ...same]) => {
    if (same.length === 0) return first.message;
    const names = same.map((f) => (f instanceof EngineError ? `"${f.resource.name}"` : "")).filter(Boolean);
    const shown = names.length > NAMED ? `${names.slice(0, NAMED).join(", ")}, …` : names.join(", ");
    return `${first.message} (the same for ${same.length} more resource(s)${shown ? `: ${shown}` : ""})`;
  });
  const [head, ...rest] = told;
  return `${kind} failed: ${head}${rest.length ? ` (and ${rest.length} more failure(s): ${rest.join("; ")})` : ""}`;
}
