"use strict";
/**
 * 2. List cost as data grows: one list page with a filter and a two-key sort at 1k, 10k and 100k
 * records (the Part 1 workload list, cluster_names filter, sort_by=[cluster_name,name]; and the
 * Part 2 asset list with a search filter and a sort, for comparison), then a walk over all 100k
 * assets with the client's `paginate` against the same walk made with bare HTTP requests.
 */
const { dist, Http, figure, median, nowMs, qs, timeRepeated, quiet } = require("../lib/common");
const { API, clusterName, ensureClusters, seedAssets, seedWorkloads } = require("../lib/seed");

const SIZES = [1_000, 10_000, 100_000];

const workloadPage = qs({
  cluster_names: [clusterName(1), clusterName(2), clusterName(3)],
  sort_by: ["cluster_name", "name"],
  page_size: 100,
});
const assetPage = qs({ search: ["5"], sort_by: "asset.title", page_size: 100 });

async function run(opts) {
  const { startEmulator } = dist("emulator");
  const { SvcClient } = dist("client");
  const { areas } = dist("api/endpoints");
  const emu = await startEmulator({ log: quiet });
  const http = new Http(emu.baseUrl);
  const perSize = {};
  try {
    await http.login();
    await ensureClusters(http);
    let seeded = 0;
    for (const size of SIZES) {
      const t0 = nowMs();
      await seedWorkloads(emu, size - seeded, { from: seeded });
      const tWorkloads = nowMs() - t0;
      await seedAssets(http, size - seeded, { from: seeded });
      const tAssets = nowMs() - t0 - tWorkloads;
      seeded = size;
      const repeats = Math.max(opts.quick ? 3 : 7, Math.round((opts.quick ? 10 : 40) * (1000 / size) ** 0.5));
      const checkCount = async (p, want) => {
        const n = (await http.ok("GET", p)).json().data.length;
        if (n !== want) throw new Error(`GET ${p} answered ${n} items, expected ${want}`);
      };
      await checkCount(`${API}/apps/workloads/list${workloadPage}`, 100);
      await checkCount(`${API}/assets/list${assetPage}`, 100);
      // Unmeasured calls first, so the timings see warm code paths.
      for (let i = 0; i < 3; i++) {
        await http.ok("GET", `${API}/apps/workloads/list${workloadPage}`);
        await http.ok("GET", `${API}/assets/list${assetPage}`);
      }
      const workloads = await timeRepeated(repeats, () => http.ok("GET", `${API}/apps/workloads/list${workloadPage}`));
      const assets = await timeRepeated(repeats, () => http.ok("GET", `${API}/assets/list${assetPage}`));
      perSize[size] = { workloads_ms: workloads.median, assets_ms: assets.median, repeats, seed_workloads_ms: tWorkloads, seed_assets_http_ms: tAssets };
    }

    // Walks of all 100k assets, 1000 per page (the Part 2 maximum): the client's paginate, and the
    // same requests bare. (Not the workloads: at 100k each of their pages costs 0.3-1 s, see BENCHMARKS.md.)
    const walkQuery = { sort_by: "asset.name", page_size: 1000 };
    const clientWalk = async () => {
      const client = new SvcClient({ baseUrl: emu.baseUrl, username: "admin@example.com", password: "admin", clientId: "svc-cli" });
      let items = 0;
      for await (const _ of client.paginate(areas.assets.list, { query: walkQuery })) items++;
      await client.close();
      if (items !== 100_000) throw new Error(`paginate yielded ${items} assets, expected 100000`);
    };
    let rawPages = 0;
    const bareWalk = async () => {
      let items = 0;
      rawPages = 0;
      for (let next; ;) {
        const page = (await http.ok("GET", `${API}/assets/list${qs({ ...walkQuery, starting_after: next })}`)).json();
        items += page.data.length;
        rawPages++;
        next = page.pagination.next_page;
        if (!next) break;
      }
      if (items !== 100_000) throw new Error(`the bare walk read ${items} assets, expected 100000`);
    };
    // Alternating walks, so that neither always runs first.
    const walks = { client: [], bare: [] };
    for (let r = 0; r < (opts.quick ? 1 : 2); r++) {
      const order = r % 2 ? ["client", "bare"] : ["bare", "client"];
      for (const which of order) {
        const t = nowMs();
        await (which === "client" ? clientWalk() : bareWalk());
        walks[which].push(nowMs() - t);
      }
    }
    const clientMs = median(walks.client);
    const rawMs = median(walks.bare);

    const small = perSize[SIZES[0]];
    const figures = [];
    for (const size of SIZES.slice(1)) {
      const k = `${size / 1000}k`;
      figures.push(
        figure({
          section: 2,
          name: `workload list page (Part 1, filter + 2-key sort) at ${k}`,
          value: perSize[size].workloads_ms,
          unit: "ms",
          baseline: small.workloads_ms,
          baselineName: "same page at 1k",
          target: size === 100_000 ? { max: 3 } : null,
        }),
      );
    }
    for (const size of SIZES.slice(1)) {
      figures.push(
        figure({
          section: 2,
          name: `asset list page (Part 2, search + sort) at ${size / 1000}k`,
          value: perSize[size].assets_ms,
          unit: "ms",
          baseline: small.assets_ms,
          baselineName: "same page at 1k",
        }),
      );
    }
    figures.push(
      figure({
        section: 2,
        name: `paginate all 100k assets (client, ${rawPages} pages of 1000)`,
        value: clientMs / 1000,
        unit: "s",
        baseline: rawMs / 1000,
        baselineName: "same pages, bare HTTP",
      }),
    );
    return { figures, detail: { per_size: perSize, paginate: { client_ms: walks.client, bare_ms: walks.bare, pages: rawPages } } };
  } finally {
    await http.close();
    await emu.close();
  }
}

module.exports = { run };
