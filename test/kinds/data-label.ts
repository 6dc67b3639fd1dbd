/** Data labels: a label on a time span, optionally on asset metrics; the platform numbers them (their id is the state's). */
import { datalabels } from "../../src/api/datalabels";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import fc from "fast-check";
import { some, defined, text, word, bool, freeObject, time, rfc3339, assetType, asset, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import { ref, type Args } from "../model/program";
import { record, type KindModel } from "./kind-model";
import { micros, snakeKeys } from "./platform-form";

const model: KindModel = {
  add(w, r, n) {
    const label = w.anyOf("Label", r, 0.2);
    const start = Date.UTC(2030, r.int(0, 11), r.int(1, 28), r.int(0, 20));
    const args: Args = { labelName: ref(label.name, "name"), startDate: micros(start), endDate: micros(start + r.int(1, 3) * 3600_000) };
    if (r.chance(0.6)) args.description = `observation ${n}`;
    if (r.chance(0.5) && w.of("Asset").length > 0) args.metrics = [{ assetName: ref(r.pick(w.of("Asset")).name, "name"), name: r.pick(["vibration", "pressure"]) }];
    if (r.chance(0.4)) args.source = { type: "user" };
    if (r.chance(0.3)) args.confidence = r.int(0, 100);
    if (r.chance(0.3)) args.validation = r.chance(0.5);
    return w.push("DataLabel", args, `datalabel-${n}`);
  },
  adopts: false,
  updates(w, d, c) {
    const a = d.args;
    c.set("description", () => `observation ${w.number()}`);
    c.set("confidence", (r) => r.int(0, 100));
    c.set("validation", () => !(a.validation ?? false));
    c.set("endDate", (r) => micros(Date.parse(a.startDate as string) + r.int(1, 5) * 1800_000));
    if (w.of("Label").length > 1) c.set("labelName", (r) => ref(r.pick(w.of("Label")).name, "name"));
  },
  records: (a, stateId) => [
    record(TABLES.dataLabels, stateId, [
      ["label_name", a.labelName],
      ["start_date", a.startDate, "instant"],
      ["end_date", a.endDate, "instant"],
      ["description", a.description],
      ["confidence", a.confidence],
      ["validation", a.validation],
      ["metrics", a.metrics === undefined ? undefined : snakeKeys(a.metrics)],
      ["source.type", a.source?.type],
    ]),
  ],
  table: { name: TABLES.dataLabels, identity: (r) => String(r.id) },
  id: () => undefined,
  drift(_a, id, d) {
    if (id) d.del((c) => c.call(datalabels.delete, { params: { datalabel_id: Number(id) } as never }));
  },
};

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    start: time(Date.UTC(2030, 0, 1)),
    hours: fc.integer({ min: 1, max: 48 }),
    endForm: fc.constantFrom("Z", "ms", "us", "+02:00"),
    metrics: fc.option(fc.array(word, { maxLength: 2 }), { nil: undefined }),
    own: some({
      source: some({ info: freeObject }).chain((s) => fc.constantFrom("workload", "user").map((type) => ({ type, ...s }))),
      description: text(80),
      confidence: fc.integer({ min: 0, max: 100 }),
      validation: bool,
      info: freeObject,
    }),
  })
  .map(({ start, hours, endForm, metrics, own }) => (u) => [
    { kind: "Label", name: `l-${u}`, args: { name: `l-${u}`, title: "Label" } },
    ...assetType(u),
    ...asset(u),
    {
      kind: "DataLabel",
      name: `dl-${u}`,
      args: defined({
        labelName: ref(`l-${u}`, "name"),
        startDate: rfc3339(start),
        endDate: rfc3339({ ms: start.ms + hours * 3_600_000, form: endForm }),
        metrics: metrics?.map((name) => ({ assetName: ref(`a-${u}-0`, "name"), name })),
        ...(own as Args),
      }),
    },
  ]);

export const dataLabel: KindTests = {
  model,
  scenario,
  args: { labelName: "l", startDate: "2030-01-01T00:00:00Z", endDate: "2030-01-02T00:00:00Z" },
  e2e: {
    actions: ["update", "update"],
    program: (v) =>
      void new svc.DataLabel("subject", {
        labelName: "anomaly",
        startDate: "2030-05-01T12:00:00.123456Z",
        endDate: v === 2 ? "2030-05-01T14:00:00Z" : "2030-05-01T13:00:00Z",
        description: v === 0 ? "bearing noise" : "bearing noise, confirmed",
        metrics: [{ assetName: "pump-1", name: "vibration" }],
        source: { type: "user" },
      }),
  },
  inPlantProgram: false,
  secret: {
    resource: "data-label",
    args: ["description", "source", "info"],
    declare: ({ c, s, before }) =>
      new svc.DataLabel("data-label", {
        labelName: before.Label!.name,
        startDate: "2030-05-01T12:00:00.000000Z",
        endDate: "2030-05-01T13:00:00.000000Z",
        description: s(c("description")),
        metrics: [{ assetName: before.Asset!.name, name: "vibration" }],
        source: s({ type: "user", info: { note: c("source") } }),
        info: s({ note: c("info") }),
      }),
  },
  allKinds: ({ pump1, before }) =>
    new svc.DataLabel("bearing-noise", {
      labelName: before.Label!.name,
      startDate: "2030-05-01T12:00:00.000000Z",
      endDate: "2030-05-01T13:00:00.000000Z",
      description: "bearing noise on pump 1",
      metrics: [{ assetName: pump1, name: "vibration" }],
      source: { type: "user" },
    }),
};
