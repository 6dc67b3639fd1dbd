/**
 * The client's errors: a class per kind of failure, so that callers test classes (and, for the network
 * failures, a stable `code`), never messages or magic values. Every message is one line a person can
 * act on: what was called, what the server (or the network) answered, and the request id to quote. No
 * message carries a secret.
 */

/** One entry of the spec's error body. */
export interface ApiErrorEntry {
  error_code: number;
  http_status_code: number;
  message: string[];
}

/** What every failed call names: the request, as the caller can quote it. */
interface FailedRequest {
  method: string;
  /** Path as called, relative to the API root (`/orchestration/clusters/create`). */
  path: string;
  requestId?: string;
  /** True when repeating the same request later may succeed. */
  retryable: boolean;
  /** What went wrong, already free of secrets. */
  detail: string;
  endpointId?: string;
}

/**
 * A call that failed, answered ({@link SvcApiError}) or not ({@link SvcNetworkError}); its message is
 * `METHOD /path → what: detail (request id)`.
 */
export abstract class SvcCallError extends Error {
  readonly method: string;
  readonly path: string;
  readonly requestId?: string;
  /** True when repeating the same request later may succeed (429, 502, 503, 504, network failures). */
  readonly retryable: boolean;
  readonly endpointId?: string;
  /** The message without the method, path and request id around it. */
  readonly detail: string;

  protected constructor(init: FailedRequest, what: string) {
    super(`${init.method} ${init.path} → ${what}: ${init.detail}${init.requestId ? ` (request ${init.requestId})` : ""}`);
    this.name = new.target.name;
    this.method = init.method;
    this.path = init.path;
    this.requestId = init.requestId;
    this.retryable = init.retryable;
    this.endpointId = init.endpointId;
    this.detail = init.detail;
  }
}

export interface SvcApiErrorInit extends FailedRequest {
  /** HTTP status of the answer. */
  status: number;
  errors?: ApiErrorEntry[];
}

/** The server answered with a status other than 2xx. A request that got no answer is an {@link SvcNetworkError}. */
export class SvcApiError extends SvcCallError {
  readonly status: number;
  /** The first entry's `error_code`, when the server sent the spec's error body. */
  readonly code?: number;
  readonly errors: ApiErrorEntry[];

  constructor(init: SvcApiErrorInit) {
    super(init, String(init.status));
    this.status = init.status;
    this.errors = init.errors ?? [];
    this.code = this.errors[0]?.error_code;
  }
}

export interface SvcNetworkErrorInit extends FailedRequest {
  /** The system's or undici's code of the failure (`ECONNREFUSED`, `UND_ERR_SOCKET`), when it gave one. */
  causeCode?: string;
}

/** The stable code of each way a request can get no answer (see the subclasses). */
export type SvcNetworkErrorCode = "SVC_ERR_CONNECT" | "SVC_ERR_CONNECTION_RESET" | "SVC_ERR_TIMEOUT" | "SVC_ERR_REQUEST";

/**
 * A request that got no answer: one class per way it failed, each with a stable `code`, so that
 * callers test the class or the code, never a message. Retried by the client (but SvcRequestError)
 * before it is thrown.
 */
export abstract class SvcNetworkError extends SvcCallError {
  abstract readonly code: SvcNetworkErrorCode;
  /** Whether the server may have received (and acted on) the request. */
  abstract readonly maybeSent: boolean;
  readonly causeCode?: string;

  constructor(init: SvcNetworkErrorInit) {
    super(init, "no answer");
    this.causeCode = init.causeCode;
  }
}

/** `SVC_ERR_CONNECT`: no connection was made (refused, unknown host, unreachable, connect timeout); the request was not sent. */
export class SvcConnectError extends SvcNetworkError {
  readonly code = "SVC_ERR_CONNECT";
  readonly maybeSent = false;
}

/** `SVC_ERR_CONNECTION_RESET`: the connection broke after the request may have been written. */
export class SvcConnectionResetError extends SvcNetworkError {
  readonly code = "SVC_ERR_CONNECTION_RESET";
  readonly maybeSent = true;
}

/** `SVC_ERR_TIMEOUT`: no complete answer within the timeout; the server may still be working on the request. */
export class SvcTimeoutError extends SvcNetworkError {
  readonly code = "SVC_ERR_TIMEOUT";
  readonly maybeSent = true;
}

/** `SVC_ERR_REQUEST`: the request could not be sent (the client was closed, or undici refused it); never retried. */
export class SvcRequestError extends SvcNetworkError {
  readonly code = "SVC_ERR_REQUEST";
  readonly maybeSent = false;
}

/** The client was configured wrongly: the message names the option and its environment variable. */
export class SvcConfigError extends Error {
  constructor(message: string) {
    super(`SvcClient: ${message}`);
    this.name = "SvcConfigError";
  }
}

export interface ResponseIssue {
  /** Field path in the answer, e.g. `data[3].created`; empty for the whole body. */
  path: string;
  message: string;
}

/** A 2xx answer whose body does not match the endpoint's declared success schema. */
export class SvcResponseError extends Error {
  constructor(
    readonly endpointId: string,
    readonly issues: ResponseIssue[],
    readonly requestId?: string,
  ) {
    const first = issues[0];
    const where = first.path ? `response field ${first.path}` : "response body";
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : "";
    const request = requestId ? ` (request ${requestId})` : "";
    super(`${endpointId}: ${where}: ${first.message}${more}${request}`);
    this.name = "SvcResponseError";
  }
}
