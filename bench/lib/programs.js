"use strict";
/** The Pulumi programs of the provider benchmarks, written against the built package. */
const path = require("node:path");
const { DIST, dist } = require("./common");

/** `count` assets of one (pre-existing) asset type, with no dependencies between them. */
function manyAssets(count, prefix, assetTypeName) {
  return () => {
    const svc = dist("index");
    for (let i = 0; i < count; i++) {
      new svc.Asset(`${prefix}-${i}`, { name: `${prefix}-${i}`, title: `Asset ${i}`, assetTypeName });
    }
  };
}

const NOOP_TYPE = "pulumi-nodejs:dynamic/bench:Noop";
/** The `__provider` module of the no-op resources: loads bench/lib/noop-provider.js, as the package's shim loads the package. */
const NOOP_PROVIDER = `exports.handler = () => require(${JSON.stringify(path.join(__dirname, "noop-provider.js"))});\n`;
const ASSET_OUTPUTS = ["path", "assetTypeTitle", "state", "lastSeen", "created", "updated"];

/**
 * The floor of `manyAssets`: the same `count` resources with the same inputs, declared the same way
 * (a custom resource of a `pulumi-nodejs:dynamic/...` type whose `__provider` is a one-line module),
 * handled by the no-op provider.
 */
function manyNoops(count, prefix, assetTypeName) {
  return () => {
    // The same @pulumi/pulumi as the package's resources use (the kit's runtime).
    const pulumi = require(require.resolve("@pulumi/pulumi", { paths: [DIST] }));
    class Noop extends pulumi.CustomResource {
      constructor(name, args, opts) {
        super(NOOP_TYPE, name, { ...Object.fromEntries(ASSET_OUTPUTS.map((o) => [o, undefined])), ...args, __provider: NOOP_PROVIDER }, opts);
      }
    }
    for (let i = 0; i < count; i++) {
      new Noop(`${prefix}-${i}`, { name: `${prefix}-${i}`, title: `Asset ${i}`, assetTypeName });
    }
  };
}

/**
 * The resources of a plant with `assets` assets: one asset class per 40 assets, one asset type per
 * 10 (each of a class), the assets (each of a type), and their properties: every asset has a rated
 * power, three in eight also a vendor. 2.5 resources per asset in all (2,000 assets: 5,000
 * resources). Types name their class, assets their type, properties their asset through outputs,
 * so the engine sees the real dependencies.
 */
function plantSize(assets) {
  const classes = Math.max(1, Math.round(assets / 40));
  const types = Math.max(1, Math.round(assets / 10));
  const properties = assets + Math.floor(assets / 8) * 3 + Math.min(assets % 8, 3);
  return { classes, types, assets, properties, resources: classes + types + assets + properties };
}

function plant(assets, prefix) {
  const size = plantSize(assets);
  return () => {
    const svc = dist("index");
    const classes = [];
    for (let c = 0; c < size.classes; c++) {
      classes.push(new svc.AssetClass(`${prefix}-class-${c}`, { name: `${prefix}-class-${c}`, title: `Class ${c}` }));
    }
    const types = [];
    for (let t = 0; t < size.types; t++) {
      types.push(new svc.AssetType(`${prefix}-type-${t}`, { name: `${prefix}-type-${t}`, title: `Type ${t}`, assetClassName: classes[t % size.classes].name }));
    }
    for (let a = 0; a < size.assets; a++) {
      const asset = new svc.Asset(`${prefix}-asset-${a}`, { name: `${prefix}-asset-${a}`, title: `Asset ${a}`, assetTypeName: types[a % size.types].name });
      new svc.AssetProperty(`${prefix}-asset-${a}-rated-power`, { assetName: asset.name, name: "rated_power", title: "Rated power", value: (a % 100) / 10 });
      if (a % 8 < 3) new svc.AssetProperty(`${prefix}-asset-${a}-vendor`, { assetName: asset.name, name: "vendor", title: "Vendor", value: "acme" });
    }
  };
}

/**
 * One or more resources of most kinds: the quickstart program itself (examples/quickstart, compiled
 * by `npm run bench`), used to measure the state each kind leaves.
 */
function everyKind() {
  return require("../../.build/examples/quickstart/program.js").quickstart();
}

module.exports = { manyAssets, manyNoops, plant, plantSize, everyKind, NOOP_TYPE };
