/**
 * Generators of requests for the fuzzer. Plausible values come from each endpoint's own zod schemas
 * (through their JSON Schema), so a good share of the requests pass validation and reach the
 * handlers; hostile values and mutations (wrong types, huge and odd strings, `__proto__` keys, bad
 * dates, KRNs and versions, extreme numbers) are mixed in everywhere.
 */
import fc from "fast-check";
import { z } from "zod";
import type { AnyEndpoint } from "../../src/api/endpoint";
import { pathOf, SEEDED, type RawRequest } from "./helpers";

type Schema = Record<string, unknown>;

/** encodeURIComponent, with lone surrogates (which UTF-8 cannot carry) replaced by U+FFFD. */
const enc = (s: string): string => encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"));

export function jsonSchemaOf(s: z.ZodType | undefined): Schema | undefined {
  if (!s) return undefined;
  return z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "draft-2020-12" });
}

// ---------------------------------------------------------------------------------------------
// Hostile values

/** `__proto__`-keyed data as JSON.parse makes it: an own property, not a prototype. */
export const protoPayload = (): Record<string, unknown> =>
  JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}') as Record<string, unknown>;

export const HOSTILE_STRINGS = [
  "",
  " ",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "..",
  "../../etc/passwd",
  "a/b",
  "\u0000",
  "nul\u0000byte",
  "😀",
  "e\u0301",
  "İSTANBUL",
  "\u202eevil",
  "\ud800",
  "NaN",
  "Infinity",
  "-Infinity",
  "-1",
  "1e309",
  "0x10",
  "null",
  "undefined",
  "true",
  "krn:",
  "krn:asset:",
  "krn::x",
  "KRN:ASSET:X",
  "krn:asset:UPPER",
  "krn:asset:a b",
  "1.0",
  "v1.0.0",
  "1.0.0-",
  "01.0.0",
  "1.0.0+++",
  "99999999999999999999.0.0",
  "2024-13-45T25:61:61Z",
  "2024-02-30T00:00:00Z",
  "0000-00-00",
  "2024-01-01",
  "2024-01-01T00:00:00",
  "9999-12-31T23:59:59.999999999Z",
  "+275760-09-13T00:00:00Z",
  "1h30x",
  "${jndi:ldap://x}",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "%00",
  "%",
  "\r\nX-Injected: 1",
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 65, max: 70_000 }).map((n) => "x".repeat(n)) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(-1, 0, -0, 0.5, -0.5, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 1e21, 1e308, -1e308, Number.MIN_VALUE, 1.7976931348623157e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [[[]]], [null], { "": "" }) },
  { weight: 1, arbitrary: fc.constant(null).map(() => protoPayload()) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "prototype", "zz_unknown", "", "😀", "name ", "NAME", "toString", "valueOf"),
  fc.string({ maxLength: 12 }),
);

// ---------------------------------------------------------------------------------------------
// Plausible values from a JSON Schema

const VERSIONS = [SEEDED.version, "0.0.1", "1.1.0", "2.0.0-beta.1"];
const DATE = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());

