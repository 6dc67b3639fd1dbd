"use strict";
/**
 * 3. Persistence: one create with 100k records in a persisted emulator (`startEmulator({ statePath })`:
 * snapshot + fsynced append-only log) against the same create in an in-memory emulator holding the
 * same 100k records. Creates are sent one at a time, alternating between the emulators in rounds,
 * and the median latency is kept; a concurrent run shows what group commit buys under load.
 *
 * Two controls in the same rounds say where the difference goes. The in-memory create made after
 * the process slept 3 ms: what waking from any wait costs (a persisted create waits for the disk,
 * and the machine's caches and idle CPU wake slower than a busy loop runs). And, on Linux, the same
 * state persisted to a RAM file system (/dev/shm): the log's own cost (encoding, the write call,
 * the I/O thread's round trip) without the disk.
 *
 * A third control is the floor of any server that syncs before it answers (bench/lib/bare-sync-server.js):
 * serially, a bare node:http server that appends and syncs 1 KB before answering, against the same
 * server answering at once, timed with the same client in the same rounds; under the 8-connection
 * load, a bare server spending the in-memory emulator's CPU per request (measured in the same run)
 * and group-committing synced appends of the emulator's log line size, against the same server
 * answering at once: what the disk leaves of a server's throughput when every answer waits for it.
 *
 * Serial rounds are short (10 creates per emulator, in a random order each round), so that the
 * disk's and the CPUs' changing load falls on all of them alike.
 */
