/**
 * Shared building blocks of the contract: names, KRNs, timestamps, the two list conventions and the
 * error body. Wire names are snake_case exactly as the spec and the facts file write them.
 */
import semver from "semver";
import { z } from "zod";

// ---------------------------------------------------------------------------------------------
// Scalars

/**
 * The one key that cannot be data: names and map keys become entries of plain objects in answers and
 * handlers, where `__proto__` would replace the object's prototype instead of adding an entry (and
 * z.record drops such a key without a word). Names refuse it; free-form objects keep it as data.
 */
export const RESERVED_KEY = "__proto__";
export const notReserved = (v: string): boolean => v !== RESERVED_KEY;
export const RESERVED_MESSAGE = `'${RESERVED_KEY}' is reserved`;

/**
 * A value as messages show it: strings quoted (long ones cut short), other scalars as
 * JSON. Messages name the value the user gave, so the mistake is visible without the input at hand.
 */
export function showValue(v: unknown): string {
  if (typeof v === "string") {
    if (v.length <= 60) return JSON.stringify(v);
    return `${JSON.stringify(v.slice(0, 57)).slice(0, -1)}…"`;
  }
  if (v === undefined) return "nothing";
  if (v === null || typeof v === "number" || typeof v === "boolean") return JSON.stringify(v);
  return Array.isArray(v) ? "a list" : typeof v === "object" ? "an object" : typeof v;
}

const tooLong = (max: number, v: unknown) => `must be at most ${max} characters, got ${typeof v === "string" ? `${v.length}: ` : ""}${showValue(v)}`;

/**
 * The contract's patterns in words, by the pattern's source: the docs of the resources' args state
 * the rule of the field that checks them from its zod schema (scripts/kind-classes.js), and a pattern
 * is the one part of a rule that needs words, given beside it with `describedPattern`.
 */
const patternRules = new Map<string, string>();
export const PATTERN_RULES: ReadonlyMap<string, string> = patternRules;

/** A pattern of the contract with its rule in words (as the docs state it). */
export function describedPattern(pattern: RegExp, words: string): RegExp {
  patternRules.set(String(pattern), words);
  return pattern;
}

/** Names used as filters (app, version, cluster, node, workload, asset): lowercase alphanumerics and `.`, `_`, `-`. */
export const NAME_PATTERN = describedPattern(/^[a-z0-9._-]+$/, "lowercase letters, digits, '.', '_' and '-'");
/** The rule a name follows, as messages state it. */
export const nameRule = (max = 64) => `may contain only lowercase letters, digits and '.', '_', '-' and be 1-${max} characters long`;
export const name = (max = 64) =>
  z
    .string()
    .min(1, { message: `must not be empty (a name is 1-${max} characters: lowercase letters, digits, '.', '_', '-')` })
    .max(max, { error: (issue) => tooLong(max, issue.input) })
    .regex(NAME_PATTERN, { error: (issue) => `${nameRule(max)}, got ${showValue(issue.input)}` })
    .refine(notReserved, { message: RESERVED_MESSAGE })
    // A path segment of "." or ".." is folded away by every URL parser: such a record could be created but never addressed.
    .refine((v) => v !== "." && v !== "..", { message: "'.' and '..' cannot be names: URLs fold them away, so the record could not be addressed" });

/**
 * z.record for maps keyed by names (metadata by name, parameter values by parameter): a `__proto__`
 * key is refused by name, where z.record would skip it silently. Same JSON Schema and types.
 */
export function nameKeyedRecord<K extends z.core.$ZodRecordKey, V extends z.ZodType>(key: K, value: V): z.ZodRecord<K, V> {
  const refuseReserved = (v: unknown, ctx: z.core.$RefinementCtx) => {
    if (v !== null && typeof v === "object" && Object.prototype.hasOwnProperty.call(v, RESERVED_KEY)) {
      ctx.addIssue({ code: "custom", message: RESERVED_MESSAGE, path: [RESERVED_KEY], input: v });
    }
    return v;
  };
  // The pipe validates exactly as the record does; typed as the record so callers see its shape.
  return z.preprocess(refuseReserved, z.record(key, value)) as unknown as z.ZodRecord<K, V>;
}

export const title = (max = 64) =>
  z
    .string()
    .min(1, { message: "must not be empty" })
    .max(max, { error: (issue) => tooLong(max, issue.input) });

/** Free text with a generous bound so that nothing unbounded reaches the store. */
export const text = (max = 4096) => z.string().max(max, { message: `must be at most ${max} characters` });

