/**
 * Legacy workload operations (/workloads): the workload records of areas/workloads/model.ts in the legacy
 * shape (facts §4.4), moved through the same lifecycle as /apps/workloads.
 *
 * Design choices where the spec is silent:
 * - Deploy takes the app from the app registry or the apps; without app_version it deploys the app's
 *   latest version. Without a name the workload is named `<app>-<n>` (n the smallest free
 *   number, at most 32 characters). `instantly_apply=false` creates a staged version that waits for
 *   apply (as deployment_type staged-only does); `staged` is shown as `pre_download`. `source` is
 *   accepted and not kept.
 * - Apply without workload_names applies every workload waiting for apply. It is all-or-nothing: a
 *   workload that cannot be applied (see /apps/workloads/apply) answers 406 naming why.
 * - 501: configurations get and update of a workload of a docker app (a docker app has no app
 *   configuration). Nothing else is refused as unsupported.
 * - Configuration update while a staged version waits for apply answers 409 (apply or drop it first).
 * - Logs and start/stop of a pending workload (enabled=false) answer 409.
 * - The configuration is the workload's `runtime.configuration`, the same one /apps/workloads shows.
 * - Download with address=true answers the link as a JSON string.
 */
import { assetKrnOf } from "../../../api/common";
import { conflict, invalidField, notAcceptable, notFound, notImplemented } from "../../../api/errors";
import { legacyWorkloads as ep, type LegacyWorkload, type LegacyWorkloadDeploy } from "../../../api/legacy-workloads";
import { route, type AreaModule, type HandlerContext } from "../../handler";
import { part1List, type SortGetters } from "../../list";
import type { Store } from "../../store/store";
import { refs } from "../../store/tables";
import {
  WORKLOAD_SORT,
  allWorkloads,
  applyProblem,
  applyStaged,
  deleteStaged,
  insertWorkload,
  matchesWorkloadFilter,
  removeWorkload,
  requireRunnableVersion,
  requireWorkload,
  stagedSummary,
  startWorkload,
  stopWorkload,
  updateWorkload,
  workloadTable,
  type StoredWorkload,
} from "../workloads/model";
import { workloadLogs } from "../workloads/model-logs";
import { downloadPackage } from "../workloads/routes-packages";
import { servedPath } from "../../paths";

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

/** The version to deploy: the one asked for, else the latest of the registry app (or the app). */
function versionToDeploy(store: Store, app: string, wanted: string | undefined): string {
  const source = refs.registryApp(store, app) ?? refs.app(store, app);
  if (!source) throw notFound("app (in the app registry or the apps)", app);
  const version = wanted ?? source.latest_version;
  if (!version) throw invalidField("body.app_version", `is required: app '${app}' has no version to default to`);
  requireRunnableVersion(store, app, version);
  return version;
}

/** `<app>-<n>` with the smallest free n, within the legacy 32 characters. */
function nextLegacyName(store: Store, app: string): string {
  const table = workloadTable(store);
  for (let n = 1; ; n++) {
    const suffix = `-${n}`;
    const name = app.slice(0, 32 - suffix.length).replace(/-+$/, "") + suffix;
    if (!table.has(name)) return name;
  }
}

function deploy(ctx: HandlerContext, b: LegacyWorkloadDeploy): StoredWorkload {
  const cluster = b.cluster_name ?? b.acp_name;
  if (!cluster) throw invalidField("body.cluster_name", "is required (or the deprecated acp_name)");
  const version = versionToDeploy(ctx.store, b.app_name, b.app_version);
  const instantlyApply = b.instantly_apply ?? true;
  return insertWorkload(ctx, {
    name: b.name ?? nextLegacyName(ctx.store, b.app_name),
    title: b.title,
    app_name: b.app_name,
    app_version: version,
    cluster_name: cluster,
    node_name: b.node_name,
    payload: b.payload,
    instantly_apply: instantlyApply,
    pre_download: b.staged ?? false,
    deployment_type: instantlyApply ? (b.staged ? "staged+instant-apply" : "standard") : "staged-only",
  });
}

/** Configuration operations exist only for apps that have an app configuration. */
function requireConfigurable(w: StoredWorkload): void {
  if (w.app_type === "docker") throw notImplemented(`workload '${w.name}' runs a docker app, which has no app configuration`);
}

/** Applies the named workloads (or every one waiting for apply), all or none: 406 naming why not. */
function applyAll(ctx: HandlerContext, names: string[] | undefined): string[] {
  const targets = names ? [...new Set(names)].map((n) => load(ctx, n)) : allWorkloads(ctx.store, ctx.nowMs).filter((w) => w.staged && !w.staged.instantly_apply);
  const problems = targets.map(applyProblem).filter((p): p is string => p !== null);
  if (problems.length > 0) throw notAcceptable(...problems);
  return targets.map((w) => applyStaged(ctx, w).name);
}

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

    route(ep.download, (ctx) => {
      const name = ctx.params.workload_name;
      return downloadPackage(ctx, requireWorkload(ctx.store, name), {
        address: ctx.query.address,
        expires: ctx.query.expires,
        path: servedPath(ep.download, { workload_name: name }),
        addressBody: (url) => url,
      });
    }),

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
