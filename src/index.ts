/**
 * pulumi-svc: Pulumi resources for the platform HTTP API v4.
 *
 *   import * as svc from "pulumi-svc";
 *   const cluster = new svc.Cluster("plant-a", { name: "plant-a" });
 *
 * The typed client is `pulumi-svc/client`, the emulator `pulumi-svc/emulator`, the test kit `pulumi-svc/testing`.
 */
export * from "./provider/resources";
export {
  getApp,
  getAppVersion,
  getWorkload,
  getAsset,
  getCluster,
  getAssetClass,
  getAssetType,
  getLabel,
  getDataType,
  listAssets,
  isLookupNotFound,
  type LookupNotFoundError,
  type AssetFilter,
  type AppRecord,
  type AppVersionRecord,
  type AssetRecord,
  type AssetClassRecord,
  type AssetTypeRecord,
  type ClusterRecord,
  type DataTypeRecord,
  type LabelRecord,
  type WorkloadRecord,
} from "./provider/lookups";
