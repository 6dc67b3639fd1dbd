/**
 * Compute nodes (ACPs): records, metadata, metrics, status and edge-app versions (spec Part 2
 * "Compute nodes"; body shapes from facts §3.13, object shapes from facts §4.9).
 */
import { z } from "zod";
import { auditStamps, freeObject, inventoryListQuery, inventoryPage, location, metadataQuery, name, qArray, qBool, semverString, text, title } from "./common";
import { area, endpoint, pathValues } from "./endpoint";

// ---------------------------------------------------------------------------------------------
// Records

/** The scrape and metrics settings of an ACP; intervals are in seconds (facts §4.9). */
export const acpSettings = {
  manifests_scrape_enabled: z.boolean(),
  manifests_scrape_interval: z.number().int().min(1).max(86400),
  metrics_enabled: z.boolean(),
  metrics_scrape_interval: z.number().int().min(1).max(86400),
  status_scrape_enabled: z.boolean(),
  status_scrape_interval: z.number().int().min(1).max(86400),
};
export const ACP_SETTING_DEFAULTS = {
  manifests_scrape_enabled: true,
  manifests_scrape_interval: 86400,
  metrics_enabled: true,
  metrics_scrape_interval: 60,
  status_scrape_enabled: true,
  status_scrape_interval: 30,
} as const;

export const systemInfo = z.object({
  architecture: z.string(),
  boot_id: z.string(),
  container_runtime_version: z.string(),
  host_name: z.string(),
  kernel_version: z.string(),
  kube_proxy_version: z.string(),
  kubelet_version: z.string(),
  machine_id: z.string(),
  operating_system: z.string(),
  os_image: z.string(),
  system_uuid: z.string(),
});
export const networkInterface = z.object({
  interface: z.string().max(64),
  ipv4: z.array(z.string().max(64)).max(64),
  ipv6: z.array(z.string().max(64)).max(64),
  dns: z.array(z.string().max(256)).max(64),
});

/** The ACP record of the spec. `metadata` holds the payloads of the records named by `metadata[]`. */
export const Acp = z.object({
  name: z.string(),
  title: z.string(),
  cluster_name: z.string(),
  node_name: z.string(),
  svc_info: freeObject,
  system_info: freeObject,
  network_info: z.array(freeObject),
  metadata: freeObject,
  location: location.nullable(),
  ...acpSettings,
  ...auditStamps,
});
export type Acp = z.infer<typeof Acp>;

/**
 * ACP status states: `online` and `offline` are counted; `connected`, `warning` and `no_connection`
 * also occur (facts §5). `online`, `connected` and `warning` mean the node answers.
 */
export const acpState = z.enum(["online", "offline", "connected", "warning", "no_connection"]);
export const REACHABLE_STATES: readonly string[] = ["online", "connected", "warning"];

export const AcpStatusDetail = z.object({
  state: acpState,
  message: z.string(),
  warnings: z.array(z.string()),
  last_seen: z.string().nullable(),
});
export const AcpStatus = z.object({ name: z.string(), status: AcpStatusDetail });
export const AcpStatusCount = z.object({ online: z.number().int(), offline: z.number().int(), total: z.number().int() });

export const AcpMetadata = z.object({ acp_name: z.string(), name: z.string(), payload: freeObject, ...auditStamps });

const series = z.array(z.object({ timestamp: z.number().int(), value: z.number() }));
export const AcpMetrics = z.object({
  allocation: z.object({ cpu_capacity: z.number(), cpu_requests: z.number(), memory_capacity: z.number(), memory_requests: z.number() }),
  cpu_utilization: series,
  memory_usage: series,
  disk: z.object({ total_bytes: z.number(), used_bytes: z.number() }),
  network: z.object({ total_rx: z.number(), total_tx: z.number() }),
});

export const EdgeAppVersion = z.object({ edge_app_version: z.string(), has_updates: z.boolean(), platform_version: z.string() });

/**
 * What a node sends when it registers itself (the API has no ACP create): the record's fields, all
 * but `name` optional, plus its initial status and edge-app version.
 */
