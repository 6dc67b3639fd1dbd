"use strict";
/**
 * 13. The native provider through the real Pulumi CLI: the plant of 500 resources of
 *     bench/lib/programs.js declared as native resources (`svc:index:<Kind>`, the type tokens the
 *     generated SDKs register) and run by the CLI with the plugin `pulumi-resource-svc` of this
 *     checkout (bin/, found through the project's `plugins.providers`): `pulumi up` (its preview, then
 *     the update, each command starting the plugin afresh, as users run it) and an identical
 *     `pulumi preview`. In the same run, alternated round by round:
 *       - the floor: the same program against a no-op native provider (bench/lib/noop-native: the same
 *         type tokens over the same protocol, no platform call): the ratio is the provider's share;
 *       - the same plant of the package's dynamic resources (what section 11 runs): native against dynamic.
 *     Each run is the Automation API with the program inline, a local file backend in a temporary
 *     folder, an emulator in this process, the CLI's default parallelism, and
 *     PULUMI_SKIP_CHECKPOINTS=true: with the file backend's checkpoint at every step the CLI's own
 *     writing of the state is most of an up of 500 (section 11), for every provider alike. The
 *     environment is a user's: no NODE_COMPILE_CACHE (which the kit sets for its hosts). Requests
 *     are counted at the emulator, the CPU of the CLI and its plugins once each command ended. Then
 *     the start of each plugin alone (spawned until it prints its port, five times): its CPU.
 *     Skipped when the CLI or the build is missing.
 */
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { DIST, dist, figure, median, nowMs, quiet } = require("../lib/common");
const counter = require("../lib/counter");
const { endedChildrenCpuS, usage } = require("../lib/host-process");
const { declarePlant, plant, plantSize, OUTPUTS } = require("../lib/programs");
const pulumiCli = require("../../scripts/pulumi-cli.js");

const SECTION = 13;
const ASSETS = 200; // 500 resources
const PLUGIN = "pulumi-resource-svc";
/** The folders holding a `pulumi-resource-svc`: the package's plugin and the floor. */
const PLUGIN_DIRS = { native: path.join(__dirname, "..", "..", "bin"), noop: path.join(__dirname, "..", "lib", "noop-native") };
// The native provider runs the same lifecycle as the dynamic resources, so its share of a CLI run
// may be no more than the dynamic resources' (section 11's target, 1.25).
const PROVIDER_SHARE = { max: 1.25 };
const ENV = { PULUMI_SKIP_CHECKPOINTS: "true" };

function unavailable() {
  if (!pulumiCli.builtCli()) return `the Pulumi CLI is not built in ${pulumiCli.cliDir()} (\`npm run --silent pulumi:path\` builds it; it needs Go 1.26)`;
  if (!fs.existsSync(path.join(DIST, "provider", "native", "main.js"))) return `the native provider is not built in ${DIST} (npm run build)`;
  return undefined;
}

/** The plant's kinds as native resources of the package's type tokens, with the outputs of the package's kind. */
function nativeKinds() {
  const pulumi = require(require.resolve("@pulumi/pulumi", { paths: [DIST] }));
  const kind = (name, outputs) =>
    class extends pulumi.CustomResource {
      constructor(resourceName, args, opts) {
        super(`svc:index:${name}`, resourceName, { ...Object.fromEntries(outputs.map((o) => [o, undefined])), ...args }, opts);
      }
    };
  return Object.fromEntries(Object.entries(OUTPUTS).map(([k, outputs]) => [k, kind(k, outputs)]));
}

/** The PATH without folders holding a `pulumi-resource-svc` (the engine would take one found there first). */
const pathWithoutPlugin = (p) =>
  p
    .split(path.delimiter)
    .filter((d) => d && !fs.existsSync(path.join(d, PLUGIN)))
    .join(path.delimiter);

/**
 * Times one operation: wall time, requests at the emulator, CPU of the CLI and its plugins once
 * ended, and this process's CPU (the emulator's, and the Automation API's reading of the CLI's events).
 */
async function timed(fn) {
  counter.reset();
  const cpu0 = endedChildrenCpuS();
  const own0 = process.cpuUsage();
  const t0 = nowMs();
  await fn();
  const ms = nowMs() - t0;
  const own = process.cpuUsage(own0);
  const cpu1 = endedChildrenCpuS();
  const { api, token } = counter.snapshot();
  return { ms, api, token, cpuS: cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0, ownCpuS: (own.user + own.system) / 1e6 };
}

