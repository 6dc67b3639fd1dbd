/** Clusters and their provisioning artefacts (spec Part 2 "Clusters"; fields from facts §3.11, §4.8). */
import { z } from "zod";
import { auditStamps, freeObject, inventoryListQuery, inventoryPage, name, qArray, text, title } from "./common";
import { area, endpoint, pathValues } from "./endpoint";

export const clusterType = z.enum(["k3s", "kubernetes", "docker"]);
export const clusterStatus = z.enum(["pending_provision", "pending", "online", "unreachable", "requires_attention"]);
export const imagePullPolicy = z.enum(["Always", "IfNotPresent"]);

const edgeApp = z.object({ disabled: z.boolean().optional() }).strict();
const edgeMqtt = z.object({ disabled: z.boolean().optional(), expose: z.boolean().optional(), anonymous: z.boolean().optional() }).strict();
export const EDGE_APP_KEYS = ["edge_ui", "edge_ccm", "edge_k8s", "edge_info", "edge_mqtt", "edge_nats", "edge_sync", "edge_leader_api", "edge_custom_action_manager"] as const;
export const edgeApps = z
  .object({
    edge_ui: edgeApp,
    edge_ccm: edgeApp,
    edge_k8s: edgeApp,
    edge_info: edgeApp,
    edge_mqtt: edgeMqtt,
    edge_nats: edgeApp,
    edge_sync: edgeApp,
    edge_leader_api: edgeApp,
    edge_custom_action_manager: edgeApp,
  })
  .partial()
  .strict();

/** The settings of ClusterUpdate, with their ranges; the defaults are applied on create. */
export const clusterSettings = {
  forward_logs_enabled: z.boolean(),
  forward_logs_buffer_size: z.number().int().min(1).max(20),
  manifests_scrape_enabled: z.boolean(),
  manifests_scrape_interval: z.number().int().min(30).max(86400),
  sync_scrape_interval: z.number().int().min(10).max(86400),
  telemetry_enabled: z.boolean(),
  telemetry_buffer_size: z.number().int().min(1).max(20),
  telemetry_scrape_interval: z.number().int().min(1).max(3600),
  telemetry_alerts_enabled: z.boolean(),
};
export const CLUSTER_SETTING_DEFAULTS = {
  forward_logs_enabled: true,
  forward_logs_buffer_size: 5,
  manifests_scrape_enabled: true,
  manifests_scrape_interval: 86400,
  sync_scrape_interval: 30,
  telemetry_enabled: true,
  telemetry_buffer_size: 5,
  telemetry_scrape_interval: 30,
  telemetry_alerts_enabled: true,
} as const;

export const ClusterCreate = z
  .object({
    name: name(64),
    title: title(64).optional(),
    type: clusterType.optional(),
  })
  .strict();

const strongPassword = z
  .string()
  .min(8, { message: "must be at least 8 characters" })
  .max(128)
  .refine((p) => /[A-Z]/.test(p) && /[a-z]/.test(p) && /[0-9]/.test(p), {
    message: "must contain an upper-case letter, a lower-case letter and a digit",
  });

export const ClusterUpdate = z
  .object({
    title: title(64),
    ready: z.boolean(),
    ...clusterSettings,
    upgrade: z.object({ instantly_apply: z.boolean().optional(), pre_download: z.boolean().optional() }).strict(),
    api_credentials: z.object({ username: z.string().min(2).max(64).optional(), password: strongPassword.optional() }).strict(),
    edge_apps: edgeApps,
    edge_options: z.object({ image_pull_policy: imagePullPolicy.optional() }).strict(),
  })
  .partial()
  .strict();

export const Cluster = z.object({
  name: z.string(),
  title: z.string(),
  type: clusterType,
  status: clusterStatus,
  ready: z.boolean(),
  last_seen: z.string().nullable(),
  kubeconfig: z.string(),
  cidr: z.object({ pod_cidr: z.string(), service_cidr: z.string() }),
  info: freeObject,
  svc_info: freeObject,
  network_info: freeObject,
  system_info: freeObject,
  join_script: z.string(),
  provision_script: z.string(),
  service_account_token: z.string(),
  ...clusterSettings,
  upgrade_instantly_apply: z.boolean(),
  upgrade_pre_download: z.boolean(),
  upgrade_status: z.object({ message: z.string(), state: z.enum(["idle", "downloading", "ready"]) }),
  version: z.object({ k8s_version: z.string(), svc_version: z.string() }),
  /** The API user of the edge; the password is write-only and never answered. */
  api_credentials: z.object({ username: z.string().nullable(), password_set: z.boolean() }),
  edge_apps: edgeApps,
  edge_options: z.object({ image_pull_policy: imagePullPolicy }),
  ...auditStamps,
});
export type Cluster = z.infer<typeof Cluster>;

