/**
 * Legacy workload operations, prefix /workloads (spec Part 1 "Legacy workload operations"; bodies
 * from facts §3.6, records from facts §4.4, behaviours from facts §6.4 items 16-19). They show the
 * same workload records as /apps/workloads in the legacy shape (created/updated, acp_name).
 */
import { z } from "zod";
import { freeObject, krn, name, part1ListQuery, qArray, qBool, text, title } from "./common";
import { absentIfNull } from "./apps";
import { area, endpoint, pathValues } from "./endpoint";
import { downloadQuery, downloadStatus, logsQuery, stagedFull, stagedSummary, workloadStatusObject } from "./workloads";

/** An explicit `null` on an optional field means the same as leaving it out (facts §1.1). */
const opt = absentIfNull;

export const LegacyWorkloadDeploy = z
  .object({
    app_name: name(64),
    app_version: opt(z.string().min(1).max(64)),
    name: opt(name(32)),
    title: opt(title(128)),
    cluster_name: opt(name(64)),
    /** Deprecated: the cluster name; cluster_name wins when both are sent. */
    acp_name: opt(name(64)),
    node_name: opt(name(64)),
    instantly_apply: opt(z.boolean()),
    staged: opt(z.boolean()),
    payload: opt(freeObject),
    source: opt(krn),
  })
  .strict();
export type LegacyWorkloadDeploy = z.output<typeof LegacyWorkloadDeploy>;

export const LegacyWorkloadApply = z.object({ workload_names: opt(z.array(name(64)).max(1000, { message: "at most 1000 workloads per request" })) }).strict();
export const LegacyWorkloadConfigurationUpdate = z.object({ configuration: opt(freeObject) }).strict();

export const networkingItem = z.object({
  name: z.string(),
  protocol: z.enum(["TCP", "UDP"]),
  addresses: z.array(z.object({ address: z.string(), interface: z.string(), port: z.number().int().min(1).max(65535) })),
});

const commonFields = {
  acp_name: z.string(),
  app_name: z.string(),
  app_version: z.string(),
  cluster_name: z.string(),
  node_name: z.string().nullable(),
  name: z.string(),
  title: z.string(),
  enabled: z.boolean(),
  instantly_apply: z.boolean(),
  pre_download: z.boolean(),
  download_status: downloadStatus,
  download_error: z.string().nullable(),
  status: workloadStatusObject,
  created: z.string(),
  updated: z.string(),
};
export const LegacyWorkload = z.object({
  ...commonFields,
  payload: freeObject,
  networking: z.array(networkingItem),
  staged: stagedFull.nullable(),
});
export type LegacyWorkload = z.infer<typeof LegacyWorkload>;
export const LegacyWorkloadItem = z.object({ ...commonFields, staged: stagedSummary.nullable() });

export const LegacyConfiguration = z.object({ configuration: freeObject });
export const LegacyApplyResult = z.object({ workload_names: z.array(z.string()) });

export const LEGACY_SORT_KEYS = ["name", "title", "app_name", "app_version", "cluster_name", "node_name", "created", "updated"] as const;

