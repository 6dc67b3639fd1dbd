/**
 * Turns an endpoint and a call's input into the wire form: path values percent-encoded in full,
 * query arrays as repeated `key[]` entries, and the body in the endpoint's encoding.
 */
import { Blob } from "node:buffer";
import type * as Undici from "undici";
import type { FormData } from "undici";
import { fillPath, isOutsideApiRoot, type AnyEndpoint } from "../api/endpoint";

export const API_ROOT = "/api/v4";

export interface UploadFile {
  name: string;
  data: Buffer | Uint8Array;
  contentType?: string;
}

export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  file?: UploadFile;
}

export { isOutsideApiRoot };

/** The path with its `{param}` placeholders filled, relative to the API root (as errors show it). */
export { fillPath };

function scalar(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object" && v !== null) return JSON.stringify(v);
  return String(v);
}

/** `?a=1&list[]=x&list[]=y`; undefined and null entries are left out. */
export function encodeQuery(query: unknown): string {
  if (query === undefined || query === null) return "";
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      const key = k.endsWith("[]") ? k : `${k}[]`;
      for (const x of v) if (x !== undefined && x !== null) p.append(key, scalar(x));
    } else {
      p.append(k, scalar(v));
    }
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

export interface EncodedBody {
  body?: string | FormData;
  contentType?: string;
}

function formFields(body: unknown): Array<[string, string]> {
  if (body === undefined || body === null) return [];
  return Object.entries(body as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => [k, scalar(v)]);
}

export function encodeBody(ep: AnyEndpoint, input: RawInput): EncodedBody {
  switch (ep.bodyKind) {
    case "none":
      return {};
    case "json":
      return input.body === undefined ? {} : { body: JSON.stringify(input.body), contentType: "application/json" };
    case "form":
      return { body: new URLSearchParams(formFields(input.body)).toString(), contentType: "application/x-www-form-urlencoded" };
    case "multipart": {
      // undici sets the content type with its boundary. Its FormData is loaded here, at the first
      // upload, not with the client (see transport.ts: the provider host loads only undici's Pool).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const form: FormData = new (require("undici") as typeof Undici).FormData();
      for (const [k, v] of formFields(input.body)) form.append(k, v);
      if (input.file) {
        const type = input.file.contentType ?? "application/octet-stream";
        form.append("file", new Blob([input.file.data], { type }), input.file.name);
      }
      return { body: form };
    }
  }
}

/** What a successful answer is expected to be, for the Accept header. */
export function acceptFor(ep: AnyEndpoint): string {
  return ep.success.kind === "json" || ep.success.kind === "empty" ? "application/json" : "*/*";
}
