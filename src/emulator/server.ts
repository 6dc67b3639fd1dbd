/**
 * The emulator's HTTP layer: routes, authenticates, validates and serializes, all from the endpoint
 * table. Business rules live in the handlers; bodies are read in body.ts, audit entries written in
 * audit.ts; persistence and faults wrap the store and the server.
 */
import { randomUUID } from "node:crypto";
import * as http from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import findMyWay from "find-my-way";
import { endpoints } from "../api/endpoints";
import { AUTH_PATH, REALM } from "../api/auth";
import { ApiError, errors } from "../api/errors";
import { formatTimestamp } from "../api/common";
import { openApiDocument } from "../api/openapi";
import { appendAudit } from "./audit";
import { Auth, holds, krnOf, SYSTEM_IDENTITY, type Identity, type TokenLifetimes } from "./areas/auth/model";
import { BodyTooLarge, JSON_LIMIT, MAX_BODY_DEPTH, bodyLimit, decodeBody, nestedDeeperThan, readBody } from "./body";
import { edgeOf, type Edge } from "./edge";
import { allRoutes, allTickers } from "./areas";
import { RolledBack, isReply, type HandlerContext, type Reply, type Route } from "./handler";
import { API_PREFIX, servedPath } from "./paths";
import type { Store, Change } from "./store/store";
import { parseOrThrow, queryObject, withoutNulls } from "./validate";

