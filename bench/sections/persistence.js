"use strict";
/**
 * 3. Persistence: one create with 100k records in a persisted emulator (`startEmulator({ statePath })`:
 * snapshot + fsynced append-only log) against the same create in an in-memory emulator holding the
 * same 100k records. Creates are sent one at a time, alternating between the two emulators in rounds,
 * and the median latency is kept; a concurrent run shows what group commit buys under load.
 */
const fs = require("node:fs");
const path = require("node:path");
const { dist, Http, figure, median, nowMs, tempDir, quiet } = require("../lib/common");
const { load } = require("../lib/load");
const { API, ASSET_TYPE, seedAssets } = require("../lib/seed");

const RECORDS = 100_000;

async function run(opts) {
  const { startEmulator } = dist("emulator");
  const dir = tempDir("svc-bench-state-");
  const statePath = path.join(dir, "state.json");

  // Seed the persisted state, close it (the log folds into the snapshot), and time the reopening.
  const t0 = nowMs();
  {
    const seeding = await startEmulator({ statePath, log: quiet });
    const http = new Http(seeding.baseUrl);
    await http.login();
    await seedAssets(http, RECORDS);
    await http.close();
    await seeding.close();
  }
  const seedMs = nowMs() - t0;
  const t1 = nowMs();
  const persisted = await startEmulator({ statePath, log: quiet });
  const reopenMs = nowMs() - t1;
  const memory = await startEmulator({ log: quiet });

  const targets = { persisted, memory };
  const clients = {};
  try {
    for (const [k, emu] of Object.entries(targets)) {
      clients[k] = new Http(emu.baseUrl, 1);
      await clients[k].login();
    }
    await seedAssets(clients.memory, RECORDS);
    for (const [k, emu] of Object.entries(targets)) {
      const n = emu.store.table("assets").size;
      if (n !== RECORDS) throw new Error(`the ${k} emulator holds ${n} assets, expected ${RECORDS}`);
    }

    // Serial creates, alternating rounds so that both see the same machine conditions.
    const rounds = opts.quick ? 3 : 10;
    const perRound = opts.quick ? 20 : 50;
    const times = { persisted: [], memory: [], fsync: [] };
    // What the disk alone costs: a small append and fsync in the state's directory, in the same rounds.
    const probe = fs.openSync(path.join(dir, "fsync-probe"), "a");
    const line = Buffer.alloc(1024, 0x61);
    let n = 0;
    for (let r = 0; r < rounds + 1; r++) {
      for (let i = 0; i < perRound; i++) {
        const s = nowMs();
        fs.writeSync(probe, line);
        fs.fsyncSync(probe);
        if (r > 0) times.fsync.push(nowMs() - s);
      }
      for (const k of Object.keys(targets)) {
        for (let i = 0; i < perRound; i++) {
          const body = { name: `serial-${++n}`, title: "Serial create", asset_type_name: ASSET_TYPE };
          const s = nowMs();
          await clients[k].ok("POST", `${API}/assets/create`, body);
          // The first round warms up and is not counted.
          if (r > 0) times[k].push(nowMs() - s);
        }
      }
    }
    fs.closeSync(probe);
    const serial = { persisted: median(times.persisted), memory: median(times.memory), fsync: median(times.fsync) };
    const fsyncsBefore = persisted.persistence?.stats?.().fsyncs;

    // Concurrent creates from a second process: the log's group commit shares fsyncs between them.
    const concurrent = {};
    for (const [k, emu] of Object.entries(targets)) {
      concurrent[k] = await load({
        origin: emu.baseUrl,
        connections: opts.connections,
        durationMs: opts.loadMs,
        warmupMs: opts.warmupMs,
        request: {
          method: "POST",
          path: `${API}/assets/create`,
          headers: { authorization: `Bearer ${clients[k].token}`, "content-type": "application/json", accept: "application/json" },
          bodyTemplate: JSON.stringify({ name: `load-${k}-{{n}}`, title: "Load create", asset_type_name: ASSET_TYPE }),
        },
      });
      if (concurrent[k].errors > 0 || Object.keys(concurrent[k].statuses).some((s) => s !== "201")) {
        throw new Error(`concurrent creates on the ${k} emulator: ${JSON.stringify(concurrent[k].statuses)}, ${concurrent[k].errors} transport errors`);
      }
    }
    const stats = persisted.persistence?.stats?.();

    const figures = [
      figure({
        section: 3,
        name: "one create at 100k assets, persisted (serial median)",
        value: serial.persisted,
        unit: "ms",
        baseline: serial.memory,
        baselineName: "same create in memory",
        target: { max: 2 },
      }),
      figure({
        section: 3,
        name: "one create, persisted minus in memory",
        value: serial.persisted - serial.memory,
        unit: "ms",
        baseline: serial.fsync,
        baselineName: "append 1 KB + fsync, same directory",
      }),
      figure({
        section: 3,
        name: `creates at 100k assets, persisted, ${opts.connections} conns: requests/s`,
        value: concurrent.persisted.rps,
        unit: "req/s",
        baseline: concurrent.memory.rps,
        baselineName: "same load in memory",
      }),
      figure({
        section: 3,
        name: "reopen a persisted state of 100k assets",
        value: reopenMs,
        unit: "ms",
      }),
    ];
    return {
      figures,
      detail: {
        serial_ms: serial,
        serial_samples: times.persisted.length,
        concurrent: { persisted: concurrent.persisted, memory: concurrent.memory },
        seed_and_close_ms: seedMs,
        reopen_ms: reopenMs,
        persistence_stats: stats ?? null,
        fsyncs_before_concurrent: fsyncsBefore ?? null,
      },
    };
  } finally {
    for (const c of Object.values(clients)) await c.close();
    await persisted.close();
    await memory.close();
  }
}

module.exports = { run };
