/** Cluster: a cluster of edge nodes; API v4 cannot delete one, so destroy releases it. */
import type * as pulumi from "@pulumi/pulumi";
import { ClusterCreate, ClusterUpdate, clusters } from "../../api/clusters";
import { declareKind, defineOutputs, wireArgs, type ArgSpecs, type CheckFailure, output } from "../kind";
import { registerKind } from "../registry";
import type { Resolved } from "../input-types";
import { type BodyOf, type CamelCasedDeep, type Same, proves } from "../wire-types";

/** The types of a {@link Cluster}'s args as programs write them (their docs are the specs' below). */
interface ClusterArgTypes {
  name: pulumi.Input<string>;
  title?: pulumi.Input<string>;
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
  edgeOptions?: pulumi.Input<{
    /** When the nodes pull the edge components' images: `Always` or `IfNotPresent`; default: the platform's. */
    imagePullPolicy?: pulumi.Input<"Always" | "IfNotPresent">;
  }>;
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

/** A cluster's computed outputs, read from the platform's record. */
const clusterOutputs = defineOutputs(clusters.get, {
  status: output("The cluster's status: `pending_provision`, `pending`, `online`, `unreachable` or `requires_attention`.", (r) => r.status),
  lastSeen: output("When the cluster last reported to the platform (RFC 3339); unset until it has.", (r) => r.last_seen ?? undefined),
  podCidr: output("The cluster's pod network (CIDR), once it reported it.", (r) => r.cidr.pod_cidr),
  serviceCidr: output("The cluster's service network (CIDR), once it reported it.", (r) => r.cidr.service_cidr),
  k8sVersion: output("The Kubernetes version the cluster runs, once it reported it.", (r) => r.version.k8s_version),
  svcVersion: output("The version of the platform's edge software on the cluster, once it reported it.", (r) => r.version.svc_version),
  created: output("When the cluster was created on the platform (RFC 3339).", (r) => r.created),
  updated: output("When the cluster was last changed on the platform (RFC 3339).", (r) => r.updated),
});

type Inputs = Resolved<ClusterArgTypes>;
proves<Same<NonNullable<Inputs["edgeOptions"]>, CamelCasedDeep<NonNullable<BodyOf<typeof clusters.update>["edge_options"]>>>>();

/** How each arg maps to the wire. */
const clusterArgs = {
  name: {
    doc: "The cluster's name, unique on the platform: {rule}. Changing it replaces the cluster.",
    output: "The cluster's name (its id on the platform).",
    required: true,
    replaces: true,
  },
  title: { doc: "A display title, {rule}; default: the name. Changes update in place.", output: "The cluster's display title, if set." },
  type: { doc: "The cluster's kind: `k3s` (the default), `kubernetes` or `docker`. Changing it replaces the cluster.", replaces: true },
  ready: { doc: "Whether the cluster is marked ready (a new cluster is not; a ready cluster goes `online`); default: the platform's value. Changes update in place." },
  forwardLogsEnabled: { doc: "Whether the nodes forward their logs to the platform; default `true`. Changes update in place." },
  forwardLogsBufferSize: { doc: "The log forwarding buffer size, an integer {rule}; default 5. Changes update in place." },
  manifestsScrapeEnabled: { doc: "Whether the platform scrapes the cluster's manifests; default `true`. Changes update in place." },
  manifestsScrapeInterval: { doc: "Seconds between manifest scrapes, an integer {rule}; default 86400. Changes update in place." },
  syncScrapeInterval: { doc: "Seconds between syncs with the platform, an integer {rule}; default 30. Changes update in place." },
  telemetryEnabled: { doc: "Whether the nodes send telemetry; default `true`. Changes update in place." },
  telemetryBufferSize: { doc: "The telemetry buffer size, an integer {rule}; default 5. Changes update in place." },
  telemetryScrapeInterval: { doc: "Seconds between telemetry scrapes, an integer {rule}; default 30. Changes update in place." },
  telemetryAlertsEnabled: { doc: "Whether telemetry alerts are raised; default `true`. Changes update in place." },
  edgeOptions: { doc: "Options of the edge components: `imagePullPolicy`, `Always` or `IfNotPresent`; default: the platform's. Changes update in place.", nested: true },
  adopt: {
    doc: "Take over a cluster that already exists with this name (the import route). A Cluster always does: clusters cannot be deleted, so a create finds the cluster an earlier destroy released. Provider-side only (never sent); default `false`.",
    local: true,
  },
} as const satisfies ArgSpecs<Inputs>;

/**
 * The update body of the given args (name and type are not in it); args left out are not sent, and
 * neither are edge options that set no image pull policy.
 */
function clusterUpdateBody(i: Inputs, args: ReadonlyArray<keyof Inputs & string>): BodyOf<typeof clusters.update> {
  const policy = i.edgeOptions?.imagePullPolicy;
  const sent: Inputs = { ...i, edgeOptions: policy ? { imagePullPolicy: policy } : undefined };
  return wireArgs(clusterArgs, sent, clusters.update, { only: args });
}

/** Whether a body sends anything. */
const sendsAny = (body: object) => Object.keys(body).length > 0;

export const clusterKind = registerKind(
  declareKind<Inputs>()({
    name: "Cluster",
    platformTerm: "cluster",
    doc: "A cluster of edge nodes. A new `name` replaces it (the old cluster is released); its `type` cannot change once the cluster exists; the title and the settings update in place. API v4 has no cluster delete: destroying a Cluster resource releases it from the stack and leaves it on the platform, and creating one whose cluster exists takes it over again. The edge API credentials are write-only secrets and are not managed here, so no password ever enters the state.",
    argsDoc: "The arguments of a {@link Cluster}. Settings left unset keep the platform's values (its defaults on a new cluster).",
    args: clusterArgs,
    id: (i) => i.name,
    // The create's fields, and the settings the update that follows it sends.
    schema: ClusterCreate.pick({ name: true, title: true, type: true }).extend(ClusterUpdate.omit({ title: true, upgrade: true, api_credentials: true, edge_apps: true }).shape),
    // The platform offers no cluster delete: the cluster stays and leaves the stack.
    onDestroy: "release",
    // So a cluster keeps its type for good: a replacement under the same name would only take the old
    // cluster over again, which its other type refuses. Said at check, before anything changes.
    check(i, _now, olds): CheckFailure[] {
      const before = olds?.type ?? "k3s";
      const after = i.type ?? "k3s";
      if (!olds || olds.name !== i.name || before === after) return [];
      return [
        {
          property: "type",
          reason: `cluster '${i.name}' is of type '${before}', and API v4 can neither delete nor retype a cluster, so its type cannot become '${after}' (allowed: '${before}'); declare a cluster with another name for a ${after} cluster`,
        },
      ];
    },
    async create({ client }, i) {
      let record = await client.call(clusters.create, { body: { name: i.name, title: i.title, type: i.type } });
      const settings = clusterUpdateBody(i, [...SETTINGS, "edgeOptions"]);
      if (sendsAny(settings)) {
        record = await client.call(clusters.update, { params: { cluster_name: i.name }, body: settings });
      }
      return record;
    },
    endpoints: { read: clusters.get },
    async update({ client }, id, news, _olds, changed) {
      const body = clusterUpdateBody(news, changed);
      if (!sendsAny(body)) return await client.call(clusters.get, { params: { cluster_name: id } });
      return await client.call(clusters.update, { params: { cluster_name: id }, body });
    },
    outputs: clusterOutputs,
  }),
);