/** A resource reference such as `krn:asset:<name>` or `krn:user:<email>`. */
export const KRN_PATTERN = /^krn:[a-z_]+:[^\s]{1,256}$/;
export const krn = z.string().regex(KRN_PATTERN, { message: "must be a KRN such as 'krn:asset:<name>'" });

/** In the app and workload `resources` filters and bodies the only namespace allowed is `asset`. */
export const ASSET_KRN_PATTERN = /^krn:asset:[a-z0-9._-]{1,64}$/;
export const assetKrn = z.string().regex(ASSET_KRN_PATTERN, { message: "must be a KRN of namespace asset: 'krn:asset:<asset name>'" });
export const assetKrnOf = (assetName: string): string => `krn:asset:${assetName}`;
export const assetNameOfKrn = (ref: string): string => ref.slice("krn:asset:".length);

/** RFC 3339 date-time; any valid form on input. */
export const dateTime = z.iso.datetime({ offset: true, message: "must be an RFC 3339 date-time such as 2024-05-01T12:00:00.000000Z" });

/** Timestamps are emitted in UTC with `Z` and six fractional digits. */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

export const semverString = z
  .string()
  .max(64, { message: "must be at most 64 characters" })
  .refine((v) => semver.valid(v) !== null, { message: "must be a semantic version such as 1.2.0" });

export const scalarValue = z.union([z.number(), z.string().max(4096), z.boolean()]);
/**
 * A free-form JSON object (configuration, payloads, schemas): checked, never rebuilt, so it passes
 * through untouched. Every key is data, `__proto__` included (JSON.parse makes it an own property);
 * a rebuilt copy (z.record) silently dropped such keys. Its JSON Schema is that of a string-keyed record.
 */
export const freeObject = z
  .custom<Record<string, unknown>>((v) => typeof v === "object" && v !== null && !Array.isArray(v), {
    error: (issue) => (issue.input === undefined ? "is required" : "must be a JSON object"),
  })
  .meta({ type: "object", propertyNames: { type: "string" }, additionalProperties: {} });

export const location = z.object({
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
});

/** Audit fields of the app area (apps, versions, resources, parameters, schedules, workloads). */
export const auditAt = {
  created_at: z.string(),
  created_by: z.string(),
  updated_at: z.string(),
  updated_by: z.string(),
};
/** Audit fields of the inventory area (ACPs, assets, registry, clusters, labels, data types, ...). */
export const auditStamps = { created: z.string(), updated: z.string() };

// ---------------------------------------------------------------------------------------------
// Query helpers: query strings arrive as text; repeated keys and `key[]` both make arrays.

export const qBool = z.enum(["true", "false", "1", "0"], { message: "must be true or false" }).transform((v) => v === "true" || v === "1");

export const qInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,12}$/, { message: "must be an integer" })
    .transform((v) => Number(v))
    .pipe(
      z
        .number()
        .min(min, { message: `must be at least ${min}` })
        .max(max, { message: `must be at most ${max}` }),
    );

export const qArray = <T extends z.ZodType>(item: T) => z.array(item).max(1000, { message: "at most 1000 entries" });

// ---------------------------------------------------------------------------------------------
// Part 1 lists: pagination_type limits | cursor | stream.

export const paginationType = z.enum(["limits", "cursor", "stream"]);
export type PaginationType = z.infer<typeof paginationType>;

export function part1ListQuery<K extends string>(sortKeys: readonly [K, ...K[]], defaultSort: readonly K[]) {
  return {
    pagination_type: paginationType.default("cursor"),
    page_size: qInt(1, 10000).optional(),
    page: qInt(1, 1_000_000_000).optional(),
    next: z.string().max(2048).optional(),
    previous: z.string().max(2048).optional(),
    direction: z.enum(["asc", "desc"]).default("asc"),
    nulls: z.enum(["first", "last"]).optional(),
    sort_by: qArray(z.enum(sortKeys)).default([...defaultSort]),
  };
}
/** Shape of a Part 1 list query once parsed; `K` the list's sort keys. */
export interface Part1ListQuery<K extends string = string> {
  pagination_type: PaginationType;
  page_size?: number;
  page?: number;
  next?: string;
  previous?: string;
  direction: "asc" | "desc";
  nulls?: "first" | "last";
  sort_by: K[];
}
/** When a caller does not say, a Part 1 page holds this many items (the platform's default is not known). */
export const PART1_DEFAULT_PAGE_SIZE = 100;

