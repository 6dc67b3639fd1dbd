#!/usr/bin/env node
"use strict";
/** Prints bench/results.json as the Markdown table BENCHMARKS.md records: node bench/report.js [results.json] */
const fs = require("node:fs");
const path = require("node:path");
const { fmt, targetText } = require("./lib/common");

const file = process.argv[2] ?? path.join(__dirname, "results.json");
const { machine, figures, elapsed_s, failures } = JSON.parse(fs.readFileSync(file, "utf8"));
const cell = (s) => String(s).replaceAll("|", "\\|");
const lines = [
  `Machine: ${machine.nproc} CPUs (${machine.cpu}), ${machine.memory_gib} GiB, node ${machine.node}, ${machine.platform}; load average ${machine.loadavg_1m} at start; run ${machine.started_at}, ${Math.round(elapsed_s)} s${machine.quick ? " (QUICK run)" : ""}.`,
  "",
  "| # | figure | value | baseline | ratio | target | result |",
  "|---|---|---|---|---|---|---|",
  ...figures.map(
    (f) =>
      `| ${[
        f.section,
        f.name,
        `${fmt(f.value)} ${f.unit}`.trim(),
        f.baseline === null ? "—" : `${fmt(f.baseline)} ${f.unit}`.trim() + (f.baseline_name ? ` (${f.baseline_name})` : ""),
        f.ratio === null ? "—" : fmt(f.ratio),
        targetText(f.target),
        f.pass === null ? "—" : f.pass ? "pass" : "**miss**",
      ]
        .map(cell)
        .join(" | ")} |`,
  ),
];
for (const f of failures ?? []) lines.push("", `Section ${f.section} ${f.skipped ? `skipped: ${f.skipped}` : `failed: ${f.error.split("\n")[0]}`}`);
console.log(lines.join("\n"));
