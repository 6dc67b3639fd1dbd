/**
 * The public face of every resource kind: its class and its args. Loading a module registers its
 * kinds (see ../registry.ts); a new kind is its module and its line here.
 */
export { App, type AppArgs } from "./app";
export { AppParameterValues, type AppParameterValuesArgs } from "./app-parameter-values";
export { AppVersion, type AppVersionArgs, loadManifest } from "./app-version";
export { Asset, type AssetArgs } from "./asset";
export { AssetMetadata, AssetProperty, type AssetMetadataArgs, type AssetPropertyArgs } from "./asset-property";
export { AssetClass, AssetType, type AssetClassArgs, type AssetTypeArgs } from "./asset-type";
export { Bridge, type BridgeArgs } from "./bridge";
export { Cluster, type ClusterArgs } from "./cluster";
export { DataType, type DataTypeArgs } from "./data-type";
export { InstanceSettings, type InstanceSettingsArgs } from "./instance-settings";
export { DataLabel, Label, type DataLabelArgs, type LabelArgs } from "./label";
export { ParameterSchedule, type ParameterScheduleArgs } from "./parameter-schedule";
export { Workload, type WorkloadArgs } from "./workload";
export type {
  AppManifest,
  AppManifestCustomAction,
  AppManifestDataQuality,
  AppManifestDefaults,
  AppManifestDynamicIo,
  AppManifestFlags,
  AppManifestIo,
  AppManifestParameter,
  AppManifestSchemas,
  AppVersionDefaults,
  AppVersionSchemas,
  DeploymentTarget,
  DeploymentType,
  IoConfigurationSchema,
  IoDatastreamMapping,
  IoStorage,
  IoWay,
  WorkloadApiPermissions,
  WorkloadDatastreamSettings,
  WorkloadRuntime,
  WorkloadRuntimeAsset,
  WorkloadRuntimeDatastream,
  WorkloadRuntimeResource,
  WorkloadSystem,
} from "./contract-types";
