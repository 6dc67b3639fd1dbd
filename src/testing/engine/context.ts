/** What every engine operation shares: the provider connection, the state, the limit, the secrets to hide. */
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

/** A provider operation that failed, named after the resource and the operation. */
export class EngineError extends Error {
  constructor(
    readonly resource: ResourceRef,
    readonly operation: string,
    readonly providerMessage: string,
  ) {
    super(`${operation} of ${resource.type} "${resource.name}" failed: ${providerMessage}`);
    this.name = "EngineError";
  }
}

/** The answer to a registration that arrives after the run failed: the engine no longer starts steps. */
export class CancelledError extends Error {
  constructor(what: string) {
    super(`${what} was not processed because the run had already failed`);
    this.name = "CancelledError";
  }
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

/** Runs a provider call for a resource, turning a provider failure into an EngineError with secrets hidden. */
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
