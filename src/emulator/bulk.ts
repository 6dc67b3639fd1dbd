/**
 * Bulk operations: one operation per item, a result per item, and one answer for the request. Every
 * bulk endpoint answers through `multiStatus`:
 * - every item succeeded: the endpoint's success status (`okStatus`), without a body (or with the
 *   results, where the area says so);
 * - some failed: 207 with `{ results: [{ name, http_status_code, message? }] }`, one per item in
 *   request order; the items that succeeded stay applied;
 * - every item failed: as the area decides (`allFailed`): `"reject"` answers the first failure's
 *   error with every failure's messages (nothing is applied), `"report"` answers 207 as above.
 */
import { ApiError } from "../api/errors";
import type { Reply } from "./handler";

/** One item's result as the 207 body lists it. */
export interface ItemResult {
  name: string;
  http_status_code: number;
  message?: string[];
}

/** An item's result, with the error that failed it. */
export interface ItemOutcome extends ItemResult {
  error?: ApiError;
}

/** The result of an item that failed with `err`. */
export const failure = (name: string, err: ApiError): ItemOutcome => ({ name, http_status_code: err.status, message: err.messages, error: err });

/** Runs one item's operation: its success status, or the API error it raised (other errors propagate). */
export function attempt(name: string, okStatus: number, op: () => void): ItemOutcome {
  try {
    op();
    return { name, http_status_code: okStatus };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return failure(name, err);
  }
}

export interface MultiStatusOptions {
  /** The status of an item that succeeded, and of the answer when all did. */
  okStatus: number;
  /** What a request whose every item failed answers (see the top of this file). */
  allFailed: "reject" | "report";
  /** The answer of an all-successful request carries the results too. */
  resultsOnSuccess?: boolean;
}

/** The answer of a bulk request from its items' outcomes. */
export function multiStatus(outcomes: ItemOutcome[], options: MultiStatusOptions): Reply {
  const results: ItemResult[] = outcomes.map(({ name, http_status_code, message }) => ({ name, http_status_code, ...(message ? { message } : {}) }));
  const failures = outcomes.filter((o) => o.http_status_code !== options.okStatus);
  if (failures.length === 0) return options.resultsOnSuccess ? { status: options.okStatus, body: { results } } : { status: options.okStatus };
  if (failures.length === outcomes.length && options.allFailed === "reject") {
    const first = failures[0].error;
    const messages = failures.flatMap((f) => f.message ?? []);
    if (first) throw first.withMessages(messages);
  }
  return { status: 207, body: { results } };
}

/** Runs `op` for each item (named by `nameOf`) and answers as `multiStatus` says. */
export function runBulk<T>(items: readonly T[], nameOf: (item: T) => string, op: (item: T) => void, options: MultiStatusOptions): Reply {
  return multiStatus(
    items.map((item) => attempt(nameOf(item), options.okStatus, () => op(item))),
    options,
  );
}
