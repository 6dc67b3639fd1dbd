/**
 * The typed client of the platform API v4: `client.<area>.<operation>(input, options)` for every
 * operation of the endpoint table, plus `call`, `paginate`, `stats` and `close`.
 *
 * A call goes through three layers: auth (a bearer token, fetched once for concurrent callers and
 * renewed before it expires, re-fetched once on a 401), retries (429/502/503/504 and network
 * failures, exponential backoff with full jitter, Retry-After honoured; creates that may have been
 * applied are checked before being repeated), and the transport (one keep-alive undici Pool).
 */
import { randomUUID } from "node:crypto";
import type { FormData } from "undici";
import { confirmReads, type AnyEndpoint, type ConfirmReader } from "../api/endpoint";
import { areas, endpointById } from "../api/endpoints";
import { confirmApplied, lostAnswerAdvice, type Confirmation } from "./ambiguity";
import { FetchedTokenSource, StaticTokenSource, type TokenSource } from "./auth";
import { mergeOptions, optionsFromEnv, resolveConfig, ENV, type Credentials, type ResolvedConfig, type SvcClientOptions } from "./config";
import { apiErrorFrom, decodeSuccess } from "./decode";
import { acceptFor, API_ROOT, encodeBody, encodeQuery, fillPath, isOutsideApiRoot, type RawInput } from "./encode";
import { SvcApiError, SvcConnectError, SvcConnectionResetError, SvcRequestError, SvcTimeoutError, type SvcNetworkError, type SvcNetworkErrorInit } from "./errors";
import { walkPages } from "./pagination";
import { Secrets } from "./redact";
import { AbortedError, backoffDelay, confirmsBeforeRepeat, isAmbiguousStatus, isCreate, parseRetryAfter, RETRYABLE_STATUSES, sleep } from "./retry";
import { Transport, TransportError, type WireResponse } from "./transport";
import type { CallInput, CallOptions, CallOutput, ListItem, SvcAreas } from "./types";

export type { SvcClientOptions, RetryOptions, ClientEvent } from "./config";
export type { CallInput, CallOptions, CallOutput, ListItem, SvcAreas, AreaClient, EndpointMethod, QueryInput, RawAnswer, Part1LimitsAnswer, Part1StreamAnswer } from "./types";
export type { UploadFile } from "./encode";
export {
  SvcApiError,
  SvcCallError,
  SvcConfigError,
  SvcConnectError,
  SvcConnectionResetError,
  SvcNetworkError,
  SvcRequestError,
  SvcResponseError,
  SvcTimeoutError,
  type ApiErrorEntry,
  type ResponseIssue,
  type SvcNetworkErrorCode,
} from "./errors";

/** Lets fromEnv() say which environment the options fall back to. */
const ENV_SOURCE = Symbol("svc.client.env");
type InternalOptions = SvcClientOptions & { [ENV_SOURCE]?: NodeJS.ProcessEnv };

interface Prepared {
  ep: AnyEndpoint;
  input: RawInput;
  /** As shown in errors and logs: relative to the API root, no query. */
  shownPath: string;
  request: { method: "GET" | "POST"; path: string; body?: string | FormData; contentType?: string };
}

/** The error of each way a request can get no answer (an abort is thrown as AbortedError). */
const NO_ANSWER: Record<Exclude<TransportError["failure"], "aborted">, new (init: SvcNetworkErrorInit) => SvcNetworkError> = {
  unsent: SvcConnectError,
  reset: SvcConnectionResetError,
  timeout: SvcTimeoutError,
  other: SvcRequestError,
};

/** A failed attempt that may be repeated. */
interface Failure {
  error: SvcApiError | SvcNetworkError;
  retryAfterMs?: number;
  /** The server may have acted on the request. */
  maybeApplied: boolean;
}

/** A read that was to confirm a create failed. */
class ConfirmReadFailed extends Error {
  constructor(
    readonly readId: string,
    readonly failure: unknown,
  ) {
    super(`the check with ${readId} failed: ${(failure as Error).message}`);
  }
}

