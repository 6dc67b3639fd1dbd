"use strict";
/**
 * The baseline of the provider-overhead benchmark: the same creates the provider makes, sent directly
 * with the typed client from a child process (where the provider host would run), `concurrency` at a
 * time, with the same credentials the engine kit configures (client_credentials svc-admin).
 *
 * Message in: { dist, baseUrl, count, concurrency, prefix, assetTypeName }
 * Message out: { ms, stats } — ms from the first call (token included) to the last answer.
 */
const path = require("node:path");

async function run(spec) {
  const { SvcClient } = require(path.join(spec.dist, "client"));
  const client = new SvcClient({ baseUrl: spec.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < spec.count) {
      const i = next++;
      await client.assets.create({ body: { name: `${spec.prefix}-${i}`, title: `Asset ${i}`, asset_type_name: spec.assetTypeName } });
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, worker));
  const ms = performance.now() - t0;
  const stats = { ...client.stats };
  await client.close();
  return { ms, stats };
}

process.on("message", (spec) => {
  run(spec).then(
    (result) => process.send({ ok: true, result }, () => process.exit(0)),
    (err) => process.send({ ok: false, error: String(err?.stack ?? err) }, () => process.exit(1)),
  );
});
