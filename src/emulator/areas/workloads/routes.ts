/**
 * Workloads (/apps/workloads). The record and its lifecycle live in model.ts, shared with the legacy
 * /workloads view and bridges; app version deploy (served by the apps area) in model-deploy.ts.
 *
 * Design choices where the spec is silent:
 * - Start and stop without a body (or without `names`) select every workload that can make the move:
 *   start every stopped workload, stop every running one.
 * - State conflicts (apply of a workload that is not ready to apply, enable of one that is not
 *   pending, start/stop of a pending one) answer 409 naming the reason; in a bulk call they become
 *   that item's result.
 * - `app_type` in a create body must match the app's type (400 otherwise); the record always carries
 *   the app's type.
 * - Runtime resources are checked as asset KRNs; whether the asset exists is not checked.
 * - Resources add: a resource without `parameters` gets the current parameter values injected, as in
 *   deploy. Resources remove of a resource the workload does not serve answers 404 naming it.
 * - Bulk update selects the workloads in `workload_names`, or else every workload of `app_name`; it is
 *   all-or-nothing (the spec lists no 207 for it).
 */
import { answeredAs, badRequest, conflict, invalidField, notFound } from "../../../api/errors";
import { workloads as ep, type Workload } from "../../../api/workloads";
import { krnOf, SYSTEM_IDENTITY } from "../auth/model";
import { route, type AreaModule, type HandlerContext } from "../../handler";
import { part1List } from "../../list";
import { refs } from "../../store/tables";
import { requireUnique, resolveParameters } from "./model-deploy";
import {
  WORKLOAD_SORT,
  allWorkloads,
  appTypeOf,
  applyDueRollouts,
  applyProblem,
  applyStaged,
  deleteStaged,
  enableWorkload,
  insertWorkload,
  removeWorkload,
  requireRunnableVersion,
  requireWorkload,
  resourceKrns,
  stagedSummary,
  startWorkload,
  stopWorkload,
  updateWorkload,
  workloadRows,
  type StoredWorkload,
  type WorkloadChanges,
} from "./model";
import { workloadLogs } from "./model-logs";
import { serveDownload } from "./routes-packages";
import { runBulk, type MultiStatusOptions } from "../../bulk";

// ---------------------------------------------------------------------------------------------
// Views

/** The record as /apps/workloads answers it (facts §4.3): the legacy and internal fields stripped. */
function view(w: StoredWorkload): Workload {
  const { build_started_ms: _b, package_ms: _pm, package_fails: _pf, log: _l, instantly_apply: _i, pre_download: _p, payload: _pl, networking: _n, ...rest } = w;
  return rest as Workload;
}

