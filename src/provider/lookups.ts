/**
 * Lookups for programs: typed records read through the same client and configuration as the
 * provider (stack config `svc:*`, else SVC_* variables). They run in the program's process, the
 * resources in the provider host's: with `svc:emulator` both use the one embedded emulator of the
 * state file, whichever process serves it (see embedded.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { apps } from "../api/apps";
import { assets } from "../api/assets";
import { clusters } from "../api/clusters";
import { workloads } from "../api/workloads";
import type { CallOutput, ListItem, SvcClient } from "../client";
import type { AppRecord, AppVersionRecord, AssetRecord, ClusterRecord, WorkloadRecord } from "./records";
import { proves, type Same } from "./wire-types";

export type { AppRecord, AppVersionRecord, AssetRecord, ClusterRecord, WorkloadRecord } from "./records";

// The records are plain types (records.ts), so that the main entry's declarations do not reach zod or
// the table; these prove them the table's (scripts/record-types.js writes them again when the table changes).
proves<Same<AppRecord, CallOutput<typeof apps.get>>>();
proves<Same<AppVersionRecord, CallOutput<typeof apps.versionGet>>>();
proves<Same<WorkloadRecord, CallOutput<typeof workloads.get>>>();
proves<Same<AssetRecord, CallOutput<typeof assets.get>>>();
proves<Same<AssetRecord, ListItem<typeof assets.list>>>();
proves<Same<ClusterRecord, CallOutput<typeof clusters.get>>>();

let configuredWith: string | undefined;

/**
 * The client of the program's lookups: the provider runtime's, configured from the stack config once
 * per process, and again when the configuration changed (a test running several stacks in one process).
 */
async function client(): Promise<SvcClient> {
  const { configure, shutdown, client: runtimeClient } = await import("./runtime");
  const all = pulumi.runtime.allConfig();
  const fingerprint = JSON.stringify(
    Object.entries(all)
      .filter(([k]) => k.startsWith("svc:"))
      .sort(),
  );
  const changed = configuredWith !== undefined && configuredWith !== fingerprint;
  configuredWith = fingerprint;
  if (changed) await shutdown();
  const cfg = new pulumi.Config("svc");
  await configure({
    config: { get: (key: string) => cfg.get(key.replace(/^svc:/, "")), keys: () => Object.keys(all) },
    warn: (message) => void pulumi.log.warn(message),
  });
  // A configuration or credentials error is reported by the call.
  return runtimeClient();
}

/**
 * The app as the platform holds it now: title, description, category, type, latest version,
 * status and audit fields. Fails with the platform's 404 when no app has this name.
 */
export async function getApp(name: string): Promise<AppRecord> {
  return (await client()).call(apps.get, { params: { app_name: name } });
}

/** One version of an app (`version` a semantic version such as `1.2.0`) with its full manifest as the platform holds it. Fails with a 404 when it does not exist. */
export async function getAppVersion(appName: string, version: string): Promise<AppVersionRecord> {
  return (await client()).call(apps.versionGet, { params: { app_name: appName, app_version: version } });
}

/** The workload as the platform holds it now: its app version, cluster, runtime, lifecycle status and staged version. Fails with a 404 when it does not exist. */
export async function getWorkload(name: string): Promise<WorkloadRecord> {
  return (await client()).call(workloads.get, { params: { workload_name: name } });
}

/** The asset as the platform holds it now: type, parent, path, location, status, properties and metadata. Fails with a 404 when it does not exist. */
export async function getAsset(name: string): Promise<AssetRecord> {
  return (await client()).call(assets.get, { params: { asset_name: name } });
}

/** The cluster as the platform holds it now: type, status, settings, networks and versions. Fails with a 404 when it does not exist. */
export async function getCluster(name: string): Promise<ClusterRecord> {
  return (await client()).call(clusters.get, { params: { cluster_name: name } });
}

/** Which assets {@link listAssets} returns: every given criterion must match; none given lists every asset. */
export interface AssetFilter {
  /** Only assets with one of these names. */
  names?: string[];
  /** Only assets of one of these asset types. */
  assetTypeNames?: string[];
  /** Only assets whose name or title contains one of these texts. */
  search?: string[];
  /** Only assets in one of these connection states. */
  statusStates?: Array<"online" | "offline" | "partially_online" | "unknown">;
}

/** Every asset matching the filter, read page by page. */
export async function listAssets(filter: AssetFilter = {}): Promise<AssetRecord[]> {
  const c = await client();
  const out: AssetRecord[] = [];
  const query = { names: filter.names, asset_type_name: filter.assetTypeNames, search: filter.search, status_state: filter.statusStates };
  for await (const a of c.paginate(assets.list, { query })) out.push(a);
  return out;
}
