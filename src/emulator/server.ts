/**
 * The emulator's HTTP layer: routes, authenticates, validates and serializes, all from the endpoint
 * table. Business rules live in the handlers; persistence and faults wrap the store and the server.
 */
import { randomUUID } from "node:crypto";
import * as http from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import busboy from "busboy";
import findMyWay from "find-my-way";
import { endpoints } from "../api/endpoints";
import type { AnyEndpoint } from "../api/endpoint";
import { ApiError, ErrorCode } from "../api/errors";
import { formatTimestamp } from "../api/common";
import { openApiDocument } from "../api/openapi";
import { Auth, holds, krnOf, SYSTEM_IDENTITY, type Identity, type TokenLifetimes } from "./auth";
import { allRoutes, allTickers } from "./handlers";
import { isReply, type HandlerContext, type Reply, type Route, type UploadedFile } from "./http";
import { Store, type Change } from "./store/store";
import { parseOrThrow, queryObject } from "./validate";

export const API_PREFIX = "/api/v4";
const JSON_LIMIT = 1024 * 1024;
const UPLOAD_LIMIT = 64 * 1024 * 1024;

/** Hooks the fault injector sets on the server (see faults.ts). */
export interface FaultHooks {
  /** Runs before the request has any effect; answers (or drops) it and returns true to stop it there. */
  before(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
  /** Runs after a change was applied and made durable; returns true when it dropped the answer. */
  afterApply(req: IncomingMessage, res: ServerResponse, path: string): boolean;
}

/** Extra routes outside /api/v4 (admin endpoints), served without the API's auth. */
export type ExtraRoute = (req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer) => Promise<void> | void;

export interface ServerOptions {
  store: Store;
  clock?: () => number;
  tokenLifetimes?: TokenLifetimes;
  /** Interval of the background tickers (schedules falling due, packages finishing), ms. */
  tickIntervalMs?: number;
  extraRoutes?: Record<string, ExtraRoute>;
  faults?: FaultHooks;
  /** Serializes commits to disk; resolves when a request's changes are durable. */
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

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limit) {
        done = true;
        reject(new BodyTooLarge());
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => {
      if (!done) {
        done = true;
        resolve(Buffer.concat(chunks));
      }
    });
    req.on("error", (e) => {
      if (!done) {
        done = true;
        reject(e);
      }
    });
  });
}

function mediaType(req: IncomingMessage): string {
  return String(req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * Deepest nesting of arrays and objects a request body may have. Every layer after validation
 * (freezing, the audit log, persistence, serialization) walks values recursively, so nesting is
 * bounded before any of them runs; the deepest legitimate body (an asset hierarchy of 64 levels,
 * which its schema bounds itself) needs ~130.
 */
const MAX_BODY_DEPTH = 256;

/** True when `value` nests arrays and objects deeper than `max` (iterative: no recursion to overflow). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > max) return true;
    for (const x of Object.values(v)) if (x !== null && typeof x === "object") stack.push([x, depth + 1]);
  }
  return false;
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (e) {
    throw new ApiError(400, ErrorCode.MALFORMED_BODY, [`body: malformed JSON (${(e as Error).message})`]);
  }
}

function parseMultipart(req: IncomingMessage, raw: Buffer): Promise<{ files: UploadedFile[]; fields: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 4, fileSize: UPLOAD_LIMIT, fields: 20 } });
    } catch {
      reject(new ApiError(400, ErrorCode.MALFORMED_BODY, ["body: malformed multipart/form-data (missing boundary)"]));
      return;
    }
    const files: UploadedFile[] = [];
    const fields: Record<string, string> = Object.create(null);
    const malformed = () => reject(new ApiError(400, ErrorCode.MALFORMED_BODY, ["body: malformed multipart/form-data"]));
    bb.on("file", (field, stream, info) => {
      const chunks: Buffer[] = [];
      // A form cut short fails the file's stream; unheard, that error would end the process.
      stream.on("error", malformed);
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => files.push({ field, filename: info.filename ?? "upload", contentType: info.mimeType, data: Buffer.concat(chunks) }));
    });
    bb.on("field", (k, v) => {
      fields[k] = v;
    });
    bb.on("error", malformed);
    bb.on("close", () => resolve({ files, fields }));
    bb.end(raw);
  });
}

/** Decodes the request body by the endpoint's body kind; undefined when there is none. */
async function decodeBody(req: IncomingMessage, ep: AnyEndpoint, raw: Buffer): Promise<{ body: unknown; files: UploadedFile[] }> {
  const type = mediaType(req);
  if (ep.bodyKind === "multipart") {
    if (type !== "multipart/form-data") {
      throw new ApiError(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, ["body: send the file as multipart/form-data"]);
    }
    const { files, fields } = await parseMultipart(req, raw);
    return { body: { ...fields }, files };
  }
  if (raw.length === 0) return { body: undefined, files: [] };
  if (ep.bodyKind === "form" && type === "application/x-www-form-urlencoded") {
    const out: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(raw.toString("utf8"))) {
      if (k !== "__proto__" && k !== "constructor" && k !== "prototype") out[k] = v;
    }
    return { body: out, files: [] };
  }
  if (type && type !== "application/json" && !type.endsWith("+json")) {
    throw new ApiError(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, [
      `body: unsupported content type '${type}'; send application/json` + (ep.bodyKind === "form" ? " or application/x-www-form-urlencoded" : ""),
    ]);
  }
  if (ep.bodyKind === "none") {
    // Operations without a body tolerate an empty JSON object, as generic clients send one.
    const v = parseJson(raw);
    if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0) return { body: undefined, files: [] };
    throw new ApiError(400, ErrorCode.VALIDATION_FAILED, ["body: this operation takes no body"]);
  }
  return { body: parseJson(raw), files: [] };
}

