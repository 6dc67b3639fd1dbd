/**
 * Request bodies: read within a size limit, then decoded by the endpoint's body kind (JSON, form,
 * multipart upload, or none) into the value its schema validates.
 */
import type { IncomingMessage } from "node:http";
import busboy from "busboy";
import type { AnyEndpoint } from "../api/endpoint";
import { errors } from "../api/errors";
import type { UploadedFile } from "./handler";

/** The largest body of a request other than an upload, in bytes. */
export const JSON_LIMIT = 1024 * 1024;
const UPLOAD_LIMIT = 64 * 1024 * 1024;

/** The largest body an endpoint takes, in bytes. */
export const bodyLimit = (ep: AnyEndpoint): number => (ep.bodyKind === "multipart" ? UPLOAD_LIMIT : JSON_LIMIT);

/** A body past its limit: answered 413 (and the connection closed, as the rest is not read). */
export class BodyTooLarge extends Error {}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
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
  return String(req.headers["content-type"] ?? "")
    .split(";")[0]
    .trim()
    .toLowerCase();
}

/**
 * Deepest nesting of arrays and objects a request body may have. Every layer after validation
 * (freezing, the audit log, persistence, serialization) walks values recursively, so nesting is
 * bounded before any of them runs; the deepest legitimate body (an asset hierarchy of 64 levels,
 * which its schema bounds itself) needs ~130.
 */
export const MAX_BODY_DEPTH = 256;

/** True when `value` nests arrays and objects deeper than `max` (iterative: no recursion to overflow). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
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
    throw errors.MALFORMED_BODY(`body: malformed JSON (${(e as Error).message})`);
  }
}

function parseMultipart(req: IncomingMessage, raw: Buffer): Promise<{ files: UploadedFile[]; fields: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 4, fileSize: UPLOAD_LIMIT, fields: 20 } });
    } catch {
      reject(errors.MALFORMED_BODY("body: malformed multipart/form-data (missing boundary)"));
      return;
    }
    const files: UploadedFile[] = [];
    const fields: Record<string, string> = Object.create(null);
    const malformed = () => reject(errors.MALFORMED_BODY("body: malformed multipart/form-data"));
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
export async function decodeBody(req: IncomingMessage, ep: AnyEndpoint, raw: Buffer): Promise<{ body: unknown; files: UploadedFile[] }> {
  const type = mediaType(req);
  if (ep.bodyKind === "multipart") {
    if (type !== "multipart/form-data") {
      throw errors.UNSUPPORTED_MEDIA_TYPE("body: send the file as multipart/form-data");
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
    throw errors.UNSUPPORTED_MEDIA_TYPE(
      `body: unsupported content type '${type}'; send application/json` + (ep.bodyKind === "form" ? " or application/x-www-form-urlencoded" : ""),
    );
  }
  if (ep.bodyKind === "none") {
    // Operations without a body tolerate an empty JSON object, as generic clients send one.
    const v = parseJson(raw);
    if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0) return { body: undefined, files: [] };
    throw errors.VALIDATION_FAILED("body: this operation takes no body");
  }
  return { body: parseJson(raw), files: [] };
}
