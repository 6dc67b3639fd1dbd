/**
 * Workloads: an app version on a cluster, with runtime settings over assets; started, stopped and
 * disabled (a disabled workload is pending). The generator's move, running and enabled edits act on them (see `World`).
 */
import { workloads } from "../../src/api/workloads";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import { cluster as e2eCluster, appVersion } from "./e2e-programs";
import fc from "fast-check";
import {
  some,
  defined,
  text,
  word,
  bool,
  freeObject,
  cluster,
  assetType,
  asset,
  version,
  parameterValue,
  ioWay,
  ioStorage,
  deploymentType,
  type Scenario,
} from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import type { World } from "../model/generate";
import { plainArgs, ref, type Args, type Ref } from "../model/program";
import type { Rng } from "../model/rng";
import { record, type Field, type KindModel, type Rec } from "./kind-model";

function runtime(w: World, r: Rng): Args {
  const assets = w.of("Asset");
  const chosen = assets.length > 0 ? [...new Set([r.pick(assets), r.pick(assets)])] : [];
  return { resources: chosen.map((a) => ({ resource: ref(a.name, "name", "krn:asset:") })), configuration: { sampleRateHz: r.int(1, 50), mode: r.pick(["fast", "slow"]) } };
}

const model: KindModel = {
  add(w, r, n) {
    const v = w.anyOf("AppVersion", r, 0.2);
    const c = w.anyOf("Cluster", r, 0.2);
    const args: Args = { name: `wl-${n}`, appName: ref(v.name, "appName"), appVersion: ref(v.name, "version"), clusterName: ref(c.name, "name") };
    if (r.chance(0.5)) args.title = `Workload ${n}`;
    if (r.chance(0.6)) args.runtime = runtime(w, r);
    if (r.chance(0.3)) args.running = r.chance(0.5);
    if (r.chance(0.2)) args.enabled = r.chance(0.6);
    if (r.chance(0.15)) args.adopt = true;
    return w.push("Workload", args, `wl-${n}`);
  },
  adopts: true,
  updates(w, d, c) {
    const a = d.args;
    c.set("title", () => `Workload title ${w.number()}`);
    c.set("runtime", (r) => ({ resources: [], configuration: { sampleRateHz: r.int(1, 50), mode: r.pick(["fast", "slow"]) } }));
    const appName = plainArgs(w.spec, w.get((a.appName as Ref).$ref)).appName;
    const siblings = w.of("AppVersion").filter((v) => plainArgs(w.spec, v).appName === appName && v.name !== (a.appVersion as Ref).$ref);
    if (siblings.length > 0) c.set("appVersion", (r) => ref(r.pick(siblings).name, "version"));
    if (a.enabled === false) c.set("enabled", () => true);
  },
  replaces(w, d, c) {
    c.set("name", () => `wl-${w.number()}`);
    if (d.args.enabled !== false) c.set("enabled", () => false);
  },
  records(a) {
    const runtime: Field[] =
      a.runtime === undefined
        ? []
        : [
            ["runtime.resources", (a.runtime.resources ?? []).map((r: Rec) => ({ resource: r.resource })), "contained"],
            ["runtime.configuration", a.runtime.configuration, "exact"],
          ];
    return [
      record(TABLES.workloads, a.name, [
        ["app_name", a.appName],
        ["app_version", a.appVersion],
        ["cluster_name", a.clusterName],
        ["title", a.title],
        ...runtime,
        // The platform's own `enabled` follows the run state (false while stopped): a workload declared
        // enabled: false is pending, any other runs or is stopped as declared.
        ["status.state", a.enabled === false ? "pending_deploy" : a.running === false ? "stopped" : "running"],
      ]),
    ];
  },
  table: { name: TABLES.workloads, identity: (r) => r.name },
  drift(a, _id, d) {
    if (a.title !== undefined) d.edit("title", "title", (c) => c.call(workloads.patch, { params: { workload_name: a.name }, body: { title: "Edited elsewhere" } }));
    if (a.running !== undefined && a.enabled !== false) {
      d.edit("running", a.running ? "stop" : "start", (c) => c.call(a.running ? workloads.stop : workloads.start, { body: { workload_names: [a.name] } }));
    }
    d.del((c) => c.call(workloads.delete, { body: { workload_names: [a.name] } }));
  },
};

const drawnRuntime = some({
  resources: fc.array(
    some({
      parameters: some(parameterValue),
      datastreams: fc.dictionary(word, some({ way: ioWay, storage: ioStorage, remote: bool, configuration: freeObject }), { maxKeys: 2 }),
      asset: some({ name: word, title: text(30), type: some({ name: word, title: text(30) }) }),
    }),
    { maxLength: 2 },
  ),
  configuration: freeObject,
  datastreams: fc.array(
    some({ semanticTypeName: text(20), unitName: fc.constantFrom("bar", "°C") }).chain((o) => word.map((name) => ({ name, dataTypeName: "number", ...o }))),
    {
      maxLength: 2,
    },
  ),
});

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    own: some({
      title: text(100),
      nodeName: word,
      system: freeObject,
      apiPermissions: fc.oneof(freeObject, fc.array(word, { maxLength: 2 })),
      deploymentType,
      enabled: bool,
      running: bool,
      adopt: bool,
    }),
    runtime: fc.option(drawnRuntime, { nil: undefined }),
  })
  .map(({ own, runtime: rt }) => (u) => {
    const resources = ((rt?.resources ?? []) as Args[]).map((r, i) => ({ ...r, resource: ref(`a-${u}-${i}`, "name", "krn:asset:") }));
    const args: Args = { name: `w-${u}`, appName: ref(`v-${u}`, "appName"), appVersion: ref(`v-${u}`, "version"), clusterName: ref(`c-${u}`, "name"), ...(own as Args) };
    if (rt) args.runtime = defined({ ...rt, resources: rt.resources ? resources : undefined });
    return [...version(u), ...cluster(u), ...assetType(u), ...asset(u, 2), { kind: "Workload", name: `w-${u}`, args }];
  });

export const workload: KindTests = {
  model,
  scenario,
  args: { name: "w", appName: "a", appVersion: "1.0.0", clusterName: "c" },
  e2e: {
    retained: true,
    actions: ["update", "replace"],
    program: (v) => {
      const c = e2eCluster();
      const v1 = appVersion("1.0.0");
      const v2 = appVersion("1.1.0");
      new svc.Workload("subject", {
        name: v === 2 ? "monitor-b" : "monitor-a",
        appName: v1.appName,
        appVersion: v === 0 ? v1.version : v2.version,
        clusterName: c.name,
        runtime: { resources: [{ resource: "krn:asset:pump-1" }], configuration: { ThresholdBar: 4 } },
      });
    },
  },
  inPlantProgram: true,
  secret: {
    resource: "workload",
    args: ["title", "runtime"],
    declare: ({ c, s, before }) =>
      new svc.Workload("workload", {
        name: "monitor-1",
        title: s(c("title")),
        appName: before.AppVersion!.appName,
        appVersion: before.AppVersion!.version,
        clusterName: before.Cluster!.name,
        runtime: s({ resources: [{ resource: "krn:asset:pump-1" }], configuration: { note: c("runtime") } }),
      }),
  },
  allKinds: "quickstart",
};