export const ClusterListItem = Cluster.pick({
  name: true,
  title: true,
  type: true,
  status: true,
  ready: true,
  last_seen: true,
  created: true,
  updated: true,
}).extend({ svc_version: z.string(), container_version: z.string() });

export const ClusterManifests = z.object({
  revision: z.string(),
  // One string of arguments per image, as the vendor's clients read it (the facts file leaves its type open).
  images: z.array(z.object({ path: z.string(), args: z.string() })),
  manifests: z.array(z.object({ file_name: z.string(), content: z.string() })),
  upgrade: z.object({ download_type: z.string(), upgrade_type: z.string() }),
});

export const CidrItem = z.object({
  cluster_name: z.string(),
  kube_pod_cidr: z.string(),
  kube_service_cidr: z.string(),
  ...auditStamps,
});

export const ProvisionScript = z.object({ script: z.string(), version: z.string() });

const clusterParams = z.object({ cluster_name: name(64) });

export const clusters = area("clusters", "part2", {
  create: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "clusters.get", params: (c) => pathValues({ cluster_name: c.body.name }) },
    path: "/orchestration/clusters/create",
    permission: "acp.create",
    summary: "Create a cluster",
    body: ClusterCreate,
    success: { status: 201, body: Cluster },
    errors: [400, 401, 403, 409],
  }),
  list: endpoint({
    method: "GET",
    effect: "read",
    path: "/orchestration/clusters/list",
    permission: "acp.read",
    summary: "List clusters",
    query: z.object({ search: qArray(text(256)).optional(), ...inventoryListQuery(["cluster.name"]) }).strict(),
    success: { status: 200, body: inventoryPage(ClusterListItem) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  get: endpoint({
    method: "GET",
    effect: "read",
    path: "/orchestration/clusters/{cluster_name}/get",
    permission: "acp.read",
    summary: "Get a cluster",
    params: clusterParams,
    success: { status: 200, body: Cluster },
  }),
  update: endpoint({
    method: "POST",
    effect: "update",
    path: "/orchestration/clusters/{cluster_name}/update",
    permission: "acp.update",
    summary: "Update a cluster's settings (omitted fields stay unchanged)",
    params: clusterParams,
    body: ClusterUpdate,
    success: { status: 200, body: Cluster },
  }),
  manifestsGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/orchestration/clusters/{cluster_name}/manifests/get",
    permission: "acp.read",
    summary: "Get the cluster's manifests; the revision changes whenever the cluster changes",
    params: clusterParams,
    query: z.object({ version: z.string().max(128).optional() }).strict(),
    success: { status: 200, body: ClusterManifests },
  }),
  privateRegistryDownload: endpoint({
    method: "GET",
    effect: "read",
    path: "/orchestration/clusters/{cluster_name}/private-registry/download",
    permission: "acp.read",
    summary: "Download the cluster's private-registry credentials file (YAML)",
    params: clusterParams,
    success: { status: 200, kind: "yaml" },
  }),
  provisionBinDownload: endpoint({
    method: "GET",
    effect: "read",
    path: "/orchestration/clusters/provision/bin/download",
    permission: "orchestration.read",
    summary: "Download the provisioning binary",
    success: { status: 200, kind: "binary" },
    errors: [401, 403],
  }),
  provisionScriptDownload: endpoint({
    method: "GET",
    effect: "read",
    path: "/orchestration/clusters/provision/script/download",
    permission: "orchestration.read",
    summary: "Get the provisioning script",
    success: { status: 200, body: ProvisionScript },
    errors: [401, 403],
  }),
  cidrList: endpoint({
    method: "GET",
    effect: "read",
    path: "/orchestration/cidr/list",
    permission: "acp.read",
    summary: "List the clusters' pod and service IP ranges",
    query: z.object({ search: qArray(text(256)).optional(), ...inventoryListQuery(["cidr.kube_pod_cidr", "cidr.kube_service_cidr"]) }).strict(),
    success: { status: 200, body: inventoryPage(CidrItem) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
});
