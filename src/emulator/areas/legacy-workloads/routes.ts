/** The legacy workload routes and views (/workloads; deploy and apply rules in model.ts, the record in ../workloads/model.ts). */
import { assetKrnOf } from "../../../api/common";
import { conflict } from "../../../api/errors";
import { legacyWorkloads as ep, type LegacyWorkload } from "../../../api/legacy-workloads";
import { route, type AreaModule, type HandlerContext } from "../../handler";
import { part1List, type SortGetters } from "../../list";
import {
  WORKLOAD_SORT,
  allWorkloads,
  deleteStaged,
  matchesWorkloadFilter,
  removeWorkload,
  requireWorkload,
  stagedSummary,
  startWorkload,
  stopWorkload,
  updateWorkload,
  type StoredWorkload,
} from "../workloads/model";
import { workloadLogs } from "../workloads/model-logs";
import { serveDownload } from "../workloads/routes-packages";
import { applyAll, deploy, requireConfigurable } from "./model";

// ---------------------------------------------------------------------------------------------
// Views

function itemFields(w: StoredWorkload) {
  return {
    acp_name: w.cluster_name,
    app_name: w.app_name,
    app_version: w.app_version,
    cluster_name: w.cluster_name,
    node_name: w.node_name,
    name: w.name,
    title: w.title,
    enabled: w.enabled,
    instantly_apply: w.instantly_apply,
    pre_download: w.pre_download,
    download_status: w.download_status,
    download_error: w.download_error,
    status: w.status,
    created: w.created_at,
    updated: w.updated_at,
  };
}

const legacyItem = (w: StoredWorkload) => ({ ...itemFields(w), staged: stagedSummary(w.staged) });

function legacyView(w: StoredWorkload): LegacyWorkload {
  return { ...itemFields(w), payload: w.payload, networking: w.networking, staged: w.staged } as LegacyWorkload;
}

const LEGACY_SORT = {
  name: WORKLOAD_SORT.name,
  title: WORKLOAD_SORT.title,
  app_name: WORKLOAD_SORT.app_name,
  app_version: WORKLOAD_SORT.app_version,
  cluster_name: WORKLOAD_SORT.cluster_name,
  node_name: WORKLOAD_SORT.node_name,
  created: WORKLOAD_SORT.created_at,
  updated: WORKLOAD_SORT.updated_at,
} satisfies SortGetters<typeof ep.list, StoredWorkload>;

// ---------------------------------------------------------------------------------------------
// Helpers

const load = (ctx: HandlerContext, name: string) => requireWorkload(ctx.store, name, ctx.nowMs);

// ---------------------------------------------------------------------------------------------
// Routes

export const area: AreaModule = {
  routes: [
    route(ep.apply, (ctx) => ({ workload_names: applyAll(ctx, ctx.body?.workload_names) })),

    route(ep.deploy, (ctx) => ({ status: 201, body: legacyView(deploy(ctx, ctx.body)) })),

    route(ep.list, (ctx) => {
      const q = ctx.query;
      const rows = allWorkloads(ctx.store, ctx.nowMs).filter((w) =>
        matchesWorkloadFilter(w, {
          search: q.search,
          searchIn: (x) => [x.name, x.title, x.app_name, x.cluster_name, x.node_name],
          app_names: q.app_name,
          app_versions: q.app_version,
          cluster_names: q.cluster_name?.length ? q.cluster_name : q.acp_name,
          node_names: q.node_name,
          workload_names: q.workload_name,
          enabled: q.enabled,
          resource: q.asset_name === undefined ? undefined : assetKrnOf(q.asset_name),
          staged: q.staged,
          download_statuses: q.download_statuses,
        }),
      );
      return part1List(rows, q, { key: (w) => w.name, sort: LEGACY_SORT, item: legacyItem });
    }),

    route(ep.get, (ctx) => legacyView(load(ctx, ctx.params.workload_name))),

    route(ep.configurationsGet, (ctx) => {
      const w = load(ctx, ctx.params.workload_name);
      requireConfigurable(w);
      return { configuration: w.runtime.configuration };
    }),

    route(ep.configurationsUpdate, (ctx) => {
      const w = load(ctx, ctx.params.workload_name);
      requireConfigurable(w);
      if (w.staged) {
        throw conflict(`workload '${w.name}' has a staged version (${w.staged.app_version}) waiting for apply; apply it or undeploy it with staged=true first`);
      }
      const next = updateWorkload(ctx, w, { runtime: { configuration: ctx.body.configuration ?? {} } });
      return { configuration: next.runtime.configuration };
    }),

    route(ep.download, (ctx) => serveDownload(ctx, ep.download, (url) => url)),

    route(ep.logs, (ctx) => workloadLogs(load(ctx, ctx.params.workload_name), ctx.query, conflict)),

    route(ep.start, (ctx) => legacyView(startWorkload(ctx, load(ctx, ctx.params.workload_name)))),

    route(ep.stop, (ctx) => legacyView(stopWorkload(ctx, load(ctx, ctx.params.workload_name)))),

    route(ep.undeploy, (ctx) => {
      const name = ctx.params.workload_name;
      if (ctx.query.staged) deleteStaged(ctx, load(ctx, name));
      else removeWorkload(ctx, name);
    }),
  ],
};
