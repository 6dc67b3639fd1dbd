"use strict";
/**
 * 8. Plant scale: a stack of 2,000 assets with their types, classes and properties (5,000 resources,
 *    bench/lib/programs.js `plant`) through the engine kit against its emulator: up, an identical
 *    preview, refresh and destroy. API calls and token requests are counted at the emulator, the
 *    provider host's peak memory is read from /proc, and the time per resource is compared with the
 *    same plant at 500 resources (run before and after the large one, same machine conditions).
 *    Refresh reads assets in batches (src/client/batch.ts: the reads of one turn of the host's event
 *    loop become one POST /assets/list with their names); the calls that read the assets are counted
 *    against one get per asset, what refresh sent before. Also: what reading the 2,000 assets back
 *    costs one get at a time against the asset list's `names` filter, 1,000 per page.
 */
const { dist, Http, figure, median, nowMs, quiet } = require("../lib/common");
const counter = require("../lib/counter");
const hostProcess = require("../lib/host-process");
const { hostRoot } = require("../lib/package-root");
const { plant, plantSize } = require("../lib/programs");
const { API } = require("../lib/seed");

const LARGE_ASSETS = 2000;
const SMALL_ASSETS = 200;
const PARALLEL = 16;
const LIST_PAGE = 1000;
const HOST_MEMORY_LIMIT_MB = 500;

const kitOptions = () => ({
  emulator: { log: quiet },
  parallel: PARALLEL,
  cwd: hostRoot(),
  expectEmptyPlanAfterUp: false,
  checkDestroy: false,
  log: quiet,
});

/** What the emulator holds of each kind the plant creates. */
function held(emu) {
  const t = (name) => emu.store.table(name).size;
  return { classes: t("asset_classes"), types: t("asset_types"), assets: t("assets"), properties: t("asset_properties") };
}

function expectHeld(emu, expected, when) {
  const h = held(emu);
  for (const k of Object.keys(h)) {
    if (h[k] !== expected[k]) throw new Error(`${when}: the emulator holds ${h[k]} ${k}, expected ${expected[k]} (${JSON.stringify(h)})`);
  }
}

/** Times one kit operation and counts the requests it made. */
async function timed(fn) {
  counter.reset();
  const t0 = nowMs();
  const result = await fn();
  const ms = nowMs() - t0;
  return { result, ms, counts: counter.snapshot() };
}

/**
 * Reads the plant's assets back twice from the stack's emulator: one get per asset, PARALLEL at a
 * time (what refresh sends), and POST /assets/list with the names, LIST_PAGE per call.
 */
async function readBack(emu, names) {
  const http = new Http(emu.baseUrl, PARALLEL);
  try {
    await http.login();
    const one = async () => {
      let next = 0;
      const t0 = nowMs();
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          while (next < names.length) await http.ok("GET", `${API}/assets/${names[next++]}/get`);
        }),
      );
      return nowMs() - t0;
    };
    const listed = async () => {
      const t0 = nowMs();
      let found = 0;
      let calls = 0;
      for (let i = 0; i < names.length; i += LIST_PAGE) {
        const page = (await http.ok("POST", `${API}/assets/list?page_size=${LIST_PAGE}`, { names: names.slice(i, i + LIST_PAGE) })).json();
        found += page.data.length;
        calls++;
      }
      if (found !== names.length) throw new Error(`the asset list with ${names.length} names found ${found}`);
      return { ms: nowMs() - t0, calls };
    };
    // Warm both paths once, then alternate.
    await one();
    await listed();
    const gets = [];
    const lists = [];
    for (let r = 0; r < 3; r++) {
      gets.push(await one());
      lists.push(await listed());
    }
    return { getsMs: median(gets), listMs: median(lists.map((l) => l.ms)), listCalls: lists[0].calls };
  } finally {
    await http.close();
  }
}

/** The calls a refresh made to read assets: list calls with names, and single gets. */
const assetReads = (op) => (op.counts.byRoute["assets.filter"] ?? 0) + (op.counts.byRoute["assets.get"] ?? 0);

/** One plant through up, preview, refresh and destroy. */
async function plantRun(assets, prefix, { withReadBack = false } = {}) {
  const size = plantSize(assets);
  const testing = dist("testing");
  const hostsBefore = hostProcess.hostPids();
  const stack = await testing.stack(plant(assets, prefix), kitOptions());
  const hostPid = hostProcess.newHost(hostsBefore);
  try {
    const emu = stack.emulator;
    const up = await timed(() => stack.up());
    if (up.result.totals.create !== size.resources) throw new Error(`the plant's up created ${up.result.totals.create ?? 0} resources, expected ${size.resources}`);
    expectHeld(emu, size, "after up");

    const preview = await timed(() => stack.preview());
    if (preview.result.changes !== 0) throw new Error(`a preview right after up planned ${preview.result.changes} changes`);

    const refresh = await timed(() => stack.refresh());
    if (refresh.result.changes !== 0) throw new Error(`a refresh right after up found ${refresh.result.changes} changes`);

    const back = withReadBack
      ? await readBack(
          emu,
          Array.from({ length: size.assets }, (_, a) => `${prefix}-asset-${a}`),
        )
      : undefined;

    const destroy = await timed(() => stack.destroy());
    if (destroy.result.totals.delete !== size.resources) throw new Error(`destroy deleted ${destroy.result.totals.delete ?? 0} resources, expected ${size.resources}`);
    expectHeld(emu, { classes: 0, types: 0, assets: 0, properties: 0 }, "after destroy");

    const host = hostPid === undefined ? undefined : hostProcess.usage(hostPid);
    const strip = (t) => ({ ms: t.ms, counts: { requests: t.counts.requests, token: t.counts.token, api: t.counts.api, byRoute: t.counts.byRoute } });
    return { size, up: strip(up), preview: strip(preview), refresh: strip(refresh), destroy: strip(destroy), readBack: back, host };
  } finally {
    await stack.close();
  }
}