const changed = (summary) => Object.entries(summary ?? {}).reduce((n, [op, k]) => (op === "same" ? n : n + k), 0);

/**
 * One run of the plant through the CLI: `subject` is "native" (the package's plugin), "noop" (the
 * floor's plugin) or "dynamic" (the package's dynamic resources). Up (preview, then update), then an
 * identical preview, against a fresh emulator and backend.
 */
async function cliRun(subject, prefix) {
  const size = plantSize(ASSETS);
  const auto = require(require.resolve("@pulumi/pulumi/automation", { paths: [DIST] }));
  const emulator = await dist("emulator").startEmulator({ log: quiet });
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "svc-bench-native-"));
  try {
    const backend = path.join(temp, "backend");
    const workDir = path.join(temp, "work");
    fs.mkdirSync(backend);
    fs.mkdirSync(workDir);
    const ws = await dist("testing/cli-stack").pulumiWorkspace({ pulumi: path.join(pulumiCli.cliDir(), "pulumi"), dir: temp, backend, passphrase: "bench" });
    // The environment of a user's CLI run: without the compile-cache folder the kit names for its hosts.
    const { NODE_COMPILE_CACHE: _kitCache, ...kitEnv } = ws.env;
    const env = { ...kitEnv, ...ENV, PATH: pathWithoutPlugin(ws.env.PATH) };
    const plugins = subject === "dynamic" ? [] : ["plugins:", "  providers:", "    - name: svc", `      path: ${PLUGIN_DIRS[subject]}`];
    fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), ["name: bench-native", "runtime: nodejs", ...plugins, ""].join("\n"));
    const program = subject === "dynamic" ? plant(ASSETS, prefix) : () => declarePlant(nativeKinds(), ASSETS, prefix);
    const stack = await auto.LocalWorkspace.createOrSelectStack(
      { projectName: "bench-native", stackName: "bench", program: async () => program() },
      { workDir, pulumiHome: env.PULUMI_HOME, pulumiCommand: ws.command, envVars: env, secretsProvider: "passphrase" },
    );
    await stack.setAllConfig({
      "svc:baseUrl": { value: emulator.baseUrl },
      "svc:clientId": { value: "svc-admin" },
      "svc:clientSecret": { value: "svc-admin-secret", secret: true },
    });
    let created;
    const up = await timed(async () => {
      await stack.preview({ color: "never" });
      created = (await stack.up({ color: "never" })).summary.resourceChanges?.create;
    });
    // The stack's own resource is created with the plant.
    if (created !== size.resources + 1) throw new Error(`${prefix}: up created ${created ?? 0} resources, expected ${size.resources} and the stack`);
    const held = emulator.store.table("assets").size;
    if (held !== (subject === "noop" ? 0 : size.assets)) throw new Error(`${prefix}: the emulator holds ${held} assets after up`);
    let planned;
    const preview = await timed(async () => {
      planned = changed((await stack.preview({ color: "never" })).changeSummary);
    });
    if (planned !== 0) throw new Error(`${prefix}: a preview right after up planned ${planned} changes`);
    return { resources: size.resources, up, preview };
  } finally {
    await emulator.close();
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * One start of a plugin as the engine starts it: spawned, until it prints its port; the wall time and
 * the plugin's CPU by then (the CLI's environment of a user: no NODE_COMPILE_CACHE).
 */
async function pluginStart(subject) {
  const env = { ...process.env };
  delete env.NODE_COMPILE_CACHE;
  const t0 = nowMs();
  const child = spawn(path.join(PLUGIN_DIRS[subject], PLUGIN), [], { env, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve, reject) => {
    child.stdout.once("data", resolve);
    child.once("exit", (code) => reject(new Error(`${subject} plugin exited with ${code} before printing its port`)));
  });
  const ms = nowMs() - t0;
  // The shell script execs node: the child is the plugin's node process.
  const cpuS = usage(child.pid)?.cpuS;
  child.kill();
  return { ms, cpuS };
}

const med = (runs, op, key) => median(runs.map((r) => r[op][key]).filter((v) => v !== undefined));

