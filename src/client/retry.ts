/**
 * When to repeat a request and how long to wait: exponential backoff with full jitter, Retry-After
 * honoured, and the line (declared in the endpoint table) between operations that are safe to repeat
 * and those that are not (creates, and actions the platform refuses to repeat).
 */
import type { AnyEndpoint } from "../api/endpoint";
import type { RetryOptions } from "./config";

/** Statuses that mean "try again later". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * A 429 means the server turned the request away unprocessed; a 502/503/504 may come from a
 * gateway after the request reached the API, so a create behind it may have been applied.
 */
export const isAmbiguousStatus = (status: number): boolean => status === 502 || status === 503 || status === 504;

/**
 * Whether an operation makes a new thing each time it runs, so that repeating one that may have been
 * applied could make a second thing or fail with 409. The endpoint table declares it (`effect`).
 */
export function isCreate(ep: AnyEndpoint): boolean {
  return ep.effect === "create";
}

/**
 * Whether a call that failed without a clear answer must be confirmed before it is repeated: creates,
 * and actions the platform refuses to repeat once they took effect (enabling a workload that is no
 * longer pending answers 409), which their rows mark with a `confirm`. Everything else (reads,
 * updates, deletes, other actions) converges and is repeated.
 */
export function confirmsBeforeRepeat(ep: AnyEndpoint): boolean {
  return isCreate(ep) || (ep.effect === "action" && ep.confirm !== undefined);
}

/** Milliseconds to wait from a Retry-After value (delta seconds or an HTTP date); undefined if absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  const trimmed = v.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Full jitter: a uniform wait between 0 and the capped exponential bound for this attempt (1-based). */
export function backoffDelay(attempt: number, policy: Required<RetryOptions>, random: () => number = Math.random): number {
  const bound = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * bound);
}

export class AbortedError extends Error {
  constructor() {
    super("aborted by the caller");
    this.name = "AbortError";
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