/** What to check when a login is refused, naming the settings as the caller named them. */
function loginHint(kind: Credentials["kind"], n: ResolvedConfig["names"]): string {
  switch (kind) {
    case "static":
      return "";
    case "password":
      return `check ${n.username}, ${n.password} and ${n.clientId} (${ENV.username}, ${ENV.password}, ${ENV.clientId})`;
    case "client_credentials":
      return `check ${n.clientId} and ${n.clientSecret} (${ENV.clientId}, ${ENV.clientSecret})`;
    case "edge":
      return `check the edge user's ${n.username} and ${n.password} (${ENV.username}, ${ENV.password})`;
  }
}

// The typed `client.<area>.<operation>` methods: getters on the prototype (see the end of this file).
export interface SvcClient extends SvcAreas {}

export class SvcClient {
  /** Requests sent to the API (every attempt), to the token endpoints, and repeated attempts. */
  readonly stats = { requests: 0, tokenRequests: 0, retries: 0 };

  private readonly config: ResolvedConfig;
  /** The connection pool, shared with every view; replaced when the server moves (`relocate`). */
  private readonly link: { transport: Transport; moving?: Promise<boolean>; retired: Transport[] };
  private readonly secrets = new Secrets();
  private readonly tokens: TokenSource;
  /** Options every call of this client (or view) starts from; see `withDefaults`. */
  private readonly defaults: CallOptions = {};

  constructor(options: SvcClientOptions = {}) {
    const env = (options as InternalOptions)[ENV_SOURCE] ?? process.env;
    this.config = resolveConfig(mergeOptions(options, optionsFromEnv(env)));
    const creds = this.config.credentials;
    for (const secret of [
      creds.kind === "static" ? creds.token : undefined,
      "password" in creds ? creds.password : undefined,
      "clientSecret" in creds ? creds.clientSecret : undefined,
    ]) {
      this.secrets.add(secret);
    }
    this.link = { transport: new Transport(this.config.origin), retired: [] };
    this.tokens =
      creds.kind === "static"
        ? new StaticTokenSource(creds.token)
        : new FetchedTokenSource(
            creds,
            (which, form, grant) => this.requestToken(which, form, grant),
            (secret) => this.secrets.add(secret),
            (message, extra) => this.log("token", message, extra),
            this.config.clock,
          );
  }

  /** Options from `env` (default process.env), with `overrides` taking precedence. */
  static fromEnv(env: NodeJS.ProcessEnv = process.env, overrides: SvcClientOptions = {}): SvcClient {
    return new SvcClient({ ...overrides, [ENV_SOURCE]: env } as InternalOptions);
  }

  /**
   * A view of this client whose calls start from `defaults` (options given to a call win). The view
   * shares the connection pool, the token and the stats; closing either closes both. The provider
   * uses it to give every create of one resource the check that tells whether a lost answer's create was applied.
   */
  withDefaults(defaults: CallOptions): SvcClient {
    const view = Object.create(this) as SvcClient;
    Object.defineProperty(view, "defaults", { value: Object.freeze({ ...this.defaults, ...defaults }) });
    return view;
  }

  /** Calls one operation of the table; the answer is checked against its success schema. */
  async call<E extends AnyEndpoint>(endpoint: E, input?: CallInput<E>, options?: CallOptions): Promise<CallOutput<E>> {
    const value = await this.execute(this.prepare(endpoint, input ?? {}), { ...this.defaults, ...options }, { validate: true });
    return value as CallOutput<E>;
  }

  /** Every item of a list operation, fetched page by page as the iteration proceeds. */
  paginate<E extends AnyEndpoint>(endpoint: E, input?: CallInput<E>, options?: CallOptions): AsyncIterableIterator<ListItem<E>> {
    const raw = (input ?? {}) as RawInput;
    const merged = { ...this.defaults, ...options };
    const pages = walkPages(endpoint, raw, (query) => this.execute(this.prepare(endpoint, { ...raw, query }), merged, { validate: true }));
    return pages as AsyncIterableIterator<ListItem<E>>;
  }

  /** Closes the connection pool once the requests in flight have finished. */
  async close(): Promise<void> {
    await Promise.all([this.link.transport, ...this.link.retired].map((t) => t.close()));
  }

