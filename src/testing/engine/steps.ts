/**
 * The steps of a custom resource, in the engine's own order: Check; then Create for a new resource,
 * or (after the plan, plan.ts) nothing, an Update, or a replacement, create-then-delete unless
 * delete-before-replace is asked for; Read for `get`. In a preview a step only reports what it
 * would do and answers with the checked inputs (every other output unknown, and the id too for a new
 * object), as the engine does for a provider without preview support. Each step reports itself and
 * answers with the outputs dependents will see.
 */
import { UNKNOWN } from "../../pulumi/values";
import { planAdoption, takeoverExists } from "./adoption";
import { EngineError, providerStep } from "./context";
import { deleteObject } from "./deletion";
import { ProviderError, type ResourceRef } from "./grpc";
import { runHooks, withErrorHooks } from "./hooks";
import type { Replace } from "./plan";
import { stateEntry, type Answer, type Registration } from "./registration";
import type { Run } from "./run";
import { dependencyOrder, type ResourceState } from "./state";
import { annotateSecrets, forProviderMap, markStepSecrets, type PropertyMap } from "./values";

/** Check, with the answer's properties re-marked secret where the program's were. */
export async function checkStep(run: Run, ref: ResourceRef, olds: PropertyMap, news: PropertyMap): Promise<PropertyMap> {
  const { ctx } = run;
  const checked = await providerStep(ctx, ref, "check", () => ctx.client.check(ref, forProviderMap(olds), forProviderMap(news)));
  if (checked.failures.length > 0) {
    throw new EngineError(ref, "check", ctx.redactor.mask(checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")), "SVC_KIT_CHECK_REFUSED");
  }
  return ctx.redactor.protect(annotateSecrets(checked.inputs, news));
}

/** Nothing to do; outputs the program now asks to keep secret (`additionalSecretOutputs` added later) become secret without an update. */
export function sameStep(run: Run, ref: ResourceRef, reg: Registration, old: ResourceState, inputs: PropertyMap): Answer {
  run.log.report(ref, "same");
  const outputs = markStepSecrets(old.outputs, inputs, reg.additionalSecretOutputs);
  if (!run.preview) run.ctx.state.put(stateEntry(ref.urn, reg, inputs, outputs, old.id));
  return { urn: ref.urn, id: old.id ?? "", outputs };
}

export async function createStep(run: Run, ref: ResourceRef, reg: Registration, inputs: PropertyMap): Promise<Answer> {
  if (run.preview && run.takeovers.adoptionId) {
    const planned = await planAdoption(run, ref, reg, inputs);
    if (planned) return planned;
  }
  const detail = { news: inputs, adopt: run.takeovers.adopts(reg.type, inputs) && (await takeoverExists(run, ref, reg.type, inputs)) };
  run.failures.stopIfFailed(ref);
  if (run.preview) {
    await runHooks(run.hooks, true, ref, reg.hooks, "beforeCreate", { id: "", newInputs: inputs });
    await runHooks(run.hooks, true, ref, reg.hooks, "afterCreate", { id: "", newInputs: inputs, newOutputs: inputs });
    run.log.report(ref, "create", detail);
    return { urn: ref.urn, id: "", outputs: inputs };
  }
  const created = await createObject(run, ref, reg, inputs);
  run.log.report(ref, "create", detail);
  return created;
}

/** Creates the object and records it; an object that failed to initialize is recorded too, then the error stands. */
async function createObject(run: Run, ref: ResourceRef, reg: Registration, inputs: PropertyMap): Promise<Answer> {
  const { ctx, hooks } = run;
  await runHooks(hooks, false, ref, reg.hooks, "beforeCreate", { id: "", newInputs: inputs });
  const res = await withErrorHooks(hooks, ref, reg.hooks, "create", { id: "", newInputs: inputs }, () =>
    providerStep(ctx, ref, "create", async () => {
      // Pending until the provider answers: a run killed meanwhile leaves it in the state.
      const done = ctx.state.begin({ urn: ref.urn, type: reg.type, op: "creating" });
      try {
        return await ctx.client.create(ref, forProviderMap(inputs), false);
      } catch (e) {
        if (e instanceof ProviderError && e.initFailure?.id) record(run, ref.urn, reg, inputs, e.initFailure.properties, e.initFailure.id);
        throw e;
      } finally {
        done();
      }
    }),
  );
  const outputs = record(run, ref.urn, reg, inputs, res.properties, res.id);
  await runHooks(hooks, false, ref, reg.hooks, "afterCreate", { id: res.id, newInputs: inputs, newOutputs: outputs });
  return { urn: ref.urn, id: res.id, outputs };
}

/** Stores a created or adopted object, with its outputs marked secret where the engine would. */
function record(run: Run, urn: string, reg: Registration, inputs: PropertyMap, properties: PropertyMap, id: string): PropertyMap {
  const { ctx } = run;
  const outputs = ctx.redactor.protect(annotateSecrets(properties, inputs, reg.additionalSecretOutputs));
  ctx.redactor.learn(outputs);
  const entry = stateEntry(urn, reg, inputs, outputs, id);
  ctx.state.put(entry);
  ctx.ledger.set(`${urn}#${id}`, entry);
  return outputs;
}

export async function updateStep(run: Run, ref: ResourceRef, reg: Registration, old: ResourceState, inputs: PropertyMap, diffs: string[]): Promise<Answer> {
  const { ctx, hooks } = run;
  const args = { id: old.id ?? "", newInputs: inputs, oldInputs: old.inputs, oldOutputs: old.outputs };
  const answer = (outputs: PropertyMap) => {
    run.log.report(ref, "update", { diffs, olds: old.inputs, news: inputs });
    return { urn: ref.urn, id: old.id ?? "", outputs };
  };
  await runHooks(hooks, run.preview, ref, reg.hooks, "beforeUpdate", args);
  if (run.preview) {
    await runHooks(hooks, true, ref, reg.hooks, "afterUpdate", { ...args, newOutputs: inputs });
    return answer(inputs);
  }
  const properties = await withErrorHooks(hooks, ref, reg.hooks, "update", args, () =>
    providerStep(ctx, ref, "update", () =>
      ctx.client.update(ref, old.id ?? "", forProviderMap(old.inputs), forProviderMap(old.outputs), forProviderMap(inputs), reg.ignoreChanges, false),
    ),
  );
  const outputs = record(run, ref.urn, reg, inputs, properties, old.id ?? "");
  await runHooks(hooks, false, ref, reg.hooks, "afterUpdate", { ...args, newOutputs: outputs });
  return answer(outputs);
}

export async function replaceStep(run: Run, ref: ResourceRef, reg: Registration, old: ResourceState, inputs: PropertyMap, plan: Replace): Promise<Answer> {
  refuseProtected(ref, old, reg);
  const detail = { diffs: plan.diffs, replaces: plan.replaces, olds: old.inputs, news: inputs };
  const dependents = plan.deleteBeforeReplace ? await dependentReplacements(run, old) : [];
  refuseProtectedDependent(ref, dependents);
  for (const d of dependents) run.replacements.markDependent(d.entry.urn, d.keys);
  if (run.preview) {
    run.log.report(ref, "replace", detail);
    return { urn: ref.urn, id: "", outputs: inputs };
  }
  const created = plan.deleteBeforeReplace ? await deleteThenCreate(run, ref, reg, old, inputs, dependents) : await createThenRetire(run, ref, reg, old, inputs);
  run.log.report(ref, "replace", detail);
  return created;
}

/** Unprotecting and replacing in one run is allowed: only a resource protected before and after is refused. */
function refuseProtected(ref: ResourceRef, old: ResourceState, reg: Registration): void {
  if (!(old.protect && reg.protect)) return;
  throw new EngineError(
    ref,
    "replace",
    `unable to replace resource "${ref.urn}"\nas it is currently marked for protection. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\``,
    "SVC_KIT_PROTECTED",
  );
}

function refuseProtectedDependent(ref: ResourceRef, dependents: readonly DependentReplacement[]): void {
  const guarded = dependents.find((d) => d.entry.protect);
  if (!guarded) return;
  throw new EngineError(
    ref,
    "replace",
    `unable to replace resource "${guarded.entry.urn}" as part of replacing "${ref.urn}" as it is currently marked for protection. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\`, or use the command:\n\`pulumi state unprotect '${guarded.entry.urn}'\``,
    "SVC_KIT_PROTECTED",
  );
}

/**
 * Delete-before-replace: what depends on the old object and would be replaced by its replacement
 * goes first, dependents first, then the old object, then the new one is created. The engine's
 * DeleteStep leaves a `retainOnDelete` object on the platform, here too.
 */
async function deleteThenCreate(
  run: Run,
  ref: ResourceRef,
  reg: Registration,
  old: ResourceState,
  inputs: PropertyMap,
  dependents: readonly DependentReplacement[],
): Promise<Answer> {
  for (const d of [...dependents].reverse()) await deleteReplaced(run, d.entry);
  await deleteReplaced(run, old);
  return createObject(run, ref, reg, inputs);
}

/**
 * Create-then-delete: the old object waits, marked for deletion, until the end of the run. A program
 * that drops `protect` in the same run as the replacement lets the old object go (as the engine does).
 */
async function createThenRetire(run: Run, ref: ResourceRef, reg: Registration, old: ResourceState, inputs: PropertyMap): Promise<Answer> {
  const { state } = run.ctx;
  state.retire(old, reg.protect ? {} : { protect: undefined });
  run.replacements.retire(old);
  return createObject(run, ref, reg, inputs).catch((e: Error) => {
    // Nothing replaced the old object (unless the new one exists but failed to initialize): it stays.
    if (!state.get(ref.urn)) state.reinstate(old);
    throw e;
  });
}

/** Deletes the old object of a delete-before-replace (unless it is retained) and forgets it. */
async function deleteReplaced(run: Run, old: ResourceState): Promise<void> {
  const ref = { urn: old.urn, type: old.type, name: old.name };
  const args = { id: old.id ?? "", oldInputs: old.inputs, oldOutputs: old.outputs };
  await runHooks(run.hooks, false, ref, old.hooks, "beforeDelete", args);
  if (!old.retainOnDelete) await deleteObject(run.ctx, run.hooks, old);
  run.ctx.state.remove(old);
  await runHooks(run.hooks, false, ref, old.hooks, "afterDelete", args);
}

interface DependentReplacement {
  entry: ResourceState;
  /** The inputs through which it depends on what is replaced: the keys that replace it. */
  keys: string[];
}

/**
 * The engine's dependent replacements (`calculateDependentReplacements`): before a resource is
 * replaced delete-first, each resource that depends on it through an input, directly or through
 * another such resource, is asked (Diff with those inputs unknown) whether the new object would
 * replace it; those that would are deleted before it and created again when they register.
 * Returned in dependency order.
 */
async function dependentReplacements(run: Run, root: ResourceState): Promise<DependentReplacement[]> {
  const replacing = new Set([root.urn]);
  const out: DependentReplacement[] = [];
  for (const e of dependencyOrder(run.ctx.state.all())) {
    if (!e.custom || e.external || e.delete || e.urn === root.urn || run.registered.has(e.urn) || run.replacements.dependentKeys(e.urn)) continue;
    const unknown = Object.entries(e.propertyDependencies ?? {})
      .filter(([, urns]) => urns.some((u) => replacing.has(u)))
      .map(([k]) => k);
    if (unknown.length === 0) continue;
    const replaces = await replacesWithUnknown(run, e, unknown);
    if (replaces.length === 0) continue;
    replacing.add(e.urn);
    out.push({ entry: e, keys: replaces });
  }
  return out;
}

/** The keys the provider's Diff says replace `e` when its inputs `unknown` are not known. */
async function replacesWithUnknown(run: Run, e: ResourceState, unknown: readonly string[]): Promise<string[]> {
  const news: PropertyMap = { ...e.inputs };
  for (const k of unknown) news[k] = UNKNOWN;
  const ref = { urn: e.urn, type: e.type, name: e.name };
  const diff = await providerStep(run.ctx, ref, "diff", () => run.ctx.client.diff(ref, e.id ?? "", forProviderMap(e.inputs), forProviderMap(e.outputs), forProviderMap(news), []));
  return diff.replaces;
}

/** A resource deleted for a dependent replacement registers again: it is created anew (reported as replaced). */
export async function recreateDependent(run: Run, ref: ResourceRef, reg: Registration, inputs: PropertyMap, keys: string[], old: ResourceState | undefined): Promise<Answer> {
  const detail = { diffs: keys, replaces: keys, olds: old?.inputs, news: inputs };
  if (run.preview) {
    // Until the run applies, the inputs that come from the replaced resource are not known.
    run.log.report(ref, "replace", { ...detail, news: { ...inputs, ...Object.fromEntries(keys.map((k) => [k, UNKNOWN])) } });
    return { urn: ref.urn, id: "", outputs: inputs };
  }
  const created = await createObject(run, ref, reg, inputs);
  run.log.report(ref, "replace", detail);
  return created;
}

/** `get`: read an object the stack does not manage. */
export async function readStep(run: Run, ref: ResourceRef, reg: Registration): Promise<Answer> {
  const { ctx } = run;
  const props = forProviderMap(reg.inputs);
  const read = await providerStep(ctx, ref, "read", () => ctx.client.read(ref, reg.readId ?? "", props, props));
  if (!read.id) throw new EngineError(ref, "read", `there is no object with id "${reg.readId}"`, "SVC_KIT_NO_SUCH_OBJECT");
  const outputs = annotateSecrets(read.properties, reg.inputs, reg.additionalSecretOutputs);
  ctx.redactor.learn(outputs);
  if (!run.preview) ctx.state.put({ ...stateEntry(ref.urn, reg, reg.inputs, outputs, read.id), external: true });
  run.log.report(ref, "read");
  return { urn: ref.urn, id: read.id, outputs };
}

/**
 * The `import` option. The engine imports with a Read that carries neither inputs nor state, so the
 * Node dynamic-provider host, which finds the provider in them, fails with the words below
 * (pulumi/pulumi#3550, #16175): a dynamic resource cannot be imported by the engine, and the kit
 * refuses it the same way, before touching anything.
 */
export function refuseImport(ref: ResourceRef): Promise<Answer> {
  return Promise.reject(
    new EngineError(
      ref,
      "import",
      "code must be a string, not undefined (the engine imports with a Read that carries no inputs, and the dynamic-provider host needs the serialized provider among them: dynamic resources cannot be imported with the `import` option; pulumi-svc kinds take an existing object over with `adopt: true`)",
      "SVC_KIT_IMPORT_UNSUPPORTED",
    ),
  );
}
