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
import type { z } from "zod";
import { ACP_SETTING_DEFAULTS, AcpRegistration, REACHABLE_STATES, type Acp, type AcpStatusDetail as AcpStatusDetailSchema } from "../../../api/acps";
import { conflict, notFound } from "../../../api/errors";
import type { WriteContext } from "../../handler";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";
import { mulberry32 } from "../../seeded-random";
import { parseOrThrow } from "../../validate";

/** The edge-app version the platform ships. */
export const PLATFORM_EDGE_APP_VERSION = "4.0.0";

/** A node's status as stored: the API's status detail (its state one of the spec's states). */
export type AcpStatusDetail = z.output<typeof AcpStatusDetailSchema>;

export interface StoredAcp extends Omit<Acp, "metadata"> {
  status: AcpStatusDetail;
  /** The edge-app version the node runs; answered by the edge-apps version get. */
  edge_app_version: string;
}

export interface AcpMetadataRecord {
  acp_name: string;
  name: string;
  payload: Record<string, unknown>;
  created: string;
  updated: string;
}

/** What `registerAcp` answers: the record as the API shows it. */
export type AcpRecord = Acp;

export const acpTable = (store: Store) => store.table<StoredAcp>(TABLES.acps);
export const metadataTable = (store: Store) => store.table<AcpMetadataRecord>(TABLES.acpMetadata);
export const metadataKey = (acp: string, name: string) => `${acp}\u0000${name}`;

export function requireAcp(store: Store, acpName: string): StoredAcp {
  const acp = acpTable(store).get(acpName);
  if (!acp) throw notFound("ACP", acpName);
  return acp;
}

export function requireMetadata(store: Store, acpName: string, name: string): AcpMetadataRecord {
  requireAcp(store, acpName);
  const md = metadataTable(store).get(metadataKey(acpName, name));
  if (!md) throw notFound("ACP metadata", `${acpName}/${name}`);
  return md;
}

export const metadataOf = (store: Store, acpName: string, name: string) => metadataTable(store).get(metadataKey(acpName, name))?.payload;

/** The record as the API answers it, with the payloads of the named metadata records injected. */
export function acpView(store: Store, acp: StoredAcp, metadataNames: string[] = []): Acp {
  const { status: _s, edge_app_version: _v, ...rest } = acp;
  const metadata: Record<string, unknown> = {};
  for (const n of metadataNames) {
    const payload = metadataOf(store, acp.name, n);
    if (payload) metadata[n] = payload;
  }
  return { ...rest, metadata };
}

export const isReachable = (state: string) => REACHABLE_STATES.includes(state);

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
  return acpView(store, acpTable(store).put(record.name, record));
}

/** What the node answers when asked now (see the design notes at the top). */
export function liveStatus(acp: StoredAcp, nowMs: number, now: string): AcpStatusDetail {
  const s = acp.status;
  if (!isReachable(s.state)) return s;
  const seen = s.last_seen ? Date.parse(s.last_seen) : NaN;
  const fresh = Number.isFinite(seen) && nowMs - seen <= 3 * acp.status_scrape_interval * 1000;
  if (fresh) return { ...s, last_seen: now };
  return { ...s, state: "offline", message: `the node did not answer; last seen ${s.last_seen ?? "never"}` };
}

// ---------------------------------------------------------------------------------------------
// Metrics

/** A small deterministic generator seeded from the node's name. */
const seededRandom = (seed: string): (() => number) => mulberry32(createHash("sha256").update(seed).digest().readUInt32LE(0));

const GIB = 1024 ** 3;
const SAMPLES = 12;
const SAMPLE_STEP_MS = 5 * 60 * 1000;
const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

export function generateMetrics(acp: StoredAcp) {
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

export function createMetadata(ctx: WriteContext, acpName: string, name: string, payload: Record<string, unknown>): AcpMetadataRecord {
  requireAcp(ctx.store, acpName);
  const key = metadataKey(acpName, name);
  if (metadataTable(ctx.store).has(key)) {
    throw conflict(`ACP '${acpName}' already has metadata '${name}'; update it or choose another name`);
  }
  return metadataTable(ctx.store).put(key, { acp_name: acpName, name, payload, created: ctx.now, updated: ctx.now });
}

export function deleteMetadata(store: Store, acpName: string, name: string): void {
  requireMetadata(store, acpName, name);
  metadataTable(store).delete(metadataKey(acpName, name));
}

/** The (ACP, metadata name) pairs a bulk delete targets; a name no node has is reported alone. */
export function bulkDeleteTargets(store: Store, names: string[], acpNames: string[] | undefined): Array<{ acp?: string; name: string }> {
  if (acpNames) return acpNames.flatMap((acp) => names.map((name) => ({ acp, name })));
  return names.flatMap((name) => {
    const holders = metadataTable(store).filter((m) => m.name === name);
    return holders.length ? holders.map((m) => ({ acp: m.acp_name, name })) : [{ name }];
  });
}