  /**
   * Verifies the credentials with one request: the token request of a login, or, with a static token
   * (which needs none), one authenticated read of the instance settings, where any answer but 401
   * (refused) and 404 (no API at that address) means the token was accepted (403: valid, without the
   * permission to read them). The token a login
   * obtains is kept for the calls that follow. Throws the refusal as SvcApiError.
   */
  async verifyCredentials(): Promise<"login" | "token accepted"> {
    if (this.config.credentials.kind !== "static") {
      await this.tokens.token();
      return "login";
    }
    try {
      await this.call(areas.instance.settingsGet);
    } catch (err) {
      if (!(err instanceof SvcApiError) || err.status === 401 || err.status === 404) throw err;
    }
    return "token accepted";
  }

  // ---------------------------------------------------------------------------------------------

  private prepare(ep: AnyEndpoint, input: RawInput): Prepared {
    const shownPath = fillPath(ep, input.params);
    const root = isOutsideApiRoot(ep) ? "" : API_ROOT;
    const { body, contentType } = encodeBody(ep, input);
    return {
      ep,
      input,
      shownPath,
      request: { method: ep.method, path: `${this.config.basePath}${root}${shownPath}${encodeQuery(input.query)}`, body, contentType },
    };
  }

  private headers(p: Prepared, requestId: string, token: string | undefined): Record<string, string> {
    return {
      accept: acceptFor(p.ep),
      "user-agent": this.config.userAgent,
      "x-request-id": requestId,
      ...(p.request.contentType ? { "content-type": p.request.contentType } : {}),
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
    };
  }

  /** One attempt: the answer, or the transport failure as a value. */
  private async attempt(p: Prepared, requestId: string, token: string | undefined, options: CallOptions, kind: "api" | "token"): Promise<WireResponse | TransportError> {
    if (kind === "token") this.stats.tokenRequests++;
    else this.stats.requests++;
    const started = Date.now();
    const describe = `${p.ep.method} ${p.shownPath}`;
    const at = { method: p.ep.method, path: p.shownPath, query: p.request.path.split("?")[1] ?? "", requestId };
    try {
      const res = await this.link.transport.send(
        { method: p.request.method, path: p.request.path, headers: this.headers(p, requestId, token), body: p.request.body },
        options.timeoutMs ?? this.config.timeoutMs,
        options.signal,
      );
      const durationMs = Date.now() - started;
      this.log("request", `${describe} → ${res.status} (${durationMs} ms)`, { ...at, status: res.status, durationMs });
      return res;
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      this.log("request", `${describe} → no answer: ${err.message}`, { ...at, status: 0, durationMs: Date.now() - started });
      return err;
    }
  }

