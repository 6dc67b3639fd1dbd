/**
 * The error catalog: one stable `error_code` per kind of error (the platform's own values are not
 * known, so these are ours), shared by the emulator that raises them and the client that reads them.
 */
import type { ErrorBody } from "./common";

export const ErrorCode = {
  VALIDATION_FAILED: 40001,
  MALFORMED_BODY: 40002,
  BAD_REQUEST: 40003,
  UNAUTHORIZED: 40101,
  TOKEN_EXPIRED: 40102,
  INVALID_GRANT: 40103,
  FORBIDDEN: 40301,
  NOT_FOUND: 40401,
  ROUTE_NOT_FOUND: 40402,
  METHOD_NOT_ALLOWED: 40501,
  NOT_ACCEPTABLE: 40601,
  CONFLICT: 40901,
  PRECONDITION_FAILED: 41201,
  PAYLOAD_TOO_LARGE: 41301,
  UNSUPPORTED_MEDIA_TYPE: 41501,
  HEADERS_TOO_LARGE: 43101,
  FAILED_DEPENDENCY: 42401,
  TOO_MANY_REQUESTS: 42901,
  INTERNAL: 50001,
  NOT_IMPLEMENTED: 50101,
  BAD_GATEWAY: 50201,
  UNAVAILABLE: 50301,
  GATEWAY_TIMEOUT: 50401,
} as const;
export type ErrorCodeName = keyof typeof ErrorCode;

/** An error with the spec's shape from the moment it is raised. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly messages: string[],
    /** Per-item results for a 207 answer. */
    readonly body?: unknown,
  ) {
    super(messages.join("; "));
    this.name = "ApiError";
  }

  toBody(): ErrorBody {
    return { errors: [{ error_code: this.code, http_status_code: this.status, message: this.messages }] };
  }
}

export const badRequest = (...messages: string[]) => new ApiError(400, ErrorCode.BAD_REQUEST, messages);
/** A field-level validation failure: `field` is the wire path (`body.runtime.resources[0].resource`). */
export const invalidField = (field: string, problem: string) =>
  new ApiError(400, ErrorCode.VALIDATION_FAILED, [`${field}: ${problem}`]);
export const notFound = (kind: string, id: string) =>
  new ApiError(404, ErrorCode.NOT_FOUND, [`${kind} '${id}' not found`]);
export const conflict = (...messages: string[]) => new ApiError(409, ErrorCode.CONFLICT, messages);
export const forbidden = (...messages: string[]) => new ApiError(403, ErrorCode.FORBIDDEN, messages);
export const preconditionFailed = (...messages: string[]) =>
  new ApiError(412, ErrorCode.PRECONDITION_FAILED, messages);
export const notAcceptable = (...messages: string[]) => new ApiError(406, ErrorCode.NOT_ACCEPTABLE, messages);
export const failedDependency = (...messages: string[]) => new ApiError(424, ErrorCode.FAILED_DEPENDENCY, messages);
export const notImplemented = (...messages: string[]) => new ApiError(501, ErrorCode.NOT_IMPLEMENTED, messages);
