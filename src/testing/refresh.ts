/**
 * Refresh: Read every object in the state through its provider and record what the platform holds.
 * A read that returns no id means the object is gone, and it leaves the state. Secrets keep their
 * marking (the engine re-marks refreshed outputs from the old ones). Reads run in parallel, within the
 * limit; the state is saved after each.
 */
import { providerStep, type EngineContext } from "./context";
import type { OperationReport } from "./report";
import type { ResourceState } from "./state";
import { annotateSecrets, changedKeys, forProviderMap, type PropertyMap } from "./values";

export async function refreshResources(ctx: EngineContext, report: (op: OperationReport) => void): Promise<void> {
  const entries = ctx.state.all().filter((e) => e.custom && e.id);
  let failure: { error: unknown } | undefined;
  await Promise.all(
    entries.map((e) =>
      ctx.semaphore.run(async () => {
        if (failure) return;
        try {
          refreshed(ctx, e, await read(ctx, e), report);
        } catch (error) {
          failure ??= { error };
        }
      }),
    ),
  );
  if (failure) throw failure.error;
}

function read(ctx: EngineContext, e: ResourceState) {
  const ref = { urn: e.urn, type: e.type, name: e.name };
  return providerStep(ctx, ref, "read", () => ctx.client.read(ref, e.id ?? "", forProviderMap(e.outputs), forProviderMap(e.inputs)));
}

function refreshed(ctx: EngineContext, e: ResourceState, read: { id: string; properties: PropertyMap; inputs?: PropertyMap }, report: (op: OperationReport) => void): void {
  const ref = { urn: e.urn, type: e.type, name: e.name };
  if (!read.id) {
    ctx.state.remove(e);
    report({ ...ref, op: "delete" });
    return;
  }
  const outputs = ctx.redactor.protect(annotateSecrets(read.properties, e.outputs, e.additionalSecretOutputs));
  const inputs = read.inputs ? ctx.redactor.protect(annotateSecrets(read.inputs, e.inputs)) : e.inputs;
  ctx.redactor.learn(outputs);
  const diffs = [...new Set([...changedKeys(e.outputs, outputs), ...changedKeys(e.inputs, inputs)])].sort();
  const id = read.id;
  if (diffs.length === 0 && id === e.id) {
    report({ ...ref, op: "same" });
    return;
  }
  ctx.state.replace(e, { ...e, id, inputs, outputs });
  // Only a provider that reads inputs back says which of the program's inputs changed.
  const inputDiffs = read.inputs ? changedKeys(e.inputs, inputs).sort() : undefined;
  report({ ...ref, op: "update", diffs: id === e.id ? diffs : [...diffs, "id"], ...(inputDiffs ? { inputDiffs: id === e.id ? inputDiffs : [...inputDiffs, "id"] } : {}) });
}
