/** Labels (of data labels): a name and a title. */
import { datalabels } from "../../src/api/datalabels";
import type { KindTests } from "./kind-tests";
import { TABLES } from "../../src/emulator/store/tables";
import { titled } from "./titled";

const model = titled({
  kind: "Label",
  prefix: "label",
  title: "Label",
  table: TABLES.labels,
  editTitle: (c, name) => c.call(datalabels.labelUpdate, { params: { label_name: name }, body: { title: "Edited elsewhere" } }),
});

export const label: KindTests = {
  model,
  args: { name: "l", title: "L" },
};
