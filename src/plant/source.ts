/**
 * Where a snapshot reads from: a list operation's items and a get operation's answer. A snapshot
 * reads through the typed client (`clientSource`); the parity check reads the same operations
 * from two servers at once (parity.ts).
 */
import type { AnyEndpoint } from "../api/endpoint";
import type { SvcClient } from "../client";
import type { RawInput } from "../client/encode";

export interface PlantSource {
  /** Every item of a list operation, fetched page by page as the iteration proceeds. */
  list(ep: AnyEndpoint, input?: RawInput): AsyncIterable<unknown>;
  /** The answer of one (read-only) operation. */
  get(ep: AnyEndpoint, input?: RawInput): Promise<unknown>;
}

/** Largest page of the inventory lists, and the page size used for the Part 1 lists. */
export const SNAPSHOT_PAGE_SIZE = 1000;

/** The first page's query with the page size set, unless the caller set one. */
export function withPageSize(input: RawInput | undefined, pageSize = SNAPSHOT_PAGE_SIZE): RawInput {
  const query = { ...((input?.query ?? {}) as Record<string, unknown>) };
  query.page_size ??= pageSize;
  return { ...input, query };
}

/**
 * Reads through the typed client: `client.paginate` for every list (both pagination conventions,
 * one page in memory at a time), `client.call` for the rest; answers checked against the table's
 * schemas, 429s and transient failures retried by the client.
 */
export function clientSource(client: SvcClient, pageSize = SNAPSHOT_PAGE_SIZE): PlantSource {
  return {
    list: (ep, input) => client.paginate(ep, withPageSize(input, pageSize) as never),
    get: (ep, input) => client.call(ep, (input ?? {}) as never),
  };
}
