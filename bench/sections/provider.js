"use strict";
/**
 * 4. Provider overhead: 500 asset creates through the real dynamic-provider host (the engine kit,
 *    parallel 16) against the floor: the same 500 resources through the same kit and host with a
 *    no-op dynamic provider (bench/lib/noop-provider.js: create answers at once, no API call), so the
 *    ratio is the package's own share. The same 500 creates made directly with the typed client, 16
 *    at a time, from a child process (where the host would run) are the second baseline. Requests are
 *    counted at the emulator; the host's CPU time is read from /proc, and this process's (the program,
 *    the kit and the in-process emulator) from process.cpuUsage, so that the platform stand-in's work,
 *    which shares the machine's cores, can be told from the package's. Part of the package's share is
 *    loading it: the time a fresh process takes to require the provider the way the host does
 *    (bench/lib/load-provider-child.js), against the floor's whole up.
 * 5. Preview of the same program once deployed (500 unchanged resources): API calls and wall time.
 *    A preview makes no API call beyond the one token request that verifies the credentials when the
 *    provider is configured (once per provider process; the up before it already made it here).
 * 6. State size per resource kind, from the kit's state: `__provider` bytes and total bytes.
 */
const path = require("node:path");
const { dist, DIST, Http, figure, median, nowMs, quiet } = require("../lib/common");
const counter = require("../lib/counter");
const hostProcess = require("../lib/host-process");
const { runChild } = require("../lib/load");
const { hostRoot } = require("../lib/package-root");
const { manyAssets, manyNoops, everyKind } = require("../lib/programs");
const { API } = require("../lib/seed");

const COUNT = 500;
const PARALLEL = 16;
const TYPE = "bench-type";
const PROVIDER_KEY = "__provider";

async function createType(baseUrl) {
  const http = new Http(baseUrl, 1);
  await http.login();
  await http.ok("POST", `${API}/assets/types/create`, { name: TYPE, title: "Bench type" });
  await http.close();
}

const kitOptions = () => ({
  emulator: { log: quiet },
  parallel: PARALLEL,
  cwd: hostRoot(),
  expectEmptyPlanAfterUp: false,
  checkDestroy: false,
  log: quiet,
});

/**
 * One kit run: up of 500 assets (timed, requests counted, the host's CPU time read); on request also
 * a preview and the state. With `noop`, the same 500 resources go to the no-op provider instead.
 */
async function kitRun(run, { withPreview = false, noop = false } = {}) {
  const testing = dist("testing");
  const program = noop ? manyNoops(COUNT, `noop${run}`, TYPE) : manyAssets(COUNT, `kit${run}`, TYPE);
  const hostsBefore = hostProcess.hostPids();
  const stack = await testing.stack(program, kitOptions());
  const hostPid = hostProcess.newHost(hostsBefore);
  try {
    await createType(stack.emulator.baseUrl);
    const hostBefore = hostPid === undefined ? undefined : hostProcess.usage(hostPid);
    counter.reset();
    const cpu0 = process.cpuUsage();
    const t0 = nowMs();
    const up = await stack.up();
    const upMs = nowMs() - t0;
    const cpu = process.cpuUsage(cpu0);
    const ownCpuS = (cpu.user + cpu.system) / 1e6;
    const upCounts = counter.snapshot();
    const hostAfter = hostPid === undefined ? undefined : hostProcess.usage(hostPid);
    const hostCpuS = hostBefore && hostAfter ? hostAfter.cpuS - hostBefore.cpuS : undefined;
    if (up.totals.create !== COUNT) throw new Error(`the kit's up created ${up.totals.create ?? 0} resources, expected ${COUNT}`);
    const created = stack.emulator.store.table("assets").size;
    const expected = noop ? 0 : COUNT;
    if (created !== expected) throw new Error(`the emulator holds ${created} assets after the kit's up, expected ${expected}`);
    if (noop && upCounts.api !== 0) throw new Error(`the no-op provider's up made ${upCounts.api} API calls`);
    if (!withPreview) return { upMs, upCounts: { api: upCounts.api, token: upCounts.token }, hostCpuS, ownCpuS };

    counter.reset();
    const t1 = nowMs();
    const preview = await stack.preview();
    const previewMs = nowMs() - t1;
    const previewCounts = counter.snapshot();
    if (preview.changes !== 0) throw new Error(`a preview right after up planned ${preview.changes} changes`);
    return { upMs, upCounts: { api: upCounts.api, token: upCounts.token }, hostCpuS, ownCpuS, previewMs, previewCounts, state: stack.state };
  } finally {
    await stack.close();
  }
}

