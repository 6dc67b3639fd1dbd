/**
 * Walks every page of a list endpoint, one page in memory at a time, for both conventions:
 * Part 1 (pagination_type cursor: repeat with next=<next_page>) and the Part 2 inventory lists
 * (starting_after=<next_page>). Both stop when `data` is empty or next_page is null. For POST lists
 * the body is repeated as is and the paging stays in the query. Part 1's `limits` and `stream`
 * shapes are not walked: the table declares the cursor shape, and cursors stay correct while
 * records are added or removed between pages.
 */
import type { AnyEndpoint } from "../api/endpoint";
import type { RawInput } from "./encode";

/** Part 1 lists allow up to 10000 per page; 1000 keeps a page's memory and latency modest. */
export const PART1_PAGE_SIZE = 1000;
/** Inventory lists allow 1..1000. */
export const INVENTORY_PAGE_SIZE = 100;

interface Page {
  data?: unknown[];
  pagination?: { next_page?: string | null };
}

export type PageFetcher = (query: Record<string, unknown>) => Promise<unknown>;

function asPage(endpointId: string, value: unknown): Page {
  const page = value as Page;
  if (!page || typeof page !== "object" || !Array.isArray(page.data)) {
    throw new TypeError(`${endpointId}: a list answer without a data array cannot be paged`);
  }
  return page;
}

/** The query of the first page: the caller's, with the convention's defaults added. */
export function firstPageQuery(ep: AnyEndpoint, input: RawInput): Record<string, unknown> {
  const q = { ...((input.query ?? {}) as Record<string, unknown>) };
  if (ep.list === "part1") {
    q.pagination_type ??= "cursor";
    if (q.pagination_type !== "cursor") {
      throw new TypeError(`${ep.id}: paginate walks cursor pages; call the endpoint with call() for pagination_type ${String(q.pagination_type)}`);
    }
    q.page_size ??= PART1_PAGE_SIZE;
    delete q.next;
  } else {
    q.page_size ??= INVENTORY_PAGE_SIZE;
    delete q.starting_after;
  }
  return q;
}

/** The query of the page after `page`, or undefined when `page` was the last. */
export function nextPageQuery(ep: AnyEndpoint, query: Record<string, unknown>, page: Page): Record<string, unknown> | undefined {
  if (!page.data || page.data.length === 0) return undefined;
  const p = page.pagination ?? {};
  if (typeof p.next_page !== "string" || p.next_page === "") return undefined;
  const key = ep.list === "part1" ? "next" : "starting_after";
  if (query[key] === p.next_page) {
    throw new Error(`${ep.id}: the server answered the same next_page twice; stopping instead of looping`);
  }
  return { ...query, [key]: p.next_page };
}

export async function* walkPages(ep: AnyEndpoint, input: RawInput, fetchPage: PageFetcher): AsyncGenerator<unknown, void, undefined> {
  if (!ep.list) throw new TypeError(`${ep.id} is not a list endpoint; paginate needs one (an endpoint with a list convention)`);
  let query: Record<string, unknown> | undefined = firstPageQuery(ep, input);
  while (query) {
    const page = asPage(ep.id, await fetchPage(query));
    // Only this page is held; the previous one is free once `page` is replaced.
    for (const item of page.data!) yield item;
    query = nextPageQuery(ep, query, page);
  }
}
