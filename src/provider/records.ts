// Written by scripts/record-types.js from the endpoint table; do not edit (lookups.ts proves each type equal to the table's).

/** An app as the platform answers `getApp` (snake_case, as the API writes it). */
export type AppRecord = {
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
  name: string;
  title: string;
  description: string;
  type: "app" | "importer" | "exporter" | "docker";
  latest_version: string | null;
  status: "running" | "stopped" | "updating" | "requires_attention";
  versions: { version: string; created_at: string; created_by: string }[];
  deployment: { status: "running" | "stopped" | "updating" | "requires_attention"; resource_count: { total: number; running: number } };
  category?: string | undefined;
};

/** An app version with its manifest, as the platform answers `getAppVersion`. */
export type AppVersionRecord = {
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
  name: string;
  title: string;
  description: string;
  type: "app" | "importer" | "exporter" | "docker";
  version: string;
  flags: {
    enable_runtime_update: { io: boolean; configuration: boolean; resource_parameters: boolean; resource_properties: boolean };
    spec_version?: string | undefined;
    deployment?: { allowed_resources?: string[] | undefined } | undefined;
    resources_required?: boolean | undefined;
  };
  category?: string | undefined;
  image?: string | { mode: "undefined" | "auto" | "manual"; uri: string | undefined } | undefined;
  io?:
    | {
        name: string;
        data_type: string;
        way: "input" | "output" | "input-cc" | "input-cc+output" | "output-cc" | "input+output-cc";
        storage: "none" | "node-and-cloud" | "node";
        unit?: string | undefined;
      }[]
    | undefined;
  dynamic_io?: { type_name: string; ownership: "both" | "owned" | "remote"; type: "both" | "data" | "control"; data_types?: string[] | undefined }[] | undefined;
  parameters?: { name: string; title?: string | undefined; data_type?: "string" | "number" | "boolean" | undefined; default?: string | number | boolean | undefined }[] | undefined;
  schemas?:
    | {
        parameters?: Record<string, unknown> | undefined;
        configuration?: Record<string, unknown> | undefined;
        io_configuration?: { type_name: string; schema: Record<string, unknown> }[] | undefined;
      }
    | undefined;
  defaults?:
    | {
        deployment?:
          | {
              max_resources?: number | undefined;
              deployment_type?: "standard" | "staged+instant-apply" | "staged-only" | undefined;
              target?: { type?: string | undefined; cluster?: { name: string } | undefined } | undefined;
            }
          | undefined;
        app?: { configuration?: Record<string, unknown> | undefined; io_datastream_mapping?: { io: string; datastream: string }[] | undefined } | undefined;
        system?: Record<string, unknown> | undefined;
        api_permissions?: unknown;
      }
    | undefined;
  custom_actions?: { type: string; way: "input-ca" | "output-ca" }[] | undefined;
  data_quality?: { name: string; data_type: string; way: "input" | "output"; datastreams: string[] }[] | undefined;
};

/** A workload as the platform answers `getWorkload`. */
export type WorkloadRecord = {
  staged: {
    ready: boolean;
    app_version: string;
    status: {
      message: string;
      state:
        | "running"
        | "stopped"
        | "downloading"
        | "ready"
        | "failed"
        | "pending_deploy"
        | "pending_update"
        | "pending_start"
        | "pending_stop"
        | "pending_apply"
        | "deploying"
        | "stopping"
        | "starting"
        | "applying"
        | "received"
        | "unreachable"
        | "staged";
      warnings: string[];
    };
    payload: Record<string, unknown>;
    instantly_apply: boolean;
  } | null;
  runtime: { resources: unknown[]; configuration: Record<string, unknown>; datastreams?: unknown[] | undefined };
  system: Record<string, unknown> | null;
  api_permissions: unknown;
  enabled: boolean;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
  name: string;
  title: string;
  app_name: string;
  app_version: string;
  app_type: "app" | "importer" | "exporter" | "docker";
  cluster_name: string;
  node_name: string | null;
  download_status: "pending" | "scheduled" | "processing" | "downloading" | "ready" | "failed";
  download_error: string | null;
  status: {
    state:
      | "running"
      | "stopped"
      | "downloading"
      | "ready"
      | "failed"
      | "pending_deploy"
      | "pending_update"
      | "pending_start"
      | "pending_stop"
      | "pending_apply"
      | "deploying"
      | "stopping"
      | "starting"
      | "applying"
      | "received"
      | "unreachable"
      | "staged";
    message: string;
    last_seen: string | null;
    warnings: string[];
  };
};

