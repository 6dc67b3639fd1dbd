/**
 * Tests assert the code of an error of the catalog (src/errors/, docs/errors.md), not its wording: the
 * wording may improve; the code is what users and programs test. At most a test checks that the
 * message names the resource, the field or the value.
 */

/**
 * The catalog code of `err`: its `code` when it has one of the catalog's (an SvcError of the sources
 * or of the built package), else the first `[SVC_...]` its message (a run's, whose provider answered
 * across the host) carries.
 */
export function codeOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; providerMessage?: unknown; message?: unknown } | undefined;
  if (typeof e?.code === "string" && /^SVC_[A-Z0-9_]+$/.test(e.code)) return e.code;
  const text = typeof e?.providerMessage === "string" ? e.providerMessage : typeof e?.message === "string" ? e.message : String(err);
  return /\[(SVC_[A-Z0-9_]+)\]/.exec(text)?.[1];
}

/** The error `run` throws (failing when it throws none), for its code and what its message names. */
export function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error, but none was thrown");
}

/** The error `promise` rejects with (failing when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a rejection, but the promise resolved");
    },
    (e: unknown) => e as Error,
  );
}
