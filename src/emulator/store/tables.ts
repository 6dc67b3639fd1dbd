/**
 * Table names, key conventions, and the fields of each record that other areas rely on. Each area
 * owns its tables and its full record types; another area reads only the fields listed here.
 */
import type { Store } from "./store";

export const TABLES = {
  // Part 1
  apps: "apps", // key: app name
  appVersions: "app_versions", // key: appVersionKey(app, version)
  appResources: "app_resources", // key: `${app}\u0000${krn}`
  parameters: "parameters", // definitions; key: `${app}\u0000${name}`
  parameterValues: "parameter_values", // key: `${app}\u0000${version}\u0000${krn}\u0000${name}`
  parameterHistory: "parameter_history", // key: sequence number
  schedules: "schedules", // key: uuid
  workloads: "workloads", // key: workload name
  // Part 2
  acps: "acps",
  acpMetadata: "acp_metadata",
  registryApps: "registry_apps", // key: app name
  registryVersions: "registry_versions", // key: appVersionKey(app, version)
  registryPackages: "registry_packages",
  assets: "assets", // key: asset name
  assetMetadata: "asset_metadata",
  assetProperties: "asset_properties",
  assetClasses: "asset_classes", // key: class name
  assetTypes: "asset_types", // key: type name
  assetTypeMetadata: "asset_type_metadata",
  bridges: "bridges",
  clusters: "clusters", // key: cluster name
  dataLabels: "data_labels",
  labels: "labels",
  labelMetadata: "label_metadata",
  dataTypes: "data_types",
  instanceSettings: "instance_settings",
  auditLog: "audit_log", // key: String(id); written by the server for every mutating call
} as const;

export const appVersionKey = (app: string, version: string): string => `${app}\u0000${version}`;

/** Fields other areas read. */
export interface AppRef {
  name: string;
  type: string;
  latest_version: string | null;
}
export interface AppVersionRef {
  name: string;
  version: string;
  type: string;
}
export interface AssetRef {
  name: string;
  title: string;
  asset_type_name: string;
  asset_type_title?: string;
  status?: { state: string; last_seen?: string | null };
}
export interface RegistryAppRef {
  name: string;
  type: string;
  latest_version: string | null;
}
export interface ClusterRef {
  name: string;
}
export interface WorkloadRef {
  name: string;
  app_name: string;
  app_version: string;
  cluster_name: string;
  node_name?: string | null;
  runtime?: { resources?: Array<{ resource: string; parameters?: Record<string, unknown> }> } | null;
}

export const refs = {
  app: (store: Store, name: string) => store.table<AppRef>(TABLES.apps).get(name),
  appVersion: (store: Store, app: string, version: string) => store.table<AppVersionRef>(TABLES.appVersions).get(appVersionKey(app, version)),
  asset: (store: Store, name: string) => store.table<AssetRef>(TABLES.assets).get(name),
  cluster: (store: Store, name: string) => store.table<ClusterRef>(TABLES.clusters).get(name),
  workload: (store: Store, name: string) => store.table<WorkloadRef>(TABLES.workloads).get(name),
  registryApp: (store: Store, name: string) => store.table<RegistryAppRef>(TABLES.registryApps).get(name),
};
