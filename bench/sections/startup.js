"use strict";
/**
 * 7. Start-up: time from process start to a served request, for the CLI emulator
 * (`node dist/cli/svc-emulator.js serve --port 0`) and for the embedded mode (`startEmulator`) with a
 * 10k-record state file, against a bare node:http process (the floor of starting node at all) and
 * the embedded mode with no state. The request is a token request on a new connection.
 */
const path = require("node:path");
const { spawn } = require("node:child_process");
const { request } = require("undici");
const { DIST, dist, Http, TOKEN_PATH, ADMIN_LOGIN, figure, median, nowMs, tempDir, quiet } = require("../lib/common");
const { seedAssets } = require("../lib/seed");

const RECORDS = 10_000;
const CHILD = path.join(__dirname, "..", "lib", "embedded-child.js");

/** Spawns node with `args`, waits for `ready` on stdout, sends one token request; ms from spawn to answer. */
async function timeToServe(args, ready) {
  const t0 = nowMs();
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (c) => (stderr += c));
  try {
    const baseUrl = await new Promise((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (c) => {
        out += c;
        const m = ready.exec(out);
        if (m) resolve(m[1]);
      });
      child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code} before serving: ${stderr.slice(0, 500)}`)));
    });
    const res = await request(`${baseUrl}${TOKEN_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(ADMIN_LOGIN).toString(),
    });
    await res.body.arrayBuffer();
    if (res.statusCode !== 200) throw new Error(`${args.join(" ")}: the first request answered ${res.statusCode}`);
    return nowMs() - t0;
  } finally {
    const exited = new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
    child.kill("SIGTERM");
    await exited;
  }
}

async function makeState(statePath) {
  const { startEmulator } = dist("emulator");
  const emu = await startEmulator({ statePath, log: quiet });
  const http = new Http(emu.baseUrl);
  await http.login();
  await seedAssets(http, RECORDS);
  await http.close();
  await emu.close();
}

async function run(opts) {
  const statePath = path.join(tempDir("svc-bench-startup-"), "state.json");
  await makeState(statePath);
  const readyLine = /^READY (\S+)$/m;
  const variants = {
    bare: [CHILD, DIST, "bare"],
    cli: [path.join(DIST, "cli", "svc-emulator.js"), "serve", "--port", "0"],
    memory: [CHILD, DIST, "memory"],
    state10k: [CHILD, DIST, statePath],
  };
  const ready = { cli: /listening on (http:\/\/[^\s)]+)/ };
  const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  const repeats = opts.quick ? 2 : 5;
  // One unmeasured round warms the file cache; then the variants alternate.
  for (let r = 0; r < repeats + 1; r++) {
    for (const [k, args] of Object.entries(variants)) {
      const ms = await timeToServe(args, ready[k] ?? readyLine);
      if (r > 0) times[k].push(ms);
    }
  }
  const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const figures = [
    figure({ section: 7, name: "CLI `serve --port 0`: process start → first answer", value: m.cli, unit: "ms", baseline: m.bare, baselineName: "bare node:http process" }),
    figure({
      section: 7,
      name: "embedded startEmulator, no state: process start → first answer",
      value: m.memory,
      unit: "ms",
      baseline: m.bare,
      baselineName: "bare node:http process",
    }),
    figure({
      section: 7,
      name: "embedded startEmulator, 10k-record state file: process start → first answer",
      value: m.state10k,
      unit: "ms",
      baseline: m.memory,
      baselineName: "embedded, no state",
    }),
  ];
  return { figures, detail: { median_ms: m, samples: times } };
}

module.exports = { run };
