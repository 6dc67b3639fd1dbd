"use strict";
/**
 * 10. The emulator console with 10k assets, in headless Chromium (puppeteer-core, the system's
 * Chromium): time from navigation to the first render of the asset tree (the page's own module,
 * sign-in, the hierarchy read and the top level drawn), and to the first render of a list view (the
 * asset list searched through the API's list operation). Each against the same page on an empty
 * emulator, which is the page's fixed cost; the targets are absolute, since a user waits for them.
 *
 * The plant: 10 sites × 10 lines × 100 machines (10,110 assets), loaded as a fixture.
 */
const fs = require("node:fs");
const { dist, figure, median, quiet } = require("../lib/common");

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const SITES = 10;
const LINES = 10;
const MACHINES = 100;

function plant(scale) {
  const machines = Math.max(1, Math.round(MACHINES * scale));
  const assets = [];
  for (let s = 0; s < SITES; s++) {
    assets.push({ name: `site-${s}`, title: `Site ${s}`, asset_type_name: "site" });
    for (let l = 0; l < LINES; l++) {
      assets.push({ name: `site-${s}-line-${l}`, title: `Site ${s} line ${l}`, asset_type_name: "line", asset_parent_name: `site-${s}` });
      for (let m = 0; m < machines; m++) {
        assets.push({ name: `site-${s}-line-${l}-machine-${m}`, title: `Machine ${m}`, asset_type_name: "machine", asset_parent_name: `site-${s}-line-${l}` });
      }
    }
  }
  return {
    asset_classes: [{ name: "equipment", title: "Equipment" }],
    asset_types: ["site", "line", "machine"].map((name) => ({ name, title: name, asset_class_name: "equipment" })),
    assets,
  };
}

/** ms from navigation start to the performance mark `mark`, on a fresh page at `url`. */
async function timeTo(browser, url, mark) {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await page.waitForFunction((m) => performance.getEntriesByName(m).length > 0, { timeout: 60_000, polling: 10 }, mark);
    return await page.evaluate((m) => performance.getEntriesByName(m)[0].startTime, mark);
  } finally {
    await page.close();
  }
}

async function run(opts) {
  if (!fs.existsSync(CHROMIUM)) return { figures: [], skipped: `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)` };
  const puppeteer = require("puppeteer-core");
  const { startEmulator } = dist("emulator");
  const doc = plant(opts.quick ? 0.2 : 1);
  const count = doc.assets.length;
  const full = await startEmulator({ log: quiet, seed: doc });
  const empty = await startEmulator({ log: quiet });
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: [...(root ? ["--no-sandbox"] : []), "--disable-gpu", "--disable-dev-shm-usage"] });
  const times = { tree: [], treeEmpty: [], list: [], listEmpty: [] };
  try {
    const repeats = opts.repeats + 1;
    // The first round warms the browser's and the server's caches and is not counted.
    for (let r = 0; r < repeats; r++) {
      const t = {
        tree: await timeTo(browser, `${full.baseUrl}/emulator/ui#/assets`, "svc-console:tree-rendered"),
        treeEmpty: await timeTo(browser, `${empty.baseUrl}/emulator/ui#/assets`, "svc-console:tree-rendered"),
        list: await timeTo(browser, `${full.baseUrl}/emulator/ui#/assets?search=machine-42`, "svc-console:list-rendered"),
        listEmpty: await timeTo(browser, `${empty.baseUrl}/emulator/ui#/assets?search=machine-42`, "svc-console:list-rendered"),
      };
      if (r > 0) for (const k of Object.keys(times)) times[k].push(t[k]);
    }
  } finally {
    await browser.close();
    await full.close();
    await empty.close();
  }
  const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const n = `${count.toLocaleString("en")} assets`;
  const figures = [
    figure({
      section: 10,
      name: `console: first render of the asset tree, ${n}`,
      value: m.tree,
      unit: "ms",
      baseline: m.treeEmpty,
      baselineName: "the same page, no assets",
      target: { maxValue: 1500 },
    }),
    figure({
      section: 10,
      name: `console: first render of a searched asset list, ${n}`,
      value: m.list,
      unit: "ms",
      baseline: m.listEmpty,
      baselineName: "the same page, no assets",
      target: { maxValue: 1000 },
    }),
  ];
  return { figures, detail: { assets: count, times } };
}

module.exports = { run };