function listItem(w: StoredWorkload) {
  const { runtime: _r, system: _s, api_permissions: _a, enabled: _e, ...rest } = view(w);
  return { ...rest, staged: stagedSummary(w.staged) };
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** The workload as it stands now (a package build that is due has finished). */
const load = (ctx: HandlerContext, name: string) => requireWorkload(ctx.store, name, ctx.nowMs);

/**
 * The bulk actions (apply, enable, start, stop, delete) run per named workload, each name once: 204
 * when all succeed, 207 with a result per name when some fail, the error itself when all fail.
 * Their tables list 207, 400, 401, 403, 404 and 500, not 409: a workload in a state the action does
 * not apply to (the lifecycle functions' conflict, which the legacy forms answer as it is) is a bad
 * request here, with the same message.
 */
const BULK: MultiStatusOptions = { okStatus: 204, allFailed: "reject" };
const eachWorkload = (names: string[], op: (name: string) => void) =>
  runBulk(
    [...new Set(names)],
    (n) => n,
    (name) => answeredAs(409, badRequest, () => op(name)),
    BULK,
  );

/** Selects the named workloads for start/stop, or every workload in `fromState` when none are named. */
function selected(ctx: HandlerContext, names: string[] | undefined, fromState: string): string[] {
  if (names) return names;
  return allWorkloads(ctx.store, ctx.nowMs)
    .filter((w) => w.status.state === fromState)
    .map((w) => w.name);
}

// ---------------------------------------------------------------------------------------------
// Routes

export const area: AreaModule = {
  routes: [
    route(ep.create, (ctx) => {
      const b = ctx.body;
      requireRunnableVersion(ctx.store, b.app_name, b.app_version);
      const type = appTypeOf(ctx.store, b.app_name, b.app_version);
      if (b.app_type && b.app_type !== type) {
        throw invalidField("body.app_type", `is '${b.app_type}' but app '${b.app_name}' is of type '${type}'; leave it out or send '${type}'`);
      }
      requireUnique(
        (b.runtime?.resources ?? []).map((r) => r.resource),
        "body.runtime.resources",
      );
      const { app_type: _t, ...input } = b;
      return view(insertWorkload(ctx, { ...input, stopped: ctx.query.stopped }));
    }),

    route(ep.get, (ctx) => view(load(ctx, ctx.params.workload_name))),

    route(ep.patch, (ctx) => {
      const { deployment_type, ...changes } = ctx.body;
      if (changes.runtime?.resources)
        requireUnique(
          changes.runtime.resources.map((r) => r.resource),
          "body.runtime.resources",
        );
      return view(updateWorkload(ctx, load(ctx, ctx.params.workload_name), changes, deployment_type));
    }),

    route(ep.list, (ctx) => {
      const q = ctx.query;
      // Built once per request, not once per row.
      const filter = { ...q, resource: q.resources, searchIn: (x: StoredWorkload) => [x.name, x.title, x.app_name, x.cluster_name] };
      return part1List(workloadRows(ctx.store, ctx.nowMs, filter), q, { key: (w) => w.name, sort: WORKLOAD_SORT, item: listItem });
    }),

    route(ep.apply, (ctx) =>
      eachWorkload(ctx.body.workload_names, (name) => {
        const w = load(ctx, name);
        const problem = applyProblem(w);
        if (problem) throw conflict(problem);
        applyStaged(ctx, w);
      }),
    ),

    route(ep.enable, (ctx) => eachWorkload(ctx.body.workload_names, (name) => enableWorkload(ctx, load(ctx, name)))),

    route(ep.start, (ctx) => eachWorkload(selected(ctx, ctx.body?.workload_names, "stopped"), (name) => startWorkload(ctx, load(ctx, name)))),

    route(ep.stop, (ctx) => eachWorkload(selected(ctx, ctx.body?.workload_names, "running"), (name) => stopWorkload(ctx, load(ctx, name)))),

    route(ep.delete, (ctx) =>
      eachWorkload(ctx.body.workload_names, (name) => {
        if (ctx.query.staged) deleteStaged(ctx, load(ctx, name));
        else removeWorkload(ctx, name);
      }),
    ),

    route(ep.download, (ctx) => serveDownload(ctx, ep.download)),

    route(ep.logs, (ctx) => workloadLogs(load(ctx, ctx.params.workload_name), ctx.query)),

    route(ep.resourcesAdd, (ctx) => {
      const w = load(ctx, ctx.params.workload_name);
      requireUnique(
        ctx.body.resources.map((r) => r.resource),
        "body.resources",
      );
      const present = new Set(resourceKrns(w));
      const already = ctx.body.resources.filter((r) => present.has(r.resource)).map((r) => r.resource);
      if (already.length > 0) throw conflict(`workload '${w.name}' already serves ${already.map((k) => `'${k}'`).join(", ")}; remove it first or update the workload`);
      const added = ctx.body.resources.map((r, i) => resolveParameters(ctx, w.app_name, w.app_version, r, `body.resources[${i}].parameters`));
      const runtime: WorkloadChanges["runtime"] = { resources: [...w.runtime.resources, ...added] };
      if (ctx.body.datastreams) runtime.datastreams = [...(w.runtime.datastreams ?? []), ...ctx.body.datastreams];
      return view(updateWorkload(ctx, w, { runtime }));
    }),

    route(ep.resourcesRemove, (ctx) => {
      const w = load(ctx, ctx.params.workload_name);
      const present = new Set(resourceKrns(w));
      const missing = ctx.body.resources.filter((k) => !present.has(k));
      if (missing.length > 0) throw notFound(`resource of workload '${w.name}'`, missing.join("', '"));
      const removed = new Set(ctx.body.resources);
      updateWorkload(ctx, w, { runtime: { resources: w.runtime.resources.filter((r) => !removed.has(r.resource)) } });
    }),

    route(ep.bulkUpdate, (ctx) => {
      const { workload_names, app_name, deployment_type, ...changes } = ctx.body;
      let targets: StoredWorkload[];
      if (workload_names) {
        targets = workload_names.map((n) => load(ctx, n));
        const foreign = targets.filter((w) => app_name !== undefined && w.app_name !== app_name).map((w) => w.name);
        if (foreign.length > 0) throw invalidField("body.workload_names", `${foreign.join(", ")} do(es) not run app '${app_name}'`);
      } else if (app_name) {
        if (!refs.app(ctx.store, app_name)) throw notFound("app", app_name);
        targets = allWorkloads(ctx.store, ctx.nowMs).filter((w) => w.app_name === app_name);
      } else {
        throw invalidField("body", "name the workloads to update (workload_names) or an app whose workloads to update (app_name)");
      }
      if (changes.runtime?.resources)
        requireUnique(
          changes.runtime.resources.map((r) => r.resource),
          "body.runtime.resources",
        );
      for (const w of targets) updateWorkload(ctx, w, changes, deployment_type);
    }),
  ],
  // staged+instant-apply versions are applied once the edge has downloaded them, as the system.
  tickers: [({ store, now, nowMs }) => applyDueRollouts({ store, now, nowMs, actor: krnOf(SYSTEM_IDENTITY) })],
};
