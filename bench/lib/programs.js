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
const STAMPS = ["created", "updated"];
/** The outputs each kind of the package declares; the no-op resource of that kind declares the same. */
const OUTPUTS = {
  Asset: ["path", "assetTypeTitle", "state", "lastSeen", ...STAMPS],
  AssetClass: STAMPS,
  AssetType: STAMPS,
  AssetProperty: ["storedValue", "storedTitle", ...STAMPS],
};

/**
 * The no-op stand-ins of the package's resource classes the benchmarks declare: custom resources of
 * `pulumi-nodejs:dynamic/bench:...` types whose `__provider` is a one-line module, handled by the
 * no-op provider, with the same arguments and outputs as the package's class of that kind. Built in
 * the program, against the same @pulumi/pulumi as the package's resources use (the kit's runtime).
 */
function noopKinds() {
  const pulumi = require(require.resolve("@pulumi/pulumi", { paths: [DIST] }));
  const kind = (type, outputs) =>
    class extends pulumi.CustomResource {
      constructor(name, args, opts) {
        super(type, name, { ...Object.fromEntries(outputs.map((o) => [o, undefined])), ...args, __provider: NOOP_PROVIDER }, opts);
      }
    };
  // The asset's type token stays the one section 4's figures were recorded with.
  return Object.fromEntries(Object.entries(OUTPUTS).map(([k, outputs]) => [k, kind(k === "Asset" ? NOOP_TYPE : `${NOOP_TYPE}${k}`, outputs)]));
}

/**
 * The floor of `manyAssets`: the same `count` resources with the same inputs, declared the same way,
 * handled by the no-op provider.
 */
function manyNoops(count, prefix, assetTypeName) {
  return () => {
    const { Asset } = noopKinds();
    for (let i = 0; i < count; i++) {
      new Asset(`${prefix}-${i}`, { name: `${prefix}-${i}`, title: `Asset ${i}`, assetTypeName });
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

/** Declares the plant's resources with `kinds`: the package's classes, or their no-op stand-ins. */
function declarePlant(kinds, assets, prefix) {
  const size = plantSize(assets);
  const classes = [];
  for (let c = 0; c < size.classes; c++) {
    classes.push(new kinds.AssetClass(`${prefix}-class-${c}`, { name: `${prefix}-class-${c}`, title: `Class ${c}` }));
  }
  const types = [];
  for (let t = 0; t < size.types; t++) {
    types.push(new kinds.AssetType(`${prefix}-type-${t}`, { name: `${prefix}-type-${t}`, title: `Type ${t}`, assetClassName: classes[t % size.classes].name }));
  }
  for (let a = 0; a < size.assets; a++) {
    const asset = new kinds.Asset(`${prefix}-asset-${a}`, { name: `${prefix}-asset-${a}`, title: `Asset ${a}`, assetTypeName: types[a % size.types].name });
    new kinds.AssetProperty(`${prefix}-asset-${a}-rated-power`, { assetName: asset.name, name: "rated_power", title: "Rated power", value: (a % 100) / 10 });
    if (a % 8 < 3) new kinds.AssetProperty(`${prefix}-asset-${a}-vendor`, { assetName: asset.name, name: "vendor", title: "Vendor", value: "acme" });
  }
}

/** The plant (see plantSize) of the package's resources. */
const plant = (assets, prefix) => () => declarePlant(dist("index"), assets, prefix);

/** The floor of `plant`: the same resources, inputs and dependencies, handled by the no-op provider. */
const plantNoops = (assets, prefix) => () => declarePlant(noopKinds(), assets, prefix);

/**
 * One or more resources of most kinds: the quickstart program itself (examples/quickstart, compiled
 * by `npm run bench`), used to measure the state each kind leaves.
 */
function everyKind() {
  return require("../../.build/examples/quickstart/program.js").quickstart();
}

module.exports = { manyAssets, manyNoops, plant, plantNoops, plantSize, declarePlant, everyKind, NOOP_TYPE, OUTPUTS };
