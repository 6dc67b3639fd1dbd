/**
 * Workload: an app version deployed to a cluster (and optionally a node). appVersion, clusterName and
 * nodeName change in place (the spec's update keys, patch semantics); a new name or app replaces.
 * `enabled: false` creates a pending workload, and setting it to true enables it; `running` maps to
 * start and stop. With a staged deploymentType an update stages the new version: the staged version
 * counts as the declared one until it is applied on the platform.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { SvcClient } from "../../client";
import { WorkloadCreate, workloads } from "../../api/workloads";
import { defineKind, type WireRecord } from "../kind";
import { SvcResource } from "../shim";
import { convertKeys, snake } from "../values";

type Json = Record<string, unknown>;

export interface WorkloadArgs {
  name: pulumi.Input<string>;
  appName: pulumi.Input<string>;
  appVersion: pulumi.Input<string>;
  clusterName: pulumi.Input<string>;
  nodeName?: pulumi.Input<string>;
  title?: pulumi.Input<string>;
  /** resources (one entry per asset: resource KRN, parameters, datastreams), configuration (untouched), datastreams. */
  runtime?: pulumi.Input<Json>;
  system?: pulumi.Input<Json>;
  apiPermissions?: pulumi.Input<Json | unknown[]>;
  /** standard, staged+instant-apply or staged-only: how an update is applied (input only). */
  deploymentType?: pulumi.Input<"standard" | "staged+instant-apply" | "staged-only">;
  /** false creates a pending workload; true enables it. Default true. */
  enabled?: pulumi.Input<boolean>;
  /** false stops the workload, true starts it. Default: running. */
  running?: pulumi.Input<boolean>;
  adopt?: pulumi.Input<boolean>;
}

const RUNTIME_FREE = ["configuration", "resources.*.parameters", "resources.*.datastreams"];
const PATCHABLE = ["title", "appVersion", "clusterName", "nodeName", "deploymentType", "runtime", "system", "apiPermissions"];
const OUTPUTS = ["state", "statusMessage", "lastSeen", "downloadStatus", "staged", "stagedAppVersion", "appType", "createdAt", "createdBy", "updatedAt", "updatedBy"] as const;

function wireValue(arg: string, v: unknown): unknown {
  return arg === "runtime" ? convertKeys(v, snake, RUNTIME_FREE) : v;
}

function patchBody(i: Json, keys: string[]): Json {
  const body: Json = {};
  for (const k of keys) if (i[k] !== undefined) body[snake(k)] = wireValue(k, i[k]);
  return body;
}

const get = async (client: SvcClient, name: string) => (await client.call(workloads.get, { params: { workload_name: name } })) as WireRecord;

/** Brings enabled and running to the declared values. */
async function settle(client: SvcClient, news: Json, olds: Json | undefined, record: WireRecord): Promise<WireRecord> {
  const name = news.name as string;
  let changed = false;
  const state = (record.status as { state?: string } | undefined)?.state;
  // Only a pending workload (created with enabled: false) is enabled; a stopped one is not enabled
  // either on the platform, but it is started, below, when it should run.
  if (news.enabled !== false && state === "pending_deploy") {
    await client.call(workloads.enable, { body: { names: [name] } });
    changed = true;
  }
  if (news.running === false && state !== "stopped" && state !== "stopping" && news.enabled !== false) {
    await client.call(workloads.stop, { body: { names: [name] } });
    changed = true;
  } else if (news.running === true && (state === "stopped" || state === "stopping")) {
    await client.call(workloads.start, { body: { names: [name] } });
    changed = true;
  }
  return changed ? get(client, name) : record;
}

export const workloadKind = defineKind<Json>({
  name: "Workload",
  noun: "workload",
  args: {
    name: { replaces: true },
    appName: { replaces: true },
    appVersion: {},
    clusterName: {},
    nodeName: {},
    title: {},
    runtime: { nested: true, freeForm: RUNTIME_FREE },
    system: { compare: "exact" },
    apiPermissions: { compare: "exact" },
    deploymentType: { writeOnly: true },
    enabled: {},
    running: {},
    adopt: { local: true },
  },
  required: ["name", "appName", "appVersion", "clusterName"],
  id: (i) => i.name as string,
  schema: WorkloadCreate,
  // A pending workload cannot be made pending again: disabling one that runs replaces it.
  replaceWhen: (olds, news) => olds.enabled !== false && news.enabled === false,
  async create({ client }, i) {
    const body = { ...patchBody(i, ["name", "title", "appName", "appVersion", "clusterName", "nodeName", "runtime", "system", "apiPermissions", "deploymentType"]), ...(i.enabled === false ? { enabled: false } : {}) };
    const record = (await client.call(workloads.create, { query: { stopped: i.running === false }, body: body as never })) as WireRecord;
    return settle(client, i, undefined, record);
  },
  read: ({ client }, id) => get(client, id),
  async update({ client }, id, news, olds, changed) {
    const keys = olds === undefined ? PATCHABLE : changed.filter((c) => PATCHABLE.includes(c));
    let record = keys.length ? ((await client.call(workloads.patch, { params: { workload_name: id }, body: patchBody(news, keys) as never })) as WireRecord) : await get(client, id);
    record = await settle(client, news, olds, record);
    return record;
  },
  async delete({ client }, id) {
    await client.call(workloads.delete, { body: { names: [id] } });
  },
  argsFromRecord(r, olds) {
    const staged = r.staged as { app_version?: string } | null;
    const state = (r.status as { state?: string } | undefined)?.state;
    const out: Json = { appVersion: staged?.app_version ?? r.app_version };
    // A pending workload (enabled: false) neither runs nor is stopped: `running` waits until it is enabled.
    if (olds.running !== undefined) out.running = state === "pending_deploy" ? olds.running : !(state === "stopped" || state === "stopping");
    // The platform's own `enabled` is false while the workload is stopped; the arg says whether it is
    // deployed at all (false: created pending), so it reads back from the state.
    if (olds.enabled !== undefined) out.enabled = state !== "pending_deploy";
    return out;
  },
  outputs(r) {
    const status = (r.status ?? {}) as { state?: string; message?: string; last_seen?: string };
    const staged = r.staged as { app_version?: string } | null;
    return {
      state: status.state,
      statusMessage: status.message,
      lastSeen: status.last_seen,
      downloadStatus: r.download_status,
      staged: staged !== null && staged !== undefined,
      stagedAppVersion: staged?.app_version,
      appType: r.app_type,
      createdAt: r.created_at,
      createdBy: r.created_by,
      updatedAt: r.updated_at,
      updatedBy: r.updated_by,
    };
  },
});

export class Workload extends SvcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly appName: pulumi.Output<string>;
  declare readonly appVersion: pulumi.Output<string>;
  declare readonly clusterName: pulumi.Output<string>;
  declare readonly state: pulumi.Output<string>;
  declare readonly statusMessage: pulumi.Output<string | undefined>;
  declare readonly lastSeen: pulumi.Output<string | undefined>;
  declare readonly downloadStatus: pulumi.Output<string>;
  declare readonly staged: pulumi.Output<boolean>;
  declare readonly stagedAppVersion: pulumi.Output<string | undefined>;
  declare readonly appType: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: WorkloadArgs, opts?: pulumi.CustomResourceOptions) {
    super("Workload", name, args, OUTPUTS, opts);
  }
}
