"use strict";
/**
 * Seeding records for the benchmarks, always through the emulator's own rules: assets through the
 * real bulk create over HTTP (1000 per request), workloads through the workload area's insert helper
 * inside one store transaction (what a create call does, minus the HTTP round trip).
 */
const { dist } = require("./common");

const API = "/api/v4";
const ASSET_TYPE = "bench-type";
const pad = (i) => String(i).padStart(6, "0");
const assetName = (prefix, i) => `${prefix}-${pad(i)}`;

async function ensureAssetType(http) {
  const res = await http.request("POST", `${API}/assets/types/create`, { name: ASSET_TYPE, title: "Bench type" });
  if (res.status !== 201 && res.status !== 409) throw new Error(`asset type create → ${res.status}: ${res.body.toString("utf8").slice(0, 300)}`);
}

/**
 * Creates assets `${prefix}-000000`.. through POST /assets/bulk/create. Names are shuffled inside
 * each batch so that the store's insertion order is not already the sort order. `properties` are
 * created with every asset.
 */
async function seedAssets(http, count, { prefix = "asset", from = 0, batch = 1000, properties } = {}) {
  await ensureAssetType(http);
  for (let start = from; start < from + count; start += batch) {
    const n = Math.min(batch, from + count - start);
    const assets = [];
    for (let i = 0; i < n; i++) {
      const k = start + ((i * 7919) % n);
      assets.push({ name: assetName(prefix, k), title: `Asset ${k}`, asset_type_name: ASSET_TYPE, ...(properties ? { properties } : {}) });
    }
    await http.ok("POST", `${API}/assets/bulk/create`, { assets });
  }
}

const CLUSTERS = 10;
const clusterName = (c) => `bench-cluster-${c}`;

async function ensureClusters(http) {
  for (let c = 0; c < CLUSTERS; c++) {
    const res = await http.request("POST", `${API}/orchestration/clusters/create`, { name: clusterName(c), title: `Cluster ${c}` });
    if (res.status !== 201 && res.status !== 409) throw new Error(`cluster create → ${res.status}: ${res.body.toString("utf8").slice(0, 300)}`);
  }
}

/**
 * Inserts workloads `wl-<n>` spread over the ten bench clusters, in one store transaction with the
 * workload area's insertWorkload (the create handler's own writer), then hands the changes to the
 * store's listeners as a request would.
 */
async function seedWorkloads(emu, count, { from = 0 } = {}) {
  const { insertWorkload } = dist("emulator/areas/workloads/model");
  const now = new Date().toISOString().replace("Z", "000Z");
  const ctx = { store: emu.store, now, nowMs: Date.now(), actor: "krn:user:admin@example.com" };
  const { changes } = emu.store.transaction(() => {
    for (let i = from; i < from + count; i++) {
      insertWorkload(ctx, {
        name: `wl-${pad(i)}`,
        title: `Workload ${i}`,
        app_name: "bench-app",
        app_version: "1.0.0",
        app_type: "app",
        // Consecutive workloads land on different clusters, so a cluster sort has real work to do.
        cluster_name: clusterName((i * 7) % CLUSTERS),
      });
    }
  });
  await emu.store.publish(changes);
}

module.exports = { API, ASSET_TYPE, assetName, ensureAssetType, seedAssets, ensureClusters, seedWorkloads, clusterName, CLUSTERS };
