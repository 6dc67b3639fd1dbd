/**
 * The stages a request to the API passes, in order: parse, guard (server.ts: extra routes and
 * faults), route, authenticate, read the body, validate, transact, publish (server.ts), reply. Each
 * is a small function of what the stage before it produced; a stage refuses a request by throwing an
 * ApiError (or a Refusal, when the answer needs headers of its own), which the server answers.
 */
import { randomUUID } from "node:crypto";
import * as http from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import findMyWay from "find-my-way";
import { z } from "zod";
import type { AnyEndpoint } from "../api/endpoint";
import { type ApiError, errors } from "../api/errors";
import { holds, SYSTEM_IDENTITY, type Auth, type Identity } from "./areas/auth/model";
import { appendAudit } from "./audit";
import { BodyTooLarge, MAX_BODY_DEPTH, bodyLimit, decodeBody, nestedDeeperThan, readBody } from "./body";
import { RolledBack, isReply, type HandlerContext, type Reply, type Route, type UploadedFile } from "./handler";
import { API_PREFIX, servedPath } from "./paths";
import type { Change, Store } from "./store/store";
import { parseOrThrow, queryObject, withoutNulls } from "./validate";

/** An ApiError answered with headers of its own (`allow` on a 405, `connection: close` on a 413). */
export class Refusal extends Error {
  constructor(
    readonly error: ApiError,
    readonly headers: Record<string, string>,
  ) {
    super(error.message);
    this.name = "Refusal";
  }
}

// ---- parse ------------------------------------------------------------------------------------------

/** What the parse stage knows of a request: its id, its URL, its path and its method. */
export interface ParsedRequest {
  requestId: string;
  url: URL;
  path: string;
  method: string;
}

/** The caller's `x-request-id` when it is a plain token of at most 128 characters, else a new one. */
export function requestIdOf(req: Pick<IncomingMessage, "headers">): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
}

