/**
 * Asset insights (`POST /asset-insights/get`): the assets, each with the columns the request asks
 * for in `extra_fields`, filtered and sorted, paged as Part 1 lists are: a cursor page by default (as
 * the vendor's current client reads it), the limits shape of facts §1.4 and §3.7 with
 * `pagination_type=limits`, or a stream. A cursor names the item's place in the body's order.
 *
 * Design choices where the spec is silent (the column specs' shape is not known):
 * - A column spec is `{ names?, app_names?, filters? }`. The answer's `extra_fields` has one entry per
 *   requested column:
 *   - `apps`: `[{ app_name, app_version, workload_name, status }]`, one per workload serving the asset;
 *   - `parameters`: `{ <app>: { <parameter>: value } }`, the values set for the asset (defaults are not
 *     included); when several versions of an app hold a value, the latest written wins;
 *   - `asset_properties`: `{ <property>: value }`;
 *   - `parameters_schedule`: the asset's schedules still to run, `[{ id, app_name, app_version,
 *     scheduled_for, state, type }]`, type `temporary` when the schedule has a revert, else `permanent`;
 *   - `control_changes`, `custom_actions`, `datastreams`, `recommendations`: `[]` (the emulator keeps no
 *     such records per asset).
 *   `names` limits the parameter or property names, `app_names` the apps (apps, parameters, schedules).
 * - A filter `{ field, operator, value }` tests a key of its column's answer (`<app>.<parameter>`, a
 *   property name, or a field of the entries of a list column, where any entry may pass). All filters
 *   must pass. Numbers compare as numbers; contains / starts_with / ends_with ignore case; `!op` is
 *   the negation of `op`; `has` asks whether the key has a value.
 * - Pinned assets come first; then the `sort_by` keys (item fields, or with sort_by_extra_field a path
 *   `<column>.<key>` into extra_fields of a requested column), nulls last, then the name.
 * - `search` matches name and title (case-insensitive partial, OR across entries).
 * - `force_parameters_refresh` has no effect: values are always current.
 */
import { assetKrnOf } from "../../../api/common";
import { invalidField } from "../../../api/errors";
import type { AssetInsightsRequest, ColumnSpec, InsightsOperator } from "../../../api/insights";
import { inFilter, matchesSearch } from "../../list";
import type { Store } from "../../store/store";
import { TABLES, type AssetRef } from "../../store/tables";
import { propertyTable } from "../assets/model";
import { valuesTable, type ParameterValue } from "../parameters/model";
import { workloadTable, type StoredWorkload } from "../workloads/model";

type Columns = NonNullable<AssetInsightsRequest["extra_fields"]>;
type ColumnName = keyof Columns;
type Scalar = string | number | boolean;

const ITEM_FIELDS = ["name", "title", "asset_type_name", "asset_type_title", "state", "last_seen", "pinned"] as const;

interface Item {
  name: string;
  title: string;
  asset_type_name: string;
  asset_type_title: string;
  state: string;
  last_seen: string | null;
  pinned: boolean;
  extra_fields: Record<string, unknown>;
}

/** The fields of a schedule record this area reads (TABLES.schedules). */
interface ScheduleRow {
  id: string;
  app_name: string;
  app_version: string;
  scheduled_for: string;
  resources: string[];
  state: string;
  revert: unknown;
}

// ---------------------------------------------------------------------------------------------
// Indexes: built once per request so that each asset's columns are lookups

function groupBy<T>(rows: Iterable<T>, keys: (row: T) => string[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    for (const k of keys(row)) {
      const list = out.get(k);
      if (list) list.push(row);
      else out.set(k, [row]);
    }
  }
  return out;
}

export function buildIndex(store: Store) {
  return {
    workloads: groupBy(workloadTable(store).values(), (w: StoredWorkload) => w.runtime.resources.map((r) => r.resource)),
    values: groupBy(valuesTable(store).values(), (v: ParameterValue) => [v.resource]),
    properties: groupBy(propertyTable(store).values(), (p) => [p.asset_name]),
    schedules: groupBy(
      store.table<ScheduleRow>(TABLES.schedules).filter((s) => s.state === "scheduled" || s.state === "scheduled-revert"),
      (s) => s.resources,
    ),
  };
}
type Index = ReturnType<typeof buildIndex>;

