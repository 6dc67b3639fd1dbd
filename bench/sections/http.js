"use strict";
/**
 * 1. Emulator latency and throughput over HTTP for a get, a small create and a list page
 * (page_size 100 of 10 000 assets), from a second process over keep-alive connections, against a
 * bare node:http server answering a fixed JSON body of the same size (the floor). Floor and
 * emulator runs alternate, and the median of the repeats is kept.
 */
const { dist, Http, figure, median, quiet, timeRepeated } = require("../lib/common");
const { load, startFloor } = require("../lib/load");
const { API, ASSET_TYPE, assetName, seedAssets } = require("../lib/seed");

const RECORDS = 10_000;

async function run(opts) {
  const { startEmulator } = dist("emulator");
  const connections = opts.connections;
  const emu = await startEmulator({ log: quiet });
  const http = new Http(emu.baseUrl);
  try {
    await http.login();
    await seedAssets(http, RECORDS);

    const auth = { authorization: `Bearer ${http.token}`, accept: "application/json" };
    const probe = assetName("asset", 4321);
    const createBody = (tag) => JSON.stringify({ name: `new-${tag}`, title: "New asset", asset_type_name: ASSET_TYPE });
    const ops = {
      get: { method: "GET", path: `${API}/assets/${probe}/get`, headers: auth },
      list: { method: "GET", path: `${API}/assets/list?page_size=100`, headers: auth },
      create: {
        method: "POST",
        path: `${API}/assets/create`,
        headers: { ...auth, "content-type": "application/json" },
        // Each load run gets its own prefix so that names never repeat across runs.
        bodyTemplate: (run) => JSON.stringify({ name: `new-${run}-{{n}}`, title: "New asset", asset_type_name: ASSET_TYPE }),
      },
    };

    // The floor answers bodies of the emulator's own answer sizes.
    const sample = {
      get: (await http.ok("GET", ops.get.path)).body,
      list: (await http.ok("GET", ops.list.path)).body,
      create: (await http.ok("POST", ops.create.path, createBody("sample"))).body,
    };
    const floor = await startFloor({ "/get": sample.get, "/list": sample.list, "/create": sample.create });
    const results = {};
    let runNo = 0;
    try {
      // Reads first, creates last: the creates add records, and the reads should see exactly 10 000.
      for (const op of ["get", "list", "create"]) {
        const runs = { floor: [], emulator: [] };
        for (let r = 0; r < opts.repeats; r++) {
          for (const target of ["floor", "emulator"]) {
            runNo++;
            const spec = ops[op];
            const request =
              target === "floor"
                ? { method: spec.method, path: `/${op}`, headers: spec.headers, body: spec.bodyTemplate ? createBody("floor") : undefined }
                : { method: spec.method, path: spec.path, headers: spec.headers, bodyTemplate: spec.bodyTemplate?.(runNo) };
            const res = await load({
              origin: target === "floor" ? floor.origin : emu.baseUrl,
              connections,
              durationMs: opts.loadMs,
              warmupMs: opts.warmupMs,
              request,
            });
            const okStatus = spec.method === "POST" ? "201" : "200";
            if (res.errors > 0 || Object.keys(res.statuses).some((s) => s !== okStatus)) {
              throw new Error(`${op} on the ${target}: unexpected answers ${JSON.stringify(res.statuses)}, ${res.errors} transport errors`);
            }
            runs[target].push(res);
          }
        }
        results[op] = {
          floor: summarize(runs.floor),
          emulator: summarize(runs.emulator),
          bytes: sample[op].length,
        };
      }
    } finally {
      await floor.close();
    }

    // A get's cost when the assets carry properties (a record view reads the property table).
    const serialGet = async (client, p) => {
      for (let i = 0; i < 20; i++) await client.ok("GET", p);
      return (await timeRepeated(opts.quick ? 50 : 200, () => client.ok("GET", p))).median;
    };
    const plainGet = await serialGet(http, ops.get.path);
    const withProps = await startEmulator({ log: quiet });
    let propsGet;
    try {
      const h2 = new Http(withProps.baseUrl);
      await h2.login();
      await seedAssets(h2, RECORDS, {
        properties: [
          { name: "rated_power", value: 7.5 },
          { name: "vendor", value: "acme" },
        ],
      });
      propsGet = await serialGet(h2, ops.get.path);
      await h2.close();
    } finally {
      await withProps.close();
    }

    const figures = [];
    const label = { get: "get one asset", create: "create an asset", list: "list page (100 of 10k assets)" };
    for (const op of ["get", "create", "list"]) {
      const { floor: f, emulator: e, bytes } = results[op];
      const what = `${label[op]}, ${connections} conns, ${bytes} B answer`;
      figures.push(
        figure({
          section: 1,
          name: `${what}: requests/s`,
          value: e.rps,
          unit: "req/s",
          baseline: f.rps,
          baselineName: "bare node:http, same body",
          target: op === "get" ? { min: 0.5 } : null,
        }),
        figure({ section: 1, name: `${label[op]}: p50 latency`, value: e.p50, unit: "ms", baseline: f.p50, baselineName: "bare node:http p50" }),
        figure({ section: 1, name: `${label[op]}: p99 latency`, value: e.p99, unit: "ms", baseline: f.p99, baselineName: "bare node:http p99" }),
      );
    }
    figures.push(
      figure({
        section: 1,
        name: "get one asset, serial, when each of the 10k assets has 2 properties",
        value: propsGet,
        unit: "ms",
        baseline: plainGet,
        baselineName: "same get, assets without properties",
      }),
    );
    return { figures, detail: { ...results, serial_get_ms: { plain: plainGet, with_properties: propsGet } } };
  } finally {
    await http.close();
    await emu.close();
  }
}

/** Medians over repeated runs. */
function summarize(runs) {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    runs: runs.map((r) => ({ rps: Math.round(r.rps), p50: r.p50, p99: r.p99 })),
  };
}

module.exports = { run };
