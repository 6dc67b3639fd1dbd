"use strict";
/**
 * 11. The plant through the real Pulumi CLI: `pulumi up` (a preview, then the update, each command
 *     with a fresh provider host, as users run it) and an identical `pulumi preview` of the plant of
 *     bench/lib/programs.js, run by the kit's real-engine mode (`stack(program, { engine: "pulumi" })`:
 *     the Automation API with the program inline, a local file backend in a temporary folder, the
 *     CLI's default parallelism). In the same run, alternated:
 *       - the floor: the same plant (resources, inputs, dependencies) with the no-op dynamic provider,
 *         through the same CLI: the ratio is the package's share of a `pulumi up`;
 *       - the plant and its floor with PULUMI_SKIP_CHECKPOINTS=true: the file backend writes the whole
 *         state at every step of an update (so an up costs the square of its size), and these say how
 *         much of the CLI's time that is, and what the package's share is without it;
 *       - the same plant through the engine kit, with the CLI's parallelism: the kit against the CLI.
 *     At 500 resources; with --large (or SVC_BENCH_LARGE=1) also at 5,000, one round without the
 *     floor's checkpointed up: the CLI's up of 5,000 with checkpoints takes most of an hour of CPU.
 *     Requests are counted at the emulator, the CPU of the CLI and its hosts once each command ended.
 *     Skipped when the CLI is not built.
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { DIST, dist, figure, median, nowMs, quiet } = require("../lib/common");
const counter = require("../lib/counter");
const { endedChildrenCpuS } = require("../lib/host-process");
const { hostRoot } = require("../lib/package-root");
const { plant, plantNoops, plantSize } = require("../lib/programs");
const pulumiCli = require("../../scripts/pulumi-cli.js");

const SMALL_ASSETS = 200; // 500 resources
const LARGE_ASSETS = 2000; // 5,000 resources
const NO_CHECKPOINTS = { PULUMI_SKIP_CHECKPOINTS: "true" };
// The targets, and why:
// - The package's share of a CLI run may be no more than section 4 allows it through the kit (1.25):
//   the CLI adds its own fixed costs to the subject and the floor alike.
const PROVIDER_SHARE = { max: 1.25 };
// - The kit stands in for the CLI in users' tests: a run through it must not take longer.
const KIT_NOT_SLOWER = { max: 1 };

/** The CLI's parallelism when none is given (pulumi's defaultParallel: PULUMI_PARALLEL, else 4 per CPU); the kit runs with the same. */
const cliParallel = () => Number(process.env.PULUMI_PARALLEL) || 4 * os.availableParallelism();

/**
 * Why the section cannot run, or undefined. The CLI's provider host finds `pulumi-svc` through the
 * node_modules that hold @pulumi/pulumi (CliStack's NODE_PATH), linked there by scripts/link-self.js:
 * it must be the build under test.
 */
function unavailable() {
  if (!pulumiCli.builtCli()) return `the Pulumi CLI is not built in ${pulumiCli.cliDir()} (\`npm run --silent pulumi:path\` builds it; it needs Go 1.26)`;
  const nodeModules = path.resolve(require.resolve("@pulumi/pulumi/package.json", { paths: [DIST] }), "..", "..", "..");
  // The file the package's "./provider" export names (its entry for the host), in the build under test.
  const entry = require(path.join(__dirname, "..", "..", "package.json")).exports["./provider"].default;
  const want = fs.realpathSync(path.join(DIST, path.relative("dist", entry)));
  let found;
  try {
    found = fs.realpathSync(require.resolve("pulumi-svc/provider", { paths: [nodeModules] }));
  } catch {
    return `the CLI's provider host cannot load pulumi-svc from ${nodeModules} (run \`node scripts/link-self.js\`)`;
  }
  if (found !== want) return `the CLI's provider host would load ${found}, not the build under test ${want}`;
  return undefined;
}

