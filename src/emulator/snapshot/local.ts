/**
 * Reads the emulator's records through its own read operations, in process, as the system identity:
 * the same validation, handlers and answer schemas as over HTTP, without the network, a token or
 * fault injection. The snapshot admin endpoint (GET /emulator/snapshot) reads the inventory with it,
 * as `svc-emulator snapshot` reads a platform through the client.
 */
import type { AnyEndpoint } from "../../api/endpoint";
import { encodeQuery, type RawInput } from "../../client/encode";
import { walkPages } from "../../client/pagination";
import { withPageSize, type PlantSource } from "./source";
import type { Auth } from "../areas/auth/model";
import { allRoutes } from "../areas";
import { isReply, systemContext, type Route } from "../handler";
import type { Store } from "../store/store";
import { issuesToMessages, parseOrThrow, queryObject } from "../validate";

export interface LocalEnvironment {
  store: Store;
  auth: Auth;
  baseUrl: string;
  clock: () => number;
}

/** Runs one read operation of the table and returns its answer as a client would get it (JSON, checked). */
export async function localRead(env: LocalEnvironment, routes: Map<string, Route>, ep: AnyEndpoint, input: RawInput = {}): Promise<unknown> {
  if (ep.mutates) throw new TypeError(`${ep.id} changes data; only read operations run locally`);
  const route = routes.get(ep.id);
  if (!route) throw new Error(`${ep.method} ${ep.path} is not implemented by the emulator`);
  const params = ep.params ? parseOrThrow(ep.params, input.params ?? {}, "path") : {};
  const query = ep.query ? parseOrThrow(ep.query, queryObject(new URLSearchParams(encodeQuery(input.query).slice(1)), ep.query), "query") : {};
  const body = ep.body && input.body !== undefined ? parseOrThrow(ep.body, JSON.parse(JSON.stringify(input.body)), "body") : undefined;
  const ctx = systemContext({ params, query, body }, env, env.clock());

  const { result, changes } = env.store.transaction(() => route.handler(ctx));
  // A read changes nothing, but whatever it did change is made durable like any other change.
  if (changes.length > 0) await env.store.publish(changes);
  let answer = result;
  if (isReply(result)) {
    if (result.status >= 300) throw new Error(`${ep.method} ${ep.path} answered ${result.status}: ${JSON.stringify(result.body ?? "").slice(0, 300)}`);
    answer = result.raw !== undefined ? result.raw.toString() : result.body;
  }
  if (ep.success.kind !== "json" || !ep.success.body || answer === undefined) return answer;
  // Through JSON and the answer's schema, as the client reads it: the same values, transforms applied.
  const parsed = ep.success.body.safeParse(JSON.parse(JSON.stringify(answer)));
  if (!parsed.success) throw new Error(`${ep.id}: the answer does not match its schema: ${issuesToMessages("answer", parsed.error).join("; ")}`);
  return parsed.data;
}

/** A snapshot's source reading the emulator in process: every list page by page, as `clientSource` does over HTTP. */
export function localSource(env: LocalEnvironment): PlantSource {
  const routes = new Map<string, Route>(allRoutes().map((r) => [r.endpoint.id, r]));
  return {
    list: (ep, input) => walkPages(ep, withPageSize(input), (query) => localRead(env, routes, ep, { ...input, query })),
    get: (ep, input) => localRead(env, routes, ep, input),
  };
}
