#!/usr/bin/env node
"use strict";
/**
 * `npm run bench`: every figure measured against its baseline in the same run, printed as a table
 * and written to bench/results.json. Machines are shared and noisy, so each figure is a median of
 * repeats and is judged by its ratio to the baseline, not by its absolute time.
 *
 *   node bench/run.js [--only 1,2,7] [--quick] [--large]
 *
 * --only runs some sections; --quick shortens the load runs and repeats (a smoke run, not for the record);
 * --large (or SVC_BENCH_LARGE=1) adds the plant of 5,000 resources through the Pulumi CLI (section 11),
 * which takes far longer than the rest of the run.
 * SVC_BENCH_DIST points the benchmarks at another build of the package than dist/.
 */
const fs = require("node:fs");
const path = require("node:path");
const { DIST, fmt, machine, targetText } = require("./lib/common");

const SECTIONS = [
  { no: 1, title: "Emulator HTTP latency and throughput", file: "./sections/http" },
  { no: 2, title: "List cost as data grows", file: "./sections/lists" },
  { no: 3, title: "Persistence", file: "./sections/persistence" },
  { no: 4, title: "Provider overhead", file: "./sections/provider", shares: [5, 6] },
  { no: 7, title: "Start-up", file: "./sections/startup" },
  { no: 8, title: "Plant scale (5,000 resources through the kit)", file: "./sections/plant" },
  { no: 9, title: "Snapshot and program generation (10,000 assets)", file: "./sections/snapshot" },
  { no: 10, title: "Emulator console (10,000 assets, headless Chromium)", file: "./sections/console" },
  { no: 11, title: "The plant through the real Pulumi CLI", file: "./sections/cli" },
  { no: 12, title: "Type-check cost of the public entries", file: "./sections/types" },
  { no: 13, title: "The native provider through the real Pulumi CLI", file: "./sections/native" },
];

function parseArgs(argv) {
  const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1].split(",").map(Number) : undefined;
  const quick = argv.includes("--quick");
  return {
    only,
    quick,
    large: argv.includes("--large") || process.env.SVC_BENCH_LARGE === "1",
    repeats: quick ? 1 : 3,
    loadMs: quick ? 1000 : 3000,
    warmupMs: quick ? 300 : 700,
    connections: 8,
  };
}

function table(figures) {
  const rows = figures.map((f) => [
    String(f.section),
    f.name,
    `${fmt(f.value)} ${f.unit}`,
    f.baseline === null ? "—" : `${fmt(f.baseline)}${f.baseline_name ? ` (${f.baseline_name})` : ""}`,
    f.ratio === null ? "—" : fmt(f.ratio),
    targetText(f.target),
    f.pass === null ? "—" : f.pass ? "pass" : "MISS",
  ]);
  return [["#", "figure", "value", "baseline", "ratio", "target", "result"], ...rows];
}

function printTable(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join("  ");
  console.log(line(rows[0]));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows.slice(1)) console.log(line(r));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const info = { ...machine(), dist: path.relative(process.cwd(), DIST) || ".", quick: opts.quick, started_at: new Date().toISOString() };
  console.log(`machine: ${info.nproc} CPUs (${info.cpu}), ${info.memory_gib} GiB, node ${info.node}${opts.quick ? " — QUICK RUN" : ""}`);
  const figures = [];
  const details = {};
  const failures = [];
  for (const s of SECTIONS) {
    const covers = [s.no, ...(s.shares ?? [])];
    if (opts.only && !covers.some((n) => opts.only.includes(n))) continue;
    const t0 = Date.now();
    process.stdout.write(`\n[${covers.join(",")}] ${s.title} ...\n`);
    try {
      const out = await require(s.file).run(opts);
      figures.push(...out.figures);
      details[s.no] = out.detail;
      if (out.skipped) failures.push({ section: s.no, skipped: out.skipped });
      for (const f of out.figures) console.log(`    ${f.name}: ${fmt(f.value)} ${f.unit}${f.ratio !== null ? ` (ratio ${fmt(f.ratio)})` : ""}`);
      if (out.skipped) console.log(`    skipped: ${out.skipped}`);
    } catch (err) {
      failures.push({ section: s.no, error: String(err?.stack ?? err) });
      console.log(`    FAILED: ${err?.stack ?? err}`);
    }
    console.log(`    (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  figures.sort((a, b) => a.section - b.section);
  console.log("");
  printTable(table(figures));
  const elapsed = (Date.now() - started) / 1000;
  console.log(`\n${figures.filter((f) => f.pass === false).length} missed of ${figures.filter((f) => f.pass !== null).length} with a target; ${elapsed.toFixed(0)} s in all`);
  const out = { machine: info, elapsed_s: elapsed, figures, failures, details };
  fs.writeFileSync(path.join(__dirname, "results.json"), JSON.stringify(out, null, 2) + "\n");
  if (failures.some((f) => f.error)) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
