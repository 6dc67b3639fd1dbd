/**
 * Workloads (spec Part 1 "Workloads"; bodies from facts §3.5, records from facts §4.3, enums from
 * facts §5, behaviours from facts §6.4). The legacy /workloads view of the same records reuses the
 * enums and the status objects declared here.
 */
import { z } from "zod";
import { assetKrn, auditAt, cursorPage, dateTime, freeObject, name, part1ListQuery, qArray, qBool, qInt, semverString, text, title } from "./common";
import { absentIfNull, appType, deploymentRuntime, deploymentType } from "./apps";
import { area, endpoint, pathValues, type ActionInput, type ConfirmReader, type CreateInput } from "./endpoint";

// ---------------------------------------------------------------------------------------------
// Enums (facts §5)

export const workloadState = z.enum([
  "pending_deploy",
  "pending_update",
  "pending_start",
  "pending_stop",
  "pending_apply",
  "deploying",
  "running",
  "stopping",
  "stopped",
  "failed",
  "starting",
  "applying",
  "received",
  "downloading",
  "ready",
  "unreachable",
  "staged",
]);
export type WorkloadState = z.infer<typeof workloadState>;
export const downloadStatus = z.enum(["pending", "scheduled", "processing", "downloading", "ready", "failed"]);

/** An explicit `null` on an optional field means the same as leaving it out (facts §1.1). */
const opt = absentIfNull;

/** The shape of `api_permissions` is not known (facts §3.5): an object or a list, passed through. */
export const apiPermissions = z.union([freeObject, z.array(z.unknown()).max(1000)]);

/** One entry of `runtime.resources` (facts §3.2), as the apps area declares it. */
export const runtimeResource = deploymentRuntime.shape.resources.unwrap().element;
export const runtimeDatastream = deploymentRuntime.shape.datastreams.unwrap().element;

// ---------------------------------------------------------------------------------------------
// Bodies (facts §3.5)

export const WorkloadCreate = z
  .object({
    name: name(64),
    title: opt(title(128)),
    app_name: name(64),
    app_version: semverString,
    app_type: opt(appType),
    cluster_name: name(64),
    node_name: opt(name(64)),
    runtime: opt(deploymentRuntime),
    /** Callers may send `null` (facts §3.5). */
    system: freeObject.nullish(),
    deployment_type: opt(deploymentType),
    enabled: opt(z.boolean()),
    api_permissions: opt(apiPermissions),
  })
  .strict();
export type WorkloadCreate = z.output<typeof WorkloadCreate>;

/** The spec's update keys; each sent key replaces its whole value (runtime: per sub-key). */
export const WorkloadUpdate = z
  .object({
    title: opt(title(128)),
    app_version: opt(semverString),
    cluster_name: opt(name(64)),
    node_name: opt(name(64)),
    deployment_type: opt(deploymentType),
    runtime: opt(deploymentRuntime),
    system: opt(freeObject),
    api_permissions: opt(apiPermissions),
  })
  .strict();
export type WorkloadUpdate = z.output<typeof WorkloadUpdate>;

const workloadNames = z.array(name(64)).min(1, { message: "must name at least one workload" }).max(1000, { message: "at most 1000 workloads per request" });
/** The workloads a bulk action acts on, under the name the vendor's clients send (`workload_names`). */
export const WorkloadNames = z.object({ workload_names: workloadNames }).strict();
/** Start and stop may come without a body; see the handler for what that selects. */
export const OptionalWorkloadNames = z.object({ workload_names: opt(workloadNames) }).strict();

export const WorkloadResourcesAdd = z
  .object({
    resources: z.array(runtimeResource).min(1, { message: "must name at least one resource" }).max(10000),
    datastreams: opt(z.array(runtimeDatastream).max(10000)),
  })
  .strict();
export const WorkloadResourcesRemove = z.object({ resources: z.array(assetKrn).min(1, { message: "must name at least one resource" }).max(10000) }).strict();

export const WorkloadsBulkUpdate = z
  .object({
    workload_names: opt(workloadNames),
    app_name: opt(name(64)),
    app_version: opt(semverString),
    runtime: opt(deploymentRuntime),
    system: opt(freeObject),
    deployment_type: opt(deploymentType),
  })
  .strict();
export type WorkloadsBulkUpdate = z.output<typeof WorkloadsBulkUpdate>;

// ---------------------------------------------------------------------------------------------
// Records (facts §4.3)

export const workloadStatusObject = z.object({
  state: workloadState,
  message: z.string(),
  last_seen: z.string().nullable(),
  warnings: z.array(z.string()),
});
const stagedStatus = z.object({ message: z.string(), state: workloadState, warnings: z.array(z.string()) });
export const stagedSummary = z.object({ ready: z.boolean(), app_version: z.string(), status: stagedStatus });
export const stagedFull = stagedSummary.extend({ payload: freeObject, instantly_apply: z.boolean() });

