/**
 * App version deploy (served by the apps area) and the rules on runtime resources it shares with the
 * workloads routes (create, patch, resources add, bulk update).
 *
 * Design choices where the spec is silent:
 * - A resource may appear once; the resources are cut into workloads of at most
 *   `max_resources` each (default: all in one; no resources: one workload without any). The target
 *   cluster, max_resources and deployment_type come from the body's `deployment`, else from the app
 *   version's `defaults.deployment` (configuration and system likewise from `defaults.app.configuration`
 *   and `defaults.system`). Workloads are named `<app>-<version>-<n>` (the version's
 *   characters outside [a-z0-9-] become '-', n the smallest free number from 1), at most 64 characters.
 */
import { invalidField } from "../../../api/errors";
import type { HandlerContext } from "../../handler";
import { currentParameterValues, requireAppVersion, writeValueEntries } from "../parameters/model";
import { insertWorkload, requireCluster, workloadTable, type DeploymentType, type RuntimeResource } from "./model";

export function requireUnique(krns: string[], field: string): void {
  const seen = new Set<string>();
  for (const k of krns) {
    if (seen.has(k)) throw invalidField(field, `resource '${k}' appears more than once`);
    seen.add(k);
  }
}

/**
 * Deploy's parameter rule (spec "Deploy request structure"): given values replace the resource's
 * values (others fall back to their default, so `{}` resets all); omitted values stay. Either way the
 * workload's resource carries the values in force afterwards.
 */
export function resolveParameters(ctx: HandlerContext, app: string, version: string, r: RuntimeResource, where: string): RuntimeResource {
  if (r.parameters !== undefined) {
    const entries = Object.entries(r.parameters).map(([name, value]) => ({ name, value: value as string | number | boolean }));
    writeValueEntries(ctx, app, version, r.resource, entries, { mode: "replace", where });
  }
  return { ...r, parameters: currentParameterValues(ctx.store, app, version, r.resource) };
}

interface DeployPlan {
  cluster: string;
  maxResources: number | undefined;
  type: DeploymentType | undefined;
  /** The app version's defaults for what the body leaves out. */
  configuration: Record<string, unknown> | undefined;
  system: Record<string, unknown> | undefined;
}

export type DeployBody = { deployment?: { max_resources?: number; deployment_type?: DeploymentType; target?: { cluster?: { name: string } } } };

function deployPlan(ctx: HandlerContext, app: string, version: string, body: DeployBody): DeployPlan {
  const versionDefaults = requireAppVersion(ctx.store, app, version).defaults;
  const defaults = versionDefaults?.deployment;
  const d = body.deployment;
  const cluster = d?.target?.cluster?.name ?? defaults?.target?.cluster?.name;
  if (!cluster) {
    throw invalidField("body.deployment.target.cluster.name", `is required: app '${app}' version ${version} names no default target cluster`);
  }
  requireCluster(ctx.store, cluster);
  return {
    cluster,
    maxResources: d?.max_resources ?? defaults?.max_resources,
    type: d?.deployment_type ?? defaults?.deployment_type,
    configuration: versionDefaults?.app?.configuration,
    system: versionDefaults?.system,
  };
}

function chunks<T>(items: T[], size: number | undefined): T[][] {
  if (items.length === 0) return [[]];
  if (!size) return [items];
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `<app>-<version>-<n>` with the smallest free n, within 64 characters. */
function nextWorkloadName(ctx: HandlerContext, app: string, version: string): string {
  const table = workloadTable(ctx.store);
  const base = `${app}-${version.toLowerCase().replace(/[^a-z0-9-]/g, "-")}`;
  for (let n = 1; ; n++) {
    const suffix = `-${n}`;
    const name = base.slice(0, 64 - suffix.length).replace(/-+$/, "") + suffix;
    if (!table.has(name)) return name;
  }
}

/** Deploys an app version as workloads (see the design notes above); answers their names. */
export function deployAppVersion(
  ctx: HandlerContext,
  app: string,
  version: string,
  body: DeployBody & {
    runtime?: { resources?: RuntimeResource[]; configuration?: Record<string, unknown>; datastreams?: Array<Record<string, unknown>> };
    system?: Record<string, unknown>;
  },
): { workload_names: string[] } {
  const plan = deployPlan(ctx, app, version, body);
  const runtime = body.runtime ?? {};
  const given = runtime.resources ?? [];
  requireUnique(
    given.map((r) => r.resource),
    "body.runtime.resources",
  );
  const resources = given.map((r, i) => resolveParameters(ctx, app, version, r, `body.runtime.resources[${i}].parameters`));
  const workload_names = chunks(resources, plan.maxResources).map(
    (group) =>
      insertWorkload(ctx, {
        name: nextWorkloadName(ctx, app, version),
        app_name: app,
        app_version: version,
        cluster_name: plan.cluster,
        runtime: { resources: group, configuration: runtime.configuration ?? plan.configuration, datastreams: runtime.datastreams },
        system: body.system ?? plan.system,
        deployment_type: plan.type,
      }).name,
  );
  return { workload_names };
}
