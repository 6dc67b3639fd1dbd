/**
 * Clusters. Design choices where the spec is silent: a cluster is created `pending_provision` and not
 * ready; setting `ready: true` marks it `online` (nothing provisions a real edge here). The manifest
 * revision is a counter that moves on every change of the cluster; an update that changes nothing
 * (a repeated request, say) leaves it where it is.
 */
import { randomBytes } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { CLUSTER_SETTING_DEFAULTS, clusters as ep, type Cluster } from "../../../api/clusters";
import { conflict, notFound } from "../../../api/errors";
import type { HandlerContext } from "../../handler";
import { servedPath } from "../../paths";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";

export interface StoredCluster extends Cluster {
  /** Manifest revision counter; internal. */
  revision: number;
  /** Private registry password; internal, only in the credentials download. */
  registry_password: string;
}

export const table = (store: Store) => store.table<StoredCluster>(TABLES.clusters);

/** Whether two versions of a cluster hold the same settings (times and the revision aside). */
function sameSettings(a: StoredCluster, b: StoredCluster): boolean {
  const settings = ({ updated: _u, revision: _r, last_seen: _l, ...rest }: StoredCluster) => rest;
  return isDeepStrictEqual(settings(a), settings(b));
}

export function requireCluster(store: Store, clusterName: string): StoredCluster {
  const c = table(store).get(clusterName);
  if (!c) throw notFound("cluster", clusterName);
  return c;
}

export const SVC_VERSION = "4.0.0";
const K8S_VERSION = "v1.30.4+k3s1";

/** A new cluster, `pending_provision`, with its scripts, token and address ranges. */
export function createCluster(ctx: HandlerContext, body: z.output<NonNullable<typeof ep.create.body>>): StoredCluster {
  const { name } = body;
  if (table(ctx.store).has(name)) throw conflict(`cluster '${name}' already exists`);
  const n = ctx.store.nextSeq("cluster_cidr");
  const token = randomBytes(24).toString("base64url");
  const script = `${ctx.baseUrl}${servedPath(ep.provisionScriptDownload)}`;
  const cluster: StoredCluster = {
    name,
    title: body.title ?? name,
    type: body.type ?? "k3s",
    status: "pending_provision",
    ready: false,
    last_seen: null,
    kubeconfig: "",
    cidr: { pod_cidr: `10.${(2 * n) % 256}.0.0/16`, service_cidr: `10.${(2 * n + 1) % 256}.0.0/16` },
    info: {},
    svc_info: { version: SVC_VERSION },
    network_info: {},
    system_info: {},
    join_script: `curl -sfL ${script} | sh -s -- join ${name}`,
    provision_script: `curl -sfL ${script} | SVC_TOKEN=${token} sh -s -- ${name}`,
    service_account_token: token,
    ...CLUSTER_SETTING_DEFAULTS,
    upgrade_instantly_apply: false,
    upgrade_pre_download: false,
    upgrade_status: { message: "", state: "idle" },
    version: { k8s_version: K8S_VERSION, svc_version: SVC_VERSION },
    api_credentials: { username: null, password_set: false },
    edge_apps: {
      edge_ui: { disabled: false },
      edge_ccm: { disabled: false },
      edge_k8s: { disabled: false },
      edge_info: { disabled: false },
      edge_mqtt: { disabled: false, expose: false, anonymous: false },
      edge_nats: { disabled: false },
      edge_sync: { disabled: false },
      edge_leader_api: { disabled: false },
      edge_custom_action_manager: { disabled: false },
    },
    edge_options: { image_pull_policy: "IfNotPresent" },
    created: ctx.now,
    updated: ctx.now,
    revision: 1,
    registry_password: randomBytes(16).toString("hex"),
  };
  return table(ctx.store).put(name, cluster);
}

/** The cluster with an update applied; the manifest revision moves only when a setting changes. */
export function updateCluster(ctx: HandlerContext, current: StoredCluster, body: z.output<NonNullable<typeof ep.update.body>>): StoredCluster {
  const { upgrade, api_credentials, edge_apps, edge_options, ready, ...flat } = body;
  const next: StoredCluster = { ...current, ...flat, updated: ctx.now, revision: current.revision + 1 };
  if (ready !== undefined) {
    next.ready = ready;
    next.status = ready ? "online" : "pending_provision";
    next.last_seen = ready ? ctx.now : current.last_seen;
  }
  if (upgrade?.instantly_apply !== undefined) next.upgrade_instantly_apply = upgrade.instantly_apply;
  if (upgrade?.pre_download !== undefined) next.upgrade_pre_download = upgrade.pre_download;
  if (api_credentials) {
    next.api_credentials = {
      username: api_credentials.username ?? current.api_credentials.username,
      password_set: current.api_credentials.password_set || api_credentials.password !== undefined,
    };
  }
  if (edge_apps) {
    const merged: Record<string, unknown> = { ...current.edge_apps };
    for (const [k, v] of Object.entries(edge_apps)) merged[k] = { ...(current.edge_apps as Record<string, object>)[k], ...v };
    next.edge_apps = merged;
  }
  if (edge_options?.image_pull_policy) next.edge_options = { image_pull_policy: edge_options.image_pull_policy };
  if (sameSettings(current, next)) next.revision = current.revision;
  return table(ctx.store).put(current.name, next);
}