const listFields = {
  name: z.string(),
  title: z.string(),
  app_name: z.string(),
  app_version: z.string(),
  app_type: appType,
  cluster_name: z.string(),
  node_name: z.string().nullable(),
  download_status: downloadStatus,
  download_error: z.string().nullable(),
  status: workloadStatusObject,
  ...auditAt,
};
export const WorkloadListItem = z.object({ ...listFields, staged: stagedSummary.nullable() });
export const Workload = z.object({
  ...listFields,
  staged: stagedFull.nullable(),
  runtime: z.object({ resources: z.array(z.unknown()), configuration: freeObject, datastreams: z.array(z.unknown()).optional() }),
  system: freeObject.nullable(),
  api_permissions: z.unknown(),
  enabled: z.boolean(),
});
export type Workload = z.infer<typeof Workload>;

export const WorkloadDownloadAddress = z.object({ url: z.string(), expires_in: z.number().int() });
export const WorkloadLogs = z.object({ logs: z.record(z.string(), z.array(z.string())) });

// ---------------------------------------------------------------------------------------------
// Queries shared with the legacy view

/** Download: `expires` is carried by the links `address=true` hands out (an expired link answers 412). */
/** `expires` and `signature` come with the direct link an address=true answer hands out. */
export const downloadQuery = z.object({ address: qBool.default(false), expires: qInt(0, 4_102_444_800).optional(), signature: z.string().max(128).optional() }).strict();
export const logsQuery = z.object({ tail_lines: qInt(1, 100_000).optional(), since_time: dateTime.optional() }).strict();

export const WORKLOAD_SORT_KEYS = [
  "name",
  "title",
  "app_name",
  "app_version",
  "cluster_name",
  "node_name",
  "status_last_seen",
  "status_state",
  "created_at",
  "created_by",
  "updated_at",
  "updated_by",
] as const;

// ---------------------------------------------------------------------------------------------
// Endpoints

const workloadParams = z.object({ workload_name: name(64) });
/**
 * Whether an addition of resources whose answer was lost was applied: the workload serves every
 * resource it adds (none: not applied; some: cannot tell, since an addition is all or nothing).
 */
async function findAdded(c: CreateInput, read: ConfirmReader): Promise<unknown> {
  const params = pathValues({ workload_name: c.params.workload_name });
  const wanted = Array.isArray(c.body.resources) ? c.body.resources.map((r) => (r as { resource?: unknown } | null)?.resource) : [];
  if (!params || wanted.length === 0 || !wanted.every((k) => typeof k === "string")) throw new Error("the request names no workload and resources to look for");
  const w = (await read("workloads.get", { params })) as Workload | undefined;
  if (w === undefined) return undefined;
  const served = new Set(w.runtime.resources.map((r) => (r as { resource?: unknown } | null)?.resource));
  const found = wanted.filter((k) => served.has(k));
  if (found.length === wanted.length) return w;
  if (found.length === 0) return undefined;
  throw new Error(`workload '${params.workload_name}' serves ${found.length} of the ${wanted.length} resources the request adds`);
}

/** The workloads an action names in its body, as path values of workloads.get; undefined when it names none. */
function namedWorkloads(a: ActionInput): Array<Record<string, string>> | undefined {
  const names = Array.isArray(a.body.workload_names) ? a.body.workload_names : [];
  const objects = names.map((n: unknown) => pathValues({ workload_name: n }));
  return objects.length > 0 && objects.every((o) => o !== undefined) ? objects.filter((o) => o !== undefined) : undefined;
}

/** The state and staged version of a workload record as workloads.get answers it. */
const workloadRecord = (r: unknown) => r as Pick<Workload, "status" | "staged">;

/** Bulk operations: 204 when every item succeeds, 207 with a result per item when only some do. */
const bulkSuccess = { status: 204 } as const;
const bulkErrors = [207, 400, 401, 403, 404, 500];

