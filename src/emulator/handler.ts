/**
 * Handlers: what one receives (the request's validated parts and context), what it answers, and how
 * an area pairs its handlers with the endpoint table. Handlers hold the business rules; they never
 * touch sockets.
 */
import type { z } from "zod";
import type { AnyEndpoint, Endpoint } from "../api/endpoint";
import { randomUUID } from "node:crypto";
import { formatTimestamp } from "../api/common";
import { krnOf, SYSTEM_IDENTITY, type Auth, type Identity } from "./areas/auth/model";
import { edgeOf, type Edge } from "./edge";
import type { Store } from "./store/store";

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Serialized as JSON. */
  body?: unknown;
  /** Sent as is (downloads, NDJSON streams). */
  raw?: string | Buffer;
}

export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface HandlerContext<P = unknown, Q = unknown, B = unknown> {
  params: P;
  query: Q;
  body: B;
  identity: Identity;
  /** KRN of the caller, for created_by / updated_by. */
  actor: string;
  /** The request's time, in the API's timestamp form, and in epoch milliseconds. */
  now: string;
  nowMs: number;
  requestId: string;
  store: Store;
  /** Files of a multipart request. */
  files: UploadedFile[];
  /** Base URL the emulator serves on (for download addresses). */
  baseUrl: string;
  /** Token issuing and checking (the token endpoints use it). */
  auth: Auth;
  /** How the emulated edge downloads packages (how long it takes, whether it fails). */
  edge: Edge;
  /** Overrides what the audit entry names as the changed object. */
  auditIdentifier?: string;
}

/** What a model's write needs of the request: the store, its time, and who makes it. */
export type WriteContext = Pick<HandlerContext, "store" | "now" | "actor">;

/**
 * The context of a call the emulator makes to its own handlers as the system identity (loading a
 * fixture, the snapshot endpoint): no HTTP request, no files, a fresh request id.
 */
export function systemContext(
  input: { params: unknown; query: unknown; body: unknown },
  env: { store: Store; auth: Auth; baseUrl: string; edge?: Edge },
  nowMs: number,
): HandlerContext {
  return {
    ...input,
    identity: SYSTEM_IDENTITY,
    actor: krnOf(SYSTEM_IDENTITY),
    now: formatTimestamp(nowMs),
    nowMs,
    requestId: randomUUID(),
    store: env.store,
    files: [],
    baseUrl: env.baseUrl,
    auth: env.auth,
    edge: env.edge ?? edgeOf(undefined),
  };
}

/**
 * What a handler of `E` may answer: a body of its success schema's type (sent with its success
 * status), or a Reply of its own (another status, headers, raw bytes). An endpoint answering no JSON
 * body answers nothing or a Reply.
 */
export type Answer<E extends AnyEndpoint> = Reply | (NonNullable<E["success"]["body"]> extends infer S extends z.ZodType ? z.input<S> : void);

/** A handler answers with a Reply, or with a body sent with the endpoint's success status. */
export type Handler<E extends AnyEndpoint = AnyEndpoint> = (
  ctx: HandlerContext<
    E extends Endpoint<infer P> ? z.output<P> : never,
    E extends Endpoint<z.ZodType, infer Q> ? z.output<Q> : never,
    E extends Endpoint<z.ZodType, z.ZodType, infer B> ? z.output<B> : never
  >,
) => Answer<E>;

export interface Route {
  endpoint: AnyEndpoint;
  handler: Handler;
}

/** Pairs an endpoint with its handler; the context is typed from the endpoint's schemas. */
export function route<E extends AnyEndpoint>(endpoint: E, handler: Handler<E>): Route {
  return { endpoint, handler: handler };
}

/**
 * Thrown by a handler to answer `reply` while every change the request made is rolled back (a dry
 * run does the work to know its answer, then keeps none of it).
 */
export class RolledBack extends Error {
  constructor(readonly reply: Reply) {
    super("the request's changes were rolled back");
    this.name = "RolledBack";
  }
}

export function isReply(v: unknown): v is Reply {
  return (
    !!v &&
    typeof v === "object" &&
    "status" in v &&
    typeof (v as Reply).status === "number" &&
    ("body" in v || "raw" in v || Object.keys(v).every((k) => k === "status" || k === "headers"))
  );
}

/** Background work of an area (schedules that fall due, packages that finish building). */
export type Ticker = (ctx: { store: Store; now: string; nowMs: number }) => void;

export interface AreaModule {
  routes: Route[];
  tickers?: Ticker[];
}
