"use strict";
/**
 * HTTP load generator, run as a child process (child_process.fork) so that the server under test
 * and the load compete as two processes would. N concurrent keep-alive connections (undici Pool),
 * each sending its next request as soon as the previous answer is read, for a fixed duration after
 * a warm-up. Answers requests/s and p50/p99 latency over the measured window.
 *
 * Message in: { origin, connections, durationMs, warmupMs, request: { method, path, headers, body?, bodyTemplate? } }
 * `bodyTemplate` has every "{{n}}" replaced by a number unique within the child (creates need fresh names).
 * Message out: { requests, rps, p50, p99, mean, errors, statuses, answered } (`answered`: warm-up included)
 */
const { Pool } = require("undici");

async function run(spec) {
  const pool = new Pool(spec.origin, { connections: spec.connections, pipelining: 1, keepAliveTimeout: 60_000 });
  const req = spec.request;
  let counter = 0;
  const bodyOf = () => (req.bodyTemplate ? req.bodyTemplate.replaceAll("{{n}}", String(++counter)) : req.body);
  const statuses = {};
  let errors = 0;
  let answered = 0;
  const latencies = [];
  const t0 = performance.now();
  const recordFrom = t0 + spec.warmupMs;
  const end = recordFrom + spec.durationMs;

  async function worker() {
    for (;;) {
      const start = performance.now();
      if (start >= end) return;
      try {
        const res = await pool.request({ method: req.method, path: req.path, headers: req.headers, body: bodyOf() });
        await res.body.arrayBuffer();
        answered++;
        const done = performance.now();
        if (start >= recordFrom && done <= end) {
          latencies.push(done - start);
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        }
      } catch {
        errors++;
      }
    }
  }
  await Promise.all(Array.from({ length: spec.connections }, worker));
  await pool.close();
  latencies.sort((a, b) => a - b);
  const q = (p) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)] : NaN);
  return {
    requests: latencies.length,
    rps: latencies.length / (spec.durationMs / 1000),
    p50: q(0.5),
    p99: q(0.99),
    mean: latencies.reduce((a, b) => a + b, 0) / (latencies.length || 1),
    errors,
    statuses,
    answered,
  };
}

process.on("message", (spec) => {
  run(spec).then(
    (result) => process.send({ ok: true, result }, () => process.exit(0)),
    (err) => process.send({ ok: false, error: String(err?.stack ?? err) }, () => process.exit(1)),
  );
});