const fs = require("node:fs");
const path = require("node:path");
const { dist, Http, figure, median, nowMs, tempDir, quiet } = require("../lib/common");
const { load } = require("../lib/load");
const { API, ASSET_TYPE, seedAssets } = require("../lib/seed");
const { startBareServer } = require("../lib/bare-sync-server");

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
  // The same state on a RAM file system, where there is one.
  let ram;
  if (fs.existsSync("/dev/shm")) {
    const ramDir = fs.mkdtempSync(path.join("/dev/shm", "svc-bench-state-"));
    process.on("exit", () => fs.rmSync(ramDir, { recursive: true, force: true }));
    fs.copyFileSync(statePath, path.join(ramDir, "state.json"));
    if (fs.existsSync(`${statePath}.log`)) fs.copyFileSync(`${statePath}.log`, path.join(ramDir, "state.json.log"));
    ram = await startEmulator({ statePath: path.join(ramDir, "state.json"), log: quiet });
  }

  const targets = { persisted, memory, ...(ram ? { ram } : {}) };
  const bare = { bareMemory: await startBareServer(), bareSync: await startBareServer({ syncFile: path.join(dir, "bare-sync-probe") }) };
  const clients = {};
  const bareClients = { bareMemory: new Http(bare.bareMemory.baseUrl, 1), bareSync: new Http(bare.bareSync.baseUrl, 1) };
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

    // Serial creates, alternating short rounds so that all see the same machine conditions.
    const rounds = opts.quick ? 6 : 50;
    const perRound = 10;
    const times = { persisted: [], memory: [], ram: [], memoryAfterPause: [], bareMemory: [], bareSync: [], fsync: [] };
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
      const order = [...Object.keys(targets), "memoryAfterPause", ...Object.keys(bare)].sort(() => Math.random() - 0.5);
      for (const k of order) {
        const client = k === "memoryAfterPause" ? clients.memory : (clients[k] ?? bareClients[k]);
        for (let i = 0; i < perRound; i++) {
          const body = { name: `serial-${++n}`, title: "Serial create", asset_type_name: ASSET_TYPE };
          if (k === "memoryAfterPause") await new Promise((res) => setTimeout(res, 3));
          const s = nowMs();
          await client.ok("POST", `${API}/assets/create`, body);
          // The first round warms up and is not counted.
          if (r > 0) times[k].push(nowMs() - s);
        }
      }
    }
    fs.closeSync(probe);
    const serial = {
      persisted: median(times.persisted),
      memory: median(times.memory),
      memoryAfterPause: median(times.memoryAfterPause),
      ram: ram ? median(times.ram) : NaN,
      bareMemory: median(times.bareMemory),
      bareSync: median(times.bareSync),
      fsync: median(times.fsync),
    };
    const serverFloor = serial.bareSync - serial.bareMemory;
    const fsyncsBefore = persisted.persistence?.stats?.().fsyncs;
    // The log's bytes per commit (no compaction falls in the serial rounds: the log stays far below the snapshot's size).
    const serialStats = persisted.persistence.stats();
    const lineBytes = Math.round(serialStats.logBytes / serialStats.logRecords);

    // Concurrent creates from a second process: the log's group commit shares fsyncs between them.
    const concurrent = {};
    const writes = {};
    const loadOf = (origin, name, token) =>
      load({
        origin,
        connections: opts.connections,
        durationMs: opts.loadMs,
        warmupMs: opts.warmupMs,
        request: {
          method: "POST",
          path: `${API}/assets/create`,
          headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": "application/json", accept: "application/json" },
          bodyTemplate: JSON.stringify({ name: `load-${name}-{{n}}`, title: "Load create", asset_type_name: ASSET_TYPE }),
        },
      });
    let memoryCpuUs;
    for (const [k, emu] of Object.entries(targets)) {
      const before = emu.persistence?.stats();
      const cpu0 = process.cpuUsage();
      concurrent[k] = await loadOf(emu.baseUrl, k, clients[k].token);
      if (k === "memory") {
        const cpu = process.cpuUsage(cpu0);
        memoryCpuUs = (cpu.user + cpu.system) / concurrent[k].answered;
      }
      if (concurrent[k].errors > 0 || Object.keys(concurrent[k].statuses).some((s) => s !== "201")) {
        throw new Error(`concurrent creates on the ${k} emulator: ${JSON.stringify(concurrent[k].statuses)}, ${concurrent[k].errors} transport errors`);
      }
      const after = emu.persistence?.stats();
      if (before && after) writes[k] = { commits: after.commits - before.commits, writes: after.fsyncs - before.fsyncs, compactions: after.compactions - before.compactions };
    }
    const stats = persisted.persistence?.stats?.();

    // The disk's floor under the same load: a bare server spending, with its own HTTP handling, the
    // in-memory emulator's CPU per request, answering at once and after group-committed synced appends
    // of the log's line size.
    const cpu0 = process.cpuUsage();
    const bareLoad = await loadOf(bare.bareMemory.baseUrl, "bare");
    const bareCpu = process.cpuUsage(cpu0);
    const bareCpuUs = (bareCpu.user + bareCpu.system) / bareLoad.answered;
    const busyUs = Math.max(0, memoryCpuUs - bareCpuUs);
    const floorServers = {
      bareBusy: await startBareServer({ busyUs }),
      bareGroup: await startBareServer({ busyUs, syncFile: path.join(dir, "bare-group-probe"), lineBytes }),
    };
    try {
      for (const [k, server] of Object.entries(floorServers)) concurrent[k] = await loadOf(server.baseUrl, k);
    } finally {
      for (const server of Object.values(floorServers)) await server.close();
    }
    const diskFloor = concurrent.bareGroup.rps / concurrent.bareBusy.rps;

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
        target: { max: 1.5 },
      }),
      figure({
        section: 3,
        name: "control: one create in memory after a 3 ms idle pause, minus the same back to back (waking from a wait)",
        value: serial.memoryAfterPause - serial.memory,
        unit: "ms",
        baseline: serial.fsync,
        baselineName: "append 1 KB + fsync, same directory",
      }),
      figure({
        section: 3,
        name: "control: a bare node:http server that appends and syncs 1 KB before answering, minus the same answering at once (any server's floor)",
        value: serverFloor,
        unit: "ms",
        baseline: serial.fsync,
        baselineName: "append 1 KB + fsync, same directory",
      }),
      figure({
        section: 3,
        name: "one create, persisted minus in memory, against that server floor",
        value: serial.persisted - serial.memory,
        unit: "ms",
        baseline: serverFloor,
        baselineName: "bare server: synced append minus none",
      }),
      ...(ram
        ? [
            figure({
              section: 3,
              name: "control: one create persisted to a RAM file system (/dev/shm) minus in memory (the log's own cost)",
              value: serial.ram - serial.memory,
              unit: "ms",
              baseline: serial.fsync,
              baselineName: "append 1 KB + fsync, same directory",
            }),
          ]
        : []),
      figure({
        section: 3,
        name: `creates at 100k assets, persisted, ${opts.connections} conns: requests/s`,
        value: concurrent.persisted.rps,
        unit: "req/s",
        baseline: concurrent.memory.rps,
        baselineName: "same load in memory",
        target: { min: 0.8 },
      }),
      figure({
        section: 3,
        name: `control: a bare server spending the in-memory emulator's CPU per request (${memoryCpuUs.toFixed(0)} µs), group-committing synced ${lineBytes} B appends, ${opts.connections} conns: requests/s`,
        value: concurrent.bareGroup.rps,
        unit: "req/s",
        baseline: concurrent.bareBusy.rps,
        baselineName: "the same server answering at once",
      }),
      figure({
        section: 3,
        name: `creates persisted, ${opts.connections} conns, share of in-memory throughput kept, against that server's`,
        value: concurrent.persisted.rps / concurrent.memory.rps,
        unit: "",
        baseline: diskFloor,
        baselineName: "bare server: group-committed over at once",
      }),
      figure({
        section: 3,
        name: `persisted, ${opts.connections} conns: commits per write (group commit)`,
        value: writes.persisted.commits / writes.persisted.writes,
        unit: "",
        note: `${writes.persisted.commits} commits in ${writes.persisted.writes} writes`,
      }),
      ...(ram
        ? [
            figure({
              section: 3,
              name: `control: creates persisted to a RAM file system, ${opts.connections} conns: requests/s`,
              value: concurrent.ram.rps,
              unit: "req/s",
              baseline: concurrent.memory.rps,
              baselineName: "same load in memory",
            }),
          ]
        : []),
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
        concurrent,
        seed_and_close_ms: seedMs,
        reopen_ms: reopenMs,
        persistence_stats: stats ?? null,
        writes_under_load: writes,
        memory_cpu_us_per_request: memoryCpuUs,
        bare_cpu_us_per_request: bareCpuUs,
        log_line_bytes: lineBytes,
        fsyncs_before_concurrent: fsyncsBefore ?? null,
      },
    };
  } finally {
    for (const c of [...Object.values(clients), ...Object.values(bareClients)]) await c.close();
    for (const b of Object.values(bare)) await b.close();
    await persisted.close();
    await memory.close();
    await ram?.close();
  }
}

module.exports = { run };
