/**
 * Compute nodes (ACPs). The API has no ACP create: nodes register themselves. `registerAcp` is that
 * registration; the fixture loader calls it, and it is the one place tests seed data without HTTP.
 *
 * Design choices where the spec is silent:
 * - A node registers `online`, last seen at registration. Status states `online`, `connected` and
 *   `warning` count as online (and match `connected=true`); `offline` and `no_connection` as offline.
 * - Status `source=cache` answers the last reported status. `source=live` asks the node: a node in
 *   an online state that reported within three status scrape intervals answers (last_seen becomes
 *   now); one that did not shows `offline`. Asking live changes nothing stored.
 * - Metrics are generated from a hash of the node's name (the same node always gets the same
 *   values), as twelve five-minute samples ending at the node's last report; timestamps are epoch
 *   milliseconds, memory and disk in bytes, CPU in cores and utilization in percent.
 * - Bulk metadata create takes an array of `{ acp_name, name, payload }`; bulk delete takes
 *   `{ names, acp_names? }` and removes those names from the listed nodes, or from every node that
 *   has them. Both apply what they can and answer 207 with a result per record when any part fails;
 *   results are named `<acp_name>/<metadata_name>`.
 * - A registered node runs the platform's edge-app version unless it says otherwise.
 */
import { createHash } from "node:crypto";
import semver from "semver";
import { ACP_SETTING_DEFAULTS, AcpRegistration, REACHABLE_STATES, acps as ep, type Acp } from "../../../api/acps";
import { conflict, errors, notFound } from "../../../api/errors";
import { attempt, failure, multiStatus, type MultiStatusOptions } from "../../bulk";
import { route, type AreaModule, type HandlerContext } from "../../handler";
import { inFilter, inventoryList, matchesMetadataFilter, matchesSearch, type SortGetters } from "../../list";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";
import { parseOrThrow } from "../../validate";

/** The edge-app version the platform ships. */
export const PLATFORM_EDGE_APP_VERSION = "4.0.0";

export interface AcpStatusDetail {
  state: string;
  message: string;
  warnings: string[];
  last_seen: string | null;
}

export interface StoredAcp extends Omit<Acp, "metadata"> {
  status: AcpStatusDetail;
  /** The edge-app version the node runs; answered by the edge-apps version get. */
  edge_app_version: string;
}

interface AcpMetadataRecord {
  acp_name: string;
  name: string;
  payload: Record<string, unknown>;
  created: string;
  updated: string;
}

/** What `registerAcp` answers: the record as the API shows it. */
export type AcpRecord = Acp;

const acpTable = (store: Store) => store.table<StoredAcp>(TABLES.acps);
const metadataTable = (store: Store) => store.table<AcpMetadataRecord>(TABLES.acpMetadata);
const metadataKey = (acp: string, name: string) => `${acp}\u0000${name}`;

function requireAcp(store: Store, acpName: string): StoredAcp {
  const acp = acpTable(store).get(acpName);
  if (!acp) throw notFound("ACP", acpName);
  return acp;
}

function requireMetadata(store: Store, acpName: string, name: string): AcpMetadataRecord {
  requireAcp(store, acpName);
  const md = metadataTable(store).get(metadataKey(acpName, name));
  if (!md) throw notFound("ACP metadata", `${acpName}/${name}`);
  return md;
}

const metadataOf = (store: Store, acpName: string, name: string) => metadataTable(store).get(metadataKey(acpName, name))?.payload;

/** The record as the API answers it, with the payloads of the named metadata records injected. */
function view(store: Store, acp: StoredAcp, metadataNames: string[] = []): Acp {
  const { status: _s, edge_app_version: _v, ...rest } = acp;
  const metadata: Record<string, unknown> = {};
  for (const n of metadataNames) {
    const payload = metadataOf(store, acp.name, n);
    if (payload) metadata[n] = payload;
  }
  return { ...rest, metadata };
}

const isReachable = (state: string) => REACHABLE_STATES.includes(state);

// ---------------------------------------------------------------------------------------------
// Registration

/**
 * Registers a compute node (or refreshes the registration of a known one: fields sent replace
 * the stored ones, `created` stays). Validates the input and throws a 400 naming the field.
 */
