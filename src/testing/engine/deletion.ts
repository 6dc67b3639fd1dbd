/**
 * Deleting resources in reverse dependency order: a resource goes only after everything that depends
 * on it (or is its child) among those being deleted, with the parallelism limit. Objects read with
 * `get` are only forgotten; `retainOnDelete` and `deletedWith` skip the provider call as the engine does.
 * The report of an object that stays on the platform (`retainOnDelete`, or a kind whose destroy only
 * releases) says `released`.
 */
import { EngineError, providerStep, type EngineContext } from "./context";
import type { ResourceRef } from "./grpc";
import { runHooks, withErrorHooks, type HookRegistry } from "./hooks";
import type { OperationReport } from "./report";
import { runOrdered } from "./scheduler";
import { dependencyOrder, prerequisites, type ResourceState } from "./state";
import { forProviderMap } from "./values";

export interface DeletionPlan {
  /** Entries to delete (managed ones) and to forget (external ones). */
  entries: readonly ResourceState[];
  /** Only report what would be deleted. */
  preview: boolean;
  /** The hooks the program registered (none for a destroy, which runs no program): a resource's delete hooks run around its delete. */
  hooks: HookRegistry;
}

export async function deleteResources(ctx: EngineContext, plan: DeletionPlan, report: (op: OperationReport, entry: ResourceState) => void): Promise<void> {
  const managed = plan.entries.filter((e) => !e.external);
  if (!plan.preview) for (const e of plan.entries) if (e.external) ctx.state.remove(e);
  const doomed = new Set(managed.map((e) => e.urn));
  const dependents = dependentsAmong(managed);
  const effectOf = await ctx.destroyEffects(managed);
  // As the engine does: in reverse order of the state (a resource declared later goes first), each
  // after what depends on it. With one operation at a time this order decides what waits for what.
  await runOrdered(dependencyOrder(managed).reverse(), dependents, ctx.semaphore, async (e) => {
    const ref = { urn: e.urn, type: e.type, name: e.name };
    refuseProtected(ref, e);
    const args = { id: e.id ?? "", oldInputs: e.inputs, oldOutputs: e.outputs };
    await runHooks(plan.hooks, plan.preview, ref, e.hooks, "beforeDelete", args);
    if (!plan.preview) {
      const skipProvider = !e.custom || e.retainOnDelete || (e.deletedWith !== undefined && doomed.has(e.deletedWith));
      if (!skipProvider) await deleteObject(ctx, plan.hooks, e);
      ctx.state.remove(e);
    }
    await runHooks(plan.hooks, plan.preview, ref, e.hooks, "afterDelete", args);
    report(effectOf(e) === "release" ? { ...ref, op: "delete", released: true } : { ...ref, op: "delete" }, e);
  });
}

/**
 * Who depends on each entry (or is its child) among `entries`, built once: a lookup per entry would
 * compare every pair (a plant of thousands of resources spent most of its destroy there).
 */
function dependentsAmong(entries: readonly ResourceState[]): (e: ResourceState) => ResourceState[] {
  const byUrn = new Map(entries.map((e) => [e.urn, e] as const));
  const dependentsOf = new Map<ResourceState, ResourceState[]>();
  for (const d of entries) {
    for (const urn of new Set(prerequisites(d))) {
      const e = byUrn.get(urn);
      if (!e || e === d) continue;
      const list = dependentsOf.get(e);
      if (list) list.push(d);
      else dependentsOf.set(e, [d]);
    }
  }
  return (e) => dependentsOf.get(e) ?? [];
}

/** The engine's words (deployment_executor / step_generator): a protected resource stays, the run fails. */
function refuseProtected(ref: ResourceRef, e: ResourceState): void {
  if (!e.protect) return;
  throw new EngineError(
    ref,
    "delete",
    `resource "${e.urn}" cannot be deleted\nbecause it is protected. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\``,
    "SVC_KIT_PROTECTED",
  );
}

/** The provider's delete of an object in the state, with the error hooks its state names. */
export function deleteObject(ctx: EngineContext, hooks: HookRegistry, e: ResourceState): Promise<void> {
  const ref = { urn: e.urn, type: e.type, name: e.name };
  return withErrorHooks(hooks, ref, e.hooks, "delete", { id: e.id ?? "", oldInputs: e.inputs, oldOutputs: e.outputs }, () =>
    providerStep(ctx, ref, "delete", () => ctx.client.delete(ref, e.id ?? "", forProviderMap(e.inputs), forProviderMap(e.outputs))),
  );
}
