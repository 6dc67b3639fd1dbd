/** Addresses of the API's operations, rendered from the endpoint table's paths. */
import type { AnyEndpoint } from "../api/endpoint";

/** The root every API path (except the OIDC token endpoint's) lives under. */
export const API_PREFIX = "/api/v4";

/** The path as the router serves it: under API_PREFIX, or absolute for the OIDC endpoints. */
export const servedPath = (ep: AnyEndpoint): string => (ep.path.startsWith("/auth/realms/") ? ep.path : API_PREFIX + ep.path);

/**
 * The served path of `ep` with its `{param}` placeholders filled in from `params`, each value
 * percent-encoded in full (so that '/', '?' and '#' inside a name stay inside its segment).
 */
export function pathOf(ep: AnyEndpoint, params: Record<string, string> = {}): string {
  return servedPath(ep).replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${ep.id}: no value for the path parameter '${name}'`);
    return encodeURIComponent(value);
  });
}

/** How a message names an operation: `POST /assets/types/create`. */
export const operationName = (ep: AnyEndpoint): string => `${ep.method} ${ep.path}`;
