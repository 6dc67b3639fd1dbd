/**
 * Bridges between data sources and assets (spec Part 2 "Bridges"; BridgeDeploy from facts §3.10,
 * records from facts §4.7). The data stream listing's path is not in the spec; it is declared here
 * from the facts side.
 */
import { z } from "zod";
import { auditStamps, freeObject, inventoryListQuery, inventoryPage, name, qArray, text, title } from "./common";
import { area, endpoint, pathValues } from "./endpoint";

/** Data stream data types (facts §5). */
export const dataStreamType = z.enum(["boolean", "number", "object", "string"]);
export const metricAccess = z.enum(["RO", "RW"]);

/**
 * One entry of the payload's `metrics_map`: a metric the bridge reads (or writes) on an asset.
 * `data_type` defaults to `number`, `access` to `RO`; other keys pass through.
 */
export const MetricsMapEntry = z.looseObject({
  name: z.string().min(1, { message: "must not be empty" }).max(256),
  asset_name: name(64),
  data_type: dataStreamType.optional(),
  access: metricAccess.optional(),
  configuration: freeObject.optional(),
});

/** The bridge app's configuration: free-form, except that a `metrics_map`, when present, is checked. */
export const BridgePayload = z.looseObject({
  metrics_map: z
    .array(MetricsMapEntry)
    .max(10000)
    .superRefine((entries, issue) => {
      const seen = new Set<string>();
      entries.forEach((e, i) => {
        const key = `${e.asset_name}\u0000${e.name}`;
        if (seen.has(key)) issue.addIssue({ code: "custom", path: [i], message: `metric '${e.name}' of asset '${e.asset_name}' is mapped twice` });
        seen.add(key);
      });
    })
    .optional(),
});

export const BridgeDeploy = z
  .object({
    name: name(32),
    cluster_name: name(64),
    app_name: name(64),
    app_version: z.string().min(1).max(64).nullish(),
    node_name: name(64).nullish(),
    title: title(64).nullish(),
    protocol: z.string().min(1).max(64).nullish(),
    payload: BridgePayload,
  })
  .strict();

export const BridgeStatus = z.object({
  state: z.string(),
  message: z.string(),
  warnings: z.array(z.string()),
  last_seen: z.string().nullable(),
});

export const Bridge = z.object({
  name: z.string(),
  title: z.string(),
  protocol: z.string(),
  acp_name: z.string(),
  cluster_name: z.string(),
  node_name: z.string().nullable(),
  workload_name: z.string(),
  app_name: z.string(),
  app_version: z.string(),
  enabled: z.boolean(),
  status: BridgeStatus,
  payload: freeObject,
  ...auditStamps,
});
export type Bridge = z.infer<typeof Bridge>;
export const BridgeListItem = Bridge.omit({ payload: true });

export const BridgeAsset = z.object({
  name: z.string(),
  title: z.string(),
  asset_type_name: z.string(),
  asset_type_title: z.string().nullable(),
  status: z.object({ state: z.string(), last_seen: z.string().nullable().optional() }).nullable(),
  created: z.string().nullable(),
  updated: z.string().nullable(),
});

/** A data stream the bridge serves: one entry of its metrics map. */
export const BridgeDataStream = z.object({
  bridge_name: z.string(),
  asset_name: z.string(),
  name: z.string(),
  data_type: dataStreamType,
  access: metricAccess,
  configuration: freeObject,
});

const bridgeParams = z.object({ bridge_name: name(32) });
const strings = qArray(text(256)).optional();

export const bridges = area("bridges", "part2", {
  deploy: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "bridges.get", params: (c) => pathValues({ bridge_name: c.body.name }) },
    path: "/bridges/deploy",
    permission: "bridge.create",
    summary: "Deploy a bridge app: creates the bridge and its workload on the cluster",
    body: BridgeDeploy,
    success: { status: 201, body: Bridge },
    errors: [400, 401, 403, 404, 409],
  }),
  list: endpoint({
    method: "GET",
    effect: "read",
    path: "/bridges/list",
    permission: "bridge.read",
    summary: "List bridges",
    query: z
      .object({
        names: qArray(name(32)).optional(),
        search: strings,
        acp_name: strings,
        protocol: strings,
        workload_name: strings,
        status_state: strings,
        ...inventoryListQuery([
          "bridge.name",
          "bridge.title",
          "bridge.protocol",
          "bridge.acp_name",
          "bridge.workload_name",
          "bridge.created",
          "bridge.updated",
          "status_state",
          "status_last_seen",
        ]),
      })
      .strict(),
    success: { status: 200, body: inventoryPage(BridgeListItem) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  get: endpoint({
    method: "GET",
    effect: "read",
    path: "/bridges/{bridge_name}/get",
    permission: "bridge.read",
    summary: "Get a bridge",
    params: bridgeParams,
    success: { status: 200, body: Bridge },
  }),
  delete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/bridges/{bridge_name}/delete",
    permission: "bridge.delete",
    summary: "Delete a bridge and its workload",
    params: bridgeParams,
    success: { status: 200 },
  }),
  assetsList: endpoint({
    method: "GET",
    effect: "read",
    path: "/bridges/{bridge_name}/assets/list",
    permission: "bridge.read",
    summary: "List the assets a bridge serves (the assets named in its metrics map)",
    params: bridgeParams,
    query: z.object({ ...inventoryListQuery(["asset.name", "asset.title", "asset.created", "asset.updated", "asset_type.title"]) }).strict(),
    success: { status: 200, body: inventoryPage(BridgeAsset) },
    list: "inventory",
  }),
  dataStreamsList: endpoint({
    method: "GET",
    effect: "read",
    // The spec names this listing and its query but not its path.
    path: "/bridges/{bridge_name}/datastreams/list",
    source: "facts",
    permission: "bridge.read",
    summary: "List the data streams a bridge serves (the entries of its metrics map)",
    params: bridgeParams,
    query: z
      .object({
        asset_name: qArray(name(64)).optional(),
        metric_name: qArray(z.string().min(1).max(256)).optional(),
        ...inventoryListQuery(["datastream.asset_name", "datastream.name", "datastream.data_type"]),
      })
      .strict(),
    success: { status: 200, body: inventoryPage(BridgeDataStream) },
    list: "inventory",
  }),
});
