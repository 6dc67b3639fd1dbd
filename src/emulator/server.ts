/**
 * The emulator's HTTP server: the API's request pipeline (its stages are in stages.ts), the extra
 * routes and fault hooks wrapped around it, and the areas' background work. Business rules live in the
 * handlers; bodies are read in body.ts, audit entries written in audit.ts; persistence and faults wrap
 * the store and the server.
 */
import * as http from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { endpoints } from "../api/endpoints";
import { AUTH_PATH, REALM } from "../api/auth";
import { ApiError, errors } from "../api/errors";
import { formatTimestamp } from "../api/common";
import { openApiDocument } from "../api/openapi";
import { Auth, krnOf, type TokenLifetimes } from "./areas/auth/model";
import { BodyTooLarge, JSON_LIMIT, readBody } from "./body";
import { edgeOf, type Edge } from "./edge";
import { allRoutes, allTickers } from "./areas";
import type { HandlerContext, Route, Ticker } from "./handler";
import { API_PREFIX } from "./paths";
import {
  Refusal,
  apiRouter,
  authenticate,
  clientErrorOf,
  errorReply,
  parseRequest,
  readRequestBody,
  replyOf,
  requestIdOf,
  send,
  transact,
  validateRequest,
  type ApiRouter,
  type ParsedRequest,
} from "./stages";
import type { Store, Change } from "./store/store";

export { API_PREFIX };
export { dotSegment } from "./stages";

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

/** formatTimestamp, remembering the last answer: requests in the same millisecond share it. */
let lastStamp = { ms: NaN, text: "" };
function timestamp(ms: number): string {
  if (lastStamp.ms !== ms) lastStamp = { ms, text: formatTimestamp(ms) };
  return lastStamp.text;
}

/** What the pipeline needs of the server around it. */
interface Pipeline {
  options: ServerOptions;
  router: ApiRouter;
  auth: Auth;
  edge: Edge;
  clock: () => number;
  baseUrl(): string;
}

/** The guard stage: an extra route (admin, console) answers the request outside the API, without its auth. */
async function serveExtra(extra: ExtraRoute, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const limit = extra.bodyLimit ?? JSON_LIMIT;
  const body = await readBody(req, limit).catch((e: unknown) => {
    if (e instanceof BodyTooLarge) throw new Refusal(errors.PAYLOAD_TOO_LARGE(limit), { connection: "close" });
    throw e;
  });
  await extra(req, res, url, body);
}

/** The OpenAPI document, rendered on the first request for it (rendering every schema is a third of the start-up otherwise). */
let openapi: string | undefined;
const openapiText = (): string => (openapi ??= JSON.stringify(openApiDocument()));

/** One request through the stages: parse, guard, route, authenticate, read the body, validate, transact, publish, reply. */
async function handle(p: Pipeline, req: IncomingMessage, res: ServerResponse, parsed: ParsedRequest): Promise<void> {
  const extra = p.options.extraRoutes?.[parsed.path];
  if (extra) return serveExtra(extra, req, res, parsed.url);
  if (p.options.faults && (await p.options.faults.before(req, res, parsed.path))) return;
  const routed = p.router.find(parsed.method, parsed.path);
  if (routed.kind === "openapi") {
    req.resume();
    return send(res, { status: 200, headers: { "content-type": "application/json" }, raw: openapiText() });
  }
  const { route, pathValues } = routed;
  const identity = authenticate(p.auth, route.endpoint, req, parsed.url);
  const raw = await readRequestBody(req, route.endpoint);
  const parts = await validateRequest(route.endpoint, pathValues, parsed.url, req, raw);
  const nowMs = p.clock();
  const ctx: HandlerContext = {
    ...parts,
    identity,
    actor: krnOf(identity),
    now: timestamp(nowMs),
    nowMs,
    requestId: parsed.requestId,
    store: p.options.store,
    baseUrl: p.baseUrl(),
    auth: p.auth,
    edge: p.edge,
  };
  const done = transact(p.options.store, route, ctx);
  if ("rolledBack" in done) return send(res, done.rolledBack);
  // A read changed nothing: it has nothing to make durable and answers at once.
  if (done.changes.length > 0) await p.options.store.publish(done.changes);
  if (p.options.faults?.afterApply(req, res, parsed.path)) return;
  send(res, replyOf(route.endpoint, done.result));
}

/** Answers what a stage threw: a refusal as the spec's error body, anything else as a 500 that had no effect (and logged). */
function answerFailure(p: Pipeline, req: IncomingMessage, res: ServerResponse, err: unknown): void {
  // A refused request's body is never read: drain it so that the connection can carry the next one.
  req.resume();
  if (err instanceof ApiError || err instanceof Refusal) return send(res, errorReply(err));
  p.options.log?.(`internal error on ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
  send(res, errorReply(errors.INTERNAL("internal error in the emulator; the request had no effect")));
}

/** The server for the pipeline; requests Node's HTTP parser refuses still get the spec's error body. */
function createHttpServer(p: Pipeline): http.Server {
  const server = http.createServer((req, res) => {
    const requestId = requestIdOf(req);
    res.setHeader("x-request-id", requestId);
    Promise.resolve()
      .then(() => handle(p, req, res, parseRequest(req, requestId)))
      .catch((err: unknown) => answerFailure(p, req, res, err));
  });
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
  return server;
}

/** Background work (schedules falling due, packages finishing), each tick in a transaction of its own; never two at once. */
function startTickers(store: Store, tickers: Ticker[], clock: () => number, intervalMs: number, log?: (line: string) => void): NodeJS.Timeout {
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
      log?.(`background task failed: ${(err as Error).message}`);
    }
    store
      .publish(changes)
      .catch((err) => log?.(`persisting background changes failed: ${(err as Error).message}`))
      .finally(() => {
        ticking = false;
      });
  }, intervalMs);
  timer.unref();
  return timer;
}

export function startServer(options: ServerOptions, host = "127.0.0.1", port = 0): Promise<RunningServer> {
  const { store } = options;
  const clock = options.clock ?? Date.now;
  let baseUrl = "";
  const auth = new Auth(store, () => `${baseUrl}/${AUTH_PATH}/realms/${REALM}`, options.tokenLifetimes, clock);
  const routes: Route[] = allRoutes();
  const pipeline: Pipeline = { options, router: apiRouter(endpoints, routes), auth, edge: options.edge ?? edgeOf(undefined), clock, baseUrl: () => baseUrl };
  const server = createHttpServer(pipeline);
  const timer = startTickers(store, allTickers(), clock, options.tickIntervalMs ?? 250, options.log);

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const addr = server.address() as AddressInfo;
      const h = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
      baseUrl = `http://${h}:${addr.port}`;
      const close = (): Promise<void> =>
        new Promise<void>((done) => {
          clearInterval(timer);
          server.close(() => done());
          server.closeAllConnections();
        });
      resolve({ server, baseUrl, store, auth, close });
    });
  });
}
