/**
 * Asset insights, `POST /asset-insights/get` (spec Part 1 "Other"; the body, paging and item shape
 * come from facts §3.7, §4.5, §5 and §6.7, the permission from facts §1.7). The inner shape of the
 * `extra_fields` column specs is not known; the one declared here is this package's design.
 */
import { z } from "zod";
import { cursorPage, paginationType, qInt, scalarValue } from "./common";
import { assetState } from "./assets";
import { absentIfNull } from "./apps";
import { area, endpoint } from "./endpoint";

export const insightsOperator = z.enum(["==", "!=", "<", ">", ">=", "<=", "has", "!has", "contains", "!contains", "starts_with", "!starts_with", "ends_with", "!ends_with"]);
export type InsightsOperator = z.infer<typeof insightsOperator>;

const entry = z.string().min(1, { message: "must not be empty" }).max(64, { message: "must be at most 64 characters" });
const entries = z.array(entry).max(10000, { message: "at most 10000 entries" });

/**
 * One filter on a column: `field` is a key of the column's answer (`<app>.<parameter>` for
 * parameters, a property name for asset_properties, app_name / app_version / workload_name / status
 * for apps; a list column passes when any of its entries does).
 */
export const insightsFilter = z.object({ field: z.string().min(1).max(256), operator: insightsOperator, value: absentIfNull(scalarValue) }).strict();

/** What a column answers: `names` limits the keys (parameters, properties), `app_names` the apps. */
export const columnSpec = z
  .object({
    names: absentIfNull(entries),
    app_names: absentIfNull(entries),
    filters: absentIfNull(z.array(insightsFilter).max(100, { message: "at most 100 filters per column" })),
  })
  .strict();
export type ColumnSpec = z.output<typeof columnSpec>;

const column = absentIfNull(columnSpec);
/** The columns to add, keyed by column name (facts §3.7). */
export const extraFields = z
  .object({
    apps: column,
    asset_properties: column,
    control_changes: column,
    custom_actions: column,
    datastreams: column,
    parameters: column,
    recommendations: column,
    parameters_schedule: column,
  })
  .strict();

export const insightsSort = z
  .object({
    direction: z.enum(["asc", "desc"]).default("asc"),
    field: z.string().min(1).max(256).default("name"),
    sort_by_extra_field: z.boolean().default(false),
  })
  .strict();

export const AssetInsightsRequest = z
  .object({
    asset_names: absentIfNull(entries),
    asset_types: absentIfNull(entries),
    pinned_assets: absentIfNull(entries),
    search: absentIfNull(entries),
    asset_states: absentIfNull(z.array(assetState).max(10)),
    extra_fields: absentIfNull(extraFields),
    force_parameters_refresh: absentIfNull(z.boolean()),
    sort_by: absentIfNull(z.array(insightsSort).max(10, { message: "at most 10 sort keys" })),
  })
  .strict();
export type AssetInsightsRequest = z.output<typeof AssetInsightsRequest>;

export const AssetInsightsItem = z.object({
  name: z.string(),
  title: z.string(),
  asset_type_name: z.string(),
  asset_type_title: z.string(),
  state: assetState,
  last_seen: z.string().nullable(),
  pinned: z.boolean(),
  extra_fields: z.record(z.string(), z.unknown()),
});

/**
 * The answer: a cursor page by default, as every Part 1 list (the vendor's current client reads it so;
 * the facts file's limits shape is what `pagination_type=limits` answers).
 */
export const AssetInsightsPage = cursorPage(AssetInsightsItem);

/** Paging of the answer, as in Part 1 lists (page_size defaults to 10000, facts §6.7); the order is the body's `sort_by`. */
export const AssetInsightsQuery = z
  .object({
    pagination_type: paginationType.default("cursor"),
    page_size: qInt(1, 10000).default(10000),
    page: qInt(1, 1_000_000_000).optional(),
    next: z.string().max(2048).optional(),
    previous: z.string().max(2048).optional(),
  })
  .strict();

export const insights = area("insights", "part1", {
  get: endpoint({
    method: "POST",
    effect: "read",
    path: "/asset-insights/get",
    permission: "asset_insights.read",
    source: "facts",
    summary: "Assets with optional columns (apps, parameters, properties, ...), filtered and sorted; paged as Part 1 lists are (cursor, limits or stream)",
    query: AssetInsightsQuery,
    list: "part1",
    body: AssetInsightsRequest,
    bodyOptional: true,
    success: { status: 200, body: AssetInsightsPage },
    errors: [400, 401, 403, 424, 500],
  }),
});
