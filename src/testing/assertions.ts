/**
 * The checks of Terraform's acceptance framework, for Pulumi stacks: the plan is empty after apply,
 * nothing drifted after a refresh, destroy leaves nothing behind, and adopting an object (import)
 * yields the state a fresh create produces.
 */
import { providerStep, type EngineContext } from "./engine/context";
import { destroyEffects } from "./effects";
import { describeOperations, isChange, type RunResult } from "./engine/report";
import type { ResourceState } from "./engine/state";
import { deepEqual } from "../pulumi/values";
import { forProviderMap, omitPaths, PROVIDER_KEY, type PropertyValue } from "./engine/values";
import type { AdoptableStack, ResourceView } from "./views";
import { SvcError } from "../errors";

/** Fails unless the run (a preview, typically) changes nothing. */
export function assertEmptyPlan(result: RunResult, what: string): void {
  const changes = result.operations.filter((o) => isChange(o.op));
  if (changes.length > 0) throw new SvcError("SVC_PLAN_NOT_EMPTY", `${what} plans ${changes.length} change(s), expected none:\n${describeOperations(changes)}`);
}

/**
 * Fails if a refresh found an object gone or its inputs different on the platform, or the following
 * preview plans changes. Computed outputs moving on their own (an app's latest version, an updated
 * time) are refreshed into the state but are not drift.
 */
export function assertNoDrift(refreshed: RunResult, planned: RunResult): void {
  const drifted = refreshed.operations.filter((o) => isChange(o.op) && (o.op !== "update" || (o.inputDiffs ?? o.diffs ?? []).length > 0));
  const changes = planned.operations.filter((o) => isChange(o.op));
  if (drifted.length === 0 && changes.length === 0) return;
  const parts = [];
  if (drifted.length) parts.push(`refresh found ${drifted.length} resource(s) changed on the platform:\n${describeOperations(drifted)}`);
  if (changes.length) parts.push(`the preview after refresh plans ${changes.length} change(s):\n${describeOperations(changes)}`);
  throw new SvcError("SVC_DRIFT_DETECTED", `drift detected: ${parts.join("\n")}`);
}

/**
 * Reads every object the stack created and fails for each one that still exists, except those destroy
 * leaves by design: released ones (`retainOnDelete`, kinds the API cannot delete) and reset ones (a
 * singleton whose destroy restores its defaults).
 */
export async function checkDestroyed(ctx: EngineContext, objects: readonly ResourceState[]): Promise<void> {
  const effectOf = await destroyEffects(objects);
  const unique = new Map<string, ResourceState>();
  for (const e of objects) if (e.custom && e.id && !e.external && effectOf(e) === "delete") unique.set(`${e.urn}#${e.id}`, e);
  const left: string[] = [];
  await Promise.all(
    [...unique.values()].map((e) =>
      ctx.semaphore.run(async () => {
        const ref = { urn: e.urn, type: e.type, name: e.name };
        try {
          const read = await providerStep(ctx, ref, "read", () => ctx.client.read(ref, e.id!, forProviderMap(e.outputs), forProviderMap(e.inputs)));
          if (read.id) left.push(`${e.type} "${e.name}" (id ${e.id}) still exists`);
        } catch (err) {
          left.push(`${e.type} "${e.name}" (id ${e.id}) could not be read back: ${(err as Error).message}`);
        }
      }),
    ),
  );
  if (left.length > 0) throw new SvcError("SVC_DESTROY_LEFT_OBJECTS", `destroy left objects behind:\n  ${left.sort().join("\n  ")}`);
}

export interface AdoptionOptions {
  /** Dotted paths to leave out of the comparison (ids, timestamps, server-generated values). */
  ignore?: string[];
}

/**
 * Reads the object the stack created for resource `name` by its id alone, as an import does, and
 * fails unless the adopted state equals the created one (outputs, and inputs when the provider's read
 * returns inputs), ignoring the paths named.
 */
export async function expectAdoptionMatchesCreate(stack: AdoptableStack, name: string, options: AdoptionOptions = {}): Promise<void> {
  const created = stack.resource(name);
  if (!created.id) throw new SvcError("SVC_ADOPTION_NO_ID", `resource "${name}" has no id to adopt it by`);
  const adopted = await stack.importResource({ name, id: created.id, like: name }, { record: false });
  const ignore = options.ignore ?? [];
  const secret = new Set([...created.secretOutputs, ...adopted.secretOutputs].map((p) => p.split(".")[0]));
  const differences = [...compare("outputs", created.outputs, adopted.outputs, ignore, secret)];
  if (Object.keys(adopted.inputs).length > 0) differences.push(...compare("inputs", created.inputs, adopted.inputs, ignore, secret));
  if (differences.length > 0) {
    throw new SvcError("SVC_ADOPTION_DIFFERS", `adopting "${name}" (id ${created.id}) does not produce the state its creation did:\n  ${differences.join("\n  ")}`);
  }
}

function compare(section: string, created: ResourceView["outputs"], adopted: ResourceView["outputs"], ignore: string[], secret: Set<string>): string[] {
  const a = omitPaths(created as PropertyValue, [...ignore, PROVIDER_KEY]) as Record<string, PropertyValue>;
  const b = omitPaths(adopted as PropertyValue, [...ignore, PROVIDER_KEY]) as Record<string, PropertyValue>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys
    .filter((k) => !deepEqual(a[k] ?? null, b[k] ?? null))
    .map((k) => {
      const shown = (v: PropertyValue | undefined) => (secret.has(k) ? "[secret]" : JSON.stringify(v ?? null));
      return `${section}.${k}: created ${shown(a[k])}, adopted ${shown(b[k])}`;
    });
}
