/**
 * Where a snapshot reads from: a list operation's items and a get operation's answer. A platform's
 * snapshot reads through the typed client (src/plant/snapshot.ts), the emulator's own through its
 * handlers in process (local.ts); the parity check reads the same operations from two servers at
 * once (src/plant/parity.ts).
 */
import type { AnyEndpoint } from "../../api/endpoint";
import type { RawInput } from "../../client/encode";

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
