/**
 * Parameter values per app version and resource, their history and their definitions: the one place
 * that writes them, shared by the parameters, schedules, apps and workloads (deploy) handlers.
 *
 * Definitions come from the app version manifests' `parameters[]`; the default of a parameter is per
 * app version (the manifest's `default`). A value is a record per (app, version, resource, name);
 * replacing or removing it moves the old record to the history with invalidated_at/by.
 *
 * Design choices where the spec is silent:
 * - A parameter's data_type is the manifest's `data_type`, else the type of its default, else string.
 * - Writing the value (and comment) a parameter already has changes nothing and leaves no history.
 * - Each written value is a new record: created_at/by and updated_at/by are the time and actor of the
 *   write; the record it replaced keeps its own times in the history.
 * - The definitions table holds one row per (app, parameter name): title and data_type come from the
 *   highest version (semver) that defines the parameter.
 */
import semver from "semver";
import type { AppVersion, ParameterType } from "../../../api/apps";
import { badRequest, notFound } from "../../../api/errors";
import type { HandlerContext } from "../../handler";
import type { Store } from "../../store/store";
import { appVersionKey, TABLES } from "../../store/tables";

export type Scalar = string | number | boolean;
export type ParameterValues = Record<string, Scalar>;

export interface ParameterValue {
  name: string;
  app_name: string;
  app_version: string;
  resource: string;
  value: Scalar;
  comment: string | null;
  source: string | null;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
}

export interface ParameterHistoryEntry extends ParameterValue {
  invalidated_at: string;
  invalidated_by: string;
}

export interface ParameterDefinition {
  name: string;
  title: string;
  app_name: string;
  data_type: ParameterType;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
}

/** What writing needs from a request (a ticker builds the same from its clock). */
export type WriteContext = Pick<HandlerContext, "store" | "now" | "actor">;

export const valueKey = (app: string, version: string, resource: string, name: string): string => `${app}\u0000${version}\u0000${resource}\u0000${name}`;
const definitionKey = (app: string, name: string): string => `${app}\u0000${name}`;

export const valuesTable = (store: Store) => store.table<ParameterValue>(TABLES.parameterValues);
export const historyTable = (store: Store) => store.table<ParameterHistoryEntry>(TABLES.parameterHistory);
export const definitionsTable = (store: Store) => store.table<ParameterDefinition>(TABLES.parameters);
const versionsTable = (store: Store) => store.table<AppVersion>(TABLES.appVersions);

// ---------------------------------------------------------------------------------------------
// Definitions and defaults

type ManifestParameter = NonNullable<AppVersion["parameters"]>[number];

export function dataTypeOf(p: ManifestParameter): ParameterType {
  if (p.data_type) return p.data_type;
  if (p.default !== undefined) return typeof p.default as ParameterType;
  return "string";
}

export function requireAppVersion(store: Store, app: string, version: string): AppVersion {
  const v = versionsTable(store).get(appVersionKey(app, version));
  if (!v) {
    if (!store.table(TABLES.apps).has(app)) throw notFound("app", app);
    throw notFound(`app '${app}' version`, version);
  }
  return v;
}

/** The parameters an app version defines, by name. */
export function manifestParameters(store: Store, app: string, version: string): Map<string, ManifestParameter> {
  return new Map((requireAppVersion(store, app, version).parameters ?? []).map((p) => [p.name, p]));
}

export function parameterDefaults(store: Store, app: string, version: string): ParameterValues {
  const out: ParameterValues = {};
  for (const p of manifestParameters(store, app, version).values()) if (p.default !== undefined) out[p.name] = p.default;
  return out;
}

