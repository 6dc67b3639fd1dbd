/** The clusters' routes and views (records and rules in model.ts). */
import { createHash } from "node:crypto";
import { stringify as toYaml } from "yaml";
import { clusters as ep, type Cluster } from "../../../api/clusters";
import { inventoryList, matchesSearch } from "../../list";
import { route, type AreaModule } from "../../handler";
import { SVC_VERSION, createCluster, requireCluster, table, updateCluster, type StoredCluster } from "./model";

/** The record as the API answers it: internal fields stripped. */
function view(c: StoredCluster): Cluster {
  const { revision: _r, registry_password: _p, ...rest } = c;
  return rest;
}

export const area: AreaModule = {
  routes: [
    route(ep.create, (ctx) => view(createCluster(ctx, ctx.body))),

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

    route(ep.update, (ctx) => view(updateCluster(ctx, requireCluster(ctx.store, ctx.params.cluster_name), ctx.body))),

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