async function directRun(run) {
  const { startEmulator } = dist("emulator");
  const emu = await startEmulator({ log: quiet });
  try {
    await createType(emu.baseUrl);
    counter.reset();
    const res = await runChild(path.join(__dirname, "..", "lib", "direct-child.js"), {
      dist: DIST,
      baseUrl: emu.baseUrl,
      count: COUNT,
      concurrency: PARALLEL,
      prefix: `direct${run}`,
      assetTypeName: TYPE,
    });
    const created = emu.store.table("assets").size;
    if (created !== COUNT) throw new Error(`the emulator holds ${created} assets after the direct run, expected ${COUNT}`);
    return { ms: res.ms, clientStats: res.stats, counts: counter.snapshot() };
  } finally {
    await emu.close();
  }
}

async function warmupRun(run) {
  const { startEmulator } = dist("emulator");
  const emu = await startEmulator({ log: quiet });
  try {
    await createType(emu.baseUrl);
    const rounds = 4;
    const res = await runChild(path.join(__dirname, "..", "lib", "warmup-child.js"), {
      dist: DIST,
      baseUrl: emu.baseUrl,
      rounds,
      perRound: COUNT,
      concurrency: PARALLEL,
      prefix: `warm${run}`,
      assetTypeName: TYPE,
    });
    const created = emu.store.table("assets").size;
    if (created !== rounds * COUNT) throw new Error(`the emulator holds ${created} assets after the warm-up run, expected ${rounds * COUNT}`);
    return res.cpuMsPerResource;
  } finally {
    await emu.close();
  }
}

const bytes = (v) => Buffer.byteLength(typeof v === "string" ? v : JSON.stringify(v));

/** Per kind: mean bytes of the serialized provider (inputs and outputs copies) and of the whole entry. */
function stateSizes(states) {
  const byKind = {};
  for (const state of states) {
    for (const r of state.resources) {
      if (!r.custom) continue;
      const kind = r.type.replace(/^pulumi-nodejs:dynamic\/svc:/, "");
      const provider = [r.inputs?.[PROVIDER_KEY], r.outputs?.[PROVIDER_KEY]].filter((p) => p !== undefined);
      const k = (byKind[kind] ??= { resources: 0, provider_bytes: 0, provider_copies: 0, total_bytes: 0 });
      k.resources++;
      k.provider_bytes += provider.reduce((n, p) => n + bytes(p), 0);
      k.provider_copies += provider.length;
      k.total_bytes += bytes(r);
    }
  }
  for (const k of Object.values(byKind)) {
    k.provider_bytes_per_resource = k.provider_bytes / k.resources;
    k.total_bytes_per_resource = k.total_bytes / k.resources;
    k.provider_copies_per_resource = k.provider_copies / k.resources;
  }
  return byKind;
}

