/**
 * The public face of every resource kind: its class and its args, written from the declarations into
 * classes.ts (scripts/kind-classes.js), whose constructors load, and so register, every kind.
 */
export * from "./classes";
export { loadManifest } from "./manifest-file";
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
