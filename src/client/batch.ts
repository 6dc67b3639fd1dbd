/**
 * Reads of single records, coalesced as a DataLoader does: the gets of one kind asked for in the same
 * turn of the event loop go out as one call of the kind's list operation with a `names` filter (up to
 * 1,000 names a call, pages of up to 1,000), and each caller gets its own record, whatever order the
 * list answers in.
 *
 * - A name the list does not return gets the error its get would have given: SvcApiError, status
 *   404, the get's endpoint, method and path.
 * - A failed list call (an error answer, no answer, a bad page) fails every read it covered, each
 *   with that error.
 * - A read alone in its turn is sent as the get itself, so a single read costs and answers exactly
 *   what it did before; so is a name the list's filter cannot take (not a valid name), so that it
 *   fails as its get would.
 *
 * The provider's refresh reads up to `parallel` resources at a time: their reads arrive together and
 * leave as one list call instead of one get each.
 */
import { assets } from "../api/assets";
import { name as nameSchema } from "../api/common";
import type { AnyEndpoint } from "../api/endpoint";
import { SvcApiError } from "./errors";
import type { SvcClient } from "./index";
import type { CallOutput, ListItem } from "./types";

/** How one kind's reads are coalesced. */
export interface BatchedReadSpec<G extends AnyEndpoint, L extends AnyEndpoint> {
  /** The get a read stands for (`GET /assets/{asset_name}/get`). */
  get: G;
  /** Its input for one name. */
  getInput(name: string): { params: Record<string, string> };
  /** A list operation taking `{ names }` in its body and paging in the query (`POST /assets/list`). */
  list: L;
  /** The name of a record the list answers. */
  nameOf(item: ListItem<L>): string;
  /** What the record is called in messages (`asset`). */
  noun: string;
}

/** Names per list call: the API's limit for a `names` filter and for a page. */
export const MAX_NAMES_PER_CALL = 1000;

interface Waiter<R> {
  resolve(record: R): void;
  reject(error: unknown): void;
}

const validName = (n: string) => nameSchema(64).safeParse(n).success;

class Batcher<G extends AnyEndpoint, L extends AnyEndpoint> {
  private queued = new Map<string, Array<Waiter<CallOutput<G>>>>();
  private scheduled = false;

  constructor(
    private readonly client: SvcClient,
    private readonly spec: BatchedReadSpec<G, L>,
  ) {}

  load(name: string): Promise<CallOutput<G>> {
    return new Promise((resolve, reject) => {
      const waiters = this.queued.get(name);
      if (waiters) waiters.push({ resolve, reject });
      else this.queued.set(name, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        // After the reads that arrive in this turn of the event loop (each I/O callback of it) are queued.
        setImmediate(() => this.dispatch());
      }
    });
  }

  private dispatch(): void {
    this.scheduled = false;
    const queued = this.queued;
    this.queued = new Map();
    const listed: string[] = [];
    for (const name of queued.keys()) {
      if (queued.size > 1 && validName(name)) listed.push(name);
      else void this.readOne(name, queued.get(name)!);
    }
    for (let i = 0; i < listed.length; i += MAX_NAMES_PER_CALL) void this.readMany(listed.slice(i, i + MAX_NAMES_PER_CALL), queued);
  }

  private async readOne(name: string, waiters: Array<Waiter<CallOutput<G>>>): Promise<void> {
    try {
      const record = await this.client.call(this.spec.get, this.spec.getInput(name) as never);
      for (const w of waiters) w.resolve(record);
    } catch (err) {
      for (const w of waiters) w.reject(err);
    }
  }

  private async readMany(names: string[], queued: Map<string, Array<Waiter<CallOutput<G>>>>): Promise<void> {
    const found = new Map<string, ListItem<L>>();
    try {
      const wanted = new Set(names);
      const items = this.client.paginate(this.spec.list, { body: { names }, query: { page_size: MAX_NAMES_PER_CALL } } as never);
      for await (const item of items) {
        const n = this.spec.nameOf(item);
        if (wanted.has(n)) found.set(n, item);
      }
    } catch (err) {
      for (const n of names) for (const w of queued.get(n)!) w.reject(err);
      return;
    }
    for (const n of names) {
      const record = found.get(n);
      for (const w of queued.get(n)!) {
        if (record !== undefined) w.resolve(record as unknown as CallOutput<G>);
        else w.reject(this.notFound(n));
      }
    }
  }

  /** The error the get of `name` answers when the record does not exist. */
  private notFound(name: string): SvcApiError {
    const { get, list, noun } = this.spec;
    const { params } = this.spec.getInput(name);
    const path = get.path.replace(/\{([a-z_]+)\}/g, (_, key: string) => encodeURIComponent(params[key] ?? ""));
    return new SvcApiError({
      status: 404,
      method: get.method,
      path,
      retryable: false,
      detail: `${noun} '${name}' not found (read with ${list.method} ${list.path} by name, which did not return it)`,
      endpointId: get.id,
    });
  }
}

/**
 * A coalescing reader of one kind: `read(client, name)` resolves with the record as the get answers
 * it, or fails as the get would. Reads are coalesced per client (a client view is a client of its own).
 */
export function batchedReader<G extends AnyEndpoint, L extends AnyEndpoint>(spec: BatchedReadSpec<G, L>): (client: SvcClient, name: string) => Promise<CallOutput<G>> {
  const batchers = new WeakMap<SvcClient, Batcher<G, L>>();
  return (client, name) => {
    let b = batchers.get(client);
    if (!b) {
      b = new Batcher(client, spec);
      batchers.set(client, b);
    }
    return b.load(name);
  };
}

/** An asset as `GET /assets/{asset_name}/get` answers it, read together with the other assets read in the same turn (`POST /assets/list` with `names`). */
export const readAsset = batchedReader({
  get: assets.get,
  getInput: (name) => ({ params: { asset_name: name } }),
  list: assets.filter,
  nameOf: (a) => a.name,
  noun: "asset",
});

/** An asset type as `GET /assets/types/{asset_type_name}/get` answers it, read together with the other types read in the same turn (`POST /assets/types/list` with `names`). */
export const readAssetType = batchedReader({
  get: assets.typeGet,
  getInput: (name) => ({ params: { asset_type_name: name } }),
  list: assets.typeFilter,
  nameOf: (t) => t.name,
  noun: "asset type",
});