// ---------------------------------------------------------------------------------------------
// Columns

type ColumnBuilder = (asset: AssetRef, spec: ColumnSpec, idx: Index) => unknown;

const none: ColumnBuilder = () => [];

const COLUMNS: Record<ColumnName, ColumnBuilder> = {
  apps: (a, spec, idx) =>
    (idx.workloads.get(assetKrnOf(a.name)) ?? [])
      .filter((w) => inFilter(spec.app_names, w.app_name))
      .map((w) => ({ app_name: w.app_name, app_version: w.app_version, workload_name: w.name, status: w.status.state })),
  parameters: (a, spec, idx) => {
    const out: Record<string, Record<string, { value: Scalar; at: string }>> = {};
    for (const v of idx.values.get(assetKrnOf(a.name)) ?? []) {
      if (!inFilter(spec.app_names, v.app_name) || !inFilter(spec.names, v.name)) continue;
      const app = (out[v.app_name] ??= {});
      if (!app[v.name] || app[v.name].at < v.updated_at) app[v.name] = { value: v.value, at: v.updated_at };
    }
    return Object.fromEntries(Object.entries(out).map(([app, ps]) => [app, Object.fromEntries(Object.entries(ps).map(([n, x]) => [n, x.value]))]));
  },
  asset_properties: (a, spec, idx) => Object.fromEntries((idx.properties.get(a.name) ?? []).filter((p) => inFilter(spec.names, p.name)).map((p) => [p.name, p.value])),
  parameters_schedule: (a, spec, idx) =>
    (idx.schedules.get(assetKrnOf(a.name)) ?? [])
      .filter((s) => inFilter(spec.app_names, s.app_name))
      .map((s) => ({ id: s.id, app_name: s.app_name, app_version: s.app_version, scheduled_for: s.scheduled_for, state: s.state, type: s.revert ? "temporary" : "permanent" })),
  control_changes: none,
  custom_actions: none,
  datastreams: none,
  recommendations: none,
};

export function requestedColumns(body: AssetInsightsRequest): Array<[ColumnName, ColumnSpec]> {
  return Object.entries(body.extra_fields ?? {}).filter((e): e is [ColumnName, ColumnSpec] => e[1] !== undefined);
}

// ---------------------------------------------------------------------------------------------
// Filters

/** The values at `path` in a column's answer; in a list, one per entry that has it. */
function valuesAt(column: unknown, path: string): unknown[] {
  const at = (v: unknown): unknown => {
    let cur = v;
    for (const key of path.split(".")) {
      if (cur === null || typeof cur !== "object" || Array.isArray(cur)) return undefined;
      cur = (cur as Record<string, unknown>)[key];
    }
    return cur;
  };
  const found = Array.isArray(column) ? column.map(at) : [at(column)];
  return found.filter((v) => v !== undefined && v !== null);
}

const asNumber = (v: unknown): number | undefined => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** -1 / 0 / 1, numerically when both are numbers, else as text. */
function compare(a: unknown, b: unknown): number {
  const an = asNumber(a);
  const bn = asNumber(b);
  if (an !== undefined && bn !== undefined) return Math.sign(an - bn);
  const as = String(a);
  const bs = String(b);
  return as < bs ? -1 : as > bs ? 1 : 0;
}

function holds(op: Exclude<InsightsOperator, `!${string}`>, actual: unknown, expected: Scalar): boolean {
  const text = () => [String(actual).toLowerCase(), String(expected).toLowerCase()];
  switch (op) {
    case "==":
      return compare(actual, expected) === 0;
    case "<":
      return compare(actual, expected) < 0;
    case ">":
      return compare(actual, expected) > 0;
    case "<=":
      return compare(actual, expected) <= 0;
    case ">=":
      return compare(actual, expected) >= 0;
    case "contains": {
      const [a, e] = text();
      return a.includes(e);
    }
    case "starts_with": {
      const [a, e] = text();
      return a.startsWith(e);
    }
    case "ends_with": {
      const [a, e] = text();
      return a.endsWith(e);
    }
    case "has":
      return true;
  }
}