  private async execute(p: Prepared, options: CallOptions, how: { validate: boolean; kind?: "api" | "token" }): Promise<unknown> {
    const { ep } = p;
    const kind = how.kind ?? "api";
    const policy = this.config.retry;
    const requestId = options.requestId ?? randomUUID();
    const confirmFirst = confirmsBeforeRepeat(ep);
    const started = Date.now();
    let reauthenticated = false;
    let relocations = 0;
    let attempt = 0;
    for (;;) {
      attempt++;
      const token = ep.permission === null ? undefined : await this.tokens.token();
      const outcome = await this.attempt(p, requestId, token, options, kind);
      let failure: Failure;
      if (outcome instanceof TransportError) {
        if (outcome.failure === "aborted") throw new AbortedError();
        if (outcome.causeCode === "ECONNREFUSED" && relocations < 3 && (await this.relocate(outcome.origin))) {
          // The server moved: the same request goes to its new address at once.
          relocations++;
          attempt--;
          continue;
        }
        const error = new NO_ANSWER[outcome.failure]({
          method: ep.method,
          path: p.shownPath,
          requestId,
          retryable: outcome.failure !== "other",
          detail: outcome.message,
          endpointId: ep.id,
          causeCode: outcome.causeCode,
        });
        if (!error.retryable) throw error;
        failure = { error, maybeApplied: error.maybeSent };
      } else {
        const res = outcome;
        if (res.status >= 200 && res.status < 300) return decodeSuccess(ep, res, requestId, how.validate);
        const retryable = RETRYABLE_STATUSES.has(res.status);
        const error = apiErrorFrom(res, { ep, method: ep.method, path: p.shownPath, requestId, retryable, secrets: this.secrets });
        if (res.status === 401 && token !== undefined && !reauthenticated && this.tokens.invalidate(token)) {
          // The token was refused (expired early, revoked): fetch a new one and repeat once.
          reauthenticated = true;
          attempt--;
          this.stats.retries++;
          this.log("auth", `${ep.method} ${p.shownPath} → 401; fetching a new token and repeating once`, { method: ep.method, path: p.shownPath, requestId });
          continue;
        }
        if (!retryable) throw error;
        failure = { error, retryAfterMs: parseRetryAfter(res.headers["retry-after"]), maybeApplied: isAmbiguousStatus(res.status) };
      }

      if (confirmFirst && failure.maybeApplied) {
        const confirmed = await this.confirmAmbiguous(p, options, failure.error);
        if (confirmed.applied) return confirmed.value;
      }
      const delay = failure.retryAfterMs ?? backoffDelay(attempt, policy);
      if (attempt >= policy.maxAttempts || Date.now() - started + delay > policy.maxElapsedMs) throw failure.error;
      this.stats.retries++;
      const status = failure.error instanceof SvcApiError ? failure.error.status : undefined;
      this.log("retry", `${ep.method} ${p.shownPath} → ${status ?? "no answer"}; repeating in ${delay} ms (attempt ${attempt + 1} of ${policy.maxAttempts})`, {
        method: ep.method,
        path: p.shownPath,
        status: status ?? 0,
        delayMs: delay,
        attempt: attempt + 1,
        requestId,
      });
      await sleep(delay, options.signal);
    }
  }

  /**
   * A create, or an action the platform refuses to repeat, failed without a clear answer (reset,
   * timeout, 502/503/504). Repeating it blindly could make a second record or fail with 409, so first
   * find out whether it was applied: for a create by the caller's check, else by the confirm its table
   * row declares (a read answering 404 = not applied). With neither, say so.
   */
  private async confirmAmbiguous(p: Prepared, options: CallOptions, error: Failure["error"]): Promise<Confirmation> {
    const what = `${p.ep.method} ${p.shownPath}`;
    if (options.ambiguityCheck && isCreate(p.ep)) {
      this.log("ambiguous", `${what} failed without a clear answer; asking the caller's check whether it was applied`, { method: p.ep.method, path: p.shownPath });
      const value = await options.ambiguityCheck();
      return value === undefined ? { applied: false } : { applied: true, value };
    }
    const reads = confirmReads(p.ep);
    if (reads.length > 0) {
      this.log("ambiguous", `${what} failed without a clear answer; checking with ${reads.join(" and ")} whether it was applied`, {
        method: p.ep.method,
        path: p.shownPath,
        check: reads.join(","),
      });
    }
    const read: ConfirmReader = async (readId, input) => {
      try {
        return await this.execute(this.prepare(endpointById(readId), input), { timeoutMs: options.timeoutMs, signal: options.signal }, { validate: true });
      } catch (err) {
        if (err instanceof SvcApiError && err.status === 404) return undefined;
        if (err instanceof AbortedError) throw err;
        throw new ConfirmReadFailed(readId, err);
      }
    };
    try {
      return await confirmApplied(p.ep, p.input, read);
    } catch (err) {
      if (err instanceof AbortedError) throw err;
      // CannotTell, a failed read, or the confirm's own reason.
      throw maybeApplied(error, lostAnswerAdvice(p.ep, (err as Error).message));
    }
  }

  /**
   * Asks `relocate` where the server went after `origin` refused a connection, once for all calls
   * failing at the same time; true when the client now talks to another address.
   */
  private relocate(origin: string | undefined): Promise<boolean> {
    const ask = this.config.relocate;
    if (!ask || origin === undefined) return Promise.resolve(false);
    if (this.link.transport.origin !== origin) return Promise.resolve(true);
    if (!this.link.moving) {
      const moving = (async () => {
        try {
          const next = await ask();
          if (next === undefined) return false;
          const { origin: nextOrigin } = new URL(next);
          if (nextOrigin === origin) return false;
          // The old pool is closed with the client: a call may be about to send through it (and be refused).
          this.link.retired.push(this.link.transport);
          this.link.transport = new Transport(nextOrigin);
          this.log("relocate", `${origin} refused the connection; talking to ${nextOrigin} from now on`, { from: origin, to: nextOrigin });
          return true;
        } catch (err) {
          this.log("relocate", `${origin} refused the connection and finding its new address failed: ${(err as Error).message}`, { from: origin });
          return false;
        }
      })();
      this.link.moving = moving;
      void moving.finally(() => {
        if (this.link.moving === moving) this.link.moving = undefined;
      });
    }
    return this.link.moving;
  }