/** An asset as the platform answers `getAsset` and lists it (`listAssets`). */
export type AssetRecord = {
  created: string;
  updated: string;
  name: string;
  title: string;
  path: string;
  asset_type_name: string;
  asset_type_title: string;
  asset_parent_name: string | null;
  location: { lat: number; lon: number } | null;
  metadata: Record<string, unknown>;
  status: { state: "unknown" | "online" | "offline" | "partially_online"; last_seen?: string | undefined };
  properties: { name: string; title: string; value: string }[];
};

/** A cluster as the platform answers `getCluster`. */
export type ClusterRecord = {
  created: string;
  updated: string;
  upgrade_instantly_apply: boolean;
  upgrade_pre_download: boolean;
  upgrade_status: { message: string; state: "downloading" | "ready" | "idle" };
  version: { k8s_version: string; svc_version: string };
  api_credentials: { username: string | null; password_set: boolean };
  edge_apps: {
    edge_ui?: { disabled?: boolean | undefined } | undefined;
    edge_ccm?: { disabled?: boolean | undefined } | undefined;
    edge_k8s?: { disabled?: boolean | undefined } | undefined;
    edge_info?: { disabled?: boolean | undefined } | undefined;
    edge_mqtt?: { disabled?: boolean | undefined; expose?: boolean | undefined; anonymous?: boolean | undefined } | undefined;
    edge_nats?: { disabled?: boolean | undefined } | undefined;
    edge_sync?: { disabled?: boolean | undefined } | undefined;
    edge_leader_api?: { disabled?: boolean | undefined } | undefined;
    edge_custom_action_manager?: { disabled?: boolean | undefined } | undefined;
  };
  edge_options: { image_pull_policy: "Always" | "IfNotPresent" };
  forward_logs_enabled: boolean;
  forward_logs_buffer_size: number;
  manifests_scrape_enabled: boolean;
  manifests_scrape_interval: number;
  sync_scrape_interval: number;
  telemetry_enabled: boolean;
  telemetry_buffer_size: number;
  telemetry_scrape_interval: number;
  telemetry_alerts_enabled: boolean;
  name: string;
  title: string;
  type: "docker" | "k3s" | "kubernetes";
  status: "requires_attention" | "pending" | "unreachable" | "online" | "pending_provision";
  ready: boolean;
  last_seen: string | null;
  kubeconfig: string;
  cidr: { pod_cidr: string; service_cidr: string };
  info: Record<string, unknown>;
  svc_info: Record<string, unknown>;
  network_info: Record<string, unknown>;
  system_info: Record<string, unknown>;
  join_script: string;
  provision_script: string;
  service_account_token: string;
};

/** An asset class as the platform answers `getAssetClass`. */
export type AssetClassRecord = { created: string; updated: string; name: string; title: string };

/** An asset type as the platform answers `getAssetType`. */
export type AssetTypeRecord = { created: string; updated: string; name: string; title: string; asset_class_name: string | null; metadata: Record<string, unknown> };

/** A label as the platform answers `getLabel`. */
export type LabelRecord = { created: string; updated: string; name: string; title: string; metadata: Record<string, unknown> };

/** One version of a data type as the platform answers `getDataType`. */
export type DataTypeRecord = {
  created: string;
  updated: string;
  name: string;
  type: string;
  version: string;
  source: string;
  connect: boolean;
  schema: Record<string, unknown>;
  icd: { name: string; version: string; class_name: string; description: string; fields: { name: string; type: string; description: string; array: boolean }[] };
};
