/** Turns query strings and bodies into validated values, and zod failures into 400s naming the field. */
import type { z } from "zod";
import { renderPath } from "../api/common";
import { errors } from "../api/errors";

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; shape?: Record<string, z.ZodType>; element?: z.ZodType };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Unwraps optional/default/nullable/pipe wrappers to the schema that decides the value's shape. */
export function baseSchema(s: z.ZodType): z.ZodType {
  let cur = s;
  for (let i = 0; i < 10; i++) {
    const d = defOf(cur);
    if (d.innerType && ["optional", "default", "nullable", "prefault", "catch", "readonly", "nonoptional"].includes(d.type)) cur = d.innerType;
    else if (d.type === "pipe" && d.in) cur = d.in;
    else break;
  }
  return cur;
}

export function objectShape(s: z.ZodType | undefined): Record<string, z.ZodType> {
  if (!s) return {};
  const b = baseSchema(s);
  const d = defOf(b);
  return d.type === "object" ? (b as unknown as z.ZodObject).shape : {};
}

/** One message per zod issue (the first 20), each naming the field's path from `root`. */
export function issuesToMessages(root: string, error: z.ZodError): string[] {
  return error.issues.slice(0, 20).map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return `${renderPath(root, issue.path)}: unknown field(s) ${issue.keys.map((k) => `'${k}'`).join(", ")}`;
    }
    const where = renderPath(root, issue.path);
    // zod leaves the input out of its issues, so a missing value is told by the message's end; a
    // value of the wrong type keeps zod's "expected X, received Y".
    const msg = issue.message.startsWith("Invalid input: expected")
      ? issue.message.endsWith("received undefined")
        ? "is required"
        : issue.message.slice("Invalid input: ".length)
      : issue.message;
    return `${where}: ${msg}`;
  });
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * An explicit `null` on a field whose schema refuses null (or that the schema does not know) counts
 * as the field left out (facts §1.1: the vendor's previous client sends every field it has no value
 * for as null, its own extra fields included). Objects and array items nested in the body are
 * cleaned the same way where the schema gives their shape; free-form objects pass untouched, and a
 * field declared nullable keeps its null.
 */
export function withoutNulls(schema: z.ZodType, value: unknown): unknown {
  const base = baseSchema(schema);
  const d = defOf(base);
  if (d.type === "array" && d.element && Array.isArray(value)) return value.map((v) => withoutNulls(d.element!, v));
  if (d.type !== "object" || !isPlainObject(value)) return value;
  const shape = objectShape(base);
  const kept: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(value)) {
    const field = Object.prototype.hasOwnProperty.call(shape, k) ? shape[k] : undefined;
    if (v !== null) kept.push([k, field ? withoutNulls(field, v) : v]);
    else if (field?.safeParse(null).success) kept.push([k, v]);
  }
  // fromEntries defines each key as an own property: a `__proto__` key stays data.
  return Object.fromEntries(kept);
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw errors.VALIDATION_FAILED(...issuesToMessages(root, r.error));
  return r.data;
}

/**
 * Builds the object a query schema validates: `key[]` and repeated keys make arrays where the schema
 * wants an array; a scalar given twice is an error; a parameter the endpoint does not take is an error.
 */
export function queryObject(params: URLSearchParams, schema: z.ZodType | undefined): Record<string, unknown> {
  const shape = objectShape(schema);
  const grouped = new Map<string, string[]>();
  for (const [rawKey, value] of params) {
    const key = rawKey.endsWith("[]") ? rawKey.slice(0, -2) : rawKey;
    const list = grouped.get(key);
    if (list) list.push(value);
    else grouped.set(key, [value]);
  }
  const out: Record<string, unknown> = {};
  for (const [key, values] of grouped) {
    const field = Object.prototype.hasOwnProperty.call(shape, key) ? shape[key] : undefined;
    if (!field) {
      const allowed = Object.keys(shape);
      throw errors.VALIDATION_FAILED(`query.${key}: unknown parameter` + (allowed.length ? ` (allowed: ${allowed.join(", ")})` : " (this operation takes no query parameters)"));
    }
    if (defOf(baseSchema(field)).type === "array") {
      out[key] = values;
    } else {
      if (values.length > 1) throw errors.VALIDATION_FAILED(`query.${key}: expected one value, got ${values.length}`);
      out[key] = values[0];
    }
  }
  return out;
}
