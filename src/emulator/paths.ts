/** Addresses of the API's operations, rendered from the endpoint table's paths. */
import { fillPath, isOutsideApiRoot, type AnyEndpoint } from "../api/endpoint";

/** The root every API path (except the `root` rows': the OIDC endpoints, the metadata document) lives under. */
export const API_PREFIX = "/api/v4";

/**
 * The path as the router serves it: under API_PREFIX, or at the root for `root` rows. With
 * `params`, the `{param}` placeholders are filled from them (see fillPath: each value percent-encoded
 * in full); without, the template is answered as is.
 */
export function servedPath(ep: AnyEndpoint, params?: Record<string, string>): string {
  const path = params === undefined ? ep.path : fillPath(ep, params);
  return isOutsideApiRoot(ep) ? path : API_PREFIX + path;
}

/** How a message names an operation: `POST /assets/types/create`. */
export const operationName = (ep: AnyEndpoint): string => `${ep.method} ${ep.path}`;
