/**
 * After a create failed without a clear answer, a read tells whether it was applied. The read is
 * derived from the table: `<area>.<x>Create` pairs with `<area>.<x>Get` when the get answers the
 * same record schema and addresses the record by the create body's `name` in exactly one path
 * parameter (the others, if any, taken from the create's own path). Where no such pair exists the
 * client cannot tell, and says so instead of repeating the create.
 */
import { pathParamNames, type AnyEndpoint } from "../api/endpoint";
import { endpoints } from "../api/endpoints";
import type { RawInput } from "./encode";

export interface DerivedRead {
  endpoint: AnyEndpoint;
  input: RawInput;
}

const byId = (): Map<string, AnyEndpoint> => new Map(endpoints.map((e) => [e.id, e]));
let index: Map<string, AnyEndpoint> | undefined;

/** The get operation's id for a create or deploy operation id: `clusters.create` → `clusters.get`. */
export function readIdFor(createId: string): string | undefined {
  const m = /^(.+)\.(.*?)(create|Create|deploy|Deploy)$/.exec(createId);
  if (!m) return undefined;
  const [, area, prefix, verb] = m;
  return `${area}.${prefix}${verb[0] === verb[0].toUpperCase() ? "Get" : "get"}`;
}

export function deriveRead(ep: AnyEndpoint, input: RawInput): DerivedRead | undefined {
  const readId = readIdFor(ep.id);
  if (!readId) return undefined;
  index ??= byId();
  const read = index.get(readId);
  if (!read || read.method !== "GET" || read.list) return undefined;
  // Only a read that answers the very record the create answers proves the create happened.
  if (!read.success.body || read.success.body !== ep.success.body) return undefined;
  const name = (input.body as { name?: unknown } | undefined)?.name;
  if (typeof name !== "string" || name === "") return undefined;
  const own = (input.params ?? {}) as Record<string, unknown>;
  const params: Record<string, unknown> = {};
  const unfilled: string[] = [];
  for (const p of pathParamNames(read.path)) {
    if (own[p] !== undefined) params[p] = own[p];
    else unfilled.push(p);
  }
  if (unfilled.length !== 1) return undefined;
  params[unfilled[0]] = name;
  return { endpoint: read, input: { params } };
}
