/**
 * Bridges. A deploy creates the bridge and its workload (through the shared workload model,
 * areas/workloads/model.ts), and a delete removes both.
 *
 * Design choices where the spec is silent:
 * - The workload is named like the bridge (workload_name = name) and runs on cluster_name;
 *   acp_name mirrors cluster_name (facts §4.7). A deployed bridge is enabled and `running`.
 * - While the workload exists, the bridge's `enabled` and `status` are the workload's (so stopping
 *   the workload shows on the bridge); if the workload was removed elsewhere, the bridge keeps the
 *   last values it had.
 * - Without app_version the bridge runs the app's latest version in the app registry (or else in
 *   the apps area); when neither knows the app, app_version is required (400).
 * - protocol defaults to the payload's `protocol` when that is a string, else "".
 * - What a bridge serves is read from its payload's `metrics_map`: an array of
 *   `{ name, asset_name, data_type?: boolean|number|object|string [number], access?: RO|RW [RO],
 *   configuration?: object }`, unique per (asset_name, name). Each entry is one data stream
 *   (`{ bridge_name, asset_name, name, data_type, access, configuration }`); the bridge's assets are
 *   the distinct asset names, shown from the asset records (assets that do not exist are left out).
 */
import { bridges as ep, type Bridge } from "../../../api/bridges";
import { conflict, invalidField, notFound } from "../../../api/errors";
import { route, type AreaModule, type Handler } from "../../handler";
import { inFilter, inventoryList, matchesSearch, type SortGetters } from "../../list";
import type { Store } from "../../store/store";
import { TABLES, refs, type AssetRef } from "../../store/tables";
import { ASSET_SORT } from "../assets/model";
import { insertWorkload, removeWorkload, workloadTable } from "../workloads/model";

type Ctx<E extends (typeof ep)[keyof typeof ep]> = Parameters<Handler<E>>[0];

interface MetricsMapEntry {
  name: string;
  asset_name: string;
  data_type?: "boolean" | "number" | "object" | "string";
  access?: "RO" | "RW";
  configuration?: Record<string, unknown>;
}

const table = (store: Store) => store.table<Bridge>(TABLES.bridges);

function requireBridge(store: Store, bridgeName: string): Bridge {
  const b = table(store).get(bridgeName);
  if (!b) throw notFound("bridge", bridgeName);
  return b;
}

/** The bridge with its workload's current state. */
function withWorkload(store: Store, b: Bridge): Bridge {
  const w = workloadTable(store).get(b.workload_name);
  return w ? { ...b, enabled: w.enabled, status: w.status } : b;
}

function listItem(b: Bridge): Omit<Bridge, "payload"> {
  const { payload: _p, ...rest } = b;
  return rest;
}

const metricsMap = (b: Bridge): MetricsMapEntry[] => (b.payload.metrics_map as MetricsMapEntry[] | undefined) ?? [];

// ---------------------------------------------------------------------------------------------
// Deploy

/** The version to run: the one sent, else the app's latest in the registry or the apps area. */
function resolveAppVersion(store: Store, appName: string, sent: string | null | undefined): string {
  if (sent) return sent;
  const latest = refs.registryApp(store, appName)?.latest_version ?? refs.app(store, appName)?.latest_version;
  if (!latest) {
    throw invalidField("body.app_version", `is required: app '${appName}' has no version in the app registry or the apps`);
  }
  return latest;
}

function deploy(ctx: Ctx<typeof ep.deploy>): Bridge {
  const body = ctx.body;
  if (table(ctx.store).has(body.name)) throw conflict(`bridge '${body.name}' already exists; delete it first or choose another name`);
  const appVersion = resolveAppVersion(ctx.store, body.app_name, body.app_version);
  const workload = insertWorkload(ctx, {
    name: body.name,
    title: body.title ?? undefined,
    app_name: body.app_name,
    app_version: appVersion,
    cluster_name: body.cluster_name,
    node_name: body.node_name ?? undefined,
    enabled: true,
    payload: body.payload,
  });
  const payloadProtocol = body.payload.protocol;
  const bridge: Bridge = {
    name: body.name,
    title: body.title ?? body.name,
    protocol: body.protocol ?? (typeof payloadProtocol === "string" ? payloadProtocol : ""),
    acp_name: body.cluster_name,
    cluster_name: body.cluster_name,
    node_name: body.node_name ?? null,
    workload_name: workload.name,
    app_name: body.app_name,
    app_version: appVersion,
    enabled: workload.enabled,
    status: workload.status,
    payload: body.payload,
    created: ctx.now,
    updated: ctx.now,
  };
  return table(ctx.store).put(bridge.name, bridge);
}

