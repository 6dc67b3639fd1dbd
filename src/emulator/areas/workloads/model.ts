/**
 * The workload records shared by the workloads area (/apps/workloads), the legacy view (/workloads),
 * app deploy and bridges. One table (TABLES.workloads, keyed by name) holds every workload; each area
 * shapes the same record into its own wire form, and both workload APIs move it through the same
 * lifecycle functions below. Their package downloads are in routes-packages.ts, their logs in
 * model-logs.ts.
 *
 * Design choices where the spec is silent:
 * - Status moves (facts §6.4 item 18) are immediate: start answers with the workload `running`, stop
 *   with it `stopped`, apply with it `running` on the staged version. A workload created with a staged
 *   deployment type is `staged` until it is applied.
 * - `enabled` follows the run state (facts §6.4 item 17): true when running, false when stopped or
 *   pending (a pending workload is `pending_deploy`).
 * - An update with a staged deployment type creates a staged version instead of changing the
 *   workload (spec): the workload runs what it ran until the staged version is applied. The edge
 *   starts downloading the staged version's package at once (download_status `downloading`); the
 *   download takes the emulated edge's time (edge.ts: `packageMs`, default 1 s, 0 on request) and may
 *   fail by fault injection (download_status `failed`, with download_error). Once it is done
 *   `staged.ready` is true; `staged-only` then waits for an explicit apply, `staged+instant-apply` is
 *   applied by the background ticker `applyDueRollouts` (as the system).
 * - A package is also built on the first download request (download_status pending → processing →
 *   ready, in the same time). Any change of what the workload runs needs a new package:
 *   download_status returns to pending.
 * - Logs: every lifecycle move writes a line to the workload's log, served from one pod `<name>-0`.
 *
 * Stored records do not change as time passes; `asOf` shows one as it stands at a given time (a due
 * package build has finished), and every read goes through it.
 */
import { conflict, notFound } from "../../../api/errors";
import type { workloads } from "../../../api/workloads";
import { DEFAULT_PACKAGE_MS } from "../../edge";
import type { HandlerContext } from "../../handler";
import { indexedRows, inFilter, matchesSearch, type IndexedRows, type SortGetters } from "../../list";
import { versionSortKey } from "../../version-order";
import { ABOVE, type Store } from "../../store/store";
import { TABLES, appVersionKey, refs } from "../../store/tables";
import { appendLog, type LogLine } from "./model-logs";

export type DeploymentType = "standard" | "staged+instant-apply" | "staged-only";
export type DownloadStatus = "pending" | "scheduled" | "processing" | "downloading" | "ready" | "failed";

export interface RuntimeResource {
  resource: string;
  parameters?: Record<string, unknown>;
  datastreams?: Record<string, unknown>;
  asset?: Record<string, unknown>;
}
export interface WorkloadRuntime {
  resources: RuntimeResource[];
  configuration: Record<string, unknown>;
  datastreams?: Array<Record<string, unknown>>;
}
export interface WorkloadStatus {
  state: string;
  message: string;
  last_seen: string | null;
  warnings: string[];
}
/** The update keys a staged version brings; applied to the workload by `apply`. */
export interface WorkloadChanges {
  title?: string;
  app_version?: string;
  cluster_name?: string;
  node_name?: string;
  runtime?: Partial<WorkloadRuntime>;
  system?: Record<string, unknown>;
  api_permissions?: unknown;
}
export interface StagedVersion {
  ready: boolean;
  app_version: string;
  payload: WorkloadChanges & Record<string, unknown>;
  instantly_apply: boolean;
  status: { message: string; state: string; warnings: string[] };
}

