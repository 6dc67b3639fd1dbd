/** Asset classes: a name and a title. */
import { assets } from "../../src/api/assets";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import fc from "fast-check";
import { defined, text, bool, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import { titled } from "./titled";

const model = titled({
  kind: "AssetClass",
  prefix: "class",
  title: "Class",
  table: TABLES.assetClasses,
  editTitle: (c, name) => c.call(assets.classUpdate, { params: { asset_class_name: name }, body: { title: "Edited elsewhere" } }),
});

const scenario: fc.Arbitrary<Scenario> = fc
  .record({ title: text(64), adopt: fc.option(bool, { nil: undefined }) })
  .map((own) => (u) => [{ kind: "AssetClass", name: `k-${u}`, args: defined({ name: `k-${u}`, ...own }) }]);

export const assetClass: KindTests = {
  model,
  scenario,
  args: { name: "c", title: "C" },
  e2e: {
    actions: ["update", "replace"],
    program: (v) => void new svc.AssetClass("subject", { name: v === 2 ? "valves" : "pumps", title: v === 0 ? "Pumps" : "All pumps" }),
  },
  inPlantProgram: true,
  secret: { resource: "class", args: ["title"], declare: ({ c, s }) => new svc.AssetClass("class", { name: "pumps", title: s(c("title")) }) },
  allKinds: "quickstart",
};
