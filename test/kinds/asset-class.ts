/** Asset classes: a name and a title. */
import { assets } from "../../src/api/assets";
import type { KindTests } from "./kind-tests";
import { TABLES } from "../../src/emulator/store/tables";
import { titled } from "./titled";

const model = titled({
  kind: "AssetClass",
  prefix: "class",
  title: "Class",
  table: TABLES.assetClasses,
  editTitle: (c, name) => c.call(assets.classUpdate, { params: { asset_class_name: name }, body: { title: "Edited elsewhere" } }),
});

export const assetClass: KindTests = {
  model,
  args: { name: "c", title: "C" },
};