export interface StoredWorkload {
  name: string;
  title: string;
  app_name: string;
  app_version: string;
  app_type: string;
  cluster_name: string;
  node_name: string | null;
  download_status: DownloadStatus;
  download_error: string | null;
  status: WorkloadStatus;
  staged: StagedVersion | null;
  runtime: WorkloadRuntime;
  system: Record<string, unknown> | null;
  api_permissions: unknown;
  enabled: boolean;
  /** Legacy view fields (facts §4.4). */
  instantly_apply: boolean;
  pre_download: boolean;
  payload: Record<string, unknown>;
  networking: unknown[];
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
  /** When the current package build or download started (epoch ms), or null when none was asked for; internal. */
  build_started_ms: number | null;
  /** How long that one takes (ms; absent in records written before it was kept: DEFAULT_PACKAGE_MS); internal. */
  package_ms?: number;
  /** Whether that one fails (fault injection); internal. */
  package_fails?: boolean;
  /** The workload's log lines; internal (served by the logs operations). */
  log: LogLine[];
}

export interface NewWorkload {
  name: string;
  title?: string;
  app_name: string;
  app_version: string;
  cluster_name: string;
  node_name?: string;
  runtime?: { resources?: RuntimeResource[]; configuration?: Record<string, unknown>; datastreams?: Array<Record<string, unknown>> };
  system?: Record<string, unknown> | null;
  api_permissions?: unknown;
  enabled?: boolean;
  stopped?: boolean;
  deployment_type?: DeploymentType;
  payload?: Record<string, unknown>;
  /** Legacy deploy flags; derived from deployment_type when absent. */
  instantly_apply?: boolean;
  pre_download?: boolean;
  app_type?: string;
}

export const workloadTable = (store: Store) => store.table<StoredWorkload>(TABLES.workloads);

// ---------------------------------------------------------------------------------------------
// Reading

const inProgress = (w: StoredWorkload) => w.download_status === "processing" || w.download_status === "downloading";

/** When the package build or download under way is done (epoch ms); null when none is under way. */
export function packageDueMs(w: StoredWorkload): number | null {
  if (!inProgress(w) || w.build_started_ms === null) return null;
  return w.build_started_ms + (w.package_ms ?? DEFAULT_PACKAGE_MS);
}

/** The record as it stands at `nowMs`: a package build or download that is due has finished (or failed). */
export function asOf(w: StoredWorkload, nowMs: number): StoredWorkload {
  const due = packageDueMs(w);
  if (due === null || nowMs < due) return w;
  if (w.package_fails) {
    const error = `the download of the package failed (injected by the emulator's fault injection); update the workload or download it again`;
    return { ...w, download_status: "failed", download_error: error, staged: w.staged ? { ...w.staged, status: { ...w.staged.status, state: "failed", message: error } } : null };
  }
  return { ...w, download_status: "ready", staged: w.staged ? { ...w.staged, ready: true } : null };
}

/**
 * A package build (`processing`, asked for by a download request) or the edge's download of a staged
 * version (`downloading`), starting now: how long it takes and whether it fails come from the edge.
 */
export function startPackage(ctx: HandlerContext, kind: "processing" | "downloading"): Partial<StoredWorkload> {
  return { download_status: kind, download_error: null, build_started_ms: ctx.nowMs, package_ms: ctx.edge.packageMs(), package_fails: ctx.edge.packageFails() };
}

/** The record (as it stands at `nowMs` when given); 404 naming it when there is none. */
export function requireWorkload(store: Store, name: string, nowMs?: number): StoredWorkload {
  const w = workloadTable(store).get(name);
  if (!w) throw notFound("workload", name);
  return nowMs === undefined ? w : asOf(w, nowMs);
}

/** Every workload as it stands now. */
export function allWorkloads(store: Store, nowMs: number): StoredWorkload[] {
  return [...workloadTable(store).values()].map((w) => asOf(w, nowMs));
}

/**
 * The app version a workload may run: a version of the apps area or of the app registry (legacy
 * deploys and bridges run registry apps). 404 naming what is missing otherwise.
 */
export function requireRunnableVersion(store: Store, app: string, version: string): void {
  if (refs.appVersion(store, app, version) || store.table(TABLES.registryVersions).has(appVersionKey(app, version))) return;
  if (!refs.app(store, app) && !refs.registryApp(store, app)) throw notFound("app", app);
  throw notFound(`app '${app}' version`, version);
}

