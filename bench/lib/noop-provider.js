"use strict";
/**
 * The floor of the provider benchmarks: a dynamic provider that does nothing. The dynamic-provider
 * host loads it from the `__provider` module text of the no-op resources (bench/lib/programs.js),
 * exactly as it loads the package's shim, and every operation answers at once: check passes the
 * inputs through, diff finds no changes, create and read answer the inputs with the outputs the
 * package's resource of the same kind would carry, delete does nothing. What a run of these costs is the Pulumi runtime's, the
 * kit's and the host's share, with no provider work and no API call.
 */
const STAMP = "2026-01-01T00:00:00.000000Z";
const PROVIDER_KEY = "__provider";

/** The inputs with the outputs the package's resource of that shape carries (bench/lib/programs.js OUTPUTS). */
function outputs(inputs) {
  const { [PROVIDER_KEY]: _provider, ...rest } = inputs;
  const stamps = { created: STAMP, updated: STAMP };
  if ("assetName" in rest) return { ...rest, storedValue: String(rest.value), storedTitle: rest.title, ...stamps };
  if ("assetTypeName" in rest) return { ...rest, path: `/${rest.name}`, assetTypeTitle: "Bench type", state: "unknown", ...stamps };
  return { ...rest, ...stamps };
}

module.exports = {
  configure: async () => undefined,
  check: async (_olds, news) => ({ inputs: news }),
  diff: async () => ({ changes: false }),
  create: async (inputs) => ({ id: String(inputs.name), outs: outputs(inputs) }),
  read: async (id, props) => ({ id, props }),
  update: async (_id, _olds, news) => ({ outs: outputs(news) }),
  delete: async () => undefined,
};