/**
 * The audit log's copy of a record: fields named like secrets become "[redacted]" at any depth, and
 * so does each of their values where another field repeats it (a script embedding a token); nesting
 * past the depth limit is cut, never copied raw. Keys are copied as data (`__proto__` included).
 */
const REDACT = /password|secret|token|credential/i;
const AUDIT_DEPTH = 8;
/** Secret values shorter than this are not searched for in other fields (too likely to match by chance). */
const MIN_REPEATED_SECRET = 8;

function secretValues(v: unknown, out = new Set<string>(), underSecret = false): Set<string> {
  if (typeof v === "string") {
    if (underSecret && v.length >= MIN_REPEATED_SECRET) out.add(v);
  } else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) secretValues(x, out, underSecret || (!Array.isArray(v) && REDACT.test(k)));
  }
  return out;
}

function redact(record: unknown): unknown {
  const secrets = [...secretValues(record)];
  const copy = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return secrets.reduce((s, secret) => s.split(secret).join("[redacted]"), v);
    if (v === null || typeof v !== "object") return v;
    if (depth >= AUDIT_DEPTH) return "[truncated]";
    if (Array.isArray(v)) return v.slice(0, 50).map((x) => copy(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, REDACT.test(k) ? "[redacted]" : copy(x, depth + 1)]));
  };
  return copy(record, 0);
}

function auditAction(ep: AnyEndpoint): string {
  const [area, op] = ep.id.split(".");
  const words = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1-$2").replace(/[_.]/g, "-").toUpperCase();
  return `${words(op)}-${words(area)}`;
}