export function requireCluster(store: Store, clusterName: string): void {
  if (!refs.cluster(store, clusterName)) throw notFound("cluster", clusterName);
}

/** Registry app types map onto AppType as facts §5 says. */
export const REGISTRY_TO_APP_TYPE: Record<string, string> = { svc: "app", bridge: "importer", docker: "docker" };

/** The type of the app a workload runs: from the app version, the app, or the registry. */
export function appTypeOf(store: Store, app: string, version: string): string {
  const own = refs.appVersion(store, app, version)?.type ?? refs.app(store, app)?.type;
  if (own) return own;
  const registry = refs.registryApp(store, app)?.type;
  return (registry && REGISTRY_TO_APP_TYPE[registry]) ?? "app";
}

export const resourceKrns = (w: StoredWorkload): string[] => w.runtime.resources.map((r) => r.resource);

/** What both workload lists filter on; an absent field does not filter. */
export interface WorkloadFilter {
  search?: string[];
  /** The fields `search` looks in. */
  searchIn: (w: StoredWorkload) => Array<string | null>;
  app_names?: string[];
  app_versions?: string[];
  app_types?: string[];
  cluster_names?: string[];
  node_names?: string[];
  workload_names?: string[];
  /** An asset KRN the workload must serve. */
  resource?: string;
  /** true: only workloads with a staged version; false or absent: all. */
  staged?: boolean;
  enabled?: boolean;
  statuses?: string[];
  download_statuses?: string[];
}

export function matchesWorkloadFilter(w: StoredWorkload, f: WorkloadFilter): boolean {
  return (
    (!f.search?.length || matchesSearch(f.search, ...f.searchIn(w))) &&
    inFilter(f.app_names, w.app_name) &&
    inFilter(f.app_versions, w.app_version) &&
    inFilter(f.app_types, w.app_type) &&
    inFilter(f.cluster_names, w.cluster_name) &&
    inFilter(f.node_names, w.node_name) &&
    inFilter(f.workload_names, w.name) &&
    inFilter(f.statuses, w.status.state) &&
    inFilter(f.download_statuses, w.download_status) &&
    (f.resource === undefined || resourceKrns(w).includes(f.resource)) &&
    (!f.staged || w.staged !== null) &&
    (f.enabled === undefined || w.enabled === f.enabled)
  );
}

/** Sort keys of the workload lists (the legacy list adds its created/updated names). */
export const WORKLOAD_SORT = {
  name: (w) => w.name,
  title: (w) => w.title,
  app_name: (w) => w.app_name,
  app_version: (w) => versionSortKey(w.app_version),
  cluster_name: (w) => w.cluster_name,
  node_name: (w) => w.node_name,
  status_last_seen: (w) => w.status.last_seen,
  status_state: (w) => w.status.state,
  created_at: (w) => w.created_at,
  created_by: (w) => w.created_by,
  updated_at: (w) => w.updated_at,
  updated_by: (w) => w.updated_by,
} satisfies SortGetters<typeof workloads.list, StoredWorkload>;

/**
 * The workloads a list shows, as the list engine walks them: in an ordered index of the table, each
 * visited record brought to `nowMs` (asOf) and then filtered. The sort values are stored fields that
 * asOf does not change (it moves download_status and staged.ready only), so the index's order is the
 * list's order; the download_statuses filter sees the record as of now. An `in` filter on a sort key
 * lets a walk that leads with that key jump from value to value.
 */
export function workloadRows(store: Store, nowMs: number, f: WorkloadFilter): IndexedRows<StoredWorkload> {
  return indexedRows(
    workloadTable(store),
    "workloads",
    (stored) => {
      const w = asOf(stored, nowMs);
      return matchesWorkloadFilter(w, f) ? w : undefined;
    },
    {
      only: {
        name: f.workload_names,
        app_name: f.app_names,
        app_version: f.app_versions?.map(versionSortKey),
        cluster_name: f.cluster_names,
        node_name: f.node_names,
        status_state: f.statuses,
      },
    },
  );
}

