/**
 * The client's errors. Every message is one line a person can act on: what was called, what the
 * server (or the network) answered, and the request id to quote. No message carries a secret.
 */

/** One entry of the spec's error body. */
export interface ApiErrorEntry {
  error_code: number;
  http_status_code: number;
  message: string[];
}

export interface SvcApiErrorInit {
  /** HTTP status; 0 when no answer arrived (connection reset, timeout). */
  status: number;
  errors?: ApiErrorEntry[];
  method: string;
  /** Path as called, relative to the API root (`/orchestration/clusters/create`). */
  path: string;
  requestId?: string;
  retryable: boolean;
  /** What went wrong, already free of secrets. */
  detail: string;
  endpointId?: string;
}

/** A non-2xx answer, or a request that got no answer. */
export class SvcApiError extends Error {
  readonly status: number;
  /** The first entry's `error_code`, when the server sent the spec's error body. */
  readonly code?: number;
  readonly errors: ApiErrorEntry[];
  readonly method: string;
  readonly path: string;
  readonly requestId?: string;
  /** True when repeating the same request later may succeed (429, 502, 503, 504, network failures). */
  readonly retryable: boolean;
  readonly endpointId?: string;
  /** The message without the method, path and request id around it. */
  readonly detail: string;

  constructor(init: SvcApiErrorInit) {
    const status = init.status === 0 ? "no answer" : String(init.status);
    const request = init.requestId ? ` (request ${init.requestId})` : "";
    super(`${init.method} ${init.path} → ${status}: ${init.detail}${request}`);
    this.name = "SvcApiError";
    this.status = init.status;
    this.errors = init.errors ?? [];
    this.code = this.errors[0]?.error_code;
    this.method = init.method;
    this.path = init.path;
    this.requestId = init.requestId;
    this.retryable = init.retryable;
    this.endpointId = init.endpointId;
    this.detail = init.detail;
  }
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
