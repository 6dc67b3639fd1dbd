"use strict";
/**
 * 12. Type-check cost of the public entries. `pulumi up` and `preview` type-check the user's program
 * every run, so what the package's declarations cost the checker is paid at every run. Each program is
 * checked with `tsc --noEmit --extendedDiagnostics` in a throwaway project under the tsconfig that
 * `pulumi new typescript` writes (the shipped examples carry it byte for byte, which the consumer suite
 * checks): strict, commonjs, es2020, `moduleResolution: node`, no `skipLibCheck`, so every declaration
 * file a program reaches is checked. The project's node_modules holds the package (package.json and a
 * `dist` link to the build under test, as bench/lib/package-root.js lays it out), @pulumi/pulumi and
 * @types/node (the template's dependencies), linked from this checkout's node_modules.
 *
 * Subjects: the same two lines with `import * as svc from "pulumi-svc"` and one resource (the main
 * entry), and with `pulumi-svc/client` and `pulumi-svc/api`. Baseline: the two lines alone (a program
 * of @pulumi/pulumi only). Figures: the wall time of the check and the checker's memory (`Memory used`),
 * medians of 3, as ratios to the baseline.
 */
const fs = require("node:fs");
const path = require("node:path");
const { execFile } = require("node:child_process");
const { promisify } = require("node:util");
const { DIST, figure, median, nowMs, tempDir } = require("../lib/common");

const run = promisify(execFile);
const REPO = path.join(__dirname, "..", "..");
const TSC = require.resolve("typescript/bin/tsc", { paths: [REPO] });

/** The two lines every program starts with: a program of @pulumi/pulumi alone. */
const BASE = `import * as pulumi from "@pulumi/pulumi";\nexport const stack = new pulumi.Config().get("region");\n`;

const PROGRAMS = {
  baseline: BASE,
  main: `${BASE}import * as svc from "pulumi-svc";\nexport const cluster = new svc.Cluster("plant-a", { name: "plant-a", title: "Plant A" }).name;\n`,
  client: `${BASE}import { SvcClient } from "pulumi-svc/client";\nexport const assets = new SvcClient({ baseUrl: "http://localhost:8080", token: "t" }).assets.list({});\n`,
  api: `${BASE}import { endpoints } from "pulumi-svc/api";\nexport const count = Object.keys(endpoints).length;\n`,
};

/** The tsconfig.json of Pulumi's TypeScript template, from a shipped example that carries it. */
function templateTsconfig() {
  const examples = path.join(REPO, "examples");
  for (const d of fs.readdirSync(examples).sort()) {
    const f = path.join(examples, d, "tsconfig.json");
    if (fs.existsSync(f)) return fs.readFileSync(f, "utf8");
  }
  throw new Error("no example carries the template's tsconfig.json");
}

/** A project per program: index.ts, the template's tsconfig, node_modules with the package and the template's dependencies. */
function makeProject(root, name, source) {
  const dir = path.join(root, name);
  const modules = path.join(dir, "node_modules");
  const pkg = path.join(modules, "pulumi-svc");
  fs.mkdirSync(pkg, { recursive: true });
  fs.copyFileSync(path.join(REPO, "package.json"), path.join(pkg, "package.json"));
  fs.symlinkSync(DIST, path.join(pkg, "dist"), "dir");
  for (const dep of ["@pulumi/pulumi", "@types/node"]) {
    fs.mkdirSync(path.dirname(path.join(modules, dep)), { recursive: true });
    fs.symlinkSync(path.join(REPO, "node_modules", dep), path.join(modules, dep), "dir");
  }
  fs.writeFileSync(path.join(dir, "tsconfig.json"), templateTsconfig());
  fs.writeFileSync(path.join(dir, "index.ts"), source);
  return dir;
}

/** One check: wall ms, the checker's memory (bytes), its own total time and the files it read. */
async function check(dir) {
  const t0 = nowMs();
  let stdout;
  try {
    ({ stdout } = await run(process.execPath, [TSC, "-p", dir, "--noEmit", "--extendedDiagnostics", "--pretty", "false"], { cwd: dir, maxBuffer: 16 << 20 }));
  } catch (err) {
    throw new Error(`tsc failed in ${dir}: ${String(err.stdout ?? "").slice(0, 2000)}${String(err.stderr ?? "").slice(0, 500)}`, { cause: err });
  }
  const wallMs = nowMs() - t0;
  const field = (name) => {
    const m = new RegExp(`^${name}:\\s+([\\d.]+)(\\w*)$`, "m").exec(stdout);
    if (!m) throw new Error(`tsc printed no '${name}' in its diagnostics:\n${stdout}`);
    return { value: Number(m[1]), unit: m[2] };
  };
  const memory = field("Memory used");
  if (memory.unit !== "K") throw new Error(`tsc's 'Memory used' is in '${memory.unit}', not K`);
  return { wallMs, memoryBytes: memory.value * 1024, totalS: field("Total time").value, files: field("Files").value, lines: field("Lines of Definitions").value };
}

async function run_(opts) {
  const root = tempDir("svc-bench-types-");
  const dirs = Object.fromEntries(Object.entries(PROGRAMS).map(([name, source]) => [name, makeProject(root, name, source)]));
  const samples = Object.fromEntries(Object.keys(PROGRAMS).map((k) => [k, []]));
  const repeats = opts.quick ? 1 : 3;
  // One unmeasured round warms the file cache; then the programs alternate.
  for (let r = 0; r < repeats + 1; r++) {
    for (const [name, dir] of Object.entries(dirs)) {
      const s = await check(dir);
      if (r > 0) samples[name].push(s);
    }
  }
  const med = (name, key) => median(samples[name].map((s) => s[key]));
  const base = { wallMs: med("baseline", "wallMs"), memoryBytes: med("baseline", "memoryBytes") };
  const MIB = 2 ** 20;
  const what = { main: '`import * as svc from "pulumi-svc"` and one resource', client: "`pulumi-svc/client` and one call", api: "`pulumi-svc/api` and the table" };
  const figures = [];
  for (const [name, text] of Object.entries(what)) {
    const target = name === "main" ? { max: 1.25 } : null;
    figures.push(
      figure({
        section: 12,
        name: `type-check a program of ${text}: time`,
        value: med(name, "wallMs") / 1000,
        unit: "s",
        baseline: base.wallMs / 1000,
        baselineName: "the same program of @pulumi/pulumi alone",
        target,
      }),
      figure({
        section: 12,
        name: `type-check a program of ${text}: memory`,
        value: med(name, "memoryBytes") / MIB,
        unit: "MiB",
        baseline: base.memoryBytes / MIB,
        baselineName: "the same program of @pulumi/pulumi alone",
        target,
      }),
    );
  }
  const detail = {
    tsconfig: "Pulumi's TypeScript template (examples/*/tsconfig.json)",
    typescript: require(path.join(path.dirname(path.dirname(TSC)), "package.json")).version,
    programs: PROGRAMS,
    medians: Object.fromEntries(
      Object.keys(PROGRAMS).map((k) => [
        k,
        { wall_ms: med(k, "wallMs"), memory_mib: med(k, "memoryBytes") / MIB, tsc_total_s: med(k, "totalS"), files: med(k, "files"), definition_lines: med(k, "lines") },
      ]),
    ),
    samples,
  };
  return { figures, detail };
}

module.exports = { run: run_ };
