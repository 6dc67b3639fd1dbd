/** The compute nodes' routes: the records, their metadata, status, metrics and edge-app version (rules in model.ts). */
import semver from "semver";
import { acps as ep } from "../../../api/acps";
import { errors } from "../../../api/errors";
import { attempt, failure, multiStatus, type MultiStatusOptions } from "../../bulk";
import { route, type AreaModule, type HandlerContext } from "../../handler";
import { inFilter, inventoryList, matchesMetadataFilter, matchesSearch, type SortGetters } from "../../list";
import {
  PLATFORM_EDGE_APP_VERSION,
  acpTable,
  acpView,
  bulkDeleteTargets,
  createMetadata,
  deleteMetadata,
  generateMetrics,
  isReachable,
  liveStatus,
  metadataKey,
  metadataOf,
  metadataTable,
  requireAcp,
  requireMetadata,
  type AcpStatusDetail,
  type StoredAcp,
} from "./model";

// ---------------------------------------------------------------------------------------------
// Status

const statusView = (acp: StoredAcp, status: AcpStatusDetail = acp.status) => ({ name: acp.name, status });

function statusFor(ctx: HandlerContext, acp: StoredAcp, source: "cache" | "live"): AcpStatusDetail {
  return source === "live" ? liveStatus(acp, ctx.nowMs, ctx.now) : acp.status;
}

// ---------------------------------------------------------------------------------------------
// Metadata

/** Bulk metadata operations apply what they can and answer 207 with every result when any item fails. */
const BULK_CREATE: MultiStatusOptions = { okStatus: 201, allFailed: "report" };
const BULK_DELETE: MultiStatusOptions = { okStatus: 200, allFailed: "report" };

// ---------------------------------------------------------------------------------------------
// Routes

const acpSort = {
  "acp.name": (a) => a.name,
  "acp.title": (a) => a.title,
  "acp.created": (a) => a.created,
  "acp.updated": (a) => a.updated,
  status_state: (a) => a.status.state,
  status_last_seen: (a) => a.status.last_seen,
} satisfies SortGetters<typeof ep.list, StoredAcp>;