export const workloads = area("workloads", "part1", {
  create: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "workloads.get", params: (c) => pathValues({ workload_name: c.body.name }) },
    path: "/apps/workloads/create",
    permission: "workload.create",
    summary: "Create a workload of an app version on a cluster (stopped=true: deployed stopped; enabled=false: pending)",
    query: z.object({ stopped: qBool.default(false) }).strict(),
    body: WorkloadCreate,
    success: { status: 201, body: Workload },
    errors: [400, 401, 403, 404, 409],
  }),
  get: endpoint({
    method: "GET",
    effect: "read",
    path: "/apps/workloads/{workload_name}/get",
    permission: "workload.read",
    summary: "Get a workload: runtime configuration, deployment metadata and lifecycle status",
    params: workloadParams,
    success: { status: 200, body: Workload },
  }),
  patch: endpoint({
    method: "POST",
    effect: "update",
    path: "/apps/workloads/{workload_name}/patch",
    permission: "workload.update",
    summary: "Update a workload: sent keys replace their value; a staged deployment_type creates a staged version instead",
    params: workloadParams,
    body: WorkloadUpdate,
    success: { status: 200, body: Workload },
  }),
  download: endpoint({
    method: "GET",
    effect: "read",
    path: "/apps/workloads/{workload_name}/download",
    signedLinks: true,
    permission: "workload.read",
    summary: "Download the workload package (202 while it is built), or a short-lived URL with address=true",
    params: workloadParams,
    query: downloadQuery,
    success: { status: 200, kind: "binary" },
    errors: [400, 401, 403, 404, 409, 412],
  }),
  list: endpoint({
    method: "GET",
    effect: "read",
    path: "/apps/workloads/list",
    permission: "workload.read",
    summary: "List workloads",
    query: z
      .object({
        search: qArray(text(256)).optional(),
        app_names: qArray(name(64)).optional(),
        app_versions: qArray(semverString).optional(),
        app_types: qArray(appType).optional(),
        cluster_names: qArray(name(64)).optional(),
        node_names: qArray(name(64)).optional(),
        workload_names: qArray(name(64)).optional(),
        resources: assetKrn.optional(),
        staged: qBool.optional(),
        statuses: qArray(workloadState).optional(),
        download_statuses: qArray(downloadStatus).optional(),
        ...part1ListQuery(WORKLOAD_SORT_KEYS, ["name"]),
      })
      .strict(),
    success: { status: 200, body: cursorPage(WorkloadListItem) },
    list: "part1",
    errors: [400, 401, 403],
  }),
  apply: endpoint({
    method: "POST",
    effect: "action",
    // Once applied, a workload has no staged version left, and a repeat is refused (400).
    confirm: { read: "workloads.get", objects: namedWorkloads, took: (r) => !workloadRecord(r).staged },
    path: "/apps/workloads/apply",
    permission: "workload.update",
    summary: "Apply staged versions (staged, instantly_apply=false, package downloaded)",
    body: WorkloadNames,
    success: bulkSuccess,
    errors: bulkErrors,
  }),
  enable: endpoint({
    method: "POST",
    effect: "action",
    // Once enabled, a workload is no longer pending, and a repeat is refused (400).
    confirm: { read: "workloads.get", objects: namedWorkloads, took: (r) => workloadRecord(r).status.state !== "pending_deploy" },
    path: "/apps/workloads/enable",
    permission: "workload.update",
    summary: "Enable pending workloads (created with enabled=false)",
    body: WorkloadNames,
    success: bulkSuccess,
    errors: bulkErrors,
  }),
  start: endpoint({
    method: "POST",
    effect: "action",
    path: "/apps/workloads/start",
    permission: "workload.update",
    summary: "Start workloads (without a body: every stopped workload)",
    body: OptionalWorkloadNames,
    bodyOptional: true,
    success: bulkSuccess,
    errors: bulkErrors,
  }),
  stop: endpoint({
    method: "POST",
    effect: "action",
    path: "/apps/workloads/stop",
    permission: "workload.update",
    summary: "Stop workloads (without a body: every running workload)",
    body: OptionalWorkloadNames,
    bodyOptional: true,
    success: bulkSuccess,
    errors: bulkErrors,
  }),
  delete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/apps/workloads/delete",
    permission: "workload.delete",
    summary: "Delete workloads (staged=true: only their staged versions)",
    query: z.object({ staged: qBool.default(false) }).strict(),
    body: WorkloadNames,
    success: bulkSuccess,
    errors: bulkErrors,
  }),
  logs: endpoint({
    method: "GET",
    effect: "read",
    path: "/apps/workloads/{workload_name}/logs/get",
    permission: "workload.read",
    summary: "Get the workload's logs per pod",
    params: workloadParams,
    query: logsQuery,
    success: { status: 200, body: WorkloadLogs },
    errors: [400, 401, 403, 404, 424, 500, 501],
  }),
  resourcesAdd: endpoint({
    method: "POST",
    effect: "create",
    confirm: { reads: ["workloads.get"], find: findAdded },
    path: "/apps/workloads/{workload_name}/resources/add",
    permission: "workload.update",
    summary: "Add resources (assets) to a workload; 409 for one it already serves",
    params: workloadParams,
    body: WorkloadResourcesAdd,
    success: { status: 200, body: Workload },
    errors: [400, 401, 403, 404, 409],
  }),
  resourcesRemove: endpoint({
    method: "POST",
    effect: "delete",
    path: "/apps/workloads/{workload_name}/resources/remove",
    permission: "workload.update",
    summary: "Remove resources (assets) from a workload",
    params: workloadParams,
    body: WorkloadResourcesRemove,
    success: { status: 204 },
  }),
  bulkUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/apps/workloads/bulk/update",
    permission: "workload.update",
    summary: "Update many workloads at once (the named ones, or every workload of app_name)",
    body: WorkloadsBulkUpdate,
    success: { status: 204 },
  }),
});