const workloadParams = z.object({ workload_name: name(64) });
export const legacyWorkloads = area("legacyWorkloads", "part1", {
  apply: endpoint({
    method: "POST",
    effect: "action",
    path: "/workloads/apply",
    permission: "workload.update",
    summary: "Apply staged versions (without names: every workload waiting for apply); 406 when one cannot be applied",
    body: LegacyWorkloadApply,
    bodyOptional: true,
    success: { status: 200, body: LegacyApplyResult },
    errors: [400, 401, 403, 404, 406, 500, 501],
  }),
  deploy: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "legacyWorkloads.get", params: (c) => pathValues({ workload_name: c.body.name }) },
    path: "/workloads/deploy",
    permission: "workload.update",
    summary: "Deploy an app (from the registry or the apps) as a workload to a cluster or node",
    body: LegacyWorkloadDeploy,
    success: { status: 201, body: LegacyWorkload },
    errors: [400, 401, 403, 404, 409, 500, 501],
  }),
  list: endpoint({
    method: "GET",
    effect: "read",
    path: "/workloads/list",
    permission: "workload.read",
    summary: "List workloads in the legacy shape",
    query: z
      .object({
        search: qArray(text(256)).optional(),
        app_name: qArray(name(64)).optional(),
        app_version: qArray(z.string().max(64)).optional(),
        cluster_name: qArray(name(64)).optional(),
        node_name: qArray(name(64)).optional(),
        workload_name: qArray(name(64)).optional(),
        acp_name: qArray(name(64)).optional(),
        enabled: qBool.optional(),
        asset_name: name(64).optional(),
        staged: qBool.optional(),
        download_statuses: qArray(downloadStatus).optional(),
        ...part1ListQuery(LEGACY_SORT_KEYS, ["name"]),
      })
      .strict(),
    success: { status: 200, body: z.object({ data: z.array(LegacyWorkloadItem) }) },
    list: "part1",
    errors: [400, 401, 403, 500],
  }),
  get: endpoint({
    method: "GET",
    effect: "read",
    path: "/workloads/{workload_name}/get",
    permission: "workload.read",
    summary: "Get a workload in the legacy shape",
    params: workloadParams,
    success: { status: 200, body: LegacyWorkload },
    errors: [400, 401, 403, 404, 500],
  }),
  configurationsGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/workloads/{workload_name}/configurations/get",
    permission: "workload.read",
    summary: "Get the workload's configuration",
    params: workloadParams,
    success: { status: 200, body: LegacyConfiguration },
    errors: [400, 401, 403, 404, 409, 500, 501],
  }),
  configurationsUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/workloads/{workload_name}/configurations/update",
    permission: "workload.update",
    summary: "Replace the workload's configuration ({} removes all of it)",
    params: workloadParams,
    body: LegacyWorkloadConfigurationUpdate,
    success: { status: 200, body: LegacyConfiguration },
    errors: [400, 401, 403, 404, 409, 500, 501],
  }),
  download: endpoint({
    method: "GET",
    effect: "read",
    path: "/workloads/{workload_name}/download",
    signedLinks: true,
    permission: "workload.read",
    summary: "Download the workload package (202 while it is built), or its URL as a JSON string with address=true",
    params: workloadParams,
    query: downloadQuery,
    success: { status: 200, kind: "binary" },
    errors: [400, 401, 403, 404, 409, 412, 500],
  }),
  logs: endpoint({
    method: "GET",
    effect: "read",
    path: "/workloads/{workload_name}/logs/get",
    permission: "workload.read",
    summary: "Get the workload's logs per pod",
    params: workloadParams,
    query: logsQuery,
    success: { status: 200, body: z.object({ logs: z.record(z.string(), z.array(z.string())) }) },
    errors: [400, 401, 403, 404, 409, 500, 501],
  }),
  start: endpoint({
    method: "GET",
    effect: "action",
    path: "/workloads/{workload_name}/start",
    permission: "workload.update",
    summary: "Start a workload",
    params: workloadParams,
    mutates: true,
    success: { status: 200, body: LegacyWorkload },
    errors: [400, 401, 403, 404, 409, 500, 501],
  }),
  stop: endpoint({
    method: "GET",
    effect: "action",
    path: "/workloads/{workload_name}/stop",
    permission: "workload.update",
    summary: "Stop a workload (it keeps its persistent data)",
    params: workloadParams,
    mutates: true,
    success: { status: 200, body: LegacyWorkload },
    errors: [400, 401, 403, 404, 409, 500, 501],
  }),
  undeploy: endpoint({
    method: "POST",
    effect: "delete",
    path: "/workloads/{workload_name}/undeploy",
    permission: "workload.delete",
    summary: "Undeploy a workload and its local data (staged=true: only its staged version)",
    params: workloadParams,
    query: z.object({ staged: qBool.default(false) }).strict(),
    success: { status: 200 },
    errors: [400, 401, 403, 404, 500, 501],
  }),
});