async function run(opts) {
  const repeats = opts.quick ? 1 : 3;
  const kit = [];
  const floor = [];
  const direct = [];
  // Alternating runs, so that all see the same machine conditions; the first kit run also previews.
  for (let r = 0; r < repeats; r++) {
    floor.push(await kitRun(r, { noop: true }));
    kit.push(await kitRun(r, { withPreview: r === 0 }));
    direct.push(await directRun(r));
  }

  // The provider's CPU per resource in a fresh process: the first 500 (what the up pays) against the
  // same work once warm (after 1,500 more).
  const warmups = [];
  for (let r = 0; r < repeats; r++) warmups.push(await warmupRun(r));

  // Loading the package's provider in a fresh process, as the host does at the first resource.
  const loads = [];
  for (let r = 0; r < repeats; r++) loads.push(await runChild(path.join(__dirname, "..", "lib", "load-provider-child.js"), { root: hostRoot() }));

  // A stack with most kinds, for the state sizes of each.
  const testing = dist("testing");
  const mixed = await testing.stack(everyKind, kitOptions());
  let mixedState;
  try {
    await mixed.up();
    mixedState = mixed.state;
  } finally {
    await mixed.close();
  }

  const kitMs = median(kit.map((k) => k.upMs));
  const floorMs = median(floor.map((k) => k.upMs));
  const directMs = median(direct.map((d) => d.ms));
  const hostCpu = (runs) => {
    const xs = runs.map((k) => k.hostCpuS).filter((v) => v !== undefined);
    return xs.length ? median(xs) : NaN;
  };
  const first = kit[0];
  const sizes = stateSizes([first.state, mixedState]);
  const largest = Object.values(sizes).reduce((a, b) => (b.provider_bytes_per_resource > a.provider_bytes_per_resource ? b : a));
  const maxProvider = largest.provider_bytes_per_resource;
  const maxCopies = largest.provider_copies_per_resource;

  const figures = [
    figure({
      section: 4,
      name: `${COUNT} creates through the provider host (kit, parallel ${PARALLEL})`,
      value: kitMs / 1000,
      unit: "s",
      baseline: floorMs / 1000,
      baselineName: `same ${COUNT} resources, no-op provider, same kit and host`,
      target: { max: 1.25 },
    }),
    figure({
      section: 4,
      name: `${COUNT} creates through the provider host, against a bare client`,
      value: kitMs / 1000,
      unit: "s",
      baseline: directMs / 1000,
      baselineName: `same creates, client, ${PARALLEL}-way`,
    }),
    figure({
      section: 4,
      name: `floor: ${COUNT} no-op resources through the kit and host (Pulumi runtime, kit, host)`,
      value: floorMs / 1000,
      unit: "s",
      baseline: directMs / 1000,
      baselineName: `same creates, client, ${PARALLEL}-way`,
    }),
    figure({
      section: 4,
      name: "provider host CPU during the kit's up",
      value: hostCpu(kit),
      unit: "s",
      baseline: hostCpu(floor),
      baselineName: "same, no-op provider",
    }),
    figure({
      section: 4,
      name: "CPU of the kit's process during the up (program, kit, and the in-process emulator answering the API calls)",
      value: median(kit.map((k) => k.ownCpuS)),
      unit: "s",
      baseline: median(floor.map((k) => k.ownCpuS)),
      baselineName: "same, no-op provider (no API call)",
    }),
    figure({
      section: 4,
      name: `the provider's CPU per resource (check and create) in a fresh process: the first ${COUNT}`,
      value: median(warmups.map((w) => w[0])),
      unit: "ms",
      baseline: median(warmups.map((w) => w[w.length - 1])),
      baselineName: `the same after ${3 * COUNT} more (warm)`,
    }),
    figure({
      section: 4,
      name: "loading the package's provider in the host (require after @pulumi/pulumi, fresh process): wall time",
      value: median(loads.map((l) => l.wallMs)) / 1000,
      unit: "s",
      baseline: floorMs / 1000,
      baselineName: `the floor's whole up (${COUNT} no-op resources)`,
      note: `${loads[0].modules} modules: ${Object.entries(loads[0].byPackage)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    }),
    figure({
      section: 4,
      name: "loading the package's provider in the host: CPU time",
      value: median(loads.map((l) => l.cpuMs)) / 1000,
      unit: "s",
      baseline: hostCpu(kit) - hostCpu(floor),
      baselineName: "the host's extra CPU over the no-op provider during the up",
    }),
    figure({
      section: 4,
      name: "token requests during the kit's up (at the emulator)",
      value: median(kit.map((k) => k.upCounts.token)),
      unit: "",
      baseline: median(direct.map((d) => d.clientStats.tokenRequests)),
      baselineName: "client stats.tokenRequests, direct run",
      target: { maxValue: 1 },
    }),
    figure({
      section: 4,
      name: "API requests during the kit's up (token excluded)",
      value: median(kit.map((k) => k.upCounts.api)),
      unit: "",
      baseline: median(direct.map((d) => d.counts.api)),
      baselineName: "same, direct run",
    }),
    figure({
      section: 5,
      name: `preview of ${COUNT} unchanged resources: API calls beyond the token`,
      value: first.previewCounts.api,
      unit: "",
      target: { maxValue: 0 },
    }),
    figure({
      section: 5,
      name: `preview of ${COUNT} unchanged resources: wall time`,
      value: first.previewMs / 1000,
      unit: "s",
      baseline: first.upMs / 1000,
      baselineName: "the up that created them",
    }),
    figure({
      section: 5,
      name: `preview of ${COUNT} unchanged resources: token requests`,
      value: first.previewCounts.token,
      unit: "",
      target: { maxValue: 1 },
    }),
    figure({
      section: 6,
      name: "`__provider` bytes per resource (inputs + outputs copies; largest kind)",
      value: maxProvider,
      unit: "B",
      target: { maxValue: 4096 },
      note: `${maxCopies} copies per resource`,
    }),
    figure({
      section: 6,
      name: "`__provider` bytes per copy (largest kind)",
      value: maxProvider / maxCopies,
      unit: "B",
    }),
  ];
  for (const [kind, s] of Object.entries(sizes).sort()) {
    figures.push(
      figure({
        section: 6,
        name: `state bytes per ${kind} resource (n=${s.resources})`,
        value: s.total_bytes_per_resource,
        unit: "B",
        baseline: s.total_bytes_per_resource - s.provider_bytes_per_resource,
        baselineName: "same without `__provider`",
      }),
    );
  }
  return {
    figures,
    detail: {
      kit: kit.map(({ state: _state, ...k }) => k),
      floor,
      direct,
      provider_load: loads,
      provider_cpu_ms_per_resource_by_round: warmups,
      state_sizes: sizes,
      state_bytes: { assets_500: bytes(first.state), every_kind: bytes(mixedState) },
    },
  };
}

module.exports = { run };
