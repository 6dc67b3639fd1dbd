/**
 * Resource hooks (the `hooks` resource option), as the engine runs them (pkg/resource/deploy:
 * resource_hooks.go, Deployment.RunHooks, and the steps of step.go). A program registers each
 * `ResourceHook` by name for its run; a resource names the hooks to run before and after its create,
 * update and delete, and its state keeps those names, so that a resource the program no longer
 * declares runs its delete hooks too (the program must still register them). A before-hook's failure
 * fails the step before the provider is called; an after-hook's fails the run once the step is done
 * (its result is kept). The failures of `ignoreErrors` hooks are passed over with the engine's
 * warning; in a preview only `onDryRun` hooks run. Error hooks (`onError`, step.go's withRetries) are
 * told each failed create, update or delete of a custom resource, with the failures so far, newest
 * first; when one asks, the provider is called again, up to the engine's limit of attempts.
 */
import { SvcError } from "../../errors";
import { EngineError, wordsAndCode } from "./context";
import type { ResourceRef } from "./grpc";
import type { PropertyMap } from "./values";

import { HOOK_TYPES, type HookBinding, type HookType } from "./state";

export { HOOK_TYPES, type HookBinding, type HookType } from "./state";

/** The provider operations error hooks are told of. */
export type FailedOperation = "create" | "update" | "delete";

/** The engine's limit (retries.go's maxErrorHookRetries): the attempts of one operation, failures counted. */
export const MAX_ERROR_HOOK_RETRIES = 100;

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

/** What an error hook is told (ErrorHookRequest): the failed operation and its failures, newest first. */
export interface ErrorHookArgs extends Omit<HookArgs, "newOutputs"> {
  failedOperation: FailedOperation;
  errors: string[];
}

export interface RegisteredErrorHook {
  name: string;
  /** Calls the program's error hook; resolves with whether it asks for a retry, or with its error message. */
  call(args: ErrorHookArgs): Promise<{ retry: boolean; error?: string }>;
}

export class HookRegistry {
  private readonly hooks = new Map<string, RegisteredHook>();
  private readonly errorHooks = new Map<string, RegisteredErrorHook>();
  /** The warnings the engine gives while running hooks (a passed-over failure, a retry), in order. */
  readonly warnings: string[] = [];

  register(hook: RegisteredHook): void {
    this.claim(hook.name);
    this.hooks.set(hook.name, hook);
  }

  registerError(hook: RegisteredErrorHook): void {
    this.claim(hook.name);
    this.errorHooks.set(hook.name, hook);
  }

  /** Resource hooks and error hooks share one space of names, as in the engine (resource_hooks.go). */
  private claim(name: string): void {
    if (!name) throw new SvcError("SVC_KIT_HOOK_NAME_TAKEN", "resource hook name cannot be empty");
    if (this.hooks.has(name) || this.errorHooks.has(name)) throw new SvcError("SVC_KIT_HOOK_NAME_TAKEN", `resource hook already registered for name "${name}"`);
  }

  /** Runs the hooks `binding` names for `type`, in order; rejects with the engine's words when one fails. */
  async run(binding: HookBinding | undefined, type: HookType, preview: boolean, args: HookArgs): Promise<void> {
    for (const name of binding?.[type] ?? []) {
      const hook = this.hooks.get(name);
      if (!hook) throw new SvcError("SVC_KIT_HOOK_FAILED", `hook "${name}" was not registered`);
      if (preview && !hook.onDryRun) continue;
      const error = await hook.call(args);
      if (error === undefined) continue;
      if (hook.ignoreErrors) {
        this.warnings.push(`${type[0].toUpperCase()}${type.slice(1)} hook "${name}" failed: ${error}`);
        continue;
      }
      throw new SvcError("SVC_KIT_HOOK_FAILED", `${type.startsWith("before") ? "before" : "after"} hook "${name}" failed: ${error}`);
    }
  }

  /**
   * Tells the error hooks of a failed operation its failures; resolves with whether any asks for a
   * retry (Deployment.RunErrorHooks). Rejects, in the engine's words, when one is not registered or fails.
   */
  async shouldRetry(names: readonly string[], args: ErrorHookArgs): Promise<boolean> {
    let retry = false;
    for (const name of names) {
      const hook = this.errorHooks.get(name);
      if (!hook) throw new SvcError("SVC_KIT_HOOK_FAILED", `error hooks execution failed: error hook "${name}" was not registered`);
      const answer = await hook.call(args);
      if (answer.error !== undefined) throw new SvcError("SVC_KIT_HOOK_FAILED", `error hooks execution failed: error hook "${name}" failed: ${answer.error}`);
      retry ||= answer.retry;
    }
    return retry;
  }
}

/** The binding with only the kinds of hook that name any hook, or undefined when none does. */
export function hookBinding(lists: Record<HookType | "onError", string[]>): HookBinding | undefined {
  const binding: HookBinding = {};
  for (const type of [...HOOK_TYPES, "onError"] as const) if (lists[type].length > 0) binding[type] = [...lists[type]];
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
    const { words, code } = wordsAndCode(e, "SVC_KIT_HOOK_FAILED");
    throw new EngineError(ref, type, words, code);
  }
}

/**
 * A custom resource's create, update or delete with its error hooks, as step.go runs it: after each
 * failure the hooks are told every failure so far, newest first, and the provider is called again
 * when one asks. The step fails with the operation's error when none asks, with the hook's when a
 * hook fails (a delete keeps its own error, as in the engine), and with the engine's limit once
 * MAX_ERROR_HOOK_RETRIES attempts have failed. `attempt` fails with an EngineError.
 */
export async function withErrorHooks<T>(
  hooks: HookRegistry,
  ref: ResourceRef,
  binding: HookBinding | undefined,
  operation: FailedOperation,
  args: Omit<ErrorHookArgs, "urn" | "name" | "type" | "failedOperation" | "errors">,
  attempt: () => Promise<T>,
): Promise<T> {
  const names = binding?.onError ?? [];
  const failures: string[] = [];
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      if (names.length === 0 || !(e instanceof EngineError)) throw e;
      failures.unshift(e.providerMessage);
      if (failures.length >= MAX_ERROR_HOOK_RETRIES) {
        hooks.warnings.push(`maximum number of error hook retries (${MAX_ERROR_HOOK_RETRIES}) reached`);
        throw new EngineError(ref, operation, "maximum number of error hook retries reached", "SVC_KIT_HOOK_RETRIES_EXHAUSTED");
      }
      let retry: boolean;
      try {
        retry = await hooks.shouldRetry(names, { ...args, urn: ref.urn, name: ref.name, type: ref.type, failedOperation: operation, errors: [...failures] });
      } catch (hookError) {
        if (operation === "delete") throw e;
        const { words, code } = wordsAndCode(hookError, "SVC_KIT_HOOK_FAILED");
        throw new EngineError(ref, operation, words, code);
      }
      if (!retry) throw e;
      hooks.warnings.push(`retrying ${operation} due to on-error hook request (${failures.length}/${MAX_ERROR_HOOK_RETRIES})`);
    }
  }
}
