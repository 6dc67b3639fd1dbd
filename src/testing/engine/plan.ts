/**
 * The engine's step decision for a resource the state holds (step_generator.go): the same, an update,
 * or a replacement. A changed `replacementTrigger` replaces without asking the provider; a resource
 * named in `replaceWith`, or the `deletedWith` target, being replaced replaces this one; otherwise
 * the provider's Diff decides, with `replaceOnChanges` applied to the keys the provider names as
 * changed. The Node dynamic-provider host names none, so there `replaceOnChanges` has no effect, as
 * under `pulumi up`; only a provider without an opinion (no diff method) gets the engine's own
 * comparison of inputs, whose keys it does apply to.
 */
import { containsUnknown, deepEqual } from "../../pulumi/values";
import { providerStep } from "./context";
import type { DiffResult, ResourceRef } from "./grpc";
import { topLevel } from "./ignore-changes";
import type { Registration } from "./registration";
import type { Run } from "./run";
import type { ResourceState } from "./state";
import { changedKeys, forProviderMap, reveal, type PropertyMap, type PropertyValue } from "./values";

export type Plan = { op: "same" } | { op: "update"; diffs: string[] } | Replace;
export type Replace = { op: "replace"; diffs: string[]; replaces: string[]; deleteBeforeReplace: boolean };

export async function planStep(run: Run, ref: ResourceRef, reg: Registration, old: ResourceState, inputs: PropertyMap): Promise<Plan> {
  const inputDiffs = changedKeys(old.inputs, inputs, { provider: true });
  const replace = (replaces: string[], diffs = inputDiffs, providerDbr?: boolean): Replace => ({
    op: "replace",
    diffs,
    replaces,
    deleteBeforeReplace: reg.deleteBeforeReplace ?? providerDbr ?? false,
  });
  if (triggerChanged(old.replacementTrigger, reg.replacementTrigger)) return replace([]);
  const replacedWith = await replacingOption(run, reg);
  if (replacedWith) return replace([replacedWith]);
  const diff = await providerStep(run.ctx, ref, "diff", () =>
    run.ctx.client.diff(ref, old.id ?? "", forProviderMap(old.inputs), forProviderMap(old.outputs), forProviderMap(inputs), reg.ignoreChanges),
  );
  return fromDiff(diff, inputDiffs, reg, replace);
}

/** The option (`replaceWith`, then `deletedWith`) naming a resource this run replaces, if one does. */
async function replacingOption(run: Run, reg: Registration): Promise<"replaceWith" | "deletedWith" | undefined> {
  for (const [key, urns] of [
    ["replaceWith", reg.replaceWith ?? []],
    ["deletedWith", reg.deletedWith ? [reg.deletedWith] : []],
  ] as const) {
    for (const urn of urns) if (await run.replacements.isReplaced(urn)) return key;
  }
  return undefined;
}

/** The plan the provider's Diff makes: with no opinion (`unknown`), the engine's own comparison of inputs decides. */
function fromDiff(diff: DiffResult, inputDiffs: string[], reg: Registration, replace: (replaces: string[], diffs: string[], dbr: boolean) => Replace): Plan {
  const changes = diff.changes === "unknown" ? inputDiffs.length > 0 : diff.changes === "some";
  if (!changes) return { op: "same" };
  const changed = diff.changes === "unknown" ? inputDiffs : diff.diffs;
  const diffs = changed.length > 0 ? changed : inputDiffs;
  const replaces = [...new Set([...diff.replaces, ...changed.filter((k) => matchesAnyPath(k, reg.replaceOnChanges))])];
  if (replaces.length === 0) return { op: "update", diffs };
  return replace(replaces, diffs, diff.deleteBeforeReplace);
}

function matchesAnyPath(key: string, paths: readonly string[]): boolean {
  return paths.some((p) => p === "*" || topLevel(p) === key);
}

/** The engine's shouldTriggerReplace: unknowns always count as a change; a null on either side is no trigger. */
function triggerChanged(old: PropertyValue | undefined, now: PropertyValue | undefined): boolean {
  if (containsUnknown(old) || containsUnknown(now)) return true;
  if (old === undefined || old === null || now === undefined || now === null) return false;
  return !deepEqual(reveal(old), reveal(now));
}
