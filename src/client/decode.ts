/**
 * Turns an answer into a result or an error: success bodies are decoded by the endpoint's kind and
 * checked against its schema; error bodies become SvcApiError with the server's messages.
 */
import type { z } from "zod";
import { part1Shapes } from "../api/common";
import type { AnyEndpoint } from "../api/endpoint";
import { SvcApiError, SvcResponseError, type ApiErrorEntry, type ResponseIssue } from "./errors";
import type { Secrets } from "./redact";
import type { WireResponse } from "./transport";

/** `data[3].created` from zod's path segments. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out;
}

function issuesOf(error: z.ZodError): ResponseIssue[] {
  return error.issues.map((i) => ({ path: formatIssuePath(i.path), message: i.message.replace(/^Invalid input: /, "") }));
}

function parseJson(ep: AnyEndpoint, res: WireResponse, requestId: string | undefined): unknown {
  try {
    return JSON.parse(res.body.toString("utf8"));
  } catch {
    throw new SvcResponseError(ep.id, [{ path: "", message: `not valid JSON (${res.body.length} bytes, content-type ${res.headers["content-type"] ?? "none"})` }], requestId);
  }
}

/** One JSON value per line; `schema` describes one line. */
function parseNdjson(ep: AnyEndpoint, res: WireResponse, requestId: string | undefined, schema: z.ZodType | undefined): unknown[] {
  const out: unknown[] = [];
  const lines = res.body.toString("utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new SvcResponseError(ep.id, [{ path: `line ${i + 1}`, message: "not valid JSON" }], requestId);
    }
    if (schema) {
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        const issues = issuesOf(parsed.error).map((x) => ({ ...x, path: `line ${i + 1}${x.path ? ` ${x.path}` : ""}` }));
        throw new SvcResponseError(ep.id, issues, requestId);
      }
      value = parsed.data;
    }
    out.push(value);
  }
  return out;
}

/** Validates a decoded body against a schema; the parsed value (defaults applied) is the result. */
export function validateBody(endpointId: string, schema: z.ZodType, value: unknown, requestId?: string): unknown {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SvcResponseError(endpointId, issuesOf(parsed.error), requestId);
  return parsed.data;
}

/**
 * The result of a 2xx answer. Only an answer with the endpoint's declared success status is checked
 * against the declared schema; another 2xx (a 202 "still being prepared") is returned as decoded.
 */
export function decodeSuccess(ep: AnyEndpoint, res: WireResponse, requestId: string | undefined, validate = true): unknown {
  const kind = ep.success.kind;
  if (kind === "empty" || res.status === 204) return undefined;
  if (kind === "binary") return res.body;
  if (kind === "text" || kind === "yaml") return res.body.toString("utf8");
  if (kind === "ndjson") return parseNdjson(ep, res, requestId, validate ? ep.success.body : undefined);
  const part1 = part1Answer(ep, res, requestId, validate);
  if (part1) return part1.value;
  if (res.body.length === 0) {
    if (res.status === ep.success.status && ep.success.body && validate) {
      throw new SvcResponseError(ep.id, [{ path: "", message: "empty, a JSON body was expected" }], requestId);
    }
    return undefined;
  }
  const value = parseJson(ep, res, requestId);
  if (!validate || !ep.success.body || res.status !== ep.success.status) return value;
  return validateBody(ep.id, ep.success.body, value, requestId);
}

/**
 * A list answers in the shape its `pagination_type` asked for, told by the content type: the
 * limits page (`{ data, pagination: { page, total_pages, total_items } }`) or a stream, returned as
 * `{ data }` with every line checked against the item schema. The cursor page is the table's own.
 */
function part1Answer(ep: AnyEndpoint, res: WireResponse, requestId: string | undefined, validate: boolean): { value: unknown } | undefined {
  if (!ep.list || !ep.success.body) return undefined;
  const type = String(res.headers["content-type"] ?? "");
  const limits = type.includes("x-json-limits");
  if (!limits && !type.includes("x-json-stream")) return undefined;
  const shapes = part1Shapes(ep.success.body);
  if (!shapes) return undefined;
  if (!limits) return { value: { data: parseNdjson(ep, res, requestId, validate ? shapes.item : undefined) } };
  const value = parseJson(ep, res, requestId);
  return { value: validate ? validateBody(ep.id, shapes.limits, value, requestId) : value };
}

function isErrorEntry(v: unknown): v is ApiErrorEntry {
  const e = v as ApiErrorEntry;
  return !!e && typeof e === "object" && Array.isArray(e.message) && e.message.every((m) => typeof m === "string");
}

/** The spec's error entries of a body, if it has them. */
function errorEntries(res: WireResponse): ApiErrorEntry[] | undefined {
  const type = String(res.headers["content-type"] ?? "");
  if (!/json/.test(type) || res.body.length === 0) return undefined;
  try {
    const body = JSON.parse(res.body.toString("utf8")) as { errors?: unknown; error_description?: unknown };
    if (Array.isArray(body?.errors) && body.errors.every(isErrorEntry)) {
      return body.errors.map((e) => ({
        error_code: typeof e.error_code === "number" ? e.error_code : 0,
        http_status_code: typeof e.http_status_code === "number" ? e.http_status_code : res.status,
        message: e.message,
      }));
    }
    // Plain OAuth2 error bodies (a real identity provider's token endpoint).
    if (typeof body?.error_description === "string") {
      return [{ error_code: 0, http_status_code: res.status, message: [body.error_description] }];
    }
  } catch {
    // Not JSON after all: described from the text below.
  }
  return undefined;
}

const REASONS: Record<number, string> = {
  400: "bad request",
  401: "not authenticated",
  403: "forbidden",
  404: "not found",
  409: "conflict",
  429: "too many requests",
  500: "internal server error",
  502: "bad gateway",
  503: "service unavailable",
  504: "gateway timeout",
};

/** A short, one-line description of a body that is not the spec's error body (a proxy's page). */
function describeOther(res: WireResponse): string {
  const reason = REASONS[res.status] ?? "error";
  const text = res.body
    .toString("utf8")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text ? `${reason}: ${text.length > 200 ? text.slice(0, 200) + "…" : text}` : reason;
}

export interface ErrorContext {
  ep: AnyEndpoint;
  method: string;
  path: string;
  requestId?: string;
  retryable: boolean;
  secrets: Secrets;
}

export function apiErrorFrom(res: WireResponse, ctx: ErrorContext): SvcApiError {
  const errors = errorEntries(res)?.map((e) => ({ ...e, message: e.message.map((m) => ctx.secrets.scrub(m)) }));
  const detail = errors && errors.length > 0 ? errors.flatMap((e) => e.message).join("; ") : describeOther(res);
  const answeredId = res.headers["x-request-id"];
  return new SvcApiError({
    status: res.status,
    errors,
    method: ctx.method,
    path: ctx.path,
    requestId: typeof answeredId === "string" ? answeredId : ctx.requestId,
    retryable: ctx.retryable,
    detail: ctx.secrets.scrub(detail),
    endpointId: ctx.ep.id,
  });
}
