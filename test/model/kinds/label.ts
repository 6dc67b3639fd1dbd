/** Labels (of data labels): a name and a title. */
import { datalabels } from "../../../src/api/datalabels";
import { TABLES } from "../../../src/emulator/store/tables";
import { titled } from "./titled";

export const label = titled({
  kind: "Label",
  prefix: "label",
  title: "Label",
  table: TABLES.labels,
  editTitle: (c, name) => c.call(datalabels.labelUpdate, { params: { label_name: name }, body: { title: "Edited elsewhere" } }),
});
