/** Asset properties: a typed value on an asset, which the platform holds as text. */
import { assets } from "../../src/api/assets";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import { pumpAsset } from "./e2e-programs";
import fc from "fast-check";
import { defined, text, bool, assetType, asset, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import { ref, type Args, type Value } from "../model/program";
import type { Rng } from "../model/rng";
import { toOtherAsset } from "./asset";
import { record, type KindModel } from "./kind-model";
import { valueText } from "./platform-form";

function propertyValue(r: Rng): Value {
  switch (r.int(0, 4)) {
    case 0:
      return r.int(-1000, 1000) / 4;
    case 1:
      return `text ${r.int(1, 99)}`;
    case 2:
      return r.chance(0.5);
    case 3:
      return [r.int(1, 9), r.int(1, 9)];
    default:
      return r.int(0, 500);
  }
}

const model: KindModel = {
  add(w, r, n) {
    const asset = w.anyOf("Asset", r, 0.2);
    const args: Args = { assetName: ref(asset.name, "name"), name: `prop_${n}`, value: propertyValue(r) };
    if (r.chance(0.5)) args.title = `Property ${n}`;
    return w.push("AssetProperty", args, `prop-${n}`);
  },
  adopts: true,
  updates(_w, _d, c) {
    c.set("value", propertyValue);
  },
  replaces(w, d, c) {
    c.set("name", () => `prop_${w.number()}`);
    toOtherAsset(w, d, c);
  },
  records: (a) => [
    record(TABLES.assetProperties, `${a.assetName}/${a.name}`, [
      ["value", valueText(a.value)],
      ["title", a.title],
    ]),
  ],
  table: { name: TABLES.assetProperties, identity: (r) => `${r.asset_name}/${r.name}` },
  id: (a) => `${a.assetName}/${a.name}`,
  drift(a, _id, d) {
    d.edit("value", "value", (c) => c.call(assets.propertyUpdate, { params: { asset_name: a.assetName, asset_property_name: a.name }, body: { value: "edited elsewhere" } }));
    d.del((c) => c.call(assets.propertyDelete, { params: { asset_name: a.assetName, asset_property_name: a.name } }));
  },
};

const drawnPropertyValue = fc.oneof(
  text(40),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double({ min: -1e12, max: 1e12, noNaN: true }),
  bool,
  fc.array(text(10), { maxLength: 3 }),
  fc.array(fc.integer({ min: -99, max: 99 }), { maxLength: 3 }),
  fc.array(bool, { maxLength: 3 }),
);

const scenario: fc.Arbitrary<Scenario> = fc
  .record({ value: drawnPropertyValue, title: fc.option(text(64), { nil: undefined }), adopt: fc.option(bool, { nil: undefined }) })
  .map((own) => (u) => [
    ...assetType(u),
    ...asset(u),
    { kind: "AssetProperty", name: `prop-${u}`, args: defined({ assetName: ref(`a-${u}-0`, "name"), name: `prop_${u}`, ...own }) },
  ]);

export const assetProperty: KindTests = {
  model,
  scenario,
  args: { assetName: "pump", name: "p", value: 1 },
  e2e: {
    actions: ["update", "replace"],
    program: (v) => {
      const a = pumpAsset();
      new svc.AssetProperty("subject", {
        assetName: a.name,
        name: v === 2 ? "rated_flow" : "rated_power",
        title: v === 2 ? "Rated flow" : "Rated power",
        value: v === 0 ? 7.5 : 9,
      });
    },
  },
  inPlantProgram: true,
  secret: {
    resource: "property",
    args: ["title", "value"],
    declare: ({ c, s, before }) => new svc.AssetProperty("property", { assetName: before.Asset!.name, name: "serial", title: s(c("title")), value: s(c("value")) }),
  },
  allKinds: "quickstart",
};
