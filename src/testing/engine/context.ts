/** What every engine operation shares: the provider connection, the state, the limit, the secrets to hide. */
import { SvcError, type ErrorCode } from "../../errors";
import { ProviderError, type ProviderClient, type ResourceRef } from "./grpc";
import type { Semaphore } from "./scheduler";
import type { ResourceState, StateStore } from "./state";
import { isObject, isSecret, protectSecretTexts, type PropertyMap, type PropertyValue } from "./values";

export interface EngineContext {
  client: ProviderClient;
  state: StateStore;
  semaphore: Semaphore;
  project: string;
  stack: string;
  redactor: Redactor;
  /** Every object this stack created or adopted (by URN and id), for the check that destroy removed them. */
  ledger: Map<string, ResourceState>;
  /** Why the provider host is gone, with its last output, when it is; undefined while it runs. */
  hostProblem(): string | undefined;
  /**
   * What destroying each of `entries` does on the platform: the engine knows no kinds, the kit's
   * answer comes from the provider's declarations (../effects.ts).
   */
  destroyEffects(entries: readonly ResourceState[]): Promise<(entry: ResourceState) => DestroyEffect>;
}

/** What a delete does to its object: deletes it, releases it (it stays and leaves the stack), or resets it to its defaults. */
export type DestroyEffect = "delete" | "release" | "reset";

/**
 * A step of a resource that failed, named after the resource and the operation. `providerMessage` is
 * what failed underneath, in its own words (the provider's, a hook's, or the engine's refusal), which
 * the error hooks are told and a run's failures are grouped by; `code` is the catalog's entry, a
 * provider call's failure unless the engine refused the step itself.
 */
export class EngineError extends SvcError {
  constructor(
    readonly resource: ResourceRef,
    readonly operation: string,
    readonly providerMessage: string,
    code: ErrorCode = "SVC_KIT_PROVIDER_FAILED",
  ) {
    super(code, `${operation} of ${resource.type} "${resource.name}" failed: ${providerMessage}`);
    this.name = "EngineError";
  }
}

/** The answer to a registration that arrives after the run failed: the engine no longer starts steps. */
export class CancelledError extends SvcError {
  constructor(what: string) {
    super("SVC_KIT_RUN_STOPPED", `${what} was not processed because the run had already failed`);
    this.name = "CancelledError";
  }
}

/** An error's words without its catalog code, and its code (`fallback` for an error outside the catalog). */
export function wordsAndCode(e: unknown, fallback: ErrorCode): { words: string; code: ErrorCode } {
  if (e instanceof SvcError) return { words: e.detail, code: e.code };
  return { words: e instanceof Error ? e.message : String(e), code: fallback };
}

/**
 * Keeps secret values out of messages and reports, and out of the state file when a provider echoes
 * secret configuration back without marking it.
 */
export class Redactor {
  private readonly texts = new Set<string>();

  constructor(private readonly configSecrets: readonly string[]) {
    for (const t of configSecrets) this.add(t);
  }

  /** Remembers the plaintext of every secret inside a value, so messages can hide it. */
  learn(v: PropertyValue, insideSecret = false): void {
    if (typeof v === "string") {
      if (insideSecret) this.add(v);
    } else if (isSecret(v)) {
      this.learn(v.value ?? null, true);
    } else if (Array.isArray(v)) {
      for (const x of v) this.learn(x, insideSecret);
    } else if (isObject(v)) {
      for (const x of Object.values(v)) this.learn(x, insideSecret);
    }
  }

  private add(text: string): void {
    // Very short strings would mask unrelated text; they are no secret worth hiding in a message anyway.
    if (text.length >= 4) this.texts.add(text);
  }

  mask(message: string): string {
    let out = message;
    for (const t of this.texts) out = out.split(t).join("[secret]");
    return out;
  }

  /** Marks as secret any string carrying secret configuration. */
  protect(m: PropertyMap): PropertyMap {
    return protectSecretTexts(m, this.configSecrets) as PropertyMap;
  }
}

/**
 * Runs a provider call for a resource, turning a provider failure into an EngineError with secrets
 * hidden. The provider's error is not kept as the cause: its words may hold a secret the message masks.
 */
export async function providerStep<T>(ctx: EngineContext, ref: ResourceRef, operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof EngineError) throw e;
    const message = e instanceof ProviderError || e instanceof Error ? e.message : String(e);
    const host = ctx.hostProblem();
    throw new EngineError(ref, operation, ctx.redactor.mask(host ? `${message} (${host})` : message));
  }
}