export const stagedSummary = (s: StagedVersion | null) => (s ? { ready: s.ready, app_version: s.app_version, status: s.status } : null);

// ---------------------------------------------------------------------------------------------
// Writing

/** Staging flags of a deployment type (facts §6.4 item 14). */
export function stagingOf(type: DeploymentType | undefined): { staged: boolean; instantly_apply: boolean } {
  if (type === "staged-only") return { staged: true, instantly_apply: false };
  if (type === "staged+instant-apply") return { staged: true, instantly_apply: true };
  return { staged: false, instantly_apply: true };
}

export const statusOf = (state: string, lastSeen: string | null, message = ""): WorkloadStatus => ({
  state,
  message,
  last_seen: lastSeen,
  warnings: [],
});

function normalizeRuntime(rt: NewWorkload["runtime"] | undefined): WorkloadRuntime {
  const out: WorkloadRuntime = { resources: [...(rt?.resources ?? [])], configuration: { ...(rt?.configuration ?? {}) } };
  if (rt?.datastreams) out.datastreams = [...rt.datastreams];
  return out;
}

function stagedVersion(appVersion: string, payload: StagedVersion["payload"], instantlyApply: boolean): StagedVersion {
  return { ready: false, app_version: appVersion, payload, instantly_apply: instantlyApply, status: { message: "", state: "staged", warnings: [] } };
}

function initialState(input: NewWorkload, awaitsApply: boolean): { state: string; enabled: boolean } {
  if (input.enabled === false) return { state: "pending_deploy", enabled: false };
  if (awaitsApply) return { state: "staged", enabled: true };
  if (input.stopped) return { state: "stopped", enabled: false };
  return { state: "running", enabled: true };
}

/** Creates a workload record: 409 when the name is taken, 404 when the cluster does not exist. */
export function insertWorkload(ctx: HandlerContext, input: NewWorkload): StoredWorkload {
  const table = workloadTable(ctx.store);
  if (table.has(input.name)) throw conflict(`workload '${input.name}' already exists; choose another name or update it`);
  requireCluster(ctx.store, input.cluster_name);
  const staging = stagingOf(input.deployment_type);
  const instantlyApply = input.instantly_apply ?? staging.instantly_apply;
  const { state, enabled } = initialState(input, !instantlyApply);
  const record: StoredWorkload = {
    name: input.name,
    title: input.title ?? input.name,
    app_name: input.app_name,
    app_version: input.app_version,
    app_type: input.app_type ?? appTypeOf(ctx.store, input.app_name, input.app_version),
    cluster_name: input.cluster_name,
    node_name: input.node_name ?? null,
    download_status: "pending",
    download_error: null,
    status: statusOf(state, state === "running" ? ctx.now : null),
    staged: instantlyApply ? null : stagedVersion(input.app_version, {}, false),
    runtime: normalizeRuntime(input.runtime),
    system: input.system ?? null,
    api_permissions: input.api_permissions ?? null,
    enabled,
    instantly_apply: instantlyApply,
    pre_download: input.pre_download ?? staging.staged,
    payload: input.payload ?? {},
    networking: [],
    created_at: ctx.now,
    created_by: ctx.actor,
    updated_at: ctx.now,
    updated_by: ctx.actor,
    build_started_ms: null,
    log: [{ at: ctx.now, text: `workload ${input.name} created: app ${input.app_name} ${input.app_version}, state ${state}` }],
  };
  return table.put(record.name, record);
}

/** What a write needs: the store, the time, and who writes (a request, or the system's background work). */
export type WriteContext = Pick<HandlerContext, "store" | "now" | "actor">;