/** A `.` or `..` segment of a request target's path (percent-encoded dots included), as sent; undefined when there is none. */
export function dotSegment(target: string): string | undefined {
  const path = target.split(/[?#]/, 1)[0];
  return path.split("/").find((seg) => /^(\.|%2e){1,2}$/i.test(seg));
}

export { API_PREFIX };

/** Hooks the fault injector sets on the server (see faults.ts). */
export interface FaultHooks {
  /** Runs before the request has any effect; answers (or drops) it and returns true to stop it there. */
  before(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
  /** Runs after a change was applied and made durable; returns true when it dropped the answer. */
  afterApply(req: IncomingMessage, res: ServerResponse, path: string): boolean;
}

/** Extra routes outside /api/v4 (admin endpoints), served without the API's auth; bodies up to `bodyLimit` (default JSON_LIMIT). */
export type ExtraRoute = ((req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer) => Promise<void> | void) & { bodyLimit?: number };

export interface ServerOptions {
  store: Store;
  clock?: () => number;
  tokenLifetimes?: TokenLifetimes;
  /** Interval of the background tickers (schedules falling due, packages finishing), ms. */
  tickIntervalMs?: number;
  extraRoutes?: Record<string, ExtraRoute>;
  faults?: FaultHooks;
  /** How the emulated edge downloads packages (default: DEFAULT_PACKAGE_MS, never failing). */
  edge?: Edge;
  /** Where the server reports what no request can be told: internal errors and failed background work. */
  log?: (line: string) => void;
}

export interface RunningServer {
  server: http.Server;
  baseUrl: string;
  store: Store;
  auth: Auth;
  close(): Promise<void>;
}

function send(res: ServerResponse, reply: Reply): void {
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

function sendError(res: ServerResponse, err: ApiError, extraHeaders?: Record<string, string>): void {
  send(res, { status: err.status, headers: extraHeaders, body: err.body ?? err.toBody() });
}

/** The answer to a request Node's HTTP parser refused before any handler ran. */
function clientErrorOf(err: NodeJS.ErrnoException): ApiError {
  if (err.code === "HPE_HEADER_OVERFLOW") return errors.HEADERS_TOO_LARGE(http.maxHeaderSize);
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") return errors.REQUEST_TIMEOUT();
  return errors.BAD_REQUEST(`malformed HTTP request (${err.code ?? "parse error"})`);
}

const NO_BODY = Buffer.alloc(0);

/** Whether the request announces a body (a request without either header has none). */
const hasBody = (req: IncomingMessage): boolean => req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;

/** formatTimestamp, remembering the last answer: requests in the same millisecond share it. */
let lastStamp = { ms: NaN, text: "" };
function timestamp(ms: number): string {
  if (lastStamp.ms !== ms) lastStamp = { ms, text: formatTimestamp(ms) };
  return lastStamp.text;
}

export function startServer(options: ServerOptions, host = "127.0.0.1", port = 0): Promise<RunningServer> {
  const { store } = options;
  const clock = options.clock ?? Date.now;
  const edge = options.edge ?? edgeOf(undefined);
  let baseUrl = "";
  const auth = new Auth(store, () => `${baseUrl}/${AUTH_PATH}/realms/${REALM}`, options.tokenLifetimes, clock);
  const routes = allRoutes();
  const router = findMyWay({ ignoreTrailingSlash: true, maxParamLength: 1024 });
  const routeByEndpoint = new Map<string, Route>();
  for (const r of routes) routeByEndpoint.set(r.endpoint.id, r);
  // An endpoint declared without a handler answers 501; the coverage test keeps this list empty.
  for (const e of endpoints) {
    if (!routeByEndpoint.has(e.id)) {
      routeByEndpoint.set(e.id, {
        endpoint: e,
        handler: () => {
          throw errors.NOT_IMPLEMENTED(`${e.method} ${e.path} is not implemented by the emulator`);
        },
      });
    }
  }

  // Built on the first request for it: rendering every schema is a third of the start-up otherwise.
  let openapi: string | undefined;

  for (const ep of endpoints) {
    router.on(ep.method, servedPath(ep).replace(/\{([a-z_]+)\}/g, ":$1"), () => undefined, { id: ep.id });
  }
  router.on("GET", `${API_PREFIX}/openapi.json`, () => undefined, { id: "openapi" });

  const allowedMethods = (path: string): string[] => (["GET", "POST"] as const).filter((m) => router.find(m, path) !== null);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = typeof req.headers["x-request-id"] === "string" && /^[\w.-]{1,128}$/.test(req.headers["x-request-id"]) ? req.headers["x-request-id"] : randomUUID();
    res.setHeader("x-request-id", requestId);
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://emulator");
    } catch {
      sendError(res, errors.BAD_REQUEST("malformed request URL"));
      return;
    }
    const path = url.pathname;
    // The URL parser folds '.' and '..' segments away, which would route the request to another
    // operation (GET .../metadata/../get reads the ACP itself): such a segment is refused instead.
    const dot = dotSegment(req.url ?? "/");
    if (dot !== undefined) {
      req.resume();
      sendError(
        res,
        errors.BAD_REQUEST(
          `path: the segment '${dot}' cannot name anything (URLs fold '.' and '..' away, so the request would reach another operation); percent-encoding does not change that`,
        ),
      );
      return;
    }

    const extra = options.extraRoutes?.[path];
    if (extra) {
      const limit = extra.bodyLimit ?? JSON_LIMIT;
      const body = await readBody(req, limit).catch((e: unknown) => {
        if (!(e instanceof BodyTooLarge)) throw e;
        res.setHeader("connection", "close");
        throw errors.PAYLOAD_TOO_LARGE(limit);
      });
      await extra(req, res, url, body);
      return;
    }
    if (options.faults && (await options.faults.before(req, res, path))) return;

    const method = (req.method ?? "GET").toUpperCase();
    const found = method === "GET" || method === "POST" ? router.find(method, path) : null;
    if (!found) {
      req.resume();
      const allowed = allowedMethods(path);
      if (allowed.length > 0) {
        sendError(res, errors.METHOD_NOT_ALLOWED(`${method} is not allowed on ${path}; use ${allowed.join(" or ")}`), { allow: allowed.join(", ") });
      } else {
        sendError(res, errors.ROUTE_NOT_FOUND(method, path, API_PREFIX));
      }
      return;
    }
    const id = (found.store as { id: string }).id;
    if (id === "openapi") {
      req.resume();
      send(res, { status: 200, headers: { "content-type": "application/json" }, raw: (openapi ??= JSON.stringify(openApiDocument())) });
      return;
    }
    const { endpoint: ep, handler } = routeByEndpoint.get(id)!;

    // Authenticate before reading the body: an unauthenticated caller learns nothing about validation.
    let identity: Identity = SYSTEM_IDENTITY;
    if (ep.permission !== null) {
      identity = ep.signedLinks && url.searchParams.has("signature") ? auth.linkIdentity(path, url.searchParams, ep.permission) : auth.authenticate(req.headers.authorization);
      if (!holds(identity, ep.permission)) {
        req.resume();
        throw errors.FORBIDDEN(`${identity.username} lacks the permission svc.permission.${ep.permission} that ${ep.method} ${ep.path} requires`);
      }
    }

    let raw: Buffer;
    try {
      // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 §6.3): nothing to wait for.
      raw = hasBody(req) ? await readBody(req, bodyLimit(ep)) : NO_BODY;
    } catch (e) {
      if (e instanceof BodyTooLarge) {
        res.setHeader("connection", "close");
        throw errors.PAYLOAD_TOO_LARGE(bodyLimit(ep));
      }
      throw e;
    }

    const params = parseOrThrow(ep.params ?? emptyObject, { ...found.params }, "path");
    const query = parseOrThrow(ep.query ?? emptyObject, queryObject(url.searchParams, ep.query), "query");
    const decoded = raw.length === 0 && ep.bodyKind !== "multipart" ? { body: undefined, files: [] } : await decodeBody(req, ep, raw);
    let body: unknown = undefined;
    if (ep.body) {
      if (decoded.body === undefined && ep.bodyOptional) body = undefined;
      else body = parseOrThrow(ep.body, decoded.body === undefined ? undefined : withoutNulls(ep.body, decoded.body), "body");
      if (nestedDeeperThan(body, MAX_BODY_DEPTH)) {
        throw errors.VALIDATION_FAILED(`body: arrays and objects nested deeper than ${MAX_BODY_DEPTH} levels`);
      }
    }

    const nowMs = clock();
    const ctx: HandlerContext = {
      params,
      query,
      body,
      identity,
      actor: krnOf(identity),
      now: timestamp(nowMs),
      nowMs,
      requestId,
      store,
      files: decoded.files,
      baseUrl,
      auth,
      edge,
    };

    let done: { result: unknown; changes: Change[] };
    try {
      done = store.transaction(() => {
        const out = handler(ctx);
        if (ep.mutates) appendAudit(ep, ctx);
        return out;
      });
    } catch (e) {
      if (!(e instanceof RolledBack)) throw e;
      send(res, e.reply);
      return;
    }
    const { result, changes } = done;
    // A read changed nothing: it has nothing to make durable and answers at once.
    if (changes.length > 0) await store.publish(changes);
    if (options.faults?.afterApply(req, res, path)) return;

    const reply: Reply = isReply(result)
      ? result
      : ep.success.kind === "empty" || result === undefined
        ? { status: ep.success.status }
        : { status: ep.success.status, body: result };
    send(res, reply);
  }

  const emptyObject = parseEmpty();
  function parseEmpty() {
    // An operation without params or query accepts none.
    return { safeParse: (v: unknown) => ({ success: true as const, data: v }) } as never;
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof ApiError) {
        sendError(res, err);
        return;
      }
      options.log?.(`internal error on ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
      sendError(res, errors.INTERNAL("internal error in the emulator; the request had no effect"));
    });
  });
  // Requests Node's HTTP parser refuses before any handler runs (request line or headers past the
  // 16 KiB limit, malformed HTTP) still get the spec's error body instead of Node's bare answer.
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const error = clientErrorOf(err);
    const payload = JSON.stringify(error.toBody());
    socket.end(
      `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status]}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload}`,
    );
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  // Background work (schedules falling due, packages finishing) runs in transactions of its own.
  const tickers = allTickers();
  let ticking = false;
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    const nowMs = clock();
    let changes: Change[] = [];
    try {
      changes = store.transaction(() => {
        for (const t of tickers) t({ store, now: formatTimestamp(nowMs), nowMs });
      }).changes;
    } catch (err) {
      options.log?.(`background task failed: ${(err as Error).message}`);
    }
    store
      .publish(changes)
      .catch((err) => options.log?.(`persisting background changes failed: ${(err as Error).message}`))
      .finally(() => {
        ticking = false;
      });
  }, options.tickIntervalMs ?? 250);
  timer.unref();

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const addr = server.address() as AddressInfo;
      const h = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
      baseUrl = `http://${h}:${addr.port}`;
      resolve({
        server,
        baseUrl,
        store,
        auth,
        close: () =>
          new Promise<void>((done) => {
            clearInterval(timer);
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
