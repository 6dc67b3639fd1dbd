"use strict";
/** The Pulumi programs of the provider benchmarks, written against the built package. */
const { dist } = require("./common");

/** `count` assets of one (pre-existing) asset type, with no dependencies between them. */
function manyAssets(count, prefix, assetTypeName) {
  return () => {
    const svc = dist("index");
    for (let i = 0; i < count; i++) {
      new svc.Asset(`${prefix}-${i}`, { name: `${prefix}-${i}`, title: `Asset ${i}`, assetTypeName });
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

module.exports = { manyAssets, everyKind };
