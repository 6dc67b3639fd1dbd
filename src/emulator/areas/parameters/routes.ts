/**
 * App parameters (spec Part 1 "App parameters"; facts §3.3, §4.2, §6.2). Values, history and
 * definitions are kept by model.ts; this file answers the endpoints.
 *
 * Design choices where the spec is silent:
 * - The list filters never answer 404: an unknown app simply matches nothing. unique-values and
 *   fallback-values name an app (or app version) and answer 404 when it does not exist.
 * - A resource, or a parameter within one resource, given twice in one values update is 400.
 * - The history holds the replaced and removed values only (the current ones are in the values list);
 *   start_date/end_date select entries by their created_at (when the value was set), both inclusive.
 * - Defaults update with patch=false removes the default of every parameter left out. When a default
 *   is changed or removed on a parameter whose manifest has no data_type, the type it had (from its
 *   default) is written into the manifest, so the parameter keeps its type.
 * - unique-values lists each parameter's distinct values over all versions of the app, in ascending order.
 * - fallback-values without `resources` answers for every resource that has a value for the version
 *   or is bound to the app.
 */
import { parameters as ep } from "../../../api/parameters";
import type { AppVersion } from "../../../api/apps";
import { badRequest, forbidden } from "../../../api/errors";
import { inFilter, matchesSearch, part1List, type Sortable } from "../../list";
import { route, type AreaModule, type HandlerContext } from "../../handler";
import type { Store } from "../../store/store";
import { appVersionKey, TABLES } from "../../store/tables";
import { appResourceRows } from "../apps/model-resources";
import {
  currentParameterValues,
  dataTypeOf,
  definitionsTable,
  historyTable,
  parameterDefaults,
  requireAppVersion,
  syncDefinitions,
  validateParameterValues,
  valuesTable,
  writeValueEntries,
  type ParameterHistoryEntry,
  type ParameterValue,
  type ParameterValues,
  type Scalar,
} from "./model";
import { requireApp } from "../apps/model";

interface AppFilter {
  name: string;
  version?: string;
}
interface ValueFilters {
  apps?: AppFilter[];
  resources?: string[];
  parameter_names?: string[];
}

function matchesValueFilters(v: ParameterValue, f: ValueFilters | undefined): boolean {
  const appOk = !f?.apps?.length || f.apps.some((a) => a.name === v.app_name && (a.version === undefined || a.version === v.app_version));
  return appOk && inFilter(f?.resources, v.resource) && inFilter(f?.parameter_names, v.name);
}

/** Sort keys shared by values and history. */
function valueSort<T extends ParameterValue, X extends string>(extra: Record<X, (row: T) => Sortable>) {
  const shared = {
    name: (v: T) => v.name,
    app_name: (v: T) => v.app_name,
    app_version: (v: T) => v.app_version,
    resource: (v: T) => v.resource,
    comment: (v: T) => v.comment,
    created_at: (v: T) => v.created_at,
    created_by: (v: T) => v.created_by,
  };
  return { ...shared, ...extra };
}

const inRange = (at: string, start?: string, end?: string): boolean => {
  const t = Date.parse(at);
  return (start === undefined || t >= Date.parse(start)) && (end === undefined || t <= Date.parse(end));
};