function resolveRef(ref: string, root: Schema): Schema {
  if (ref === "#") return root;
  const name = ref.replace(/^#\/\$defs\//, "");
  return (root.$defs as Record<string, Schema> | undefined)?.[name] ?? {};
}

/** fc.stringMatching is costly to build, and the schemas share a few patterns: built once per pattern. */
const matchingCache = new Map<string, fc.Arbitrary<string> | undefined>();
function matchingArbitrary(pattern: string): fc.Arbitrary<string> | undefined {
  if (!matchingCache.has(pattern)) {
    let arb: fc.Arbitrary<string> | undefined;
    try {
      arb = fc.stringMatching(new RegExp(pattern), { size: "xsmall" });
    } catch {
      arb = undefined; // a pattern fast-check cannot generate from: known names or free text stand in
    }
    matchingCache.set(pattern, arb);
  }
  return matchingCache.get(pattern);
}

function stringFor(schema: Schema, key: string, knownNames: string[]): fc.Arbitrary<string> {
  const max = typeof schema.maxLength === "number" ? schema.maxLength : 64;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const fits = (s: string) => s.length >= min && s.length <= max;
  if (schema.format === "date-time") return DATE;
  if (schema.format === "uuid") return fc.uuid();
  if (/version/.test(key)) return fc.constantFrom(...VERSIONS);
  const options: Array<fc.Arbitrary<string>> = [];
  if (typeof schema.pattern === "string") {
    let re: RegExp | undefined;
    try {
      re = new RegExp(schema.pattern);
    } catch {
      re = undefined;
    }
    if (re) {
      // Mostly the seeded name (references resolve), sometimes another seeded key or a fresh value.
      if (re.test(SEEDED.name) && fits(SEEDED.name)) options.push(fc.constant(SEEDED.name), fc.constant(SEEDED.name));
      const known = knownNames.filter((n) => re.test(n) && fits(n));
      if (known.length > 0) options.push(fc.constantFrom(...known));
      const matching = matchingArbitrary(schema.pattern);
      if (matching) options.push(matching.filter(fits), matching.filter(fits));
    }
  } else {
    const known = knownNames.filter(fits);
    if (known.length > 0) options.push(fc.constantFrom(...known));
    options.push(fc.string({ minLength: min, maxLength: Math.min(max, 20) }));
  }
  return options.length > 0 ? fc.oneof(...options) : fc.string({ minLength: min, maxLength: Math.min(max, 20) });
}

/** Values the schema accepts (mostly: refinements such as semver checks are not visible here). */
export function plausible(schema: Schema, root: Schema, knownNames: string[], key = "", depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === "string") return depth > 3 ? fc.constant({ name: SEEDED.name }) : plausible(resolveRef(schema.$ref, root), root, knownNames, key, depth + 1);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => plausible(s, root, knownNames, key, depth)));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return plausible(schema.allOf[0] as Schema, root, knownNames, key, depth);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((t) => plausible({ ...schema, type: t }, root, knownNames, key, depth)));
  switch (schema.type) {
    case "object": {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      if (Object.keys(props).length > 0) {
        const model = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, plausible(s, root, knownNames, k, depth + 1)]));
        return fc.record(model, { requiredKeys: required });
      }
      const extra = schema.additionalProperties;
      if (extra === false) return fc.constant({});
      const keySchema = (schema.propertyNames ?? {}) as Schema;
      const keys = keySchema.type === "string" ? stringFor(keySchema, "", knownNames).filter((k) => k.length > 0) : fc.constantFrom(SEEDED.name, "k", "rate");
      const values =
        extra && typeof extra === "object" && Object.keys(extra).length > 0 ? plausible(extra as Schema, root, knownNames, "", depth + 1) : fc.jsonValue({ maxDepth: 2 });
      return fc.dictionary(keys, values, { maxKeys: depth > 3 ? 0 : 3 });
    }
    case "array": {
      const items = (schema.items ?? {}) as Schema;
      const minLength = Math.min(typeof schema.minItems === "number" ? schema.minItems : 0, 3);
      const maxLength = Math.max(minLength, Math.min(typeof schema.maxItems === "number" ? schema.maxItems : 3, depth > 3 ? 0 : 3));
      return fc.array(plausible(items, root, knownNames, key, depth + 1), { minLength, maxLength });
    }
    case "string":
      return stringFor(schema, key, knownNames);
    case "integer": {
      const min = typeof schema.minimum === "number" ? schema.minimum : -1000;
      const max = typeof schema.maximum === "number" ? schema.maximum : 1000;
      return fc.integer({ min: Math.max(min, -1e9), max: Math.min(max, 1e9) });
    }
    case "number": {
      const min = typeof schema.minimum === "number" ? schema.minimum : -1e6;
      const max = typeof schema.maximum === "number" ? schema.maximum : 1e6;
      return fc.oneof(fc.integer({ min: Math.ceil(min), max: Math.floor(max) }), fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ---------------------------------------------------------------------------------------------
// Mutations of a plausible value

type Mutation = { kind: "replace" | "addKey" | "deleteKey" | "wrap" | "deep" | "none"; pick: number; key: string; value: unknown };

/** Stands for deeply nested arrays in a value; `toJson` expands it (JSON.stringify would overflow the stack). */
const DEEP_MARK = "\u0000deep-nesting\u0000";
const DEEP_DEPTHS = [300, 3_000, 30_000];

/** The JSON text of a generated value, with deep-nesting marks expanded. */
export function toJson(v: unknown): string {
  const text = JSON.stringify(v) ?? "null";
  return text.includes("deep-nesting") ? text.replace(/"\\u0000deep-nesting\\u0000(\d+)"/g, (_, i: string) => DEEP(DEEP_DEPTHS[Number(i) % DEEP_DEPTHS.length])) : text;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom<Mutation["kind"]>("replace", "replace", "addKey", "deleteKey", "wrap", "deep", "none"),
  pick: fc.nat(),
  key: hostileKey,
  value: hostileValue,
});

/** Every object and array inside `v` (the root included), at most 200. */
function containers(v: unknown, out: Array<{ node: object }> = []): Array<{ node: object }> {
  if (v && typeof v === "object" && out.length < 200) {
    out.push({ node: v });
    for (const x of Object.values(v)) containers(x, out);
  }
  return out;
}

/** Sets an own data property (a `__proto__` key becomes data, as JSON.parse makes it). */
function setOwn(o: object, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

export function applyMutation(value: unknown, m: Mutation): unknown {
  if (m.kind === "none") return value;
  if (m.kind === "wrap") return [value];
  if (m.kind === "deep") return applyMutation(value, { ...m, kind: "replace", value: `${DEEP_MARK}${m.pick % DEEP_DEPTHS.length}` });
  const copy = structuredClone(value);
  const nodes = containers(copy);
  if (nodes.length === 0) return m.kind === "replace" ? m.value : copy;
  const { node } = nodes[m.pick % nodes.length];
  const keys = Object.keys(node);
  if (m.kind === "addKey" && !Array.isArray(node)) setOwn(node, m.key, m.value);
  else if (m.kind === "deleteKey" && keys.length > 0) delete (node as Record<string, unknown>)[keys[m.pick % keys.length]];
  else if (keys.length > 0) setOwn(node, keys[m.pick % keys.length], m.value);
  else return m.value;
  return copy;
}

// ---------------------------------------------------------------------------------------------
// Whole requests

const DEEP = (n: number) => "[".repeat(n) + "]".repeat(n);
export const RAW_JSON_BODIES: Array<string | Buffer> = [
  "",
  "{",
  "[",
  "nul",
  '{"a":}',
  "\uFEFF{}",
  "{}garbage",
  "null",
  "1e999",
  '"text"',
  "[]",
  '{"a":"\\ud800"}',
  DEEP(10_000),
  `{"payload":${DEEP(5_000)}}`,
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  Buffer.from('{"name":"\xff\xfe"}', "latin1"),
];

const CONTENT_TYPES = [
  ...Array.from({ length: 12 }, () => "application/json"),
  "application/json; charset=utf-8",
  "application/merge-patch+json",
  "text/plain",
  "multipart/form-data",
  "",
];

function formEncode(v: unknown): string {
  if (!v || typeof v !== "object") return String(v);
  return Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${enc(k)}=${enc(typeof x === "string" ? x : JSON.stringify(x))}`)
    .join("&");
}

const BOUNDARY = "fuzzboundary42";
function multipart(parts: Array<{ name: string; filename?: string; data: string }>, close = true): string {
  const body = parts
    .map((p) => `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ""}\r\n\r\n${p.data}\r\n`)
    .join("");
  return body + (close ? `--${BOUNDARY}--\r\n` : "");
}

interface BodyChoice {
  body?: string | Buffer;
  contentType?: string;
}

function bodyArbitrary(ep: AnyEndpoint, knownNames: string[]): fc.Arbitrary<BodyChoice> {
  const schema = jsonSchemaOf(ep.body);
  const valid = schema ? plausible(schema, schema, knownNames) : fc.constant({});
  const value = fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 4, arbitrary: fc.tuple(valid, mutation).map(([v, m]) => applyMutation(v, m)) },
    { weight: 1, arbitrary: hostileValue },
  );
  const json = fc.tuple(value, fc.constantFrom(...CONTENT_TYPES)).map(([v, contentType]) => ({ body: toJson(v), contentType }));
  const raw = fc.tuple(fc.constantFrom(...RAW_JSON_BODIES), fc.constantFrom(...CONTENT_TYPES)).map(([body, contentType]) => ({ body, contentType }));
  switch (ep.bodyKind) {
    case "form":
      return fc.oneof(
        { weight: 5, arbitrary: value.map((v) => ({ body: formEncode(v), contentType: "application/x-www-form-urlencoded" })) },
        { weight: 2, arbitrary: json },
        {
          weight: 1,
          arbitrary: fc.constantFrom<BodyChoice>(
            { body: "a=%ZZ&&=&grant_type", contentType: "application/x-www-form-urlencoded" },
            { body: "__proto__[polluted]=yes&constructor[prototype][polluted]=yes", contentType: "application/x-www-form-urlencoded" },
          ),
        },
      );
    case "multipart":
      return fc.oneof(
        fc
          .tuple(fc.constantFrom("file", "package", "__proto__"), fc.string({ unit: "binary", maxLength: 200 }), fc.constantFrom("app.zip", "", "../../x", "😀.tgz"))
          .map(([name, data, filename]) => ({
            body: multipart([{ name, filename, data }]),
            contentType: `multipart/form-data; boundary=${BOUNDARY}`,
          })),
        fc.constantFrom<BodyChoice>(
          { body: multipart([{ name: "file", filename: "a.zip", data: "PK" }], false), contentType: `multipart/form-data; boundary=${BOUNDARY}` },
          { body: multipart([{ name: "file", data: "no filename" }]), contentType: `multipart/form-data; boundary=${BOUNDARY}` },
          { body: "garbage", contentType: "multipart/form-data" },
          { body: "garbage", contentType: `multipart/form-data; boundary=${BOUNDARY}` },
          { body: "", contentType: `multipart/form-data; boundary=${BOUNDARY}` },
        ),
        json,
      );
    case "none":
      return fc.oneof({ weight: 4, arbitrary: fc.constant<BodyChoice>({}) }, { weight: 1, arbitrary: json }, { weight: 1, arbitrary: raw });
    default:
      return fc.oneof({ weight: 6, arbitrary: json }, { weight: 1, arbitrary: raw }, { weight: 1, arbitrary: fc.constant<BodyChoice>({}) });
  }
}

const RAW_PATH_VALUES = ["%E0%A4%A", "%ED%A0%80", "%", "%2e%2e", "..", ".", "a%2Fb", "%00", "%C0%AF", "a?b", "a#b", "%20"];

/** Seeded values a path parameter's schema accepts (the seeded name when none does). */
function seededFitting(schema: Schema, key: string, knownNames: string[]): string[] {
  if (/version/.test(key)) return VERSIONS;
  const re = typeof schema.pattern === "string" ? new RegExp(schema.pattern) : undefined;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  const fitting = knownNames.filter((n) => (!re || re.test(n)) && n.length <= max);
  return fitting.length > 0 ? fitting : [SEEDED.name];
}

/** Path values that address seeded records (the seeded name where the parameter takes it). */
export function seededPathValues(ep: AnyEndpoint, knownNames: string[]): Record<string, string> {
  const props = (jsonSchemaOf(ep.params)?.properties ?? {}) as Record<string, Schema>;
  return Object.fromEntries(
    Object.entries(props).map(([k, s]) => {
      const fitting = seededFitting(s, k, knownNames);
      return [k, fitting.includes(SEEDED.name) ? SEEDED.name : fitting[0]];
    }),
  );
}

function pathArbitrary(ep: AnyEndpoint, knownNames: string[]): fc.Arbitrary<string> {
  const schema = jsonSchemaOf(ep.params);
  const props = (schema?.properties ?? {}) as Record<string, Schema>;
  if (Object.keys(props).length === 0) return fc.constant(pathOf(ep, {}));
  const model = Object.fromEntries(
    Object.entries(props).map(([k, s]) => [
      k,
      fc.oneof(
        // Mostly values of seeded records, so that requests get past the lookups to the rules.
        { weight: 4, arbitrary: fc.constant({ raw: false, v: /version/.test(k) ? SEEDED.version : SEEDED.name }) },
        { weight: 2, arbitrary: fc.constantFrom(...seededFitting(s, k, knownNames)).map((v) => ({ raw: false, v })) },
        { weight: 2, arbitrary: plausible(s, schema!, knownNames, k).map((v) => ({ raw: false, v: String(v) })) },
        { weight: 2, arbitrary: hostileString.map((v) => ({ raw: false, v })) },
        { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_VALUES).map((v) => ({ raw: true, v })) },
      ),
    ]),
  );
  return fc.record(model).map((params) => {
    const path = ep.path.replace(/\{([a-z_]+)\}/g, (_, k: string) => {
      const p = (params as Record<string, { raw: boolean; v: string }>)[k];
      return p.raw ? p.v : enc(p.v);
    });
    return pathOf({ ...ep, path }, {}, false);
  });
}

function queryArbitrary(ep: AnyEndpoint, knownNames: string[]): fc.Arbitrary<string> {
  const schema = jsonSchemaOf(ep.query);
  const props = (schema?.properties ?? {}) as Record<string, Schema>;
  const entry = (k: string, s: Schema): fc.Arbitrary<string[]> => {
    const isArray = s.type === "array";
    const one = fc.oneof(
      { weight: 4, arbitrary: plausible(isArray ? ((s.items ?? {}) as Schema) : s, schema!, knownNames, k).map((v) => String(v)) },
      { weight: 1, arbitrary: hostileString },
    );
    return isArray
      ? fc.array(one, { minLength: 1, maxLength: 3 }).map((vs) => vs.map((v) => `${enc(k)}[]=${enc(v)}`))
      : fc.oneof(
          { weight: 5, arbitrary: one.map((v) => [`${enc(k)}=${enc(v)}`]) },
          { weight: 1, arbitrary: fc.tuple(one, one).map(([a, b]) => [`${k}=${enc(a)}`, `${k}=${enc(b)}`]) },
        );
  };
  // Each known parameter is present or not; the arbitraries are built once, outside any chain.
  const entries = Object.entries(props).map(([k, s]) => fc.oneof({ weight: 2, arbitrary: entry(k, s) }, { weight: 3, arbitrary: fc.constant([] as string[]) }));
  const known = entries.length > 0 ? fc.tuple(...entries) : fc.constant([] as string[][]);
  const stray = fc.oneof(
    { weight: 16, arbitrary: fc.constant([] as string[]) },
    { weight: 1, arbitrary: fc.tuple(hostileKey, hostileString).map(([k, v]) => [`${enc(k)}=${enc(v)}`]) },
    { weight: 1, arbitrary: fc.constantFrom(["__proto__[polluted]=yes"], ["a=%ZZ"], ["&&&=="], ["sort_by[]=", "sort_by=x"]) },
  );
  return fc.tuple(known, stray).map(([k, s]) => {
    const parts = [...k.flat(), ...s];
    return parts.length > 0 ? `?${parts.join("&")}` : "";
  });
}

/** Random requests to one endpoint (the token in `authorization` is added by the caller). */
export function requestArbitrary(ep: AnyEndpoint, knownNames: string[]): fc.Arbitrary<RawRequest> {
  return fc.tuple(pathArbitrary(ep, knownNames), queryArbitrary(ep, knownNames), bodyArbitrary(ep, knownNames)).map(([path, query, b]): RawRequest => ({
    method: ep.method,
    path: path + query,
    headers: b.contentType ? { "content-type": b.contentType } : {},
    body: b.body,
  }));
}
