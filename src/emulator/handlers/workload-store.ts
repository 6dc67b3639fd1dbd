/**
 * The workload records shared by the workloads area (/apps/workloads), the legacy view (/workloads),
 * app deploy and bridges. One table (TABLES.workloads, keyed by name) holds every workload; each area
 * shapes the same record into its own wire form.
 *
 * Status moves (facts §6.4 item 18) are immediate: a start answers with the workload `running`, a
 * stop with it `stopped`, an apply with it `running` on the staged version. The only time-based move
 * is the package build of a download (see `advanceDownload`).
 */
import { conflict, notFound } from "../../api/errors";
import type { HandlerContext } from "../http";
import type { Store } from "../store/store";
import { TABLES, refs } from "../store/tables";

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
export interface StagedVersion {
  ready: boolean;
  app_version: string;
  payload: Record<string, unknown>;
  instantly_apply: boolean;
  status: { message: string; state: string; warnings: string[] };
  /** What the staged version brings besides the app version; internal. */
  runtime?: WorkloadRuntime;
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
  /** When the current package build started (epoch ms), or null when none was asked for; internal. */
  build_started_ms: number | null;
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

export function requireWorkload(store: Store, name: string): StoredWorkload {
  const w = workloadTable(store).get(name);
  if (!w) throw notFound("workload", name);
  return w;
}

export function requireCluster(store: Store, clusterName: string): void {
  if (!refs.cluster(store, clusterName)) throw notFound("cluster", clusterName);
}

/** Registry app types map onto AppType as facts §5 says. */
const REGISTRY_TO_APP_TYPE: Record<string, string> = { svc: "app", bridge: "importer", docker: "docker" };

/** The type of the app a workload runs: from the app version, the app, or the registry. */
export function appTypeOf(store: Store, app: string, version: string): string {
  const fromVersion = refs.appVersion(store, app, version)?.type ?? refs.app(store, app)?.type;
  if (fromVersion) return fromVersion;
  const registry = refs.registryApp(store, app)?.type;
  return (registry && REGISTRY_TO_APP_TYPE[registry]) ?? "app";
}

/** Staging flags of a deployment type (facts §6.4 item 14). */
export function stagingOf(type: DeploymentType | undefined): { staged: boolean; instantly_apply: boolean } {
  if (type === "staged-only") return { staged: true, instantly_apply: false };
  if (type === "staged+instant-apply") return { staged: true, instantly_apply: true };
  return { staged: false, instantly_apply: true };
}

export const statusOf = (state: string, now: string | null, message = ""): WorkloadStatus => ({
  state,
  message,
  last_seen: now,
  warnings: [],
});

export function normalizeRuntime(rt: NewWorkload["runtime"] | undefined): WorkloadRuntime {
  const out: WorkloadRuntime = { resources: [...(rt?.resources ?? [])], configuration: { ...(rt?.configuration ?? {}) } };
  if (rt?.datastreams) out.datastreams = [...rt.datastreams];
  return out;
}

function initialState(input: NewWorkload): { state: string; enabled: boolean } {
  if (input.enabled === false) return { state: "pending_deploy", enabled: false };
  if (input.stopped) return { state: "stopped", enabled: false };
  return { state: "running", enabled: true };
}

/** Creates a workload record: 409 when the name is taken, 404 when the cluster does not exist. */
export function insertWorkload(ctx: HandlerContext, input: NewWorkload): StoredWorkload {
  const table = workloadTable(ctx.store);
  if (table.has(input.name)) throw conflict(`workload '${input.name}' already exists; choose another name or update it`);
  requireCluster(ctx.store, input.cluster_name);
  const { state, enabled } = initialState(input);
  const staging = stagingOf(input.deployment_type);
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
    status: statusOf(state, enabled ? ctx.now : null),
    staged: null,
    runtime: normalizeRuntime(input.runtime),
    system: input.system ?? null,
    api_permissions: input.api_permissions ?? null,
    enabled,
    instantly_apply: input.instantly_apply ?? staging.instantly_apply,
    pre_download: input.pre_download ?? staging.staged,
    payload: input.payload ?? {},
    networking: [],
    created_at: ctx.now,
    created_by: ctx.actor,
    updated_at: ctx.now,
    updated_by: ctx.actor,
    build_started_ms: null,
  };
  return table.put(record.name, record);
}

/** Puts a changed record, stamping updated_at/updated_by. */
export function saveWorkload(ctx: HandlerContext, current: StoredWorkload, changes: Partial<StoredWorkload>): StoredWorkload {
  const next: StoredWorkload = { ...current, ...changes, updated_at: ctx.now, updated_by: ctx.actor };
  return workloadTable(ctx.store).put(current.name, next);
}

export function removeWorkload(ctx: HandlerContext, name: string): void {
  requireWorkload(ctx.store, name);
  workloadTable(ctx.store).delete(name);
}
