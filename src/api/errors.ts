/**
 * The error catalog: every kind of error the API answers, each with its stable `error_code`, its HTTP
 * status and the form of its message. The platform's own `error_code` values are not known (facts
 * §1.3), so these are ours: the HTTP status followed by a two-digit number. The emulator raises its
 * errors only through the catalog; the client reads the same codes.
 */
import type { ErrorBody } from "./common";

/** An error with the spec's shape from the moment it is raised. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly messages: string[],
    /** Sent instead of the spec's error body (the OIDC endpoints add OAuth2's `error` fields to it). */
    readonly body?: unknown,
  ) {
    super(messages.join("; "));
    this.name = "ApiError";
  }

  toBody(): ErrorBody {
    return { errors: [{ error_code: this.code, http_status_code: this.status, message: this.messages }] };
  }

  /** The same kind of error (code and status) with other messages. */
  withMessages(messages: string[]): ApiError {
    return new ApiError(this.status, this.code, messages);
  }

  /** The same error, answered with `body` instead of the spec's error body. */
  withBody(body: unknown): ApiError {
    return new ApiError(this.status, this.code, this.messages, body);
  }
}

/** One kind of error: called with its message's arguments, it makes the error. */
export interface ErrorKind<A extends unknown[] = string[]> {
  (...args: A): ApiError;
  readonly code: number;
  readonly status: number;
  /** What the error means, in a few words. */
  readonly meaning: string;
}

function kind<A extends unknown[]>(code: number, status: number, meaning: string, message: (...args: A) => string[]): ErrorKind<A> {
  const make = (...args: A) => new ApiError(status, code, message(...args));
  return Object.assign(make, { code, status, meaning });
}

/** Messages as given: each one `<field>: <problem>` where a field is at fault. */
const asGiven = (...messages: string[]) => messages;

export const errors = {
  VALIDATION_FAILED: kind(40001, 400, "a value of the request breaks its field's rules", asGiven),
  MALFORMED_BODY: kind(40002, 400, "the body cannot be read in its content type", asGiven),
  BAD_REQUEST: kind(40003, 400, "the request cannot be carried out as sent", asGiven),
  UNAUTHORIZED: kind(40101, 401, "no valid credentials", (message: string) => [message]),
  TOKEN_EXPIRED: kind(40102, 401, "the token has expired", (message: string) => [message]),
  INVALID_GRANT: kind(40103, 401, "a token endpoint refused the credentials", (message: string) => [message]),
  FORBIDDEN: kind(40301, 403, "the caller lacks a permission the operation needs", asGiven),
  NOT_FOUND: kind(40401, 404, "a record the request names does not exist", asGiven),
  ROUTE_NOT_FOUND: kind(40402, 404, "no operation at this path", (method: string, path: string, apiRoot: string) => [
    `no operation at ${method} ${path}; the API lives under ${apiRoot} (see ${apiRoot}/openapi.json)`,
  ]),
  METHOD_NOT_ALLOWED: kind(40501, 405, "the path takes other methods", asGiven),
  NOT_ACCEPTABLE: kind(40601, 406, "the operation cannot be applied in the records' state", asGiven),
  REQUEST_TIMEOUT: kind(40801, 408, "the request did not arrive in time", () => ["the request was not received in time"]),
  CONFLICT: kind(40901, 409, "the request conflicts with the records as they are", asGiven),
  PRECONDITION_FAILED: kind(41201, 412, "a condition the request carries no longer holds", asGiven),
  PAYLOAD_TOO_LARGE: kind(41301, 413, "the body is larger than the limit", (limit: number) => [`body: larger than the limit of ${limit} bytes`]),
  UNSUPPORTED_MEDIA_TYPE: kind(41501, 415, "the body's content type is not one the operation takes", asGiven),
  FAILED_DEPENDENCY: kind(42401, 424, "something the operation needs is not there yet", asGiven),
  TOO_MANY_REQUESTS: kind(42901, 429, "too many requests", asGiven),
  HEADERS_TOO_LARGE: kind(43101, 431, "the request line and headers are larger than the limit", (limit: number) => [
    `request line and headers are larger than the limit of ${limit} bytes; shorten the path or the query string`,
  ]),
  INTERNAL: kind(50001, 500, "internal error", asGiven),
  NOT_IMPLEMENTED: kind(50101, 501, "the operation is not supported for this record", asGiven),
  BAD_GATEWAY: kind(50201, 502, "bad gateway", asGiven),
  UNAVAILABLE: kind(50301, 503, "service unavailable", asGiven),
  GATEWAY_TIMEOUT: kind(50401, 504, "gateway timeout", asGiven),
} as const;

export type ErrorCodeName = keyof typeof errors;

/** The `error_code` of each kind, by name. */
export const ErrorCode = Object.fromEntries(Object.entries(errors).map(([name, k]) => [name, k.code])) as {
  readonly [N in ErrorCodeName]: (typeof errors)[N]["code"];
};

/** The name of the kind an `error_code` belongs to, or undefined for a code outside the catalog. */
export function errorKindOf(code: number): ErrorCodeName | undefined {
  return (Object.keys(errors) as ErrorCodeName[]).find((name) => errors[name].code === code);
}

/**
 * Runs `op`, answering an error of status `from` it raises as `to`, with the same messages: for an
 * operation whose table does not list `from`, where a rule shared with operations that do raised it.
 */
export function answeredAs<T>(from: number, to: ErrorKind, op: () => T): T {
  try {
    return op();
  } catch (err) {
    if (err instanceof ApiError && err.status === from) throw to(...err.messages);
    throw err;
  }
}

// Named forms of the kinds most handlers raise.
export const badRequest = errors.BAD_REQUEST;
/** A field-level validation failure: `field` is the wire path (`body.runtime.resources[0].resource`). */
export const invalidField = (field: string, problem: string) => errors.VALIDATION_FAILED(`${field}: ${problem}`);
export const notFound = (kind: string, id: string) => errors.NOT_FOUND(`${kind} '${id}' not found`);
export const conflict = errors.CONFLICT;
export const forbidden = errors.FORBIDDEN;
export const preconditionFailed = errors.PRECONDITION_FAILED;
export const notAcceptable = errors.NOT_ACCEPTABLE;
export const failedDependency = errors.FAILED_DEPENDENCY;
export const notImplemented = errors.NOT_IMPLEMENTED;