export const area: AreaModule = {
  routes: [
    route(ep.list, (ctx) => {
      const q = ctx.query;
      const rows = acpTable(ctx.store).filter(
        (a) =>
          inFilter(q.names, a.name) &&
          matchesSearch(q.search, a.name, a.title) &&
          (q.connected === undefined || isReachable(a.status.state) === q.connected) &&
          matchesMetadataFilter(q.metadata_filter, (n) => metadataOf(ctx.store, a.name, n)),
      );
      return inventoryList(rows, q, { key: (a) => a.name, sort: acpSort, item: (a) => acpView(ctx.store, a, q.metadata) });
    }),

    route(ep.get, (ctx) => acpView(ctx.store, requireAcp(ctx.store, ctx.params.acp_name), ctx.query.metadata)),

    route(ep.update, (ctx) => {
      const current = requireAcp(ctx.store, ctx.params.acp_name);
      const sent = Object.fromEntries(Object.entries(ctx.body).filter(([, v]) => v !== null && v !== undefined));
      const next: StoredAcp = { ...current, ...sent, updated: ctx.now };
      return acpView(ctx.store, acpTable(ctx.store).put(current.name, next));
    }),

    route(ep.delete, (ctx) => {
      const acp = requireAcp(ctx.store, ctx.params.acp_name);
      for (const md of metadataTable(ctx.store).filter((m) => m.acp_name === acp.name)) {
        metadataTable(ctx.store).delete(metadataKey(md.acp_name, md.name));
      }
      // The status lives on the record, so it goes with it.
      acpTable(ctx.store).delete(acp.name);
      return undefined;
    }),

    route(ep.metadataCreate, (ctx) => createMetadata(ctx, ctx.params.acp_name, ctx.body.name, ctx.body.payload)),

    route(ep.metadataBulkCreate, (ctx) =>
      multiStatus(
        ctx.body.map((item) => attempt(`${item.acp_name}/${item.name}`, BULK_CREATE.okStatus, () => createMetadata(ctx, item.acp_name, item.name, item.payload))),
        BULK_CREATE,
      ),
    ),

    route(ep.metadataGet, (ctx) => requireMetadata(ctx.store, ctx.params.acp_name, ctx.params.acp_metadata_name)),

    route(ep.metadataList, (ctx) => {
      const acp = requireAcp(ctx.store, ctx.params.acp_name);
      const rows = metadataTable(ctx.store).filter((m) => m.acp_name === acp.name && matchesSearch(ctx.query.search, m.name));
      return inventoryList(rows, ctx.query, {
        key: (m) => metadataKey(m.acp_name, m.name),
        sort: { "acp_metadata.name": (m) => m.name, "acp_metadata.acp_name": (m) => m.acp_name },
      });
    }),

    route(ep.metadataUpdate, (ctx) => {
      const md = requireMetadata(ctx.store, ctx.params.acp_name, ctx.params.acp_metadata_name);
      return metadataTable(ctx.store).put(metadataKey(md.acp_name, md.name), { ...md, payload: ctx.body.payload, updated: ctx.now });
    }),

    route(ep.metadataDelete, (ctx) => {
      deleteMetadata(ctx.store, ctx.params.acp_name, ctx.params.acp_metadata_name);
      return undefined;
    }),

    route(ep.metadataBulkDelete, (ctx) =>
      multiStatus(
        bulkDeleteTargets(ctx.store, ctx.body.names, ctx.body.acp_names).map((t) =>
          t.acp === undefined
            ? failure(t.name, errors.NOT_FOUND(`no ACP has metadata '${t.name}'`))
            : attempt(`${t.acp}/${t.name}`, BULK_DELETE.okStatus, () => deleteMetadata(ctx.store, t.acp as string, t.name)),
        ),
        BULK_DELETE,
      ),
    ),

    route(ep.metricsGet, (ctx) => generateMetrics(requireAcp(ctx.store, ctx.params.acp_name))),

    route(ep.statusGet, (ctx) => {
      const acp = requireAcp(ctx.store, ctx.params.acp_name);
      return statusView(acp, statusFor(ctx, acp, ctx.query.source));
    }),

    route(ep.statusList, (ctx) => {
      const q = ctx.query;
      const rows = acpTable(ctx.store)
        .filter((a) => inFilter(q.acp_names, a.name) && matchesSearch(q.search, a.name, a.title))
        .map((a) => statusView(a, statusFor(ctx, a, q.source)));
      return inventoryList(rows, q, { key: (s) => s.name, sort: { "acp.status": (s) => s.status.state } });
    }),

    route(ep.statusUpdate, (ctx) => {
      const current = requireAcp(ctx.store, ctx.params.acp_name);
      const { state, message, warnings } = ctx.body.status;
      const status: AcpStatusDetail = { state, message: message ?? "", warnings: warnings ?? [], last_seen: ctx.now };
      // A status report is not a change of the node's settings: `updated` stays.
      return statusView(acpTable(ctx.store).put(current.name, { ...current, status }));
    }),

    route(ep.statusCount, (ctx) => {
      let online = 0;
      let total = 0;
      for (const a of acpTable(ctx.store).values()) {
        total++;
        if (isReachable(a.status.state)) online++;
      }
      return { online, offline: total - online, total };
    }),

    route(ep.edgeAppsVersionGet, (ctx) => {
      const acp = requireAcp(ctx.store, ctx.params.acp_name);
      return {
        edge_app_version: acp.edge_app_version,
        has_updates: semver.lt(acp.edge_app_version, PLATFORM_EDGE_APP_VERSION),
        platform_version: PLATFORM_EDGE_APP_VERSION,
      };
    }),

    route(ep.edgeAppsForceUpdate, (ctx) => {
      const acp = requireAcp(ctx.store, ctx.params.acp_name);
      acpTable(ctx.store).put(acp.name, {
        ...acp,
        edge_app_version: PLATFORM_EDGE_APP_VERSION,
        svc_info: { ...acp.svc_info, version: PLATFORM_EDGE_APP_VERSION },
        updated: ctx.now,
      });
      return undefined;
    }),
  ],
};