/** Puts a changed record, stamping updated_at/updated_by and logging what happened. */
export function saveWorkload(ctx: WriteContext, current: StoredWorkload, changes: Partial<StoredWorkload>, logText?: string): StoredWorkload {
  const next: StoredWorkload = {
    ...current,
    ...changes,
    updated_at: ctx.now,
    updated_by: ctx.actor,
    log: logText ? appendLog(current.log, ctx.now, logText) : current.log,
  };
  return workloadTable(ctx.store).put(current.name, next);
}

export function removeWorkload(ctx: HandlerContext, name: string): void {
  requireWorkload(ctx.store, name);
  workloadTable(ctx.store).delete(name);
}

// ---------------------------------------------------------------------------------------------
// Updates and staged versions

/** The record fields the changes set: each sent key replaces its value; runtime per sub-key. */
export function mergeChanges(w: StoredWorkload, c: WorkloadChanges): Partial<StoredWorkload> {
  const out: Partial<StoredWorkload> = {};
  if (c.title !== undefined) out.title = c.title;
  if (c.app_version !== undefined) out.app_version = c.app_version;
  if (c.cluster_name !== undefined) out.cluster_name = c.cluster_name;
  if (c.node_name !== undefined) out.node_name = c.node_name;
  if (c.system !== undefined) out.system = c.system;
  if (c.api_permissions !== undefined) out.api_permissions = c.api_permissions;
  if (c.runtime) {
    const rt: WorkloadRuntime = { ...w.runtime };
    if (c.runtime.resources !== undefined) rt.resources = c.runtime.resources;
    if (c.runtime.configuration !== undefined) rt.configuration = c.runtime.configuration;
    if (c.runtime.datastreams !== undefined) rt.datastreams = c.runtime.datastreams;
    out.runtime = rt;
  }
  return out;
}

/** Keys that change what runs on the edge, and so need a new package. */
const changesPackage = (c: WorkloadChanges) => c.app_version !== undefined || c.runtime !== undefined || c.system !== undefined;
const freshPackage: Partial<StoredWorkload> = { download_status: "pending", download_error: null, build_started_ms: null };

/** Checks that the targets of the changes exist: the app version (404 naming it) and the cluster. */
export function validateChanges(store: Store, w: StoredWorkload, c: WorkloadChanges): void {
  if (c.app_version !== undefined) requireRunnableVersion(store, w.app_name, c.app_version);
  if (c.cluster_name !== undefined) requireCluster(store, c.cluster_name);
}

/**
 * Updates a workload. With a staged deployment type the changes become a staged version (replacing an
 * earlier one) whose package the edge starts downloading, and the workload itself stays as it is until
 * the version is applied (by apply for `staged-only`, once downloaded for `staged+instant-apply`);
 * `standard` changes the workload.
 */
export function updateWorkload(ctx: HandlerContext, w: StoredWorkload, c: WorkloadChanges, type?: DeploymentType): StoredWorkload {
  validateChanges(ctx.store, w, c);
  const staging = stagingOf(type);
  if (staging.staged) {
    const staged = stagedVersion(c.app_version ?? w.app_version, { ...c }, staging.instantly_apply);
    const how = staging.instantly_apply ? "applied once downloaded" : "waiting for apply";
    return saveWorkload(
      ctx,
      w,
      { staged, instantly_apply: staging.instantly_apply, pre_download: true, ...startPackage(ctx, "downloading") },
      `staged version ${staged.app_version} created (${how}); downloading its package`,
    );
  }
  const standard = type ? { instantly_apply: true, pre_download: false } : {};
  const pkg = changesPackage(c) ? freshPackage : {};
  return saveWorkload(ctx, w, { ...mergeChanges(w, c), ...standard, ...pkg }, `updated: ${Object.keys(c).join(", ") || "nothing"}`);
}