// ---------------------------------------------------------------------------------------------
// What a bridge serves

interface AssetRecord extends AssetRef {
  created?: string;
  updated?: string;
}

function servedAssets(store: Store, b: Bridge): AssetRecord[] {
  const names = [...new Set(metricsMap(b).map((m) => m.asset_name))];
  return names.map((n) => refs.asset(store, n)).filter((a): a is AssetRecord => a !== undefined);
}

const assetItem = (a: AssetRecord) => ({
  name: a.name,
  title: a.title,
  asset_type_name: a.asset_type_name,
  asset_type_title: a.asset_type_title ?? null,
  status: a.status ?? null,
  created: a.created ?? null,
  updated: a.updated ?? null,
});

const dataStreams = (b: Bridge) =>
  metricsMap(b).map((m) => ({
    bridge_name: b.name,
    asset_name: m.asset_name,
    name: m.name,
    data_type: m.data_type ?? "number",
    access: m.access ?? "RO",
    configuration: m.configuration ?? {},
  }));

// ---------------------------------------------------------------------------------------------
// Routes

const bridgeSort = {
  "bridge.name": (b) => b.name,
  "bridge.title": (b) => b.title,
  "bridge.protocol": (b) => b.protocol,
  "bridge.acp_name": (b) => b.acp_name,
  "bridge.workload_name": (b) => b.workload_name,
  "bridge.created": (b) => b.created,
  "bridge.updated": (b) => b.updated,
  status_state: (b) => b.status.state,
  status_last_seen: (b) => b.status.last_seen,
} satisfies SortGetters<typeof ep.list, Bridge>;

export const area: AreaModule = {
  routes: [
    route(ep.deploy, (ctx) => deploy(ctx)),

    route(ep.list, (ctx) => {
      const q = ctx.query;
      const rows = [...table(ctx.store).values()]
        .map((b) => withWorkload(ctx.store, b))
        .filter(
          (b) =>
            inFilter(q.names, b.name) &&
            matchesSearch(q.search, b.name, b.title) &&
            inFilter(q.acp_name, b.acp_name) &&
            inFilter(q.protocol, b.protocol) &&
            inFilter(q.workload_name, b.workload_name) &&
            inFilter(q.status_state, b.status.state),
        );
      return inventoryList(rows, q, { key: (b) => b.name, sort: bridgeSort, item: listItem });
    }),

    route(ep.get, (ctx) => withWorkload(ctx.store, requireBridge(ctx.store, ctx.params.bridge_name))),

    route(ep.delete, (ctx) => {
      const b = requireBridge(ctx.store, ctx.params.bridge_name);
      if (workloadTable(ctx.store).has(b.workload_name)) removeWorkload(ctx, b.workload_name);
      table(ctx.store).delete(b.name);
      return undefined;
    }),

    route(ep.assetsList, (ctx) =>
      inventoryList(servedAssets(ctx.store, requireBridge(ctx.store, ctx.params.bridge_name)), ctx.query, {
        key: (a) => a.name,
        sort: ASSET_SORT,
        item: assetItem,
      }),
    ),

    route(ep.dataStreamsList, (ctx) => {
      const q = ctx.query;
      const rows = dataStreams(requireBridge(ctx.store, ctx.params.bridge_name)).filter((d) => inFilter(q.asset_name, d.asset_name) && inFilter(q.metric_name, d.name));
      return inventoryList(rows, q, {
        key: (d) => `${d.asset_name}\u0000${d.name}`,
        sort: {
          "datastream.asset_name": (d) => d.asset_name,
          "datastream.name": (d) => d.name,
          "datastream.data_type": (d) => d.data_type,
        },
      });
    }),
  ],
};
