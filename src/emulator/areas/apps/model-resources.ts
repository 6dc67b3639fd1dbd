/**
 * App resources (assets bound to an app) and app contexts, part of the apps area; their routes are
 * in routes.ts.
 *
 * Design choices where the spec is silent:
 * - An app's resources are the union of two sources: every asset that one of the app's workloads
 *   serves (read from the workloads table, so they appear and disappear with the workloads), and the
 *   rows written by enable/disable. An asset served by workloads with no row of its own is enabled;
 *   its audit fields are those of the earliest workload serving it.
 * - Each row carries `app_versions` and `workload_names`: the versions and names of the workloads
 *   serving the asset (empty for an asset bound only through enable/disable).
 * - Enable and disable bind an asset when it is not bound yet; the asset need not exist in the
 *   inventory (resources are references, as in workload runtimes).
 * - Delete unbinds: the row goes and so do the asset's parameter values for the app (each becomes a
 *   history entry). An asset that is not bound answers 404; one still served by a workload answers
 *   400 naming the workloads, since it would stay bound through them.
 * - App context entries are (resource, source) pairs: `source` is `krn:app:<app>` for every binding
 *   and `krn:workload:<name>` for every workload serving the resource.
 */
import semver from "semver";
import type { AppResource } from "../../../api/apps";
import { workloadState } from "../../../api/workloads";
import { badRequest, notFound } from "../../../api/errors";
import type { WriteContext } from "../../handler";
import type { Store } from "../../store/store";
import { TABLES, type WorkloadRef } from "../../store/tables";
import { removeValues } from "../parameters/model";
import { requireApp } from "./model-records";

/** A row written by enable/disable. */
export interface StoredAppResource {
  resource: string;
  app_name: string;
  enabled: boolean;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
}

/** The workload fields this area reads (WorkloadRef plus the audit and status fields it may carry). */
interface WorkloadView extends WorkloadRef {
  created_at?: string;
  created_by?: string;
  updated_at?: string;
  updated_by?: string;
  status?: { state?: string } | null;
  staged?: unknown;
}

const resourceKey = (app: string, resource: string): string => `${app}\u0000${resource}`;
export const resourcesTable = (store: Store) => store.table<StoredAppResource>(TABLES.appResources);
export const workloadsOf = (store: Store, app: string): WorkloadView[] => store.table<WorkloadView>(TABLES.workloads).filter((w) => w.app_name === app);

const resourcesOfWorkload = (w: WorkloadView): string[] => (w.runtime?.resources ?? []).map((r) => r.resource);
const uniqueSorted = (xs: string[], cmp?: (a: string, b: string) => number): string[] => [...new Set(xs)].sort(cmp);

/** Every resource of an app, bindings and workload-served assets merged (see the design notes). */
export function appResourceRows(store: Store, app: string): AppResource[] {
  const served = new Map<string, WorkloadView[]>();
  for (const w of workloadsOf(store, app)) {
    for (const r of resourcesOfWorkload(w)) served.set(r, [...(served.get(r) ?? []), w]);
  }
  const stored = new Map(
    resourcesTable(store)
      .filter((r) => r.app_name === app)
      .map((r) => [r.resource, r]),
  );
  const rows: AppResource[] = [];
  for (const resource of new Set([...stored.keys(), ...served.keys()])) {
    const workloads = served.get(resource) ?? [];
    rows.push({
      ...(stored.get(resource) ?? auditFromWorkloads(resource, app, workloads)),
      app_versions: uniqueSorted(
        workloads.map((w) => w.app_version),
        semver.compare,
      ),
      workload_names: uniqueSorted(workloads.map((w) => w.name)),
    });
  }
  return rows;
}

function auditFromWorkloads(resource: string, app: string, workloads: WorkloadView[]): StoredAppResource {
  const first = [...workloads].sort((a, b) => (a.created_at ?? "").localeCompare(b.created_at ?? ""))[0];
  return {
    resource,
    app_name: app,
    enabled: true,
    created_at: first?.created_at ?? "",
    created_by: first?.created_by ?? "",
    updated_at: first?.updated_at ?? first?.created_at ?? "",
    updated_by: first?.updated_by ?? first?.created_by ?? "",
  };
}

