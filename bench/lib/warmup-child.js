"use strict";
/**
 * The provider's CPU per resource as a fresh process runs it: check and create of `perRound` assets,
 * `concurrency` at a time, through the provider the host loads (`dist/provider/host.js`, `shim`),
 * configured as the engine kit configures it, for `rounds` rounds in one process. The first round is
 * what a 500-resource up pays in a fresh provider host (its code still runs before V8 has optimised
 * it); the last is the same work once warm.
 *
 * Message in: { dist, baseUrl, rounds, perRound, concurrency, prefix, assetTypeName }
 * Message out: { cpuMsPerResource: number[] } — one figure per round.
 */
const path = require("node:path");

async function run(spec) {
  const runtime = require(path.join(spec.dist, "provider", "host.js"));
  const config = { "svc:baseUrl": spec.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" };
  await runtime.configure({ config: { get: (k) => config[k], keys: () => Object.keys(config) } });
  const provider = runtime.shim("Asset");
  let n = 0;
  const one = async () => {
    const i = n++;
    const checked = await provider.check({}, { name: `${spec.prefix}-${i}`, title: `Asset ${i}`, assetTypeName: spec.assetTypeName });
    await provider.create(checked.inputs);
  };
  const cpuMsPerResource = [];
  for (let round = 0; round < spec.rounds; round++) {
    const cpu0 = process.cpuUsage();
    for (let done = 0; done < spec.perRound; done += spec.concurrency) {
      await Promise.all(Array.from({ length: Math.min(spec.concurrency, spec.perRound - done) }, one));
    }
    const cpu = process.cpuUsage(cpu0);
    cpuMsPerResource.push((cpu.user + cpu.system) / 1000 / spec.perRound);
  }
  await runtime.shutdown();
  return { cpuMsPerResource };
}

process.on("message", (spec) => {
  run(spec).then(
    (result) => process.send({ ok: true, result }, () => process.exit(0)),
    (err) => process.send({ ok: false, error: String(err?.stack ?? err) }, () => process.exit(1)),
  );
});
