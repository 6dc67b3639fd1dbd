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
import { invalidField, notAcceptable, notFound, notImplemented } from "../../../api/errors";
import type { LegacyWorkloadDeploy } from "../../../api/legacy-workloads";
import type { HandlerContext } from "../../handler";
import type { Store } from "../../store/store";
import { refs } from "../../store/tables";
import { allWorkloads, applyProblem, applyStaged, insertWorkload, requireRunnableVersion, requireWorkload, workloadTable, type StoredWorkload } from "../workloads/model";

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

export function deploy(ctx: HandlerContext, b: LegacyWorkloadDeploy): StoredWorkload {
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
export function requireConfigurable(w: StoredWorkload): void {
  if (w.app_type === "docker") throw notImplemented(`workload '${w.name}' runs a docker app, which has no app configuration`);
}

/** Applies the named workloads (or every one waiting for apply), all or none: 406 naming why not. */
export function applyAll(ctx: HandlerContext, names: string[] | undefined): string[] {
  const targets = names
    ? [...new Set(names)].map((n) => requireWorkload(ctx.store, n, ctx.nowMs))
    : allWorkloads(ctx.store, ctx.nowMs).filter((w) => w.staged && !w.staged.instantly_apply);
  const problems = targets.map(applyProblem).filter((p): p is string => p !== null);
  if (problems.length > 0) throw notAcceptable(...problems);
  return targets.map((w) => applyStaged(ctx, w).name);
}