/** Counts for the app record: all resources, and those served by a running workload. */
export function resourceCount(store: Store, app: string): { total: number; running: number } {
  const running = new Set(
    workloadsOf(store, app)
      .filter((w) => w.status?.state === "running")
      .flatMap(resourcesOfWorkload),
  );
  const rows = appResourceRows(store, app);
  return { total: rows.length, running: rows.filter((r) => running.has(r.resource)).length };
}

/** Workload states that stay until something acts (the others are on the way to another state). */
const SETTLED: readonly string[] = ["running", "stopped", "failed", "unreachable", "ready", "pending_deploy"];
const MOVING: ReadonlySet<string> = new Set(workloadState.options.filter((state) => !SETTLED.includes(state)));

/**
 * The app's status (AppStatus) from its workloads: `requires_attention` when one failed or is
 * unreachable, else `updating` while one is on its way to another state or has a staged version,
 * else `running` when one runs, else `stopped` (no workload at all included).
 */
export function appStatusOf(store: Store, app: string): "running" | "stopped" | "updating" | "requires_attention" {
  const workloads = workloadsOf(store, app);
  const states = workloads.map((w) => w.status?.state ?? "");
  if (states.some((s) => s === "failed" || s === "unreachable")) return "requires_attention";
  if (states.some((s) => MOVING.has(s)) || workloads.some((w) => w.staged)) return "updating";
  return states.includes("running") ? "running" : "stopped";
}

/** Removes every binding row of an app (its parameter data goes with the app elsewhere). */
export function dropAppResources(store: Store, app: string): void {
  const table = resourcesTable(store);
  for (const r of table.filter((x) => x.app_name === app)) table.delete(resourceKey(app, r.resource));
}

/** enable/disable: writes the row of each asset with the given flag, binding assets not bound yet. */
export function setEnabled(ctx: WriteContext, app: string, resources: string[], enabled: boolean): undefined {
  requireApp(ctx.store, app);
  const current = new Map(appResourceRows(ctx.store, app).map((r) => [r.resource, r]));
  for (const resource of new Set(resources)) {
    const row = current.get(resource);
    if (row && row.enabled === enabled && resourcesTable(ctx.store).has(resourceKey(app, resource))) continue;
    resourcesTable(ctx.store).put(resourceKey(app, resource), {
      resource,
      app_name: app,
      enabled,
      created_at: row?.created_at || ctx.now,
      created_by: row?.created_by || ctx.actor,
      updated_at: ctx.now,
      updated_by: ctx.actor,
    });
  }
  return undefined;
}

export function unbind(ctx: WriteContext, app: string, resources: string[]): undefined {
  requireApp(ctx.store, app);
  const rows = new Map(appResourceRows(ctx.store, app).map((r) => [r.resource, r]));
  const wanted = [...new Set(resources)];
  const missing = wanted.filter((r) => !rows.has(r));
  if (missing.length > 0) throw notFound(`resource(s) of app '${app}'`, missing.join("', '"));
  const served = wanted.filter((r) => rows.get(r)!.workload_names.length > 0);
  if (served.length > 0) {
    throw badRequest(...served.map((r) => `body.resources: '${r}' is still served by workload(s) ${rows.get(r)!.workload_names.join(", ")}; remove it from them first`));
  }
  const gone = new Set(wanted);
  for (const r of wanted) resourcesTable(ctx.store).delete(resourceKey(app, r));
  removeValues(ctx, (v) => v.app_name === app && gone.has(v.resource), true);
  return undefined;
}

export interface ContextEntry {
  resource: string;
  source: string;
}

export function contextEntries(store: Store): ContextEntry[] {
  const out = new Map<string, ContextEntry>();
  const add = (resource: string, source: string) => out.set(`${resource}\u0000${source}`, { resource, source });
  for (const app of store.table<{ name: string }>(TABLES.apps).values()) {
    for (const row of appResourceRows(store, app.name)) {
      add(row.resource, `krn:app:${app.name}`);
      for (const w of row.workload_names) add(row.resource, `krn:workload:${w}`);
    }
  }
  return [...out.values()];
}
