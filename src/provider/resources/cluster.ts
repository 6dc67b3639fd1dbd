/**
 * Cluster. API v4 has no cluster delete: destroying a Cluster resource releases it from the stack
 * and leaves it on the platform, and creating one whose cluster exists takes it over again. The edge
 * API credentials are write-only secrets and are not managed here, so no password ever enters the state.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ClusterCreate, clusters } from "../../api/clusters";
import { defineKind, type WireRecord } from "../kind";
import { SvcResource } from "../shim";
import { snake } from "../values";

export interface ClusterArgs {
  name: pulumi.Input<string>;
  title?: pulumi.Input<string>;
  /** k3s (default), kubernetes or docker; changing it replaces the cluster. */
  type?: pulumi.Input<"k3s" | "kubernetes" | "docker">;
  ready?: pulumi.Input<boolean>;
  forwardLogsEnabled?: pulumi.Input<boolean>;
  forwardLogsBufferSize?: pulumi.Input<number>;
  manifestsScrapeEnabled?: pulumi.Input<boolean>;
  manifestsScrapeInterval?: pulumi.Input<number>;
  syncScrapeInterval?: pulumi.Input<number>;
  telemetryEnabled?: pulumi.Input<boolean>;
  telemetryBufferSize?: pulumi.Input<number>;
  telemetryScrapeInterval?: pulumi.Input<number>;
  telemetryAlertsEnabled?: pulumi.Input<boolean>;
  edgeOptions?: pulumi.Input<{ imagePullPolicy?: pulumi.Input<"Always" | "IfNotPresent"> }>;
  /**
   * Take over a cluster that already exists with this name (the import route). A Cluster always
   * does: clusters cannot be deleted, so a create finds the cluster an earlier destroy released.
   */
  adopt?: pulumi.Input<boolean>;
}

const SETTINGS = [
  "ready",
  "forwardLogsEnabled",
  "forwardLogsBufferSize",
  "manifestsScrapeEnabled",
  "manifestsScrapeInterval",
  "syncScrapeInterval",
  "telemetryEnabled",
  "telemetryBufferSize",
  "telemetryScrapeInterval",
  "telemetryAlertsEnabled",
] as const;

const OUTPUTS = ["status", "lastSeen", "podCidr", "serviceCidr", "k8sVersion", "svcVersion", "created", "updated"] as const;

type Inputs = Record<string, any>;

function updateBody(inputs: Inputs, fields: readonly string[]): WireRecord {
  const body: WireRecord = {};
  for (const f of fields) if (inputs[f] !== undefined) body[snake(f)] = inputs[f];
  if (fields.includes("title") && inputs.title !== undefined) body.title = inputs.title;
  if (fields.includes("edgeOptions") && inputs.edgeOptions?.imagePullPolicy) body.edge_options = { image_pull_policy: inputs.edgeOptions.imagePullPolicy };
  return body;
}

export const clusterKind = defineKind<Inputs>({
  name: "Cluster",
  noun: "cluster",
  args: {
    name: { replaces: true },
    title: {},
    type: { replaces: true },
    ...Object.fromEntries(SETTINGS.map((s) => [s, {}])),
    edgeOptions: { nested: true },
    adopt: { local: true },
  },
  required: ["name"],
  id: (i) => i.name,
  schema: ClusterCreate.pick({ name: true, title: true, type: true }),
  // The platform offers no cluster delete: the cluster stays and leaves the stack.
  onDestroy: "release",
  async create({ client }, i) {
    let record = (await client.call(clusters.create, { body: { name: i.name, title: i.title, type: i.type } })) as WireRecord;
    const settings = updateBody(i, [...SETTINGS, "edgeOptions"]);
    if (Object.keys(settings).length > 0) {
      record = (await client.call(clusters.update, { params: { cluster_name: i.name }, body: settings as never })) as WireRecord;
    }
    return record;
  },
  read: async ({ client }, id) => (await client.call(clusters.get, { params: { cluster_name: id } })) as WireRecord,
  async update({ client }, id, news, _olds, changed) {
    const body = updateBody(news, changed.filter((c) => c !== "name" && c !== "type"));
    if (Object.keys(body).length === 0) return (await client.call(clusters.get, { params: { cluster_name: id } })) as WireRecord;
    return (await client.call(clusters.update, { params: { cluster_name: id }, body: body as never })) as WireRecord;
  },
  outputs: (r) => {
    const cidr = (r.cidr ?? {}) as { pod_cidr?: string; service_cidr?: string };
    const version = (r.version ?? {}) as { k8s_version?: string; svc_version?: string };
    return {
      status: r.status,
      lastSeen: r.last_seen,
      podCidr: cidr.pod_cidr,
      serviceCidr: cidr.service_cidr,
      k8sVersion: version.k8s_version,
      svcVersion: version.svc_version,
      created: r.created,
      updated: r.updated,
    };
  },
});

export class Cluster extends SvcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string | undefined>;
  declare readonly status: pulumi.Output<string>;
  declare readonly lastSeen: pulumi.Output<string | undefined>;
  declare readonly podCidr: pulumi.Output<string>;
  declare readonly serviceCidr: pulumi.Output<string>;
  declare readonly k8sVersion: pulumi.Output<string>;
  declare readonly svcVersion: pulumi.Output<string>;
  declare readonly created: pulumi.Output<string>;
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    super("Cluster", name, args, OUTPUTS, opts);
  }
}
