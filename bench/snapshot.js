#!/usr/bin/env node
"use strict";
/**
 * Time and peak memory of `svc-emulator snapshot` on a plant of many assets:
 *
 *   node bench/snapshot.js [--assets 10000]
 *
 * Starts `svc-emulator serve` seeded with a plant of that many assets (each with a property and a
 * metadata record; a few clusters, apps, versions, parameter values and workloads beside), then runs
 * the snapshot command under /usr/bin/time -v and prints its wall time, peak resident memory, the
 * size of the fixture written, the time and peak memory of generating the program from it, and
 * whether the fixture loads again. `measure(count)` gives the same figures to bench section 9.
 * Runs the built package (dist/, or SVC_BENCH_DIST).
 */
const { execFile, spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { promisify } = require("node:util");
const { stringify } = require("yaml");
const { DIST } = require("./lib/common");

const run = promisify(execFile);
const CLI = path.join(DIST, "cli", "svc-emulator.js");

function plant(count) {
  const types = ["pump", "press", "mixer", "oven", "robot"];
  const assets = [{ name: "site", title: "Site", asset_type_name: "site" }];
  for (let h = 0; assets.length < count; h++) {
    const hall = `hall-${h}`;
    assets.push({ name: hall, title: `Hall ${h}`, asset_type_name: "area", asset_parent_name: "site" });
    for (let m = 0; m < 99 && assets.length < count; m++) {
      const i = assets.length;
      assets.push({
        name: `machine-${String(i).padStart(6, "0")}`,
        title: `Machine ${i}`,
        asset_type_name: types[i % types.length],
        asset_parent_name: hall,
        properties: [{ name: "serial", title: "Serial number", value: `SN-${i}` }],
        metadata: { commissioning: { year: 2000 + (i % 24) } },
      });
    }
  }
  const machines = assets.filter((a) => a.properties).map((a) => `krn:asset:${a.name}`);
  return {
    asset_classes: [{ name: "machine", title: "Machine" }],
    asset_types: [{ name: "site", title: "Site" }, { name: "area", title: "Area" }, ...types.map((t) => ({ name: t, title: t, asset_class_name: "machine" }))],
    assets,
    clusters: [{ name: "edge-1", ready: true }, { name: "edge-2" }],
    apps: [
      {
        name: "monitor",
        title: "Monitor",
        description: "bench",
        type: "app",
        versions: ["1.0.0", "1.1.0"].map((version) => ({ version, parameters: [{ name: "limit", data_type: "number", default: 1 }] })),
      },
    ],
    parameter_values: [
      { app_name: "monitor", app_version: "1.1.0", resource_parameters: machines.slice(0, 1000).map((resource, i) => ({ resource, parameters: [{ name: "limit", value: i }] })) },
    ],
    workloads: Array.from({ length: 20 }, (_, i) => ({
      name: `monitor-${i}`,
      app_name: "monitor",
      app_version: "1.1.0",
      cluster_name: i % 2 ? "edge-1" : "edge-2",
      runtime: { resources: machines.slice(i * 50, i * 50 + 50).map((resource) => ({ resource })) },
    })),
  };
}

/** Runs `cmd args` under /usr/bin/time -v when present; wall seconds, peak RSS (KiB, NaN without it) and stderr. */
async function timed(args, env) {
  const withTime = fs.existsSync("/usr/bin/time");
  const [cmd, list] = withTime ? ["/usr/bin/time", ["-v", process.execPath, ...args]] : [process.execPath, args];
  const t0 = process.hrtime.bigint();
  const { stderr } = await run(cmd, list, { env, maxBuffer: 64 << 20 });
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? NaN);
  return { wallS, rssKb, stderr };
}

/** Peak resident memory (KiB) of a running process, from /proc; NaN where there is none. */
function peakRssKb(pid) {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

/**
 * Serves a plant of `count` assets, snapshots it with the CLI, generates the program from the
 * snapshot with the CLI, and seeds an emulator from the snapshot again. Times in seconds, memory in KiB.
 */
async function measure(count) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-bench-snapshot-"));
  const seed = path.join(dir, "plant.yaml");
  fs.writeFileSync(seed, stringify(plant(count)));
  const server = spawn(process.execPath, [CLI, "serve", "--port", "0", "--seed", seed], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const baseUrl = await new Promise((resolve, reject) => {
      let out = "";
      server.stdout.on("data", (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+) /.exec(out);
        if (m) resolve(m[1]);
      });
      server.on("exit", (code) => reject(new Error(`svc-emulator serve exited with ${code}`)));
    });
    const out = path.join(dir, "snapshot.yaml");
    const env = { ...process.env, SVC_CLIENT_ID: "svc-admin", SVC_CLIENT_SECRET: "svc-admin-secret" };
    const snap = await timed([CLI, "snapshot", "--from", baseUrl, "--out", out], env);
    // The server holds the platform once; a snapshot that streams pages needs less than that.
    const serverRssKb = peakRssKb(server.pid);
    const summary = /svc-emulator: snapshot written to .*/.exec(snap.stderr)?.[0] ?? "";
    const bytes = fs.statSync(out).size;
    const programDir = path.join(dir, "program");
    const gen = await timed([CLI, "generate", "--from", out, "--out", programDir], env);
    const programBytes = fs.readdirSync(programDir).reduce((n, f) => n + fs.statSync(path.join(programDir, f)).size, 0);
    const bare = await timed(["-e", ""], env);
    // The fixture loads again (an emulator in this process, seeded from it).
    const { startEmulator } = require(path.join(DIST, "emulator"));
    const t1 = process.hrtime.bigint();
    const again = await startEmulator({ seed: out, log: () => undefined });
    const loadS = Number(process.hrtime.bigint() - t1) / 1e9;
    const loaded = again.store.table("assets").size;
    await again.close();
    return {
      count,
      snapshot: { wallS: snap.wallS, rssKb: snap.rssKb, bytes, summary },
      generate: { wallS: gen.wallS, rssKb: gen.rssKb, bytes: programBytes },
      serverRssKb,
      bareRssKb: bare.rssKb,
      bareS: bare.wallS,
      load: { wallS: loadS, assets: loaded },
    };
  } finally {
    server.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const mib = (kb) => (Number.isNaN(kb) ? "n/a (no /usr/bin/time)" : `${(kb / 1024).toFixed(0)} MiB`);

async function main() {
  const argv = process.argv.slice(2);
  const count = argv.includes("--assets") ? Number(argv[argv.indexOf("--assets") + 1]) : 10_000;
  const m = await measure(count);
  console.log(`snapshot of ${count} assets: ${m.snapshot.wallS.toFixed(2)} s wall, peak RSS ${mib(m.snapshot.rssKb)}, fixture ${(m.snapshot.bytes / 1024 / 1024).toFixed(1)} MiB`);
  console.log(`  ${m.snapshot.summary}`);
  console.log(`  the serving emulator's peak RSS: ${mib(m.serverRssKb)}`);
  console.log(`generation from it: ${m.generate.wallS.toFixed(2)} s wall, peak RSS ${mib(m.generate.rssKb)}, program ${(m.generate.bytes / 1024 / 1024).toFixed(1)} MiB`);
  console.log(`seeding an emulator from it: ${m.load.assets} assets in ${m.load.wallS.toFixed(2)} s`);
  if (m.load.assets !== count) process.exitCode = 1;
}

module.exports = { measure, plant };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
