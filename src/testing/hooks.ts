/**
 * Resource hooks (the `hooks` resource option), as the engine runs them (pkg/resource/deploy:
 * resource_hooks.go, Deployment.RunHooks, and the steps of step.go). A program registers each
 * `ResourceHook` by name for its run; a resource names the hooks to run before and after its create,
 * update and delete, and its state keeps those names, so that a resource the program no longer
 * declares runs its delete hooks too (the program must still register them). A before-hook's failure
 * fails the step before the provider is called; an after-hook's fails the run once the step is done
 * (its result is kept). The failures of `ignoreErrors` hooks are passed over (the engine warns of
 * them; the kit has no warnings to give); in a preview only `onDryRun` hooks run.
 */
import { EngineError } from "./context";
import type { ResourceRef } from "./grpc";
import type { PropertyMap } from "./values";

export const HOOK_TYPES = ["beforeCreate", "afterCreate", "beforeUpdate", "afterUpdate", "beforeDelete", "afterDelete"] as const;
export type HookType = (typeof HOOK_TYPES)[number];

/** The hooks a resource names, by when they run. */
export type HookBinding = Partial<Record<HookType, string[]>>;

/** What a hook is told (ResourceHookRequest): values in the engine's JSON form. */
export interface HookArgs {
  urn: string;
  id: string;
  name: string;
  type: string;
  newInputs?: PropertyMap;
  oldInputs?: PropertyMap;
  newOutputs?: PropertyMap;
  oldOutputs?: PropertyMap;
}

export interface RegisteredHook {
  name: string;
  onDryRun: boolean;
  ignoreErrors: boolean;
  /** Calls the program's hook; resolves with its error message, if it failed. */
  call(args: HookArgs): Promise<string | undefined>;
}

export class HookRegistry {
  private readonly hooks = new Map<string, RegisteredHook>();

  register(hook: RegisteredHook): void {
    if (!hook.name) throw new Error("resource hook name cannot be empty");
    if (this.hooks.has(hook.name)) throw new Error(`resource hook already registered for name "${hook.name}"`);
    this.hooks.set(hook.name, hook);
  }

  /** Runs the hooks `binding` names for `type`, in order; rejects with the engine's words when one fails. */
  async run(binding: HookBinding | undefined, type: HookType, preview: boolean, args: HookArgs): Promise<void> {
    for (const name of binding?.[type] ?? []) {
      const hook = this.hooks.get(name);
      if (!hook) throw new Error(`hook "${name}" was not registered`);
      if (preview && !hook.onDryRun) continue;
      const error = await hook.call(args);
      if (error === undefined) continue;
      if (hook.ignoreErrors) continue;
      throw new Error(`${type.startsWith("before") ? "before" : "after"} hook "${name}" failed: ${error}`);
    }
  }
}

/** The binding with only the hook types that name any hook, or undefined when none does. */
export function hookBinding(lists: Record<HookType, string[]>): HookBinding | undefined {
  const binding: HookBinding = {};
  for (const type of HOOK_TYPES) if (lists[type].length > 0) binding[type] = [...lists[type]];
  return Object.keys(binding).length > 0 ? binding : undefined;
}

/** Runs a step's hooks; a failure is the step's, named after the resource and the hook's moment. */
export async function runHooks(
  hooks: HookRegistry,
  preview: boolean,
  ref: ResourceRef,
  binding: HookBinding | undefined,
  type: HookType,
  args: Omit<HookArgs, "urn" | "name" | "type">,
): Promise<void> {
  if (!binding?.[type]) return;
  try {
    await hooks.run(binding, type, preview, { ...args, urn: ref.urn, name: ref.name, type: ref.type });
  } catch (e) {
    throw new EngineError(ref, type, (e as Error).message);
  }
}
