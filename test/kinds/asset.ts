/** Assets: of a type, optionally under a parent asset (never under one of their own descendants) and at a location. */
import { assets } from "../../src/api/assets";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import { pumpType } from "./e2e-programs";
import fc from "fast-check";
import { defined, text, bool, assetType, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import type { World } from "../model/generate";
import { isRef, ref, type Args, type Decl, type Ref, type Value, type KindName } from "../model/program";
import type { Rng } from "../model/rng";
import { record, type Changes, type KindModel } from "./kind-model";

const location = (r: Rng): Value => ({ lat: r.int(-900, 900) / 10, lon: r.int(-1800, 1800) / 10 });

/** The asset `d` and every asset below it. */
function subtree(w: World, d: Decl): Set<string> {
  const below = new Set<string>([d.name]);
  for (let grew = true; grew;) {
    grew = false;
    for (const x of w.of("Asset"))
      if (isRef(x.args.parentName) && below.has(x.args.parentName.$ref) && !below.has(x.name)) {
        below.add(x.name);
        grew = true;
      }
  }
  return below;
}

/** Offers moving `d` (a declaration with an `assetName`) to another asset: for the kinds that live on an asset. */
export function toOtherAsset(w: World, d: Decl, c: Changes): void {
  if (w.of("Asset").length > 1) c.set("assetName", (r) => ref(r.pick(w.of("Asset").filter((x) => x.name !== (d.args.assetName as Ref).$ref)).name, "name"));
}

const model: KindModel = {
  add(w, r, n) {
    const args: Args = { name: `asset-${n}`, title: `Asset ${n}`, assetTypeName: ref(w.anyOf("AssetType", r, 0.2).name, "name") };
    const assets = w.of("Asset");
    if (assets.length > 0 && r.chance(0.4)) args.parentName = ref(r.pick(assets).name, "name");
    if (r.chance(0.4)) args.location = location(r);
    if (r.chance(0.15)) args.adopt = true;
    return w.push("Asset", args, `asset-${n}`);
  },
  adopts: true,
  updates(w, d, c) {
    c.set("title", () => `Asset title ${w.number()}`);
    c.set("assetTypeName", (r) => ref(r.pick(w.of("AssetType")).name, "name"));
    c.set("location", location);
    const below = subtree(w, d);
    const parents = w.of("Asset").filter((x) => !below.has(x.name));
    if (parents.length > 0) c.set("parentName", (r) => ref(r.pick(parents).name, "name"));
  },
  replaces(w, _d, c) {
    c.set("name", () => `asset-${w.number()}`);
  },
  records: (a) => [
    record(TABLES.assets, a.name, [
      ["title", a.title],
      ["asset_type_name", a.assetTypeName],
      ["asset_parent_name", a.parentName],
      ["location", a.location],
    ]),
  ],
  table: { name: TABLES.assets, identity: (r) => r.name },
  drift(a, _id, d) {
    d.edit("title", "title", (c) => c.call(assets.update, { params: { asset_name: a.name }, body: { title: "Edited elsewhere" } }));
  },
};

const drawnLocation = fc.record({ lat: fc.double({ min: -90, max: 90, noNaN: true }), lon: fc.double({ min: -180, max: 180, noNaN: true }) });

const scenario: fc.Arbitrary<Scenario> = fc
  .record({ title: text(64), withParent: bool, location: fc.option(drawnLocation, { nil: undefined }), adopt: fc.option(bool, { nil: undefined }) })
  .map(({ title, withParent, location: l, adopt }) => (u) => [
    ...assetType(u),
    ...(withParent ? [{ kind: "Asset" as KindName, name: `p-${u}`, args: { name: `p-${u}`, title: "Parent", assetTypeName: ref(`t-${u}`, "name") } }] : []),
    {
      kind: "Asset",
      name: `a-${u}`,
      args: defined({ name: `a-${u}`, title, assetTypeName: ref(`t-${u}`, "name"), parentName: withParent ? ref(`p-${u}`, "name") : undefined, location: l, adopt }),
    },
  ]);

export const asset: KindTests = {
  model,
  scenario,
  args: { name: "pump", title: "Pump", assetTypeName: "t" },
  e2e: {
    actions: ["update", "replace"],
    program: (v) => {
      const t = pumpType();
      new svc.Asset("subject", { name: v === 2 ? "pump-2" : "pump-1", title: v === 0 ? "Pump 1" : "Pump one", assetTypeName: t.name, location: { lat: 48.1, lon: 11.5 } });
    },
  },
  inPlantProgram: true,
  secret: {
    resource: "asset",
    args: ["title"],
    // The asset's `assetTypeTitle` states the type's title, another resource's secret: the program names it (README, Secrets).
    declare: ({ c, s, before }) =>
      new svc.Asset("asset", { name: "pump-1", title: s(c("title")), assetTypeName: before.AssetType!.name }, { additionalSecretOutputs: ["assetTypeTitle"] }),
  },
  allKinds: "quickstart",
};