  private async requestToken(which: "oidc" | "edge", form: Record<string, string>, grant: string): Promise<unknown> {
    const ep = which === "oidc" ? areas.auth.token : areas.auth.edgeToken;
    this.log("token", `requesting a token (${grant === "edge" ? "edge token endpoint" : `${grant} grant`})`, { grant });
    try {
      // Token answers are read leniently (only access_token is required), as identity providers differ.
      return await this.execute(this.prepare(ep, { body: form }), {}, { validate: false, kind: "token" });
    } catch (err) {
      if (!(err instanceof SvcApiError) || (err.status !== 400 && err.status !== 401) || grant === "refresh_token") throw err;
      const creds = this.config.credentials;
      const who = creds.kind === "password" || creds.kind === "edge" ? ` for ${creds.username}` : creds.kind === "client_credentials" ? ` for client ${creds.clientId}` : "";
      throw new SvcApiError({
        status: err.status,
        errors: err.errors,
        method: err.method,
        path: err.path,
        requestId: err.requestId,
        retryable: false,
        detail: `login refused (${grant === "edge" ? "edge token endpoint" : `${grant} grant`}${who}): ${err.detail}; ${loginHint(creds.kind, this.config.names)}`,
        endpointId: err.endpointId,
      });
    }
  }

  private log(type: string, message: string, extra: Record<string, unknown> = {}): void {
    const logger = this.config.logger;
    if (!logger) return;
    try {
      logger({ ...extra, type, message: this.secrets.scrub(message) });
    } catch {
      // A failing logger must not fail the call.
    }
  }
}

/** The same failure, no longer retryable, its detail followed by the advice. */
function maybeApplied(error: Failure["error"], advice: string): Failure["error"] {
  const init = { method: error.method, path: error.path, requestId: error.requestId, retryable: false, detail: `${error.detail}; ${advice}`, endpointId: error.endpointId };
  if (error instanceof SvcApiError) return new SvcApiError({ ...init, status: error.status, errors: error.errors });
  // The class of the failure it was.
  const Same = error.constructor as new (init: SvcNetworkErrorInit) => SvcNetworkError;
  return new Same({ ...init, causeCode: error.causeCode });
}

/**
 * The typed methods of one area for one client or view, made at the first use of the area and kept
 * with that object: a view (`withDefaults`, made for every create of the provider) costs nothing
 * until its areas are used, and never rebuilds the methods of areas it does not use.
 */
const areaMethods = new WeakMap<SvcClient, Map<string, Readonly<Record<string, unknown>>>>();

function areaOf(client: SvcClient, areaName: string): Readonly<Record<string, unknown>> {
  let built = areaMethods.get(client);
  if (!built) {
    built = new Map();
    areaMethods.set(client, built);
  }
  let methods = built.get(areaName);
  if (!methods) {
    const made: Record<string, unknown> = {};
    for (const [op, ep] of Object.entries((areas as Record<string, Record<string, AnyEndpoint>>)[areaName])) {
      const method = (input?: RawInput, options?: CallOptions) => client.call(ep, input as never, options);
      // A real name keeps the method recognisable in stack traces.
      Object.defineProperty(method, "name", { value: `${areaName}.${op}` });
      made[op] = method;
    }
    methods = Object.freeze(made);
    built.set(areaName, methods);
  }
  return methods;
}

for (const areaName of Object.keys(areas)) {
  Object.defineProperty(SvcClient.prototype, areaName, {
    get(this: SvcClient) {
      return areaOf(this, areaName);
    },
    enumerable: true,
    configurable: false,
  });
}
