/** Asset metadata: a free-form payload on an asset (secrets inside it included). */
import { assets } from "../../src/api/assets";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import { pumpAsset } from "./e2e-programs";
import fc from "fast-check";
import { defined, bool, freeObject, assetType, asset, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import { ref, type Args } from "../model/program";
import type { Rng } from "../model/rng";
import { toOtherAsset } from "./asset";
import { record, type KindModel } from "./kind-model";

function payload(r: Rng, n: number): Args {
  const p: Args = { make: r.pick(["ACME", "Globex", "Initech"]), nested: { serial: `S-${n}`, sizes: [r.int(1, 9), r.int(1, 9)] } };
  if (r.chance(0.3)) p.apiKey = { $secret: `metadata-key-${n}-${r.int(1000, 9999)}` };
  if (r.chance(0.3)) p.Mixed_Case = { keep: true };
  return p;
}

const model: KindModel = {
  add(w, r, n) {
    const asset = w.anyOf("Asset", r, 0.2);
    return w.push("AssetMetadata", { assetName: ref(asset.name, "name"), name: `meta-${n}`, payload: payload(r, n) }, `meta-${n}`);
  },
  adopts: true,
  updates(w, _d, c) {
    c.set("payload", (r) => payload(r, w.number()));
  },
  replaces(w, d, c) {
    c.set("name", () => `meta-${w.number()}`);
    toOtherAsset(w, d, c);
  },
  records: (a) => [record(TABLES.assetMetadata, `${a.assetName}/${a.name}`, [["payload", a.payload]])],
  table: { name: TABLES.assetMetadata, identity: (r) => `${r.asset_name}/${r.name}` },
  id: (a) => `${a.assetName}/${a.name}`,
  drift(a, _id, d) {
    d.edit("payload", "payload", (c) =>
      c.call(assets.metadataUpdate, { params: { asset_name: a.assetName, asset_metadata_name: a.name }, body: { payload: { edited: "elsewhere" } } }),
    );
    d.del((c) => c.call(assets.metadataDelete, { params: { asset_name: a.assetName, asset_metadata_name: a.name } }));
  },
};

const scenario: fc.Arbitrary<Scenario> = fc
  .record({ payload: freeObject, adopt: fc.option(bool, { nil: undefined }) })
  .map((own) => (u) => [
    ...assetType(u),
    ...asset(u),
    { kind: "AssetMetadata", name: `meta-${u}`, args: defined({ assetName: ref(`a-${u}-0`, "name"), name: `meta-${u}`, ...own }) },
  ]);

export const assetMetadata: KindTests = {
  model,
  scenario,
  args: { assetName: "pump", name: "m", payload: {} },
  e2e: {
    actions: ["update", "replace"],
    program: (v) => {
      const a = pumpAsset();
      new svc.AssetMetadata("subject", { assetName: a.name, name: v === 2 ? "service" : "vendor", payload: { make: v === 0 ? "ACME" : "Globex", nested: { keep: [1, 2] } } });
    },
  },
  inPlantProgram: true,
  secret: {
    resource: "metadata",
    args: ["payload"],
    declare: ({ c, s, before }) => new svc.AssetMetadata("metadata", { assetName: before.Asset!.name, name: "vendor", payload: s({ note: c("payload") }) }),
  },
  allKinds: ({ pump1 }) => new svc.AssetMetadata("pump-1-vendor", { assetName: pump1, name: "vendor", payload: { make: "ACME", serial: { plate: "P-1", year: 2029 } } }),
};