function figures(runs) {
  const n = runs.native[0].resources;
  const of = `the plant of ${n} as native resources`;
  const up = "`pulumi up` (preview, then update)";
  const preview = "identical `pulumi preview`";
  const floor = "same program, no-op native provider, same CLI";
  const dynamic = "the same plant of the package's dynamic resources, same CLI";
  const f = (o) => figure({ section: SECTION, ...o });
  return [
    f({ name: `${up} of ${of}`, value: med(runs.native, "up", "ms") / 1000, unit: "s", baseline: med(runs.noop, "up", "ms") / 1000, baselineName: floor, target: PROVIDER_SHARE }),
    f({
      name: `${preview} of ${of}`,
      value: med(runs.native, "preview", "ms") / 1000,
      unit: "s",
      baseline: med(runs.noop, "preview", "ms") / 1000,
      baselineName: floor,
      target: PROVIDER_SHARE,
    }),
    f({
      name: `CPU of the CLI and its plugins during ${up} of ${of}`,
      value: med(runs.native, "up", "cpuS"),
      unit: "s",
      baseline: med(runs.noop, "up", "cpuS"),
      baselineName: floor,
    }),
    f({
      name: `CPU of the CLI and its plugins during the ${preview} of ${of}`,
      value: med(runs.native, "preview", "cpuS"),
      unit: "s",
      baseline: med(runs.noop, "preview", "cpuS"),
      baselineName: floor,
    }),
    f({
      name: "start of the plugin (spawned, until it prints its port): CPU",
      value: median(runs.starts.native.map((s) => s.cpuS)),
      unit: "s",
      baseline: median(runs.starts.noop.map((s) => s.cpuS)),
      baselineName: "the no-op native provider's start",
    }),
    f({
      name: `CPU of this process (the emulator, the Automation API) during ${up} of ${of}`,
      value: med(runs.native, "up", "ownCpuS"),
      unit: "s",
      baseline: med(runs.noop, "up", "ownCpuS"),
      baselineName: floor,
    }),
    f({
      name: `${up} of ${of}, against the dynamic resources`,
      value: med(runs.native, "up", "ms") / 1000,
      unit: "s",
      baseline: med(runs.dynamic, "up", "ms") / 1000,
      baselineName: dynamic,
    }),
    f({
      name: `${preview} of ${of}, against the dynamic resources`,
      value: med(runs.native, "preview", "ms") / 1000,
      unit: "s",
      baseline: med(runs.dynamic, "preview", "ms") / 1000,
      baselineName: dynamic,
    }),
    f({
      name: `CPU during ${up} of ${of}, against the dynamic resources`,
      value: med(runs.native, "up", "cpuS"),
      unit: "s",
      baseline: med(runs.dynamic, "up", "cpuS"),
      baselineName: dynamic,
    }),
    // The same lifecycle: no more requests than the dynamic resources make (each create's check of the name in the preview and in the update, and the create).
    f({
      name: `${up} of ${of}: API requests (token excluded)`,
      value: runs.native[0].up.api,
      unit: "",
      baseline: runs.dynamic[0].up.api,
      baselineName: "the same plant of the dynamic resources",
      target: { max: 1 },
    }),
    f({ name: `${up} of ${of}: token requests (the preview's plugin and the update's)`, value: runs.native[0].up.token, unit: "", target: { maxValue: 2 } }),
    f({ name: `${preview} of ${of}: API calls beyond the token`, value: runs.native[0].preview.api, unit: "", target: { maxValue: 0 } }),
  ];
}

async function run(opts) {
  const why = unavailable();
  if (why) return { figures: [], skipped: why };
  const runs = { noop: [], native: [], dynamic: [] };
  for (let r = 0; r < opts.repeats; r++) {
    for (const subject of Object.keys(runs)) {
      const one = await cliRun(subject, `${subject}-${r}`);
      runs[subject].push(one);
      const line = (t) => `${(t.ms / 1000).toFixed(1)} s (CPU ${t.cpuS?.toFixed(1)} s, this process ${t.ownCpuS.toFixed(1)} s)`;
      console.log(`    ${subject}, round ${r + 1}: up ${line(one.up)}, preview ${line(one.preview)}`);
    }
  }
  const starts = { native: [], noop: [] };
  for (let i = 0; i < 5; i++) for (const subject of Object.keys(starts)) starts[subject].push(await pluginStart(subject));
  return { figures: figures({ ...runs, starts }), detail: { cli: pulumiCli.cliDir(), env: ENV, loadavg: os.loadavg(), runs, starts } };
}

module.exports = { run };
