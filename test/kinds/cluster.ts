/** Clusters: settings that update in place; the platform cannot delete one, nor change its type. */
import { clusters } from "../../src/api/clusters";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import fc from "fast-check";
import { some, text, bool, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import type { Args } from "../model/program";
import { record, type KindModel } from "./kind-model";
import { snake } from "./platform-form";

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
];

const model: KindModel = {
  add(w, r, n) {
    const args: Args = { name: `cluster-${n}` };
    if (r.chance(0.7)) args.title = `Cluster ${n}`;
    if (r.chance(0.3)) args.type = r.pick(["k3s", "docker", "kubernetes"]);
    if (r.chance(0.5)) args.ready = r.chance(0.5);
    if (r.chance(0.4)) args.telemetryScrapeInterval = r.int(1, 3600);
    if (r.chance(0.3)) args.forwardLogsBufferSize = r.int(1, 20);
    if (r.chance(0.2)) args.edgeOptions = { imagePullPolicy: r.pick(["Always", "IfNotPresent"]) };
    if (r.chance(0.2)) args.adopt = true;
    return w.push("Cluster", args, `cluster-${n}`);
  },
  adopts: true,
  updates(w, d, c) {
    c.set("title", () => `Cluster ${w.number()}`);
    c.set("ready", () => !(d.args.ready ?? false));
    c.set("telemetryScrapeInterval", (r) => r.int(1, 3600));
    c.set("forwardLogsBufferSize", (r) => r.int(1, 20));
    c.set("edgeOptions", (r) => ({ imagePullPolicy: r.pick(["Always", "IfNotPresent"]) }));
  },
  replaces(w, d, c) {
    c.set("name", () => `cluster-${w.number()}`);
    // A cluster keeps its type for good (check refuses a new one): another type comes with another name.
    c.apply("name and type", () => {
      d.args.name = `cluster-${w.number()}`;
      d.args.type = d.args.type === "docker" ? "kubernetes" : "docker";
    });
  },
  records: (a) => [
    record(TABLES.clusters, a.name, [
      ["title", a.title],
      ["type", a.type],
      ...SETTINGS.map((k): [string, unknown] => [snake(k), a[k]]),
      ["edge_options.image_pull_policy", a.edgeOptions?.imagePullPolicy],
    ]),
  ],
  table: { name: TABLES.clusters, identity: (r) => r.name },
  released: true,
  drift(a, _id, d) {
    if (a.title !== undefined) d.edit("title", "title", (c) => c.call(clusters.update, { params: { cluster_name: a.name }, body: { title: "Edited elsewhere" } }));
    if (a.ready !== undefined) d.edit("ready", "ready", (c) => c.call(clusters.update, { params: { cluster_name: a.name }, body: { ready: !a.ready } }));
    if (a.telemetryScrapeInterval !== undefined) {
      d.edit("telemetryScrapeInterval", "telemetry interval", (c) =>
        c.call(clusters.update, { params: { cluster_name: a.name }, body: { telemetry_scrape_interval: a.telemetryScrapeInterval === 7 ? 8 : 7 } }),
      );
    }
  },
};

const scenario: fc.Arbitrary<Scenario> = some({
  title: text(60),
  type: fc.constantFrom("k3s", "kubernetes", "docker"),
  ready: bool,
  forwardLogsEnabled: bool,
  forwardLogsBufferSize: fc.integer({ min: 1, max: 20 }),
  manifestsScrapeEnabled: bool,
  manifestsScrapeInterval: fc.integer({ min: 30, max: 86400 }),
  syncScrapeInterval: fc.integer({ min: 10, max: 86400 }),
  telemetryEnabled: bool,
  telemetryBufferSize: fc.integer({ min: 1, max: 20 }),
  telemetryScrapeInterval: fc.integer({ min: 1, max: 3600 }),
  telemetryAlertsEnabled: bool,
  edgeOptions: some({ imagePullPolicy: fc.constantFrom("Always", "IfNotPresent") }),
  adopt: bool,
}).map((own) => (u) => [{ kind: "Cluster", name: `c-${u}`, args: { name: `c-${u}`, ...(own as Args) } }]);

export const cluster: KindTests = {
  model,
  scenario,
  args: { name: "c" },
  e2e: {
    retained: true,
    actions: ["update", "replace"],
    program: (v) => void new svc.Cluster("subject", { name: v === 2 ? "c-2" : "c-1", title: v === 0 ? "One" : "Uno" }),
  },
  inPlantProgram: true,
  secret: { resource: "cluster", args: ["title"], declare: ({ c, s }) => new svc.Cluster("cluster", { name: "plant-s", title: s(c("title")), ready: true }) },
  allKinds: "quickstart",
};
