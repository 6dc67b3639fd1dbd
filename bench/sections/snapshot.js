"use strict";
/**
 * 9. Bringing a plant under code at 10k assets: `svc-emulator snapshot` of a served plant and
 * `svc-emulator generate` of the program from that snapshot, each its wall time and peak resident
 * memory (bench/snapshot.js measures them). A snapshot streams pages into the file, so its peak
 * memory stays below that of the server holding the platform once; generation is judged against
 * the snapshot's time and a bare node process's memory.
 */
const { figure } = require("../lib/common");
const { measure } = require("../snapshot");

const ASSETS = 10_000;
const mib = (kb) => kb / 1024;

async function run(opts) {
  const m = await measure(opts.quick ? 2_000 : ASSETS);
  if (m.load.assets !== m.count) throw new Error(`the snapshot seeded ${m.load.assets} assets again, not ${m.count}`);
  const n = `${m.count.toLocaleString("en")} assets`;
  const figures = [
    figure({ section: 9, name: `snapshot of ${n}: wall time`, value: m.snapshot.wallS, unit: "s", baseline: m.load.wallS, baselineName: "seeding an emulator from it" }),
    figure({
      section: 9,
      name: `snapshot of ${n}: peak RSS`,
      value: mib(m.snapshot.rssKb),
      unit: "MiB",
      baseline: mib(m.serverRssKb),
      baselineName: "the server holding the platform",
      target: { max: 1 },
    }),
    figure({ section: 9, name: `generation from that snapshot: wall time`, value: m.generate.wallS, unit: "s", baseline: m.snapshot.wallS, baselineName: "the snapshot" }),
    figure({
      section: 9,
      name: `generation from that snapshot: peak RSS`,
      value: mib(m.generate.rssKb),
      unit: "MiB",
      baseline: mib(m.bareRssKb),
      baselineName: "bare node process",
    }),
  ];
  return { figures, detail: m };
}

module.exports = { run };
