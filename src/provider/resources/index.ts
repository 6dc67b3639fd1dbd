/** Every resource kind the provider serves, by name (the name the serialized shim carries). */
import type { Kind } from "../kind";
import { appKind } from "./app";
import { appParameterValuesKind } from "./app-parameter-values";
import { appVersionKind } from "./app-version";
import { assetKind } from "./asset";
import { assetMetadataKind, assetPropertyKind } from "./asset-property";
import { assetClassKind, assetTypeKind } from "./asset-type";
import { bridgeKind } from "./bridge";
import { clusterKind } from "./cluster";
import { dataTypeKind } from "./data-type";
import { instanceSettingsKind } from "./instance-settings";
import { dataLabelKind, labelKind } from "./label";
import { parameterScheduleKind } from "./parameter-schedule";
import { workloadKind } from "./workload";

export const kinds: Record<string, Kind> = Object.fromEntries(
  [
    appKind,
    appVersionKind,
    appParameterValuesKind,
    assetKind,
    assetClassKind,
    assetMetadataKind,
    assetPropertyKind,
    assetTypeKind,
    bridgeKind,
    clusterKind,
    dataLabelKind,
    dataTypeKind,
    instanceSettingsKind,
    labelKind,
    parameterScheduleKind,
    workloadKind,
  ].map((k): [string, Kind] => [k.name, k]),
);

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
