/**
 * Bridges. A deploy creates the bridge and its workload (through the shared workload model,
 * areas/workloads/model.ts), and a delete removes both.
 *
 * Design choices where the spec is silent:
 * - The workload is named like the bridge (workload_name = name) and runs on cluster_name;
 *   acp_name mirrors cluster_name (facts §4.7). A deployed bridge is enabled and `running`.
 * - While the workload exists, the bridge's `enabled` and `status` are the workload's (so stopping
 *   the workload shows on the bridge); if the workload was removed elsewhere, the bridge keeps the
 *   last values it had.
 * - Without app_version the bridge runs the app's latest version in the app registry (or else in
 *   the apps area); when neither knows the app, app_version is required (400).
 * - protocol defaults to the payload's `protocol` when that is a string, else "".
 * - What a bridge serves is read from its payload's `metrics_map`: an array of
 *   `{ name, asset_name, data_type?: boolean|number|object|string [number], access?: RO|RW [RO],
 *   configuration?: object }`, unique per (asset_name, name). Each entry is one data stream
 *   (`{ bridge_name, asset_name, name, data_type, access, configuration }`); the bridge's assets are
 *   the distinct asset names, shown from the asset records (assets that do not exist are left out).
 */
import type { z } from "zod";
import type { Bridge, BridgeDeploy } from "../../../api/bridges";
import { conflict, invalidField, notFound } from "../../../api/errors";
import type { HandlerContext } from "../../handler";
import type { Store } from "../../store/store";
import { TABLES, refs, type AssetRef } from "../../store/tables";
import { insertWorkload } from "../workloads/model";

export interface MetricsMapEntry {
  name: string;
  asset_name: string;
  data_type?: "boolean" | "number" | "object" | "string";
  access?: "RO" | "RW";
  configuration?: Record<string, unknown>;
}

export const table = (store: Store) => store.table<Bridge>(TABLES.bridges);

export function requireBridge(store: Store, bridgeName: string): Bridge {
  const b = table(store).get(bridgeName);
  if (!b) throw notFound("bridge", bridgeName);
  return b;
}

export const metricsMap = (b: Bridge): MetricsMapEntry[] => (b.payload.metrics_map as MetricsMapEntry[] | undefined) ?? [];

// ---------------------------------------------------------------------------------------------
// Deploy

/** The version to run: the one sent, else the app's latest in the registry or the apps area. */
export function resolveAppVersion(store: Store, appName: string, sent: string | null | undefined): string {
  if (sent) return sent;
  const latest = refs.registryApp(store, appName)?.latest_version ?? refs.app(store, appName)?.latest_version;
  if (!latest) {
    throw invalidField("body.app_version", `is required: app '${appName}' has no version in the app registry or the apps`);
  }
  return latest;
}

export function deploy(ctx: HandlerContext, body: z.output<typeof BridgeDeploy>): Bridge {
  if (table(ctx.store).has(body.name)) throw conflict(`bridge '${body.name}' already exists; delete it first or choose another name`);
  const appVersion = resolveAppVersion(ctx.store, body.app_name, body.app_version);
  const workload = insertWorkload(ctx, {
    name: body.name,
    title: body.title ?? undefined,
    app_name: body.app_name,
    app_version: appVersion,
    cluster_name: body.cluster_name,
    node_name: body.node_name ?? undefined,
    enabled: true,
    payload: body.payload,
  });
  const payloadProtocol = body.payload.protocol;
  const bridge: Bridge = {
    name: body.name,
    title: body.title ?? body.name,
    protocol: body.protocol ?? (typeof payloadProtocol === "string" ? payloadProtocol : ""),
    acp_name: body.cluster_name,
    cluster_name: body.cluster_name,
    node_name: body.node_name ?? null,
    workload_name: workload.name,
    app_name: body.app_name,
    app_version: appVersion,
    enabled: workload.enabled,
    status: workload.status,
    payload: body.payload,
    created: ctx.now,
    updated: ctx.now,
  };
  return table(ctx.store).put(bridge.name, bridge);
}

export interface AssetRecord extends AssetRef {
  created?: string;
  updated?: string;
}

export function servedAssets(store: Store, b: Bridge): AssetRecord[] {
  const names = [...new Set(metricsMap(b).map((m) => m.asset_name))];
  return names.map((n) => refs.asset(store, n)).filter((a): a is AssetRecord => a !== undefined);
}
