/**
 * Refresh: Read every object in the state through its provider and record what the platform holds.
 * A read that returns no id means the object is gone, and it leaves the state. Secrets keep their
 * marking (the engine re-marks refreshed outputs from the old ones). Reads run in parallel, within the
 * limit; the state is saved after each.
 *
 * Whether the program's inputs drifted is the provider's judgement, as in the Pulumi engine: the diff
 * an up of the unchanged program would make from the refreshed state. A provider that reads its
 * inputs back in another, equivalent form (a default filled in, a time in another offset) or keeps
 * provider-side settings only at create has not drifted. Outputs that moved are recorded and reported.
 */
import { providerStep, type EngineContext } from "./context";
import { reportedInputs, type OperationReport } from "./report";
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
          await refreshed(ctx, e, await read(ctx, e), report);
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

/**
 * The input keys that drifted, of those that read back differently (`moved`): the ones the provider's
 * diff from the refreshed state back to the state's inputs sees change.
 */
async function driftedInputs(ctx: EngineContext, e: ResourceState, id: string, inputs: PropertyMap, outputs: PropertyMap, moved: string[]): Promise<string[]> {
  const ref = { urn: e.urn, type: e.type, name: e.name };
  const diff = await providerStep(ctx, ref, "diff", () => ctx.client.diff(ref, id, forProviderMap(inputs), forProviderMap(outputs), forProviderMap(e.inputs), []));
  if (diff.changes === "none") return [];
  if (diff.changes === "unknown") return moved;
  return diff.diffs.length > 0 ? diff.diffs : moved;
}

async function refreshed(ctx: EngineContext, e: ResourceState, read: ReadBack, report: (op: OperationReport) => void): Promise<void> {
  const ref = { urn: e.urn, type: e.type, name: e.name };
  if (!read.id) {
    ctx.state.remove(e);
    report({ ...ref, op: "delete" });
    return;
  }
  const outputs = ctx.redactor.protect(annotateSecrets(read.properties, e.outputs, e.additionalSecretOutputs));
  const inputs = read.inputs ? ctx.redactor.protect(annotateSecrets(read.inputs, e.inputs)) : e.inputs;
  ctx.redactor.learn(outputs);
  const outputDiffs = changedKeys(e.outputs, outputs);
  const moved = changedKeys(e.inputs, inputs);
  // Only a provider that reads inputs back says which of the program's inputs changed.
  const inputDiffs = read.inputs && moved.length > 0 ? await driftedInputs(ctx, e, read.id, inputs, outputs, moved) : [];
  if (outputDiffs.length === 0 && inputDiffs.length === 0 && read.id === e.id) {
    report({ ...ref, op: "same" });
    return;
  }
  const now = { ...e, id: read.id, inputs, outputs };
  ctx.state.replace(e, now);
  report(driftReport(e, now, outputDiffs, read.inputs ? inputDiffs : undefined));
}

/** What a Read returned: an empty id when the object is gone; `inputs` from a provider that reads them back. */
type ReadBack = { id: string; properties: PropertyMap; inputs?: PropertyMap };

/** The update a refresh reports: the outputs and inputs that moved (and the id, when it changed), before and after. */
function driftReport(was: ResourceState, now: ResourceState, outputDiffs: string[], inputDiffs: string[] | undefined): OperationReport {
  const withId = (keys: string[]) => (now.id === was.id ? keys : [...keys, "id"]);
  return {
    urn: was.urn,
    type: was.type,
    name: was.name,
    op: "update",
    diffs: withId([...new Set([...outputDiffs, ...(inputDiffs ?? [])])].sort()),
    ...(inputDiffs ? { inputDiffs: withId(inputDiffs) } : {}),
    oldInputs: reportedInputs(was.inputs),
    newInputs: reportedInputs(now.inputs),
    oldOutputs: reportedInputs(was.outputs),
    newOutputs: reportedInputs(now.outputs),
  };
}