/** Why a workload cannot be applied now (facts §6.4 item 15), or null when it can. */
export function applyProblem(w: StoredWorkload): string | null {
  if (!w.staged) return `workload '${w.name}' has no staged version to apply (update it with deployment_type staged-only first)`;
  if (w.staged.instantly_apply) return `workload '${w.name}': its staged version is applied instantly (instantly_apply=true); there is nothing to apply`;
  if (w.download_status !== "ready") {
    return `workload '${w.name}': the package of its staged version is not downloaded (download_status ${w.download_status}); download it first`;
  }
  return null;
}

/** Applies the staged version: the workload takes its changes and runs it (the caller checked applyProblem). */
export function applyStaged(ctx: WriteContext, w: StoredWorkload): StoredWorkload {
  const staged = w.staged!;
  const runs = w.status.state === "staged" || w.enabled;
  const state = runs ? "running" : w.status.state;
  return saveWorkload(
    ctx,
    w,
    { ...mergeChanges(w, staged.payload), app_version: staged.app_version, staged: null, enabled: runs, status: statusOf(state, runs ? ctx.now : w.status.last_seen) },
    `staged version ${staged.app_version} applied`,
  );
}

/** Drops the staged version only (delete/undeploy with staged=true). */
export function deleteStaged(ctx: HandlerContext, w: StoredWorkload): StoredWorkload {
  if (!w.staged) throw notFound(`staged version of workload`, w.name);
  // A workload whose first version was never applied has nothing left to run.
  const status = w.status.state === "staged" ? statusOf("stopped", w.status.last_seen) : w.status;
  return saveWorkload(ctx, w, { staged: null, status, enabled: status.state === "stopped" ? false : w.enabled }, `staged version ${w.staged.app_version} deleted`);
}

/** The index of staged versions applied once downloaded, by when their download is done. */
const rolloutIndex = (store: Store) => workloadTable(store).index("rollouts", (w) => [w.staged?.instantly_apply && !w.package_fails ? packageDueMs(w) : null]);

/**
 * Applies every `staged+instant-apply` version whose package is downloaded by `nowMs` (background
 * work, as the system): in the order their downloads finished, each through the same apply as the
 * apply call. A failed download is never applied.
 */
export function applyDueRollouts(ctx: WriteContext & { nowMs: number }): void {
  const due: string[] = [];
  for (const tuple of rolloutIndex(ctx.store).ascending([null, ABOVE])) {
    if ((tuple[0] as number) > ctx.nowMs) break;
    due.push(tuple[tuple.length - 1] as string);
  }
  for (const name of due) applyStaged(ctx, asOf(workloadTable(ctx.store).get(name)!, ctx.nowMs));
}

// ---------------------------------------------------------------------------------------------
// Lifecycle moves

function requireDeployed(w: StoredWorkload, action: string): void {
  if (w.status.state === "pending_deploy") {
    throw conflict(`workload '${w.name}' is pending (created with enabled=false): enable it before you ${action} it`);
  }
  if (w.status.state === "staged") {
    throw conflict(`workload '${w.name}' waits for its first staged version to be applied: apply it before you ${action} it`);
  }
}

export function startWorkload(ctx: HandlerContext, w: StoredWorkload): StoredWorkload {
  requireDeployed(w, "start");
  if (w.status.state === "running") return w;
  return saveWorkload(ctx, w, { enabled: true, status: statusOf("running", ctx.now) }, "started");
}

export function stopWorkload(ctx: HandlerContext, w: StoredWorkload): StoredWorkload {
  requireDeployed(w, "stop");
  if (w.status.state === "stopped") return w;
  return saveWorkload(ctx, w, { enabled: false, status: statusOf("stopped", w.status.last_seen) }, "stopped");
}

export function enableWorkload(ctx: HandlerContext, w: StoredWorkload): StoredWorkload {
  if (w.status.state !== "pending_deploy") {
    throw conflict(`workload '${w.name}' is not pending (state ${w.status.state}); only workloads created with enabled=false can be enabled`);
  }
  return saveWorkload(ctx, w, { enabled: true, status: statusOf("running", ctx.now) }, "enabled");
}