export function startServer(options: ServerOptions, host = "127.0.0.1", port = 0): Promise<RunningServer> {
  const { store } = options;
  const clock = options.clock ?? Date.now;
  let baseUrl = "";
  const auth = new Auth(store, () => `${baseUrl}/auth/realms/svc`, options.tokenLifetimes, clock);
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
          throw new ApiError(501, ErrorCode.NOT_IMPLEMENTED, [`${e.method} ${e.path} is not implemented by the emulator`]);
        },
      });
    }
  }

  // Built on the first request for it: rendering every schema is a third of the start-up otherwise.
  let openapi: string | undefined;

  const toRouterPath = (ep: AnyEndpoint) =>
    (ep.path.startsWith("/auth/realms/") ? ep.path : API_PREFIX + ep.path).replace(/\{([a-z_]+)\}/g, ":$1");
  for (const ep of endpoints) {
    router.on(ep.method, toRouterPath(ep), () => undefined, { id: ep.id });
  }
  router.on("GET", `${API_PREFIX}/openapi.json`, () => undefined, { id: "openapi" });

  const allowedMethods = (path: string): string[] =>
    (["GET", "POST"] as const).filter((m) => router.find(m, path) !== null);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = (typeof req.headers["x-request-id"] === "string" && /^[\w.-]{1,128}$/.test(req.headers["x-request-id"]) ? req.headers["x-request-id"] : randomUUID());
    res.setHeader("x-request-id", requestId);
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://emulator");
    } catch {
      sendError(res, new ApiError(400, ErrorCode.BAD_REQUEST, ["malformed request URL"]));
      return;
    }
    const path = url.pathname;

    const extra = options.extraRoutes?.[path];
    if (extra) {
      const body = await readBody(req, JSON_LIMIT);
      await extra(req, res, url, body);
      return;
    }
    if (options.faults && (await options.faults.before(req, res, path))) return;

    const method = (req.method ?? "GET").toUpperCase();
    const found = method === "GET" || method === "POST" ? router.find(method as "GET" | "POST", path) : null;
    if (!found) {
      req.resume();
      const allowed = allowedMethods(path);
      if (allowed.length > 0) {
        sendError(res, new ApiError(405, ErrorCode.METHOD_NOT_ALLOWED, [`${method} is not allowed on ${path}; use ${allowed.join(" or ")}`]), { allow: allowed.join(", ") });
      } else {
        sendError(res, new ApiError(404, ErrorCode.ROUTE_NOT_FOUND, [`no operation at ${method} ${path}; the API lives under ${API_PREFIX} (see ${API_PREFIX}/openapi.json)`]));
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
      identity = auth.authenticate(req.headers.authorization);
      if (!holds(identity, ep.permission)) {
        req.resume();
        throw new ApiError(403, ErrorCode.FORBIDDEN, [
          `${identity.username} lacks the permission svc.permission.${ep.permission} that ${ep.method} ${ep.path} requires`,
        ]);
      }
    }

    let raw: Buffer;
    try {
      raw = await readBody(req, ep.bodyKind === "multipart" ? UPLOAD_LIMIT : JSON_LIMIT);
    } catch (e) {
      if (e instanceof BodyTooLarge) {
        res.setHeader("connection", "close");
        const limit = ep.bodyKind === "multipart" ? UPLOAD_LIMIT : JSON_LIMIT;
        throw new ApiError(413, ErrorCode.PAYLOAD_TOO_LARGE, [`body: larger than the limit of ${limit} bytes`]);
      }
      throw e;
    }

    const params = parseOrThrow(ep.params ?? emptyObject, { ...found.params }, "path");
    const query = parseOrThrow(ep.query ?? emptyObject, queryObject(url.searchParams, ep.query), "query");
    const decoded = await decodeBody(req, ep, raw);
    let body: unknown = undefined;
    if (ep.body) {
      if (decoded.body === undefined && ep.bodyOptional) body = undefined;
      else body = parseOrThrow(ep.body, decoded.body === undefined ? undefined : decoded.body, "body");
      if (nestedDeeperThan(body, MAX_BODY_DEPTH)) {
        throw new ApiError(400, ErrorCode.VALIDATION_FAILED, [`body: arrays and objects nested deeper than ${MAX_BODY_DEPTH} levels`]);
      }
    }

    const nowMs = clock();
    const ctx: HandlerContext = {
      params,
      query,
      body,
      identity,
      actor: krnOf(identity),
      now: formatTimestamp(nowMs),
      nowMs,
      requestId,
      store,
      files: decoded.files,
      baseUrl,
      auth,
    };

    const { result, changes } = store.transaction(() => {
      const out = handler(ctx as never);
      if (ep.mutates) appendAudit(ep, ctx);
      return out;
    });
    await store.publish(changes);
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

  /** One audit entry per successful mutating call, written in the same transaction as the change. */
  function appendAudit(ep: AnyEndpoint, ctx: HandlerContext): void {
    const journal = store.pendingChanges().filter((c) => !c.table.startsWith("_") && c.table !== "audit_log");
    const params = ctx.params as Record<string, unknown>;
    const firstParam = Object.values(params ?? {}).find((v) => typeof v === "string") as string | undefined;
    const bodyName = (ctx.body as { name?: unknown } | undefined)?.name;
    const identifier = ctx.auditIdentifier ?? firstParam ?? (typeof bodyName === "string" ? bodyName : undefined) ?? journal[0]?.key ?? "";
    const id = store.nextSeq("audit_log");
    store.table("audit_log").put(String(id), {
      id,
      action: auditAction(ep),
      identifier,
      namespace: `svc-${ep.tags[0]}`,
      request_id: ctx.requestId,
      request_uri: `${ep.method} ${ep.path}`,
      user_id: ctx.identity.userId,
      username: ctx.identity.username,
      meta: {
        changes: journal.slice(0, 5).map((c) => ({ table: c.table, key: c.key, from: redact(c.prev) ?? null, to: redact(c.value) ?? null })),
        ...(journal.length > 5 ? { more_changes: journal.length - 5 } : {}),
      },
      created: ctx.now,
    });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof ApiError) {
        sendError(res, err);
        return;
      }
      options.log?.(`internal error on ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
      sendError(res, new ApiError(500, ErrorCode.INTERNAL, ["internal error in the emulator; the request had no effect"]));
    });
  });
  // Requests Node's HTTP parser refuses before any handler runs (request line or headers past the
  // 16 KiB limit, malformed HTTP) still get the spec's error body instead of Node's bare answer.
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const error =
      err.code === "HPE_HEADER_OVERFLOW"
        ? new ApiError(431, ErrorCode.HEADERS_TOO_LARGE, [`request line and headers are larger than the limit of ${http.maxHeaderSize} bytes; shorten the path or the query string`])
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? new ApiError(408, ErrorCode.BAD_REQUEST, ["the request was not received in time"])
          : new ApiError(400, ErrorCode.BAD_REQUEST, [`malformed HTTP request (${err.code ?? "parse error"})`]);
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
    store.publish(changes).catch((err) => options.log?.(`persisting background changes failed: ${(err as Error).message}`)).finally(() => {
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

