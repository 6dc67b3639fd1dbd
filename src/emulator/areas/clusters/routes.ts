/**
 * Clusters. Design choices where the spec is silent: a cluster is created `pending_provision` and not
 * ready; setting `ready: true` marks it `online` (nothing provisions a real edge here). The manifest
 * revision is a counter that moves on every change of the cluster; an update that changes nothing
 * (a repeated request, say) leaves it where it is.
 */
import { createHash, randomBytes } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { stringify as toYaml } from "yaml";
import { CLUSTER_SETTING_DEFAULTS, clusters as ep, type Cluster } from "../../../api/clusters";
import { conflict, notFound } from "../../../api/errors";
import { inventoryList, matchesSearch } from "../../list";
import { route, type AreaModule } from "../../handler";
import { servedPath } from "../../paths";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";

interface StoredCluster extends Cluster {
  /** Manifest revision counter; internal. */
  revision: number;
  /** Private registry password; internal, only in the credentials download. */
  registry_password: string;
}

const table = (store: Store) => store.table<StoredCluster>(TABLES.clusters);

export /** Whether two versions of a cluster hold the same settings (times and the revision aside). */
function sameSettings(a: StoredCluster, b: StoredCluster): boolean {
  const settings = ({ updated: _u, revision: _r, last_seen: _l, ...rest }: StoredCluster) => rest;
  return isDeepStrictEqual(settings(a), settings(b));
}

function requireCluster(store: Store, clusterName: string): StoredCluster {
  const c = table(store).get(clusterName);
  if (!c) throw notFound("cluster", clusterName);
  return c;
}

/** The record as the API answers it: internal fields stripped. */
function view(c: StoredCluster): Cluster {
  const { revision: _r, registry_password: _p, ...rest } = c;
  return rest;
}

const SVC_VERSION = "4.0.0";
const K8S_VERSION = "v1.30.4+k3s1";

export const area: AreaModule = {
  routes: [
    route(ep.create, (ctx) => {
      const { name } = ctx.body;
      if (table(ctx.store).has(name)) throw conflict(`cluster '${name}' already exists`);
      const n = ctx.store.nextSeq("cluster_cidr");
      const token = randomBytes(24).toString("base64url");
      const script = `${ctx.baseUrl}${servedPath(ep.provisionScriptDownload)}`;
      const cluster: StoredCluster = {
        name,
        title: ctx.body.title ?? name,
        type: ctx.body.type ?? "k3s",
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
      return view(table(ctx.store).put(name, cluster));
    }),

    route(ep.list, (ctx) =>
      inventoryList(
        table(ctx.store).filter((c) => matchesSearch(ctx.query.search, c.name, c.title)),
        ctx.query,
        {
          key: (c) => c.name,
          sort: { "cluster.name": (c) => c.name },
          item: (c) => ({
            name: c.name,
            title: c.title,
            type: c.type,
            status: c.status,
            ready: c.ready,
            last_seen: c.last_seen,
            svc_version: c.version.svc_version,
            container_version: c.version.k8s_version,
            created: c.created,
            updated: c.updated,
          }),
        },
      ),
    ),

    route(ep.get, (ctx) => view(requireCluster(ctx.store, ctx.params.cluster_name))),

    route(ep.update, (ctx) => {
      const current = requireCluster(ctx.store, ctx.params.cluster_name);
      const { upgrade, api_credentials, edge_apps, edge_options, ready, ...flat } = ctx.body;
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
      return view(table(ctx.store).put(current.name, next));
    }),

    route(ep.manifestsGet, (ctx) => {
      const c = requireCluster(ctx.store, ctx.params.cluster_name);
      const revision = createHash("sha256").update(`${c.name}:${c.revision}`).digest("hex").slice(0, 12);
      const manifest = toYaml({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "svc-edge-settings", namespace: "svc-system" },
        data: {
          cluster: c.name,
          telemetry_enabled: String(c.telemetry_enabled),
          telemetry_scrape_interval: String(c.telemetry_scrape_interval),
          forward_logs_enabled: String(c.forward_logs_enabled),
          image_pull_policy: c.edge_options.image_pull_policy,
        },
      });
      return {
        revision,
        images: [{ path: `registry.local/svc/edge-agent:${c.version.svc_version}`, args: `--cluster ${c.name}` }],
        manifests: [{ file_name: "svc-edge-settings.yaml", content: Buffer.from(manifest).toString("base64") }],
        upgrade: {
          download_type: c.upgrade_pre_download ? "pre-download" : "on-demand",
          upgrade_type: c.upgrade_instantly_apply ? "instant" : "manual",
        },
      };
    }),

    route(ep.privateRegistryDownload, (ctx) => {
      const c = requireCluster(ctx.store, ctx.params.cluster_name);
      const file = toYaml({ registry: "registry.local", username: `cluster-${c.name}`, password: c.registry_password });
      return {
        status: 200,
        headers: { "content-type": "application/yaml", "content-disposition": `attachment; filename="${c.name}-registry.yaml"` },
        raw: file,
      };
    }),

    route(ep.provisionBinDownload, () => ({
      status: 200,
      headers: { "content-type": "application/octet-stream", "content-disposition": 'attachment; filename="svc-provision"' },
      raw: Buffer.from("#!/bin/sh\n# svc provisioning binary (emulated)\nexit 0\n"),
    })),

    route(ep.provisionScriptDownload, (ctx) => ({
      script: `#!/bin/sh\nset -eu\necho "provisioning against ${ctx.baseUrl}"\n`,
      version: SVC_VERSION,
    })),

    route(ep.cidrList, (ctx) =>
      inventoryList(
        table(ctx.store).filter((c) => matchesSearch(ctx.query.search, c.cidr.pod_cidr, c.cidr.service_cidr, c.name)),
        ctx.query,
        {
          key: (c) => c.name,
          sort: { "cidr.kube_pod_cidr": (c) => c.cidr.pod_cidr, "cidr.kube_service_cidr": (c) => c.cidr.service_cidr },
          item: (c) => ({
            cluster_name: c.name,
            kube_pod_cidr: c.cidr.pod_cidr,
            kube_service_cidr: c.cidr.service_cidr,
            created: c.created,
            updated: c.updated,
          }),
        },
      ),
    ),
  ],
};
