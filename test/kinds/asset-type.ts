/** Asset types: a title and, optionally, the asset class they belong to. */
import { assets } from "../../src/api/assets";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import fc from "fast-check";
import { defined, text, bool, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import { ref, type Args, type KindName } from "../model/program";
import { record, type KindModel } from "./kind-model";

const model: KindModel = {
  add(w, r, n) {
    const args: Args = { name: `type-${n}`, title: `Type ${n}` };
    if (r.chance(0.6)) args.assetClassName = ref(w.anyOf("AssetClass", r).name, "name");
    return w.push("AssetType", args, `type-${n}`);
  },
  adopts: true,
  updates(w, _d, c) {
    c.set("title", () => `Type title ${w.number()}`);
    if (w.of("AssetClass").length > 0) c.set("assetClassName", (r) => ref(r.pick(w.of("AssetClass")).name, "name"));
  },
  replaces(w, _d, c) {
    c.set("name", () => `type-${w.number()}`);
  },
  records: (a) => [
    record(TABLES.assetTypes, a.name, [
      ["title", a.title],
      ["asset_class_name", a.assetClassName],
    ]),
  ],
  table: { name: TABLES.assetTypes, identity: (r) => r.name },
  drift(a, _id, d) {
    d.edit("title", "title", (c) => c.call(assets.typeUpdate, { params: { asset_type_name: a.name }, body: { title: "Edited elsewhere" } }));
  },
};

const scenario: fc.Arbitrary<Scenario> = fc
  .record({ title: text(64), inClass: bool, adopt: fc.option(bool, { nil: undefined }) })
  .map(({ title, inClass, adopt }) => (u) => [
    ...(inClass ? [{ kind: "AssetClass" as KindName, name: `k-${u}`, args: { name: `k-${u}`, title: "Class" } }] : []),
    { kind: "AssetType", name: `t-${u}`, args: defined({ name: `t-${u}`, title, assetClassName: inClass ? ref(`k-${u}`, "name") : undefined, adopt }) },
  ]);

export const assetType: KindTests = {
  model,
  scenario,
  args: { name: "t", title: "T" },
  e2e: {
    actions: ["update", "replace"],
    program: (v) => {
      const cls = new svc.AssetClass("class", { name: "pumps", title: "Pumps" });
      new svc.AssetType("subject", { name: v === 2 ? "screw-pump" : "pump", title: v === 0 ? "Pump" : "Centrifugal pump", assetClassName: cls.name });
    },
  },
  inPlantProgram: true,
  secret: {
    resource: "type",
    args: ["title"],
    declare: ({ c, s, before }) => new svc.AssetType("type", { name: "pump", title: s(c("title")), assetClassName: before.AssetClass!.name }),
  },
  allKinds: "quickstart",
};