async function run(opts) {
  const largeAssets = opts.quick ? LARGE_ASSETS / 4 : LARGE_ASSETS;
  // Small, large, small: the small runs' mean is the baseline of the same machine conditions.
  const small = [await plantRun(SMALL_ASSETS, "plant-s0")];
  const large = await plantRun(largeAssets, "plant-l", { withReadBack: true });
  small.push(await plantRun(SMALL_ASSETS, "plant-s1"));

  const n = large.size.resources;
  const sn = small[0].size.resources;
  const perResource = (runs, op) => median(runs.map((r) => r[op].ms)) / runs[0].size.resources;
  const figures = [];
  for (const op of ["up", "preview", "refresh", "destroy"]) {
    figures.push(
      figure({
        section: 8,
        name: `plant of ${n} resources: ${op}, time per resource`,
        value: large[op].ms / n,
        unit: "ms",
        baseline: perResource(small, op),
        baselineName: `same plant at ${sn} resources`,
        target: { max: 1.5 },
        note: `${op} of ${n}: ${(large[op].ms / 1000).toFixed(1)} s`,
      }),
    );
  }
  figures.push(
    figure({
      section: 8,
      name: `plant of ${n}: API requests during up (token excluded)`,
      value: large.up.counts.api,
      unit: "",
      baseline: n,
      baselineName: "resources",
    }),
    figure({
      section: 8,
      name: `plant of ${n}: token requests during up`,
      value: large.up.counts.token,
      unit: "",
      target: { maxValue: 1 },
    }),
    figure({
      section: 8,
      name: `identical preview of ${n}: API calls beyond the token`,
      value: large.preview.counts.api,
      unit: "",
      target: { maxValue: 0 },
    }),
    figure({
      section: 8,
      name: `identical preview of ${n}: token requests`,
      value: large.preview.counts.token,
      unit: "",
      target: { maxValue: 1 },
    }),
    figure({
      section: 8,
      name: `refresh of ${n}: API calls (token excluded)`,
      value: large.refresh.counts.api,
      unit: "",
      baseline: n,
      baselineName: "resources: one get each, as refresh read before asset reads were batched",
      target: { max: 1 },
    }),
    figure({
      section: 8,
      name: `refresh of ${n}: calls reading its ${large.size.assets} assets (asset list with names, and gets)`,
      value: assetReads(large.refresh),
      unit: "",
      baseline: large.size.assets,
      baselineName: "assets: one get each, before",
      note: `${large.refresh.counts.byRoute["assets.filter"] ?? 0} list calls, ${large.refresh.counts.byRoute["assets.get"] ?? 0} gets`,
    }),
    figure({
      section: 8,
      name: `refresh of ${n}: token requests`,
      value: large.refresh.counts.token,
      unit: "",
      target: { maxValue: 1 },
    }),
    figure({
      section: 8,
      name: `destroy of ${n}: API requests (token excluded)`,
      value: large.destroy.counts.api,
      unit: "",
      baseline: n,
      baselineName: "resources",
    }),
  );
  if (large.readBack) {
    figures.push(
      figure({
        section: 8,
        name: `read the ${large.size.assets} assets back: asset list with names, ${LIST_PAGE} per call (${large.readBack.listCalls} calls)`,
        value: large.readBack.listMs,
        unit: "ms",
        baseline: large.readBack.getsMs,
        baselineName: `one get per asset, ${PARALLEL} at a time, as refresh reads`,
      }),
    );
  }
  const smallPeak = median(small.map((s) => s.host?.peakMb).filter((v) => v !== undefined));
  figures.push(
    figure({
      section: 8,
      name: `provider host peak memory, plant of ${n} (up to destroy)`,
      value: large.host?.peakMb ?? NaN,
      unit: "MB",
      baseline: Number.isFinite(smallPeak) ? smallPeak : null,
      baselineName: `same at ${sn} resources`,
      target: { maxValue: HOST_MEMORY_LIMIT_MB },
    }),
  );
  return {
    figures,
    detail: { large, small },
    skipped: large.host === undefined ? "the provider host's memory could not be read (no /proc)" : undefined,
  };
}

module.exports = { run };