/** Runs `fn` with `vars` in the environment, which the Automation API passes to every CLI command. */
async function withEnv(vars, fn) {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Times one operation: wall time, requests at the emulator, and CPU of the CLI and its hosts once ended. */
async function timed(fn) {
  counter.reset();
  const cpu0 = endedChildrenCpuS();
  const t0 = nowMs();
  const result = await fn();
  const ms = nowMs() - t0;
  const cpu1 = endedChildrenCpuS();
  const { api, token } = counter.snapshot();
  return { result, ms, api, token, childrenCpuS: cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0 };
}

/**
 * One plant of `assets` assets through an engine: up (with the preview `pulumi up` makes first),
 * then an identical preview. `engine` is "pulumi" or "kit"; `noop` declares the no-op plant.
 */
async function plantRun({ assets, prefix, engine, noop = false, env = {} }) {
  const size = plantSize(assets);
  const program = noop ? plantNoops(assets, prefix) : plant(assets, prefix);
  const common = { emulator: { log: quiet }, expectEmptyPlanAfterUp: false, log: quiet };
  const options = engine === "pulumi" ? { ...common, engine, pulumiPath: pulumiCli.cliDir() } : { ...common, parallel: cliParallel(), cwd: hostRoot(), checkDestroy: false };
  return withEnv(env, async () => {
    const stack = await dist("testing").stack(program, options);
    try {
      const up = await timed(() => stack.up());
      if (up.result.totals.create !== size.resources) throw new Error(`${prefix}: up created ${up.result.totals.create ?? 0} resources, expected ${size.resources}`);
      const assetsHeld = stack.emulator.store.table("assets").size;
      if (assetsHeld !== (noop ? 0 : size.assets)) throw new Error(`${prefix}: the emulator holds ${assetsHeld} assets after up, expected ${noop ? 0 : size.assets}`);
      const preview = await timed(() => stack.preview());
      if (preview.result.changes !== 0) throw new Error(`${prefix}: a preview right after up planned ${preview.result.changes} changes`);
      // The kit's host is still running when an operation ends: only a CLI command's CPU is counted.
      const strip = ({ result: _result, childrenCpuS, ...t }) => ({ ...t, ...(engine === "pulumi" ? { childrenCpuS } : {}) });
      return { resources: size.resources, up: strip(up), preview: strip(preview) };
    } finally {
      await stack.close();
    }
  });
}

/**
 * The runs of one size, alternated round by round so that all see the same machine conditions: the
 * plant and its no-op floor through the CLI with and without checkpoints, and the plant through the
 * kit. `withFloorCheckpoints: false` leaves out the floor with checkpoints (at 5,000 resources it
 * would cost as long as the plant's own run and tell nothing new: both are mostly the checkpoints).
 */
async function sizeRuns(assets, rounds, { withFloorCheckpoints = true } = {}) {
  const runs = { floor: [], cli: [], floorNoCheckpoints: [], cliNoCheckpoints: [], kit: [] };
  // Each run's key, the prefix of its names (lowercase: the platform's names are), and how it runs.
  const plan = [
    ["floor", "floor", { engine: "pulumi", noop: true }],
    ["cli", "cli", { engine: "pulumi" }],
    ["floorNoCheckpoints", "floor-nc", { engine: "pulumi", noop: true, env: NO_CHECKPOINTS }],
    ["cliNoCheckpoints", "cli-nc", { engine: "pulumi", env: NO_CHECKPOINTS }],
    ["kit", "kit", { engine: "kit" }],
  ].filter(([key]) => withFloorCheckpoints || key !== "floor");
  const t0 = nowMs();
  for (let r = 0; r < rounds; r++) {
    for (const [key, name, how] of plan) {
      const one = await plantRun({ assets, prefix: `${name}-${assets}-${r}`, ...how });
      runs[key].push(one);
      // A run of 5,000 takes many minutes: each says when it is done.
      console.log(`    ${key}, ${one.resources} resources, round ${r + 1}: up ${(one.up.ms / 1000).toFixed(1)} s, preview ${(one.preview.ms / 1000).toFixed(1)} s`);
    }
  }
  return { ...runs, elapsedS: (nowMs() - t0) / 1000 };
}

const med = (runs, op, key = "ms") => median(runs.map((r) => r[op][key]).filter((v) => v !== undefined));
const seconds = (runs, op) => med(runs, op) / 1000;

/** The CLI runs of the plant whose previews count: a preview writes no checkpoint, so all of them. */
const previewed = (runs) => [...runs.cli, ...runs.cliNoCheckpoints];

/**
 * The figures of one size: the package against the floor, the kit against the CLI, and what the
 * checkpoints cost. A preview writes no checkpoint, so the previews of the runs with and without
 * them are one sample.
 */
function sizeFigures(runs) {
  const n = runs.cli[0].resources;
  const of = `the plant of ${n.toLocaleString("en")}`;
  const subject = previewed(runs);
  const floor = [...runs.floor, ...runs.floorNoCheckpoints];
  const up = "`pulumi up` (preview, then update)";
  const preview = "identical `pulumi preview`";
  const figures = [];
  if (runs.floor.length) {
    figures.push(
      figure({
        section: 11,
        name: `${up} of ${of}, through the CLI`,
        value: seconds(runs.cli, "up"),
        unit: "s",
        baseline: seconds(runs.floor, "up"),
        baselineName: "same plant, no-op provider, same CLI",
        target: PROVIDER_SHARE,
      }),
    );
  }
  figures.push(
    figure({
      section: 11,
      name: `${up} of ${of}, through the CLI with PULUMI_SKIP_CHECKPOINTS=true`,
      value: seconds(runs.cliNoCheckpoints, "up"),
      unit: "s",
      baseline: seconds(runs.floorNoCheckpoints, "up"),
      baselineName: "same plant, no-op provider, same CLI and setting",
      target: PROVIDER_SHARE,
    }),
    figure({
      section: 11,
      name: `${preview} of ${of}, through the CLI`,
      value: seconds(subject, "preview"),
      unit: "s",
      baseline: seconds(floor, "preview"),
      baselineName: "same plant, no-op provider, same CLI",
      target: PROVIDER_SHARE,
    }),
    figure({
      section: 11,
      name: `kit up of ${of} (parallel ${cliParallel()}, the CLI's default)`,
      value: seconds(runs.kit, "up"),
      unit: "s",
      baseline: seconds(runs.cli, "up"),
      baselineName: `${up} of the same plant`,
      target: KIT_NOT_SLOWER,
    }),
    figure({
      section: 11,
      name: `kit preview of ${of}`,
      value: seconds(runs.kit, "preview"),
      unit: "s",
      baseline: seconds(subject, "preview"),
      baselineName: `${preview} of the same plant`,
      target: KIT_NOT_SLOWER,
    }),
    figure({
      section: 11,
      name: `${up} of ${of} with PULUMI_SKIP_CHECKPOINTS=true (the state written once, at the end)`,
      value: seconds(runs.cliNoCheckpoints, "up"),
      unit: "s",
      baseline: seconds(runs.cli, "up"),
      baselineName: "the same with the file backend's checkpoint at every step (the default)",
    }),
    figure({
      section: 11,
      name: `kit up of ${of}, against \`pulumi up\` without checkpoints`,
      value: seconds(runs.kit, "up"),
      unit: "s",
      baseline: seconds(runs.cliNoCheckpoints, "up"),
      baselineName: "`pulumi up` with PULUMI_SKIP_CHECKPOINTS=true",
    }),
    // CPU of the CLI and its hosts: steadier than wall time on a shared machine, and where the
    // package's work is (the platform stand-in answers in this process).
    figure({
      section: 11,
      name: `CPU of the CLI and its provider hosts during \`pulumi up\` of ${of}`,
      value: med(runs.cli, "up", "childrenCpuS"),
      unit: "s",
      baseline: med(runs.cliNoCheckpoints, "up", "childrenCpuS"),
      baselineName: "same with PULUMI_SKIP_CHECKPOINTS=true",
    }),
    figure({
      section: 11,
      name: `the same without checkpoints, against the no-op provider`,
      value: med(runs.cliNoCheckpoints, "up", "childrenCpuS"),
      unit: "s",
      baseline: med(runs.floorNoCheckpoints, "up", "childrenCpuS"),
      baselineName: "same, no-op provider",
    }),
    figure({
      section: 11,
      name: `CPU of the CLI and its provider host during the ${preview} of ${of}`,
      value: med(subject, "preview", "childrenCpuS"),
      unit: "s",
      baseline: med(floor, "preview", "childrenCpuS"),
      baselineName: "same, no-op provider",
    }),
    figure({
      section: 11,
      name: `\`pulumi up\` of ${of}: API requests (token excluded)`,
      value: runs.cli[0].up.api,
      unit: "",
      baseline: n,
      baselineName: "resources",
      target: { max: 1 },
    }),
    figure({
      section: 11,
      name: `\`pulumi up\` of ${of}: token requests (the preview's host and the update's)`,
      value: runs.cli[0].up.token,
      unit: "",
      target: { maxValue: 2 },
    }),
    figure({
      section: 11,
      name: `${preview} of ${of}: API calls beyond the token`,
      value: runs.cli[0].preview.api,
      unit: "",
      target: { maxValue: 0 },
    }),
    figure({
      section: 11,
      name: `${preview} of ${of}: token requests`,
      value: runs.cli[0].preview.token,
      unit: "",
      target: { maxValue: 1 },
    }),
  );
  return figures;
}

/** Time per resource at 5,000 against 500, through the CLI and through the kit. */
function scaleFigures(small, large) {
  const perResource = (runs, op) => med(runs, op) / runs[0].resources;
  const figures = [];
  for (const [label, runsOf, op] of [
    ["`pulumi up`", (s) => s.cli, "up"],
    ["`pulumi up` with PULUMI_SKIP_CHECKPOINTS=true,", (s) => s.cliNoCheckpoints, "up"],
    ["`pulumi preview`", previewed, "preview"],
    ["kit up", (s) => s.kit, "up"],
    ["kit preview", (s) => s.kit, "preview"],
  ]) {
    figures.push(
      figure({
        section: 11,
        name: `${label} of the plant of ${large.cli[0].resources.toLocaleString("en")}: time per resource`,
        value: perResource(runsOf(large), op),
        unit: "ms",
        baseline: perResource(runsOf(small), op),
        baselineName: `same at ${small.cli[0].resources} resources`,
      }),
    );
  }
  return figures;
}

async function run(opts) {
  const why = unavailable();
  if (why) return { figures: [], skipped: why };
  const rounds = opts.repeats;
  const small = await sizeRuns(SMALL_ASSETS, rounds);
  const figures = sizeFigures(small);
  const detail = { parallel: cliParallel(), cli: pulumiCli.cliDir(), small };
  if (opts.large) {
    // One round: the CLI's up of 5,000 with checkpoints alone takes most of an hour.
    const large = await sizeRuns(LARGE_ASSETS, 1, { withFloorCheckpoints: false });
    figures.push(...sizeFigures(large), ...scaleFigures(small, large));
    detail.large = large;
  }
  return { figures, detail };
}

module.exports = { run };