/** Rebuilds the app's definition rows from its versions' manifests (after a version is added or removed). */
export function syncDefinitions(ctx: WriteContext, app: string): void {
  const versions = versionsTable(ctx.store)
    .filter((v) => v.name === app)
    .sort((a, b) => semver.compare(a.version, b.version));
  const wanted = new Map<string, ManifestParameter>();
  for (const v of versions) for (const p of v.parameters ?? []) wanted.set(p.name, p);
  const table = definitionsTable(ctx.store);
  for (const row of table.filter((d) => d.app_name === app)) {
    if (!wanted.has(row.name)) table.delete(definitionKey(app, row.name));
  }
  for (const [name, p] of wanted) {
    const current = table.get(definitionKey(app, name));
    const title = p.title ?? name;
    const data_type = dataTypeOf(p);
    if (current && current.title === title && current.data_type === data_type) continue;
    table.put(definitionKey(app, name), {
      name,
      title,
      app_name: app,
      data_type,
      created_at: current?.created_at ?? ctx.now,
      created_by: current?.created_by ?? ctx.actor,
      updated_at: ctx.now,
      updated_by: ctx.actor,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Validation

/** Checks names and data types of values for an app version; `where` prefixes the messages (a body path). */
export function validateParameterValues(store: Store, app: string, version: string, values: ParameterValues, where = "parameters"): void {
  const defined = manifestParameters(store, app, version);
  const unknown = Object.keys(values).filter((n) => !defined.has(n));
  if (unknown.length > 0) {
    const known = [...defined.keys()];
    throw badRequest(
      `${where}: parameter(s) ${unknown.map((n) => `'${n}'`).join(", ")} not defined by app '${app}' version ${version}` +
        ` (defined: ${known.length ? known.join(", ") : "none"})`,
    );
  }
  const wrong: string[] = [];
  for (const [n, v] of Object.entries(values)) {
    const type = dataTypeOf(defined.get(n)!);
    if (typeof v !== type) wrong.push(`'${n}' must be a ${type}, got ${JSON.stringify(v)}`);
  }
  if (wrong.length > 0) throw badRequest(`${where}: ${wrong.join("; ")}`);
}

// ---------------------------------------------------------------------------------------------
// Values

export function currentParameterValues(store: Store, app: string, version: string, resource: string): ParameterValues {
  const out: ParameterValues = {};
  for (const v of valuesTable(store).values()) {
    if (v.app_name === app && v.app_version === version && v.resource === resource) out[v.name] = v.value;
  }
  return out;
}

/** Moves a value record to the history, invalidated now by the actor. */
function invalidate(ctx: WriteContext, v: ParameterValue): void {
  const seq = ctx.store.nextSeq(TABLES.parameterHistory);
  historyTable(ctx.store).put(String(seq).padStart(12, "0"), { ...v, invalidated_at: ctx.now, invalidated_by: ctx.actor });
}

export interface ValueEntry {
  name: string;
  value: Scalar;
  comment?: string;
}

export interface WriteOptions {
  mode: "patch" | "replace";
  /** Comment for entries that bring none of their own. */
  comment?: string;
  source?: string;
  /** Body path for error messages. */
  where?: string;
}

/**
 * Writes values for one (app, version, resource). patch: only the given parameters change; replace:
 * the given set becomes the complete set and every other value is removed (falls back to its default).
 */
export function writeValueEntries(ctx: WriteContext, app: string, version: string, resource: string, entries: ValueEntry[], opts: WriteOptions): void {
  const values: ParameterValues = Object.fromEntries(entries.map((e) => [e.name, e.value]));
  validateParameterValues(ctx.store, app, version, values, opts.where);
  const table = valuesTable(ctx.store);
  if (opts.mode === "replace") {
    const keep = new Set(entries.map((e) => e.name));
    for (const v of table.filter((r) => r.app_name === app && r.app_version === version && r.resource === resource && !keep.has(r.name))) {
      invalidate(ctx, v);
      table.delete(valueKey(app, version, resource, v.name));
    }
  }
  for (const e of entries) {
    const key = valueKey(app, version, resource, e.name);
    const comment = e.comment ?? opts.comment ?? null;
    const source = opts.source ?? null;
    const current = table.get(key);
    if (current && current.value === e.value && current.comment === comment && current.source === source) continue;
    if (current) invalidate(ctx, current);
    table.put(key, {
      name: e.name,
      app_name: app,
      app_version: version,
      resource,
      value: e.value,
      comment,
      source,
      created_at: ctx.now,
      created_by: ctx.actor,
      updated_at: ctx.now,
      updated_by: ctx.actor,
    });
  }
}

export function writeParameterValues(
  ctx: WriteContext,
  app: string,
  version: string,
  resource: string,
  values: ParameterValues,
  mode: "patch" | "replace",
  comment?: string,
): void {
  const entries = Object.entries(values).map(([name, value]) => ({ name, value }));
  writeValueEntries(ctx, app, version, resource, entries, { mode, comment });
}

/** Removes the values matching `pred`; with `keepHistory` each becomes a history entry first. */
export function removeValues(ctx: WriteContext, pred: (v: ParameterValue) => boolean, keepHistory: boolean): void {
  const table = valuesTable(ctx.store);
  for (const v of table.filter(pred)) {
    if (keepHistory) invalidate(ctx, v);
    table.delete(valueKey(v.app_name, v.app_version, v.resource, v.name));
  }
}

/** Drops everything parameters hold for an app, or for one of its versions. */
export function dropParameterData(ctx: WriteContext, app: string, version?: string): void {
  const matches = (r: { app_name: string; app_version: string }) => r.app_name === app && (version === undefined || r.app_version === version);
  removeValues(ctx, matches, false);
  const history = historyTable(ctx.store);
  for (const [key, h] of [...history.entries()]) if (matches(h)) history.delete(key);
  if (version === undefined) {
    const defs = definitionsTable(ctx.store);
    for (const d of defs.filter((r) => r.app_name === app)) defs.delete(definitionKey(app, d.name));
  } else {
    syncDefinitions(ctx, app);
  }
}