/** A `.` or `..` segment of a request target's path (percent-encoded dots included), as sent; undefined when there is none. */
export function dotSegment(target: string): string | undefined {
  const path = target.split(/[?#]/, 1)[0];
  return path.split("/").find((seg) => /^(\.|%2e){1,2}$/i.test(seg));
}

/**
 * Parses the request target. The URL parser folds '.' and '..' segments away, which would route the
 * request to another operation (GET .../metadata/../get reads the ACP itself): such a segment is refused.
 */
export function parseRequest(req: Pick<IncomingMessage, "headers" | "url" | "method">, requestId: string): ParsedRequest {
  const target = req.url ?? "/";
  let url: URL;
  try {
    url = new URL(target, "http://emulator");
  } catch {
    throw errors.BAD_REQUEST("malformed request URL");
  }
  const dot = dotSegment(target);
  if (dot !== undefined) {
    throw errors.BAD_REQUEST(
      `path: the segment '${dot}' cannot name anything (URLs fold '.' and '..' away, so the request would reach another operation); percent-encoding does not change that`,
    );
  }
  return { requestId, url, path: url.pathname, method: (req.method ?? "GET").toUpperCase() };
}

// ---- route ------------------------------------------------------------------------------------------

/** Where the route stage sends a request: the OpenAPI document, or an endpoint's route with its path values. */
export type Routed = { kind: "openapi" } | { kind: "endpoint"; route: Route; pathValues: Record<string, string | undefined> };

/** The API's router: every endpoint of the table, the ones without a handler answering 501. */
export interface ApiRouter {
  find(method: string, path: string): Routed;
}

const OPENAPI_ID = "openapi";

/** A route for an endpoint no area handles: it answers 501 (the coverage test keeps there being none). */
const notImplemented = (endpoint: AnyEndpoint): Route => ({
  endpoint,
  handler: () => {
    throw errors.NOT_IMPLEMENTED(`${endpoint.method} ${endpoint.path} is not implemented by the emulator`);
  },
});

/** Builds the router over the endpoint table and the areas' routes. */
export function apiRouter(table: readonly AnyEndpoint[], routes: readonly Route[]): ApiRouter {
  const router = findMyWay({ ignoreTrailingSlash: true, maxParamLength: 1024 });
  const byId = new Map<string, Route>(routes.map((r) => [r.endpoint.id, r]));
  for (const ep of table) {
    if (!byId.has(ep.id)) byId.set(ep.id, notImplemented(ep));
    router.on(ep.method, servedPath(ep).replace(/\{([a-z_]+)\}/g, ":$1"), () => undefined, { id: ep.id });
  }
  router.on("GET", `${API_PREFIX}/openapi.json`, () => undefined, { id: OPENAPI_ID });
  const methodsOn = (path: string): string[] => (["GET", "POST"] as const).filter((m) => router.find(m, path) !== null);

  return {
    find(method, path) {
      const found = method === "GET" || method === "POST" ? router.find(method, path) : null;
      if (!found) {
        const allowed = methodsOn(path);
        if (allowed.length === 0) throw errors.ROUTE_NOT_FOUND(method, path, API_PREFIX);
        throw new Refusal(errors.METHOD_NOT_ALLOWED(`${method} is not allowed on ${path}; use ${allowed.join(" or ")}`), { allow: allowed.join(", ") });
      }
      const id = (found.store as { id: string }).id;
      if (id === OPENAPI_ID) return { kind: "openapi" };
      return { kind: "endpoint", route: byId.get(id)!, pathValues: { ...found.params } };
    },
  };
}

// ---- authenticate -----------------------------------------------------------------------------------

/**
 * Who makes the request, checked against the permission the endpoint requires. It runs before the
 * body is read: an unauthenticated caller learns nothing about validation. Signed download links
 * authenticate by their signature instead of a token.
 */
export function authenticate(auth: Auth, ep: AnyEndpoint, req: Pick<IncomingMessage, "headers">, url: URL): Identity {
  if (ep.permission === null) return SYSTEM_IDENTITY;
  const identity =
    ep.signedLinks && url.searchParams.has("signature") ? auth.linkIdentity(url.pathname, url.searchParams, ep.permission) : auth.authenticate(req.headers.authorization);
  if (!holds(identity, ep.permission)) {
    throw errors.FORBIDDEN(`${identity.username} lacks the permission svc.permission.${ep.permission} that ${ep.method} ${ep.path} requires`);
  }
  return identity;
}

// ---- read the body ----------------------------------------------------------------------------------

const NO_BODY = Buffer.alloc(0);

/** Whether the request announces a body (a request without either header has none, RFC 9112 §6.3). */
const hasBody = (req: Pick<IncomingMessage, "headers">): boolean => req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;

/** The body's bytes, within the endpoint's limit; past it, 413 and the connection closed (the rest is not read). */
export async function readRequestBody(req: IncomingMessage, ep: AnyEndpoint): Promise<Buffer> {
  if (!hasBody(req)) return NO_BODY;
  try {
    return await readBody(req, bodyLimit(ep));
  } catch (e) {
    if (e instanceof BodyTooLarge) throw new Refusal(errors.PAYLOAD_TOO_LARGE(bodyLimit(ep)), { connection: "close" });
    throw e;
  }
}

// ---- validate ---------------------------------------------------------------------------------------

/** The request's parts as the endpoint's schemas typed them. */
export interface ValidatedRequest {
  params: unknown;
  query: unknown;
  body: unknown;
  files: UploadedFile[];
}

/** What an operation without path values or a query schema takes: anything, as it is (there is nothing to read). */
const anything = z.unknown();

/** The path values, the query and the body, each checked against the endpoint's schema for it. */
export async function validateRequest(ep: AnyEndpoint, pathValues: Record<string, string | undefined>, url: URL, req: IncomingMessage, raw: Buffer): Promise<ValidatedRequest> {
  const params = parseOrThrow(ep.params ?? anything, pathValues, "path");
  const query = parseOrThrow(ep.query ?? anything, queryObject(url.searchParams, ep.query), "query");
  const decoded = raw.length === 0 && ep.bodyKind !== "multipart" ? { body: undefined, files: [] } : await decodeBody(req, ep, raw);
  return { params, query, body: validBody(ep, decoded.body), files: decoded.files };
}

/** The decoded body checked against the endpoint's body schema (none for an endpoint without one). */
export function validBody(ep: AnyEndpoint, decoded: unknown): unknown {
  if (!ep.body || (decoded === undefined && ep.bodyOptional)) return undefined;
  const body = parseOrThrow(ep.body, decoded === undefined ? undefined : withoutNulls(ep.body, decoded), "body");
  if (nestedDeeperThan(body, MAX_BODY_DEPTH)) {
    throw errors.VALIDATION_FAILED(`body: arrays and objects nested deeper than ${MAX_BODY_DEPTH} levels`);
  }
  return body;
}

// ---- transact ---------------------------------------------------------------------------------------

/** What a handler's transaction ended with: its result and the changes to publish, or a reply whose changes were rolled back. */
export type Transacted = { result: unknown; changes: Change[] } | { rolledBack: Reply };

/** Runs the handler in one transaction of the store, with the audit entry of a write in the same one. */
export function transact(store: Store, route: Route, ctx: HandlerContext): Transacted {
  try {
    return store.transaction(() => {
      const out = route.handler(ctx);
      if (route.endpoint.mutates) appendAudit(route.endpoint, ctx);
      return out;
    });
  } catch (e) {
    if (e instanceof RolledBack) return { rolledBack: e.reply };
    throw e;
  }
}

// ---- reply ------------------------------------------------------------------------------------------

/** The reply to a handler's result: its own Reply, else the result as the body with the endpoint's success status. */
export function replyOf(ep: AnyEndpoint, result: unknown): Reply {
  if (isReply(result)) return result;
  if (ep.success.kind === "empty" || result === undefined) return { status: ep.success.status };
  return { status: ep.success.status, body: result };
}

/** Writes a reply: JSON for a body, bytes as they are for `raw`, always with its length. */
export function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  let payload: string | Buffer | undefined;
  if (reply.raw !== undefined) {
    payload = reply.raw;
    headers["content-type"] ??= "application/octet-stream";
  } else if (reply.body !== undefined) {
    payload = JSON.stringify(reply.body);
    headers["content-type"] ??= "application/json";
  }
  if (payload !== undefined) headers["content-length"] = String(Buffer.byteLength(payload));
  else if (reply.status !== 204 && reply.status !== 304) headers["content-length"] = "0";
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/** The reply to a refused request: the spec's error body (or the error's own), with the refusal's headers. */
export function errorReply(err: ApiError | Refusal): Reply {
  const error = err instanceof Refusal ? err.error : err;
  return { status: error.status, headers: err instanceof Refusal ? err.headers : undefined, body: error.body ?? error.toBody() };
}

/** The answer to a request Node's HTTP parser refused before any handler ran. */
export function clientErrorOf(err: NodeJS.ErrnoException): ApiError {
  if (err.code === "HPE_HEADER_OVERFLOW") return errors.HEADERS_TOO_LARGE(http.maxHeaderSize);
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") return errors.REQUEST_TIMEOUT();
  return errors.BAD_REQUEST(`malformed HTTP request (${err.code ?? "parse error"})`);
}