export const cursorPagination = z.object({ next_page: z.string().nullable(), previous_page: z.string().nullable() });
export const limitsPagination = z.object({ page: z.number().int(), total_pages: z.number().int(), total_items: z.number().int() });

// ---------------------------------------------------------------------------------------------
// Part 2 inventory lists: page_size 1..1000 [20], starting_after, ending_before, sort_by, sort_asc.
// The vendor's clients page these lists the Part 1 way (pagination_type, page, next, previous,
// direction, nulls). The spec names only its own parameters and says nothing of these, so they are
// taken too: next/previous as other names of starting_after/ending_before, direction beside sort_asc
// (direction wins), and pagination_type limits/stream answered as Part 1 answers them.

export function inventoryListQuery<K extends string>(sortKeys: readonly [K, ...K[]], sortAscDefault = true) {
  return {
    page_size: qInt(1, 1000).default(20),
    starting_after: z.string().max(2048).optional(),
    ending_before: z.string().max(2048).optional(),
    sort_by: z.enum(sortKeys).default(sortKeys[0]),
    sort_asc: qBool.default(sortAscDefault),
    pagination_type: paginationType.optional(),
    page: qInt(1, 1_000_000_000).optional(),
    next: z.string().max(2048).optional(),
    previous: z.string().max(2048).optional(),
    direction: z.enum(["asc", "desc"]).optional(),
    nulls: z.enum(["first", "last"]).optional(),
  };
}
/** Shape of an inventory list query once parsed; `K` the list's sort keys. */
export interface InventoryListQuery<K extends string = string> {
  page_size: number;
  starting_after?: string;
  ending_before?: string;
  sort_by: K;
  sort_asc: boolean;
  pagination_type?: PaginationType;
  page?: number;
  next?: string;
  previous?: string;
  direction?: "asc" | "desc";
  nulls?: "first" | "last";
}
export const inventoryPagination = cursorPagination;

/** `metadata[]` and `metadata_filter[]` of the inventory lists that offer them. */
export const METADATA_FILTER_PATTERN = /^[a-z0-9._-]+\.[^=]+=.*$/;
export const metadataQuery = {
  metadata: qArray(name()).optional(),
  metadata_filter: qArray(z.string().max(512).regex(METADATA_FILTER_PATTERN, { message: "must look like <metadata_name>.<payload_key>=<payload_value>" })).optional(),
};

// ---------------------------------------------------------------------------------------------
// Errors

export const errorEntry = z.object({
  error_code: z.number().int(),
  http_status_code: z.number().int(),
  message: z.array(z.string()),
});
export const errorBody = z.object({ errors: z.array(errorEntry) });
export type ErrorBody = z.infer<typeof errorBody>;

/** One 207 answer shape for every bulk operation: a result per item. */
export const multiStatusBody = z.object({
  results: z.array(
    z.object({
      name: z.string(),
      http_status_code: z.number().int(),
      message: z.array(z.string()).optional(),
    }),
  ),
});

export const emptyBody = z.object({}).strict();

/** Response body of a Part 2 inventory list. */
export const inventoryPage = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), pagination: inventoryPagination });
/** Response body of a Part 1 list in the default cursor shape (the table declares this one; see `part1Shapes` for the others). */
export const cursorPage = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), pagination: cursorPagination });

/** A Part 1 list answered with `pagination_type=limits` (content type application/x-json-limits). */
export const limitsPage = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), pagination: limitsPagination });
export type LimitsPage<I> = { data: I[]; pagination: z.output<typeof limitsPagination> };

/**
 * The other answers of a list whose table entry declares the cursor page (a Part 1 list, or an
 * inventory list asked the Part 1 way): the page of `pagination_type=limits`, and the item one line of
 * `pagination_type=stream` (newline-delimited JSON) holds. Undefined for a body that is not a
 * `{ data: [...] }` page.
 */
export function part1Shapes(cursorBody: z.ZodType): { limits: z.ZodType; item: z.ZodType } | undefined {
  const data = cursorBody instanceof z.ZodObject ? (cursorBody.shape as Record<string, z.ZodType>).data : undefined;
  if (!(data instanceof z.ZodArray)) return undefined;
  const item = data.element as z.ZodType;
  return { limits: limitsPage(item), item };
}

/** A field's path as messages name it: `body.runtime.resources[0].resource` from root `body` and a zod issue path. */
export function renderPath(root: string, path: ReadonlyArray<PropertyKey>): string {
  let out = root;
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `.${String(p)}`;
  return out;
}