export function registerAcp(store: Store, input: AcpRegistration, now: string): AcpRecord {
  const r = parseOrThrow(AcpRegistration, input, "acp");
  const current = acpTable(store).get(r.name);
  const settings = Object.fromEntries(
    Object.keys(ACP_SETTING_DEFAULTS).map((k) => {
      const key = k as keyof typeof ACP_SETTING_DEFAULTS;
      return [key, r[key] ?? current?.[key] ?? ACP_SETTING_DEFAULTS[key]];
    }),
  ) as Pick<Acp, keyof typeof ACP_SETTING_DEFAULTS>;
  const status: AcpStatusDetail = r.status
    ? { state: r.status.state, message: r.status.message ?? "", warnings: r.status.warnings ?? [], last_seen: r.status.last_seen === undefined ? now : r.status.last_seen }
    : (current?.status ?? { state: "online", message: "", warnings: [], last_seen: now });
  const record: StoredAcp = {
    name: r.name,
    title: r.title ?? current?.title ?? r.name,
    cluster_name: r.cluster_name ?? current?.cluster_name ?? r.name,
    node_name: r.node_name ?? current?.node_name ?? r.name,
    svc_info: r.svc_info ?? current?.svc_info ?? { version: PLATFORM_EDGE_APP_VERSION },
    system_info: r.system_info ?? current?.system_info ?? {},
    network_info: r.network_info ?? current?.network_info ?? [],
    location: r.location !== undefined ? r.location : (current?.location ?? null),
    ...settings,
    created: current?.created ?? r.created ?? now,
    updated: r.updated ?? now,
    status,
    edge_app_version: r.edge_app_version ?? current?.edge_app_version ?? PLATFORM_EDGE_APP_VERSION,
  };
  return view(store, acpTable(store).put(record.name, record));
}

// ---------------------------------------------------------------------------------------------
// Status

const statusView = (acp: StoredAcp, status: AcpStatusDetail = acp.status) => ({ name: acp.name, status });

/** What the node answers when asked now (see the design notes at the top). */
function liveStatus(acp: StoredAcp, nowMs: number, now: string): AcpStatusDetail {
  const s = acp.status;
  if (!isReachable(s.state)) return s;
  const seen = s.last_seen ? Date.parse(s.last_seen) : NaN;
  const fresh = Number.isFinite(seen) && nowMs - seen <= 3 * acp.status_scrape_interval * 1000;
  if (fresh) return { ...s, last_seen: now };
  return { ...s, state: "offline", message: `the node did not answer; last seen ${s.last_seen ?? "never"}` };
}

function statusFor(ctx: HandlerContext, acp: StoredAcp, source: "cache" | "live"): AcpStatusDetail {
  return source === "live" ? liveStatus(acp, ctx.nowMs, ctx.now) : acp.status;
}

// ---------------------------------------------------------------------------------------------
// Metrics

