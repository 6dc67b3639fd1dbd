/** Bridge: a bridge app deployed with its workload, connecting a data source to assets. */
import type * as pulumi from "@pulumi/pulumi";
import { bridges } from "../../api/bridges";
import { declareKind, defineOutputs, echoes, type OutputValues, type DeclaredOutputs } from "../kind";
import { registerKind } from "../registry";
import { SvcResource } from "../shim";
import type { Resolved } from "../input-types";
import { proves, type Same } from "../wire-types";

/**
 * The arguments of a {@link Bridge}. The API has no bridge update: a change of any of them replaces
 * the bridge (the old one is deleted first, as the name stays).
 */
export interface BridgeArgs {
  /** The bridge's name, unique on the platform: lowercase letters, digits, '.', '_' and '-', 1–32 characters. Changing it replaces the bridge. */
  name: pulumi.Input<string>;
  /** The cluster the bridge's workload runs on: a cluster name (lowercase letters, digits, '.', '_', '-'; 1–64 characters). Changing it replaces the bridge. */
  clusterName: pulumi.Input<string>;
  /** The bridge app to deploy: an app name (lowercase letters, digits, '.', '_', '-'; 1–64 characters). Changing it replaces the bridge. */
  appName: pulumi.Input<string>;
  /** The version of the bridge app, 1–64 characters; default: the app's latest version (in the app registry, else in the apps). Changing it replaces the bridge. */
  appVersion?: pulumi.Input<string>;
  /** The node of the cluster to run on: a node name (lowercase letters, digits, '.', '_', '-'; 1–64 characters); default: the platform picks one. Changing it replaces the bridge. */
  nodeName?: pulumi.Input<string>;
  /** A display title, 1–64 characters; default: the name. Changing it replaces the bridge. */
  title?: pulumi.Input<string>;
  /** The protocol the bridge speaks, 1–64 characters; default: none. Changing it replaces the bridge. */
  protocol?: pulumi.Input<string>;
  /**
   * The bridge app's configuration, passed through untouched (`metrics_map`, protocol settings,
   * ...; snake_case as the platform writes it). Changing it replaces the bridge.
   */
  payload: pulumi.Input<Record<string, unknown>>;
  /** Take over a bridge that already exists with this name instead of failing. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** A bridge's computed outputs, read from the platform's record. */
const bridgeOutputs = defineOutputs(bridges.get, {
  // The workload takes the bridge's name; the ACP is the cluster's.
  workloadName: echoes(["name"], (r) => r.workload_name),
  acpName: echoes(["clusterName"], (r) => r.acp_name),
  state: (r) => r.status.state,
  enabled: (r) => r.enabled,
  created: (r) => r.created,
  updated: (r) => r.updated,
});

type Inputs = Resolved<BridgeArgs>;

const bridgeKind = registerKind(
  declareKind<Inputs>()({
    name: "Bridge",
    platformTerm: "bridge",
    args: {
      name: { required: true },
      clusterName: { required: true },
      appName: { required: true },
      appVersion: {},
      nodeName: {},
      title: {},
      protocol: {},
      payload: { required: true, compare: "exact" },
      adopt: { local: true },
    },
    id: (i) => i.name,
    replaceWhen: () => true,
    endpoints: { create: bridges.deploy, read: bridges.get, delete: bridges.delete },
    skipAdoptUpdate: true,
    outputs: bridgeOutputs,
  }),
);

/**
 * A bridge: a bridge app deployed with its workload, reading (or writing) asset metrics from a data
 * source. The API has no bridge update, so every change replaces the bridge; as the name stays, the
 * old one is deleted first. Destroying it deletes the bridge and its workload.
 */
export class Bridge extends SvcResource {
  /** The bridge's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;

  /** The workload that runs the bridge app. */
  declare readonly workloadName: pulumi.Output<string>;
  /** The compute node (ACP) of the bridge (the platform reports the cluster's name). */
  declare readonly acpName: pulumi.Output<string>;
  /** The state of the bridge's workload, e.g. `running`, `stopped`, `failed` (the workload states). */
  declare readonly state: pulumi.Output<string>;
  /** Whether the bridge is enabled on the platform (an enabled bridge runs, a disabled one is stopped). */
  declare readonly enabled: pulumi.Output<boolean>;
  /** When the bridge was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the bridge was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: BridgeArgs, opts?: pulumi.CustomResourceOptions) {
    super(bridgeKind, name, args, opts);
  }
}

proves<Same<OutputValues<typeof bridgeOutputs>, DeclaredOutputs<Bridge, keyof typeof bridgeOutputs>>>();
