/** Bridge: a bridge app deployed with its workload, connecting a data source to assets (its public class: classes.ts). */
import type * as pulumi from "@pulumi/pulumi";
import { bridges } from "../../api/bridges";
import { declareKind, defineOutputs, echoes, output } from "../kind";
import { registerKind } from "../registry";
import type { Resolved } from "../input-types";

/** The types of a {@link Bridge}'s args as programs write them (their docs are the specs' below). */
interface BridgeArgTypes {
  name: pulumi.Input<string>;
  clusterName: pulumi.Input<string>;
  appName: pulumi.Input<string>;
  appVersion?: pulumi.Input<string>;
  nodeName?: pulumi.Input<string>;
  title?: pulumi.Input<string>;
  protocol?: pulumi.Input<string>;
  payload: pulumi.Input<Record<string, unknown>>;
  adopt?: pulumi.Input<boolean>;
}

/** A bridge's computed outputs, read from the platform's record. */
const bridgeOutputs = defineOutputs(bridges.get, {
  // The workload takes the bridge's name; the ACP is the cluster's.
  workloadName: output(
    "The workload that runs the bridge app.",
    echoes(["name"], (r) => r.workload_name),
  ),
  acpName: output(
    "The compute node (ACP) of the bridge (the platform reports the cluster's name).",
    echoes(["clusterName"], (r) => r.acp_name),
  ),
  state: output("The state of the bridge's workload, e.g. `running`, `stopped`, `failed` (the workload states).", (r) => r.status.state),
  enabled: output("Whether the bridge is enabled on the platform (an enabled bridge runs, a disabled one is stopped).", (r) => r.enabled),
  created: output("When the bridge was created on the platform (RFC 3339).", (r) => r.created),
  updated: output("When the bridge was last changed on the platform (RFC 3339).", (r) => r.updated),
});

export const bridgeKind = registerKind(
  declareKind<Resolved<BridgeArgTypes>>()({
    name: "Bridge",
    platformTerm: "bridge",
    doc: "A bridge: a bridge app deployed with its workload, reading (or writing) asset metrics from a data source. The API has no bridge update, so every change replaces the bridge; as the name stays, the old one is deleted first. Destroying it deletes the bridge and its workload.",
    argsDoc: "The arguments of a {@link Bridge}. The API has no bridge update: a change of any of them replaces the bridge (the old one is deleted first, as the name stays).",
    args: {
      name: { required: true, doc: "The bridge's name, unique on the platform: {rule}. Changing it replaces the bridge.", output: "The bridge's name (its id on the platform)." },
      clusterName: { required: true, doc: "The cluster the bridge's workload runs on: a cluster name ({rule}). Changing it replaces the bridge." },
      appName: { required: true, doc: "The bridge app to deploy: an app name ({rule}). Changing it replaces the bridge." },
      appVersion: {
        doc: "The version of the bridge app, {rule}; default: the app's latest version (in the app registry, else in the apps). Changing it replaces the bridge.",
      },
      nodeName: { doc: "The node of the cluster to run on: a node name ({rule}); default: the platform picks one. Changing it replaces the bridge." },
      title: { doc: "A display title, {rule}; default: the name. Changing it replaces the bridge." },
      protocol: { doc: "The protocol the bridge speaks, {rule}; default: none. Changing it replaces the bridge." },
      payload: {
        required: true,
        compare: "exact",
        doc: "The bridge app's configuration, passed through untouched (`metrics_map`, protocol settings, ...; snake_case as the platform writes it). Changing it replaces the bridge.",
      },
      adopt: {
        local: true,
        doc: "Take over a bridge that already exists with this name instead of failing. Provider-side only (never sent); default `false`.",
      },
    },
    id: (i) => i.name,
    replaceWhen: () => true,
    endpoints: { create: bridges.deploy, read: bridges.get, delete: bridges.delete },
    skipAdoptUpdate: true,
    outputs: bridgeOutputs,
  }),
);