export const AcpRegistration = z
  .object({
    name: name(64),
    title: title(64).optional(),
    cluster_name: name(64).optional(),
    node_name: name(64).optional(),
    svc_info: freeObject.optional(),
    system_info: freeObject.optional(),
    network_info: z.array(freeObject).max(64).optional(),
    location: location.nullable().optional(),
    ...z.object(acpSettings).partial().shape,
    status: z
      .object({
        state: acpState,
        message: text(1024).optional(),
        warnings: z.array(text(1024)).max(100).optional(),
        last_seen: z.string().nullable().optional(),
      })
      .strict()
      .optional(),
    edge_app_version: semverString.optional(),
    created: z.string().optional(),
    updated: z.string().optional(),
    metadata: freeObject.optional(),
  })
  .strict();
export type AcpRegistration = z.input<typeof AcpRegistration>;

// ---------------------------------------------------------------------------------------------
// Bodies (facts §3.13: derived from the records)

/** An explicit null is treated like an absent field (facts §1.1): the field stays unchanged. */
export const AcpUpdate = z
  .object({
    title: title(64).nullish(),
    location: location.nullish(),
    ...(Object.fromEntries(Object.entries(acpSettings).map(([k, v]) => [k, v.nullish()])) as {
      [K in keyof typeof acpSettings]: z.ZodOptional<z.ZodNullable<(typeof acpSettings)[K]>>;
    }),
  })
  .strict();

const metadataPayload = freeObject;
export const AcpMetadataCreate = z.object({ name: name(64), payload: metadataPayload }).strict();
export const AcpMetadataUpdate = z.object({ payload: metadataPayload }).strict();
/** The bulk forms carry the ACP of each record, which the single form takes from the path. */
export const AcpMetadataBulkCreate = z
  .array(AcpMetadataCreate.extend({ acp_name: name(64) }).strict())
  .min(1, { message: "must hold at least one metadata record" })
  .max(1000, { message: "at most 1000 records per request" });
/** Deletes the named metadata from the listed ACPs, or from every ACP that has it when `acp_names` is absent. */
export const AcpMetadataBulkDelete = z
  .object({
    names: z.array(name(64)).min(1, { message: "must name at least one metadata record" }).max(1000),
    acp_names: z.array(name(64)).min(1).max(1000).optional(),
  })
  .strict();