function firstDuplicate(xs: string[]): string | undefined {
  const seen = new Set<string>();
  for (const x of xs) {
    if (seen.has(x)) return x;
    seen.add(x);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Values update

type ValuesUpdateCtx = HandlerContext<
  { app_name: string; app_version: string },
  { patch: boolean },
  { resource_parameters: Array<{ resource: string; parameters: Array<{ name: string; value: Scalar; comment?: string }> }>; source?: string }
>;

function updateValues(ctx: ValuesUpdateCtx): undefined {
  const { app_name, app_version } = ctx.params;
  const { resource_parameters, source } = ctx.body;
  if (source !== undefined && ctx.identity.kind !== "service-account") {
    throw forbidden("body.source: only service accounts may set source; leave the field out");
  }
  requireAppVersion(ctx.store, app_name, app_version);
  const dupResource = firstDuplicate(resource_parameters.map((r) => r.resource));
  if (dupResource) throw badRequest(`body.resource_parameters: resource '${dupResource}' is given twice; give each resource once`);
  resource_parameters.forEach((entry, i) => {
    const where = `body.resource_parameters[${i}].parameters`;
    const dup = firstDuplicate(entry.parameters.map((p) => p.name));
    if (dup) throw badRequest(`${where}: parameter '${dup}' is given twice`);
    writeValueEntries(ctx, app_name, app_version, entry.resource, entry.parameters, {
      mode: ctx.query.patch ? "patch" : "replace",
      source,
      where,
    });
  });
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Defaults update

type DefaultsUpdateCtx = HandlerContext<{ app_name: string; app_version: string }, { patch: boolean }, { parameters?: Array<{ name: string; value: Scalar }> }>;

function updateDefaults(ctx: DefaultsUpdateCtx): undefined {
  const { app_name, app_version } = ctx.params;
  const version = requireAppVersion(ctx.store, app_name, app_version);
  const given = ctx.body.parameters ?? [];
  const dup = firstDuplicate(given.map((p) => p.name));
  if (dup) throw badRequest(`body.parameters: parameter '${dup}' is given twice`);
  const values: ParameterValues = Object.fromEntries(given.map((p) => [p.name, p.value]));
  validateParameterValues(ctx.store, app_name, app_version, values, "body.parameters");
  const parameters = (version.parameters ?? []).map((p) => {
    const sent = Object.prototype.hasOwnProperty.call(values, p.name);
    if (!sent && (ctx.query.patch || p.default === undefined)) return p;
    const { default: _old, ...rest } = p;
    return { ...rest, data_type: dataTypeOf(p), ...(sent ? { default: values[p.name] } : {}) };
  });
  const next: AppVersion = { ...version, parameters, updated_at: ctx.now, updated_by: ctx.actor };
  ctx.store.table<AppVersion>(TABLES.appVersions).put(appVersionKey(app_name, app_version), next);
  syncDefinitions(ctx, app_name);
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// unique-values and fallback-values

interface UniqueEntry {
  app_name: string;
  parameters?: string[];
}
type UniqueBody = { app_parameters?: UniqueEntry[]; data_types?: string[] } | undefined;

function uniqueValues(store: Store, body: UniqueBody) {
  const everyAppWithValues = (): UniqueEntry[] => [...new Set([...valuesTable(store).values()].map((v) => v.app_name))].map((app_name) => ({ app_name }));
  const out: Record<string, Record<string, Scalar[]>> = {};
  for (const entry of body?.app_parameters ?? everyAppWithValues()) {
    requireApp(store, entry.app_name);
    const typeOf = new Map(
      definitionsTable(store)
        .filter((d) => d.app_name === entry.app_name)
        .map((d) => [d.name, d.data_type]),
    );
    const perParam: Record<string, Set<Scalar>> = {};
    for (const v of valuesTable(store).values()) {
      if (v.app_name !== entry.app_name || !inFilter(entry.parameters, v.name)) continue;
      if (!inFilter(body?.data_types, typeOf.get(v.name) ?? typeof v.value)) continue;
      (perParam[v.name] ??= new Set()).add(v.value);
    }
    out[entry.app_name] = Object.fromEntries(Object.entries(perParam).map(([n, set]) => [n, [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))]));
  }
  return { app_parameter_values: out };
}

function fallbackValues(store: Store, app: string, version: string, resources: string[] | undefined) {
  const defaults = parameterDefaults(store, app, version);
  const targets =
    resources ??
    [
      ...new Set([
        ...valuesTable(store)
          .filter((v) => v.app_name === app && v.app_version === version)
          .map((v) => v.resource),
        ...appResourceRows(store, app).map((r) => r.resource),
      ]),
    ].sort();
  const out: Record<string, ParameterValues> = {};
  for (const r of targets) out[r] = { ...defaults, ...currentParameterValues(store, app, version, r) };
  return { resource_parameters: out };
}

// ---------------------------------------------------------------------------------------------
// Routes

export const area: AreaModule = {
  routes: [
    route(ep.list, (ctx) => {
      const f = ctx.body;
      const rows = definitionsTable(ctx.store).filter(
        (d) => inFilter(f?.app_names, d.app_name) && inFilter(f?.names, d.name) && inFilter(f?.data_types, d.data_type) && matchesSearch(f?.search, d.name, d.title),
      );
      return part1List(rows, ctx.query, {
        key: (d) => `${d.app_name}\u0000${d.name}`,
        sort: {
          name: (d) => d.name,
          title: (d) => d.title,
          app_name: (d) => d.app_name,
          data_type: (d) => d.data_type,
          created_at: (d) => d.created_at,
          created_by: (d) => d.created_by,
          updated_at: (d) => d.updated_at,
          updated_by: (d) => d.updated_by,
        },
      });
    }),

    route(ep.valuesList, (ctx) =>
      part1List(
        valuesTable(ctx.store).filter((v) => matchesValueFilters(v, ctx.body)),
        ctx.query,
        {
          key: (v) => `${v.app_name}\u0000${v.app_version}\u0000${v.resource}\u0000${v.name}`,
          sort: valueSort({ updated_at: (v: ParameterValue) => v.updated_at, updated_by: (v: ParameterValue) => v.updated_by }),
        },
      ),
    ),

    route(ep.historyList, (ctx) => {
      const f = ctx.body;
      const rows: Array<ParameterHistoryEntry & { seq: string }> = [];
      for (const [seq, h] of historyTable(ctx.store).entries()) {
        if (matchesValueFilters(h, f) && inRange(h.created_at, f?.start_date, f?.end_date)) rows.push({ ...h, seq });
      }
      return part1List(rows, ctx.query, {
        key: (h) => h.seq,
        sort: valueSort({
          invalidated_at: (h: ParameterHistoryEntry & { seq: string }) => h.invalidated_at,
          invalidated_by: (h: ParameterHistoryEntry & { seq: string }) => h.invalidated_by,
        }),
        item: ({ seq: _seq, ...h }) => h,
      });
    }),

    route(ep.valuesUpdate, (ctx) => updateValues(ctx)),
    route(ep.defaultsUpdate, (ctx) => updateDefaults(ctx)),
    route(ep.uniqueValuesGet, (ctx) => uniqueValues(ctx.store, ctx.body)),
    route(ep.fallbackValuesGet, (ctx) => fallbackValues(ctx.store, ctx.params.app_name, ctx.params.app_version, ctx.body?.resources)),
  ],
};
