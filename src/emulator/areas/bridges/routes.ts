/** The bridges' routes and views (records and rules in model.ts). */
import { bridges as ep, type Bridge } from "../../../api/bridges";
import { route, type AreaModule } from "../../handler";
import { inFilter, inventoryList, matchesSearch, type SortGetters } from "../../list";
import type { Store } from "../../store/store";
import { ASSET_SORT } from "../assets/model";
import { deploy, metricsMap, requireBridge, servedAssets, table, type AssetRecord } from "./model";
import { removeWorkload, workloadTable } from "../workloads/model";

/** The bridge with its workload's current state. */
function withWorkload(store: Store, b: Bridge): Bridge {
  const w = workloadTable(store).get(b.workload_name);
  return w ? { ...b, enabled: w.enabled, status: w.status } : b;
}

function listItem(b: Bridge): Omit<Bridge, "payload"> {
  const { payload: _p, ...rest } = b;
  return rest;
}

// ---------------------------------------------------------------------------------------------
// What a bridge serves

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
    route(ep.deploy, (ctx) => deploy(ctx, ctx.body)),

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
