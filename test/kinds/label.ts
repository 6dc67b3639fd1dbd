/** Labels (of data labels): a name and a title. */
import { datalabels } from "../../src/api/datalabels";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import fc from "fast-check";
import { defined, text, bool, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import { titled } from "./titled";

const model = titled({
  kind: "Label",
  prefix: "label",
  title: "Label",
  table: TABLES.labels,
  editTitle: (c, name) => c.call(datalabels.labelUpdate, { params: { label_name: name }, body: { title: "Edited elsewhere" } }),
});

const scenario: fc.Arbitrary<Scenario> = fc
  .record({ title: text(64), adopt: fc.option(bool, { nil: undefined }) })
  .map((own) => (u) => [{ kind: "Label", name: `l-${u}`, args: defined({ name: `l-${u}`, ...own }) }]);

export const label: KindTests = {
  model,
  scenario,
  args: { name: "l", title: "L" },
  e2e: {
    actions: ["update", "replace"],
    program: (v) => void new svc.Label("subject", { name: v === 2 ? "normal" : "anomaly", title: v === 0 ? "Anomaly" : "Anomalous" }),
  },
  inPlantProgram: true,
  secret: { resource: "label", args: ["title"], declare: ({ c, s }) => new svc.Label("label", { name: "anomaly", title: s(c("title")) }) },
  allKinds: () => new svc.Label("anomaly", { name: "anomaly", title: "Anomaly" }),
};
