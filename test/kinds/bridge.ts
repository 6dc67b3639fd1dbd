/** Bridges: a protocol bridge on a cluster, which the platform runs as a workload of its name. */
import * as pulumi from "@pulumi/pulumi";
import { bridges } from "../../src/api/bridges";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import { cluster as e2eCluster, appVersion } from "./e2e-programs";
import fc from "fast-check";
import { some, defined, text, word, bool, freeObject, cluster, version, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import { ref, type Args, type Value } from "../model/program";
import { record, type KindModel } from "./kind-model";

const model: KindModel = {
  add(w, r, n) {
    const c = w.anyOf("Cluster", r, 0.2);
    const args: Args = { name: `br-${n}`, clusterName: ref(c.name, "name"), appName: "opcua-bridge", appVersion: "2.0.0", payload: { endpoint: `opc.tcp://plc-${n}:4840` } };
    if (r.chance(0.4)) (args.payload as Record<string, Value>).password = { $secret: `bridge-password-${n}` };
    if (r.chance(0.4)) args.protocol = "opcua";
    if (r.chance(0.3)) args.title = `Bridge ${n}`;
    return w.push("Bridge", args, `br-${n}`);
  },
  adopts: true,
  replaces(w, _d, c) {
    c.set("payload", (r) => ({ endpoint: `opc.tcp://plc-${w.number()}:4840`, ...(r.chance(0.3) ? { password: { $secret: `bridge-password-${w.number()}` } } : {}) }));
    c.set("title", () => `Bridge ${w.number()}`);
  },
  records: (a) => [
    record(TABLES.bridges, a.name, [
      ["cluster_name", a.clusterName],
      ["app_name", a.appName],
      ["app_version", a.appVersion],
      ["payload", a.payload],
      ["protocol", a.protocol],
      ["title", a.title],
    ]),
    // A bridge runs as a workload of its name.
    record(TABLES.workloads, a.name, [
      ["cluster_name", a.clusterName],
      ["app_name", a.appName],
    ]),
  ],
  table: { name: TABLES.bridges, identity: (r) => r.name },
  drift(a, _id, d) {
    d.del((c) => c.call(bridges.delete, { params: { bridge_name: a.name } }));
  },
};

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    withVersion: bool,
    payload: freeObject,
    own: some({ nodeName: word, title: text(60), protocol: fc.constantFrom("opcua", "modbus", "mqtt"), adopt: bool }),
  })
  .map(({ withVersion, payload, own }) => (u) => [
    ...version(u),
    ...cluster(u),
    {
      kind: "Bridge",
      name: `b-${u}`,
      args: defined({
        name: `b-${u}`,
        clusterName: ref(`c-${u}`, "name"),
        appName: ref(`v-${u}`, "appName"),
        appVersion: withVersion ? ref(`v-${u}`, "version") : undefined,
        payload,
        ...(own as Args),
      }),
    },
  ]);

export const bridge: KindTests = {
  model,
  scenario,
  args: { name: "b", clusterName: "c", appName: "a", payload: {} },
  e2e: {
    retained: true,
    actions: ["replace", "replace"],
    program: (v) => {
      const c = e2eCluster();
      const ver = appVersion();
      new svc.Bridge("subject", {
        name: "opcua-1",
        clusterName: c.name,
        appName: ver.appName,
        appVersion: ver.version,
        protocol: "opcua",
        payload: { endpoint: v === 0 ? "opc.tcp://plc:4840" : "opc.tcp://plc2:4840", Retries: v === 2 ? 5 : 3 },
      });
    },
  },
  inPlantProgram: true,
  secret: {
    resource: "bridge",
    args: ["title", "payload"],
    declare: ({ c, s, before }) =>
      new svc.Bridge("bridge", {
        name: "bridge-s",
        clusterName: before.Cluster!.name,
        appName: "opcua-bridge",
        appVersion: "2.0.0",
        protocol: "opcua",
        title: s(c("title")),
        payload: s({ endpoint: "opc.tcp://plc:4840", password: c("payload"), metrics_map: [{ name: "pressure", asset_name: "pump-1" }] }),
      }),
  },
  allKinds: ({ cluster, pump1 }) =>
    new svc.Bridge("opcua-line-1", {
      name: "opcua-line-1",
      clusterName: cluster,
      appName: "opcua-bridge",
      appVersion: "2.0.0",
      protocol: "opcua",
      payload: { endpoint: "opc.tcp://plc:4840", password: pulumi.secret("opcua-line-1-password"), metrics_map: [{ name: "pressure", asset_name: pump1 }] },
    }),
};