interface Filter {
  field: string;
  operator: InsightsOperator;
  value?: Scalar;
}

function passes(column: unknown, f: Filter): boolean {
  if (f.operator === "!=") return !passes(column, { ...f, operator: "==" });
  const negated = f.operator.startsWith("!");
  const op = (negated ? f.operator.slice(1) : f.operator) as Exclude<InsightsOperator, `!${string}`>;
  const found = valuesAt(column, f.field).some((v) => holds(op, v, f.value as Scalar));
  return negated ? !found : found;
}

export function validateFilters(columns: Array<[ColumnName, ColumnSpec]>): void {
  for (const [name, spec] of columns) {
    (spec.filters ?? []).forEach((f, i) => {
      if (f.value === undefined && f.operator !== "has" && f.operator !== "!has") {
        throw invalidField(`body.extra_fields.${name}.filters[${i}].value`, `is required for operator '${f.operator}'`);
      }
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Sorting

type Sort = NonNullable<AssetInsightsRequest["sort_by"]>[number];

export function validateSorts(sorts: Sort[], columns: Array<[ColumnName, ColumnSpec]>): void {
  const requested = new Set(columns.map(([n]) => n as string));
  sorts.forEach((s, i) => {
    const where = `body.sort_by[${i}].field`;
    if (!s.sort_by_extra_field && !(ITEM_FIELDS as readonly string[]).includes(s.field)) {
      throw invalidField(where, `'${s.field}' is not an item field (${ITEM_FIELDS.join(", ")}); set sort_by_extra_field for a column`);
    }
    if (s.sort_by_extra_field && !requested.has(s.field.split(".")[0])) {
      throw invalidField(where, `'${s.field}' must start with a column requested in extra_fields (${[...requested].join(", ") || "none requested"})`);
    }
  });
}

function sortValue(item: Item, s: Sort): unknown {
  if (!s.sort_by_extra_field) return item[s.field as (typeof ITEM_FIELDS)[number]];
  const [column, ...rest] = s.field.split(".");
  const value = item.extra_fields[column];
  if (rest.length === 0) return Array.isArray(value) ? value.length : undefined;
  return valuesAt(value, rest.join("."))[0];
}

export function comparator(sorts: Sort[]) {
  return (a: Item, b: Item): number => {
    if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
    for (const s of sorts) {
      const av = sortValue(a, s);
      const bv = sortValue(b, s);
      const an = av === undefined || av === null;
      const bn = bv === undefined || bv === null;
      if (an || bn) {
        if (an !== bn) return an ? 1 : -1;
        continue;
      }
      const c = compare(av, bv);
      if (c !== 0) return s.direction === "desc" ? -c : c;
    }
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  };
}

// ---------------------------------------------------------------------------------------------
// The operation

export function matchesAsset(a: AssetRef, body: AssetInsightsRequest): boolean {
  return (
    inFilter(body.asset_names, a.name) &&
    inFilter(body.asset_types, a.asset_type_name) &&
    inFilter<string>(body.asset_states, a.status?.state ?? "unknown") &&
    matchesSearch(body.search, a.name, a.title)
  );
}

export function itemOf(a: AssetRef, pinned: Set<string>, columns: Array<[ColumnName, ColumnSpec]>, idx: Index): Item {
  return {
    name: a.name,
    title: a.title,
    asset_type_name: a.asset_type_name,
    asset_type_title: a.asset_type_title ?? a.asset_type_name,
    state: a.status?.state ?? "unknown",
    last_seen: a.status?.last_seen ?? null,
    pinned: pinned.has(a.name),
    extra_fields: Object.fromEntries(columns.map(([name, spec]) => [name, COLUMNS[name](a, spec, idx)])),
  };
}

export const passesColumnFilters = (item: Item, columns: Array<[ColumnName, ColumnSpec]>) =>
  columns.every(([name, spec]) => (spec.filters ?? []).every((f) => passes(item.extra_fields[name], f)));