/** A small deterministic generator seeded from the node's name. */
function seededRandom(seed: string): () => number {
  const h = createHash("sha256").update(seed).digest();
  let state = h.readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GIB = 1024 ** 3;
const SAMPLES = 12;
const SAMPLE_STEP_MS = 5 * 60 * 1000;
const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

function generateMetrics(acp: StoredAcp) {
  const rnd = seededRandom(acp.name);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const cpuCapacity = pick([2, 4, 8, 16] as const);
  const memoryCapacity = pick([4, 8, 16, 32] as const) * GIB;
  const diskTotal = pick([64, 128, 256, 512] as const) * GIB;
  const anchor = Date.parse(acp.status.last_seen ?? acp.created);
  const end = Math.floor((Number.isFinite(anchor) ? anchor : 0) / 60000) * 60000;
  const sample = (base: number, spread: number, max: number) =>
    Array.from({ length: SAMPLES }, (_, i) => ({
      timestamp: end - (SAMPLES - 1 - i) * SAMPLE_STEP_MS,
      value: round(Math.min(max, Math.max(0, base + (rnd() - 0.5) * spread))),
    }));
  const cpuBase = 10 + rnd() * 50;
  const memoryBase = memoryCapacity * (0.3 + rnd() * 0.4);
  return {
    allocation: {
      cpu_capacity: cpuCapacity,
      cpu_requests: round(cpuCapacity * (0.2 + rnd() * 0.5)),
      memory_capacity: memoryCapacity,
      memory_requests: Math.round(memoryCapacity * (0.2 + rnd() * 0.5)),
    },
    cpu_utilization: sample(cpuBase, 20, 100),
    memory_usage: sample(memoryBase, memoryCapacity * 0.1, memoryCapacity).map((p) => ({ ...p, value: Math.round(p.value) })),
    disk: { total_bytes: diskTotal, used_bytes: Math.round(diskTotal * (0.1 + rnd() * 0.6)) },
    network: { total_rx: Math.round(rnd() * 50 * GIB), total_tx: Math.round(rnd() * 20 * GIB) },
  };
}

// ---------------------------------------------------------------------------------------------
// Metadata

/** Bulk metadata operations apply what they can and answer 207 with every result when any item fails. */
const BULK_CREATE: MultiStatusOptions = { okStatus: 201, allFailed: "report" };
const BULK_DELETE: MultiStatusOptions = { okStatus: 200, allFailed: "report" };

function createMetadata(ctx: HandlerContext, acpName: string, name: string, payload: Record<string, unknown>): AcpMetadataRecord {
  requireAcp(ctx.store, acpName);
  const key = metadataKey(acpName, name);
  if (metadataTable(ctx.store).has(key)) {
    throw conflict(`ACP '${acpName}' already has metadata '${name}'; update it or choose another name`);
  }
  return metadataTable(ctx.store).put(key, { acp_name: acpName, name, payload, created: ctx.now, updated: ctx.now });
}

function deleteMetadata(store: Store, acpName: string, name: string): void {
  requireMetadata(store, acpName, name);
  metadataTable(store).delete(metadataKey(acpName, name));
}

/** The (ACP, metadata name) pairs a bulk delete targets; a name no node has is reported alone. */
function bulkDeleteTargets(store: Store, names: string[], acpNames: string[] | undefined): Array<{ acp?: string; name: string }> {
  if (acpNames) return acpNames.flatMap((acp) => names.map((name) => ({ acp, name })));
  return names.flatMap((name) => {
    const holders = metadataTable(store).filter((m) => m.name === name);
    return holders.length ? holders.map((m) => ({ acp: m.acp_name, name })) : [{ name }];
  });
}

// ---------------------------------------------------------------------------------------------
// Routes

const acpSort = {
  "acp.name": (a) => a.name,
  "acp.title": (a) => a.title,
  "acp.created": (a) => a.created,
  "acp.updated": (a) => a.updated,
  status_state: (a) => a.status.state,
  status_last_seen: (a) => a.status.last_seen,
} satisfies SortGetters<typeof ep.list, StoredAcp>;

export const area: AreaModule = {
  routes: [
    route(ep.list, (ctx) => {
      const q = ctx.query;
      const rows = acpTable(ctx.store).filter(
        (a) =>
          inFilter(q.names, a.name) &&
          matchesSearch(q.search, a.name, a.title) &&
          (q.connected === undefined || isReachable(a.status.state) === q.connected) &&
          matchesMetadataFilter(q.metadata_filter, (n) => metadataOf(ctx.store, a.name, n)),
      );
      return inventoryList(rows, q, { key: (a) => a.name, sort: acpSort, item: (a) => view(ctx.store, a, q.metadata) });
    }),

    route(ep.get, (ctx) => view(ctx.store, requireAcp(ctx.store, ctx.params.acp_name), ctx.query.metadata)),

    route(ep.update, (ctx) => {
      const current = requireAcp(ctx.store, ctx.params.acp_name);
      const sent = Object.fromEntries(Object.entries(ctx.body).filter(([, v]) => v !== null && v !== undefined));
      const next: StoredAcp = { ...current, ...sent, updated: ctx.now };
      return view(ctx.store, acpTable(ctx.store).put(current.name, next));
    }),

    route(ep.delete, (ctx) => {
      const acp = requireAcp(ctx.store, ctx.params.acp_name);
      for (const md of metadataTable(ctx.store).filter((m) => m.acp_name === acp.name)) {
        metadataTable(ctx.store).delete(metadataKey(md.acp_name, md.name));
      }
      // The status lives on the record, so it goes with it.
      acpTable(ctx.store).delete(acp.name);
      return undefined;
    }),

    route(ep.metadataCreate, (ctx) => createMetadata(ctx, ctx.params.acp_name, ctx.body.name, ctx.body.payload)),

    route(ep.metadataBulkCreate, (ctx) =>
      multiStatus(
        ctx.body.map((item) => attempt(`${item.acp_name}/${item.name}`, BULK_CREATE.okStatus, () => createMetadata(ctx, item.acp_name, item.name, item.payload))),
        BULK_CREATE,
      ),
    ),

    route(ep.metadataGet, (ctx) => requireMetadata(ctx.store, ctx.params.acp_name, ctx.params.acp_metadata_name)),

    route(ep.metadataList, (ctx) => {
      const acp = requireAcp(ctx.store, ctx.params.acp_name);
      const rows = metadataTable(ctx.store).filter((m) => m.acp_name === acp.name && matchesSearch(ctx.query.search, m.name));
      return inventoryList(rows, ctx.query, {
        key: (m) => metadataKey(m.acp_name, m.name),
        sort: { "acp_metadata.name": (m) => m.name, "acp_metadata.acp_name": (m) => m.acp_name },
      });
    }),

    route(ep.metadataUpdate, (ctx) => {
      const md = requireMetadata(ctx.store, ctx.params.acp_name, ctx.params.acp_metadata_name);
      return metadataTable(ctx.store).put(metadataKey(md.acp_name, md.name), { ...md, payload: ctx.body.payload, updated: ctx.now });
    }),

    route(ep.metadataDelete, (ctx) => {
      deleteMetadata(ctx.store, ctx.params.acp_name, ctx.params.acp_metadata_name);
      return undefined;
    }),

    route(ep.metadataBulkDelete, (ctx) =>
      multiStatus(
        bulkDeleteTargets(ctx.store, ctx.body.names, ctx.body.acp_names).map((t) =>
          t.acp === undefined
            ? failure(t.name, errors.NOT_FOUND(`no ACP has metadata '${t.name}'`))
            : attempt(`${t.acp}/${t.name}`, BULK_DELETE.okStatus, () => deleteMetadata(ctx.store, t.acp as string, t.name)),
        ),
        BULK_DELETE,
      ),
    ),

    route(ep.metricsGet, (ctx) => generateMetrics(requireAcp(ctx.store, ctx.params.acp_name))),

    route(ep.statusGet, (ctx) => {
      const acp = requireAcp(ctx.store, ctx.params.acp_name);
      return statusView(acp, statusFor(ctx, acp, ctx.query.source));
    }),

    route(ep.statusList, (ctx) => {
      const q = ctx.query;
      const rows = acpTable(ctx.store)
        .filter((a) => inFilter(q.acp_names, a.name) && matchesSearch(q.search, a.name, a.title))
        .map((a) => statusView(a, statusFor(ctx, a, q.source)));
      return inventoryList(rows, q, { key: (s) => s.name, sort: { "acp.status": (s) => s.status.state } });
    }),

    route(ep.statusUpdate, (ctx) => {
      const current = requireAcp(ctx.store, ctx.params.acp_name);
      const { state, message, warnings } = ctx.body.status;
      const status: AcpStatusDetail = { state, message: message ?? "", warnings: warnings ?? [], last_seen: ctx.now };
      // A status report is not a change of the node's settings: `updated` stays.
      return statusView(acpTable(ctx.store).put(current.name, { ...current, status }));
    }),

    route(ep.statusCount, (ctx) => {
      let online = 0;
      let total = 0;
      for (const a of acpTable(ctx.store).values()) {
        total++;
        if (isReachable(a.status.state)) online++;
      }
      return { online, offline: total - online, total };
    }),

    route(ep.edgeAppsVersionGet, (ctx) => {
      const acp = requireAcp(ctx.store, ctx.params.acp_name);
      return {
        edge_app_version: acp.edge_app_version,
        has_updates: semver.lt(acp.edge_app_version, PLATFORM_EDGE_APP_VERSION),
        platform_version: PLATFORM_EDGE_APP_VERSION,
      };
    }),

    route(ep.edgeAppsForceUpdate, (ctx) => {
      const acp = requireAcp(ctx.store, ctx.params.acp_name);
      acpTable(ctx.store).put(acp.name, {
        ...acp,
        edge_app_version: PLATFORM_EDGE_APP_VERSION,
        svc_info: { ...acp.svc_info, version: PLATFORM_EDGE_APP_VERSION },
        updated: ctx.now,
      });
      return undefined;
    }),
  ],
};