export const AcpStatusUpdate = z
  .object({
    status: z
      .object({
        state: acpState,
        message: text(1024).optional(),
        warnings: z.array(text(1024)).max(100).optional(),
      })
      .strict(),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// Endpoints

const acpParams = z.object({ acp_name: name(64) });
const metadataParams = z.object({ acp_name: name(64), acp_metadata_name: name(64) });
const source = z.enum(["cache", "live"], { message: "must be 'cache' or 'live'" }).default("cache");
const search = qArray(text(256)).optional();

export const acps = area("acps", "part2", {
  list: endpoint({
    method: "GET",
    effect: "read",
    path: "/acps/list",
    permission: "acp.read",
    summary: "List compute nodes",
    query: z
      .object({
        names: qArray(name(64)).optional(),
        search,
        connected: qBool.optional(),
        ...metadataQuery,
        ...inventoryListQuery(["acp.name", "acp.title", "acp.created", "acp.updated", "status_state", "status_last_seen"]),
      })
      .strict(),
    success: { status: 200, body: inventoryPage(Acp) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  get: endpoint({
    method: "GET",
    effect: "read",
    path: "/acps/{acp_name}/get",
    permission: "acp.read",
    summary: "Get a compute node, with the named metadata injected",
    params: acpParams,
    query: z.object({ metadata: metadataQuery.metadata }).strict(),
    success: { status: 200, body: Acp },
  }),
  update: endpoint({
    method: "POST",
    effect: "update",
    path: "/acps/{acp_name}/update",
    permission: "acp.update",
    summary: "Update a compute node's title, location and scrape settings (omitted fields stay unchanged)",
    params: acpParams,
    body: AcpUpdate,
    success: { status: 200, body: Acp },
  }),
  delete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/acps/{acp_name}/delete",
    permission: "acp.delete",
    summary: "Delete a compute node with its metadata and status",
    params: acpParams,
    success: { status: 200 },
  }),
  metadataCreate: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "acps.metadataGet", params: (c) => pathValues({ acp_name: c.params.acp_name, acp_metadata_name: c.body.name }) },
    path: "/acps/{acp_name}/metadata/create",
    permission: "acp.create",
    summary: "Create a metadata record of a compute node",
    params: acpParams,
    body: AcpMetadataCreate,
    success: { status: 201, body: AcpMetadata },
    errors: [400, 401, 403, 404, 409],
  }),
  metadataBulkCreate: endpoint({
    method: "POST",
    effect: "create",
    path: "/acps/metadata/create",
    permission: "acp.create",
    summary: "Create metadata records of several compute nodes (207 with a result per record when some fail)",
    body: AcpMetadataBulkCreate,
    success: { status: 201 },
    errors: [207, 400, 401, 403],
  }),
  metadataGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/acps/{acp_name}/metadata/{acp_metadata_name}/get",
    permission: "acp.read",
    summary: "Get a metadata record of a compute node",
    params: metadataParams,
    success: { status: 200, body: AcpMetadata },
  }),
  metadataList: endpoint({
    method: "GET",
    effect: "read",
    path: "/acps/{acp_name}/metadata/list",
    permission: "acp.read",
    summary: "List the metadata records of a compute node",
    params: acpParams,
    query: z.object({ search, ...inventoryListQuery(["acp_metadata.name", "acp_metadata.acp_name"]) }).strict(),
    success: { status: 200, body: inventoryPage(AcpMetadata) },
    list: "inventory",
  }),
  metadataUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/acps/{acp_name}/metadata/{acp_metadata_name}/update",
    permission: "acp.update",
    summary: "Replace the payload of a metadata record",
    params: metadataParams,
    body: AcpMetadataUpdate,
    success: { status: 200, body: AcpMetadata },
  }),
  metadataDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/acps/{acp_name}/metadata/{acp_metadata_name}/delete",
    permission: "acp.delete",
    summary: "Delete a metadata record",
    params: metadataParams,
    success: { status: 200 },
  }),
  metadataBulkDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/acps/metadata/delete",
    permission: "acp.delete",
    summary: "Delete metadata records by name (207 with a result per record when some fail)",
    body: AcpMetadataBulkDelete,
    success: { status: 200 },
    errors: [207, 400, 401, 403],
  }),
  metricsGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/acps/{acp_name}/metrics/get",
    permission: "acp.read",
    summary: "Get a compute node's resource allocation and recent utilization",
    params: acpParams,
    success: { status: 200, body: AcpMetrics },
  }),
  statusGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/acps/{acp_name}/status/get",
    permission: "acp.read",
    summary: "Get a compute node's status, from the cache or asked live",
    params: acpParams,
    query: z.object({ source }).strict(),
    success: { status: 200, body: AcpStatus },
  }),
  statusList: endpoint({
    method: "GET",
    effect: "read",
    path: "/acps/status/list",
    permission: "acp.read",
    summary: "List compute node statuses",
    query: z.object({ acp_names: qArray(name(64)).optional(), search, source, ...inventoryListQuery(["acp.status"]) }).strict(),
    success: { status: 200, body: inventoryPage(AcpStatus) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  statusUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/acps/{acp_name}/status/update",
    permission: "acp.update",
    summary: "Report a compute node's status; last_seen becomes the time of the report",
    params: acpParams,
    body: AcpStatusUpdate,
    success: { status: 200, body: AcpStatus },
  }),
  statusCount: endpoint({
    method: "GET",
    effect: "read",
    path: "/acps/status/count/get",
    permission: "acp.read",
    summary: "Count compute nodes online and offline",
    success: { status: 200, body: AcpStatusCount },
    errors: [401, 403],
  }),
  edgeAppsVersionGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/acps/{acp_name}/edge-apps/version/get",
    permission: "acp.read",
    summary: "Get the version of a compute node's edge apps and whether the platform has a newer one",
    params: acpParams,
    success: { status: 200, body: EdgeAppVersion },
  }),
  edgeAppsForceUpdate: endpoint({
    method: "POST",
    effect: "action",
    path: "/acps/{acp_name}/edge-apps/version/force-update",
    // The spec names acp.read for this action; followed as written.
    permission: "acp.read",
    // It changes the node's edge-app version, so it leaves an audit entry although its permission is a read.
    mutates: true,
    summary: "Update a compute node's edge apps to the platform's version",
    params: acpParams,
    success: { status: 200 },
  }),
});
