/**
 * Bridge: a bridge app deployed with its workload. The API has no bridge update, so every change
 * replaces the bridge; as the name stays, the old one is deleted first.
 */
import type * as pulumi from "@pulumi/pulumi";
import { BridgeDeploy, bridges } from "../../api/bridges";
import { defineKind, type WireRecord } from "../kind";
import { SvcResource } from "../shim";

export interface BridgeArgs {
  name: pulumi.Input<string>;
  clusterName: pulumi.Input<string>;
  appName: pulumi.Input<string>;
  appVersion?: pulumi.Input<string>;
  nodeName?: pulumi.Input<string>;
  title?: pulumi.Input<string>;
  protocol?: pulumi.Input<string>;
  /** The bridge app's configuration, passed through untouched (metrics_map, protocol settings, ...). */
  payload: pulumi.Input<Record<string, unknown>>;
  adopt?: pulumi.Input<boolean>;
}

type Inputs = Record<string, any>;

export const bridgeKind = defineKind<Inputs>({
  name: "Bridge",
  noun: "bridge",
  args: {
    name: {},
    clusterName: {},
    appName: {},
    appVersion: {},
    nodeName: {},
    title: {},
    protocol: {},
    payload: { compare: "exact" },
    adopt: { local: true },
  },
  required: ["name", "clusterName", "appName", "payload"],
  id: (i) => i.name,
  schema: BridgeDeploy,
  replaceWhen: () => true,
  create: async ({ client }, i) =>
    (await client.call(bridges.deploy, {
      body: { name: i.name, cluster_name: i.clusterName, app_name: i.appName, app_version: i.appVersion, node_name: i.nodeName, title: i.title, protocol: i.protocol, payload: i.payload },
    })) as WireRecord,
  read: async ({ client }, id) => (await client.call(bridges.get, { params: { bridge_name: id } })) as WireRecord,
  async delete({ client }, id) {
    await client.call(bridges.delete, { params: { bridge_name: id } });
  },
  skipAdoptUpdate: true,
  outputs: (r) => {
    const status = (r.status ?? {}) as { state?: string };
    return { workloadName: r.workload_name, acpName: r.acp_name, state: status.state, enabled: r.enabled, created: r.created, updated: r.updated };
  },
});

export class Bridge extends SvcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly workloadName: pulumi.Output<string>;
  declare readonly state: pulumi.Output<string>;
  declare readonly created: pulumi.Output<string>;

  constructor(name: string, args: BridgeArgs, opts?: pulumi.CustomResourceOptions) {
    super("Bridge", name, args, ["workloadName", "acpName", "state", "enabled", "created", "updated"], opts);
  }
}
