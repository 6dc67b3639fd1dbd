/**
 * The nested arg types of the app version and the workload, documented for hover, and proven at
 * compile time to be exactly the API contract's (the zod schemas of src/api): camelCased where the
 * provider converts keys, in the platform's naming where the arg is passed as the platform writes it
 * (the manifest, free-form subtrees). A change of the contract fails the build here until the
 * documented type follows it.
 */
import type { apps } from "../../api/apps";
import type { workloads } from "../../api/workloads";
import { type BodyOf, type CamelCasedDeep, type Same, type WireShaped, proves } from "../wire-types";

/** The way data flows through an IO or datastream: `output`, `input`, `input-cc`, `output-cc`, `input-cc+output` or `input+output-cc`. */
export type IoWay = "output" | "input-cc" | "input-cc+output" | "input" | "output-cc" | "input+output-cc";
/** Where values are stored: `node-and-cloud`, `node` or `none`. */
export type IoStorage = "node-and-cloud" | "node" | "none";
/** How an update is applied: `standard`, `staged+instant-apply` or `staged-only`. */
export type DeploymentType = "standard" | "staged+instant-apply" | "staged-only";

// ---------------------------------------------------------------------------------------------
// Workload runtime

/** Paths of the workload's `runtime` whose values pass through untouched (wire naming). */
export const RUNTIME_FREE = ["configuration", "resources.*.parameters", "resources.*.datastreams"] as const;

/**
 * A workload's runtime settings, camelCase here and snake_case on the platform, except inside
 * `configuration`, a resource's `parameters` and its `datastreams`, which pass through untouched.
 */
export interface WorkloadRuntime {
  /** One entry per asset the workload serves (at most 10000): its KRN, parameter values and datastream settings. Default: none. */
  resources?: WorkloadRuntimeResource[];
  /** The app's configuration: a JSON object passed through untouched (its keys are not converted). Default: the app version's defaults. */
  configuration?: Record<string, unknown>;
  /** The datastreams the workload creates or uses (at most 10000). Default: none. */
  datastreams?: WorkloadRuntimeDatastream[];
}

/** One asset a workload serves. */
export interface WorkloadRuntimeResource {
  /** The asset's KRN, `krn:asset:<asset name>`. */
  resource: string;
  /**
   * Parameter values for this asset: parameter name → number, string (up to 4096 characters) or
   * boolean, names passed through untouched. Present: exactly these values (the others fall back to
   * their defaults); absent: the values the asset has are kept.
   */
  parameters?: Record<string, string | number | boolean>;
  /** Settings per datastream of the asset: IO name (1–128 characters) → settings, passed through untouched. Default: none. */
  datastreams?: Record<string, WorkloadDatastreamSettings>;
  /** The asset as the workload refers to it: name, title and type. Default: none. */
  asset?: WorkloadRuntimeAsset;
}

/** How a workload uses one datastream of an asset. */
export interface WorkloadDatastreamSettings {
  /** The direction: `output`, `input`, `input-cc`, `output-cc`, `input-cc+output` or `input+output-cc`. Default: the IO's. */
  way?: IoWay;
  /** Where the values are stored: `node-and-cloud`, `node` or `none`. Default: the IO's. */
  storage?: IoStorage;
  /** Whether the datastream is remote. Default: the platform's. */
  remote?: boolean;
  /** The datastream's configuration, a JSON object passed through untouched. Default: none. */
  configuration?: Record<string, unknown>;
}

/** An asset as a workload refers to it. */
export interface WorkloadRuntimeAsset {
  /** The asset's name: lowercase letters, digits, '.', '_', '-'; 1–64 characters. Default: none. */
  name?: string;
  /** The asset's title, 1–64 characters. Default: none. */
  title?: string;
  /** The asset's type: its `name` (1–64 characters of lowercase letters, digits, '.', '_', '-') and `title` (1–64 characters). Default: none. */
  type?: {
    /** The asset type's name: lowercase letters, digits, '.', '_', '-'; 1–64 characters. Default: none. */
    name?: string;
    /** The asset type's title, 1–64 characters. Default: none. */
    title?: string;
  };
}

/** A datastream a workload creates or uses. */
export interface WorkloadRuntimeDatastream {
  /** The datastream's name, 1–256 characters. */
  name: string;
  /** The name of its data type, 1–128 characters. */
  dataTypeName: string;
  /** Its semantic type, up to 128 characters. Default: none. */
  semanticTypeName?: string;
  /** Its unit, up to 64 characters. Default: none. */
  unitName?: string;
}

type WorkloadBody = BodyOf<typeof workloads.create>;
proves<Same<WorkloadRuntime, CamelCasedDeep<NonNullable<WorkloadBody["runtime"]>, (typeof RUNTIME_FREE)[number]>>>();
/** The workload's free-form `system` settings, as the contract types them. */
export type WorkloadSystem = Record<string, unknown>;
proves<Same<WorkloadSystem, CamelCasedDeep<NonNullable<WorkloadBody["system"]>>>>();
/** The workload's API permissions, whose shape the contract does not know: a JSON object or list. */
export type WorkloadApiPermissions = Record<string, unknown> | unknown[];
proves<Same<WorkloadApiPermissions, NonNullable<WorkloadBody["api_permissions"]>>>();

// ---------------------------------------------------------------------------------------------
// App version defaults and schemas (args, camelCase)

/** Paths of an app version's `defaults` whose values pass through untouched (wire naming). */
export const DEFAULTS_FREE = ["app.configuration", "system", "api_permissions"] as const;
/** Paths of an app version's `schemas` whose values pass through untouched (wire naming). */
export const SCHEMAS_FREE = ["parameters", "configuration", "io_configuration.*.schema"] as const;

/** Where a deployment goes by default. */
export interface DeploymentTarget {
  /** The kind of target, up to 64 characters. Default: none. */
  type?: string;
  /** The cluster to deploy to: its `name` (lowercase letters, digits, '.', '_', '-'; 1–64 characters). Default: none. */
  cluster?: {
    /** The cluster's name: lowercase letters, digits, '.', '_', '-'; 1–64 characters. */
    name: string;
  };
}

/** An IO of the app mapped to a datastream. */
export interface IoDatastreamMapping {
  /** The IO's name, 1–128 characters. */
  io: string;
  /** The datastream's name, 1–256 characters. */
  datastream: string;
}

/**
 * An app version's deployment defaults, camelCase here and snake_case on the platform, except
 * inside `app.configuration`, `system` and `apiPermissions`, which pass through untouched.
 */
export interface AppVersionDefaults {
  /** How the app deploys by default: `maxResources`, `deploymentType` and `target`. Default: none. */
  deployment?: {
    /** The most assets one workload serves, an integer of at least 1. Default: no limit. */
    maxResources?: number;
    /** How updates apply: `standard`, `staged+instant-apply` or `staged-only`. Default: `standard`. */
    deploymentType?: DeploymentType;
    /** Where deployments go. Default: none. */
    target?: DeploymentTarget;
  };
  /** The app's defaults: `configuration` (passed through untouched) and `ioDatastreamMapping`. Default: none. */
  app?: {
    /** The app's default configuration, a JSON object passed through untouched. Default: none. */
    configuration?: Record<string, unknown>;
    /** IOs mapped to datastreams (at most 10000). Default: none. */
    ioDatastreamMapping?: IoDatastreamMapping[];
  };
  /** Default system settings, a JSON object passed through untouched. Default: none. */
  system?: Record<string, unknown>;
  /** Default API permissions, passed through untouched (the platform's shape is not known). Default: none. */
  apiPermissions?: unknown;
}

/** An IO's configuration schema. */
export interface IoConfigurationSchema {
  /** The IO type the schema is for, 1–128 characters. */
  typeName: string;
  /** The JSON Schema, passed through untouched. */
  schema: Record<string, unknown>;
}

/**
 * An app version's schemas: `parameters` and `configuration` (JSON Schemas, passed through untouched)
 * and `ioConfiguration` (camelCase here, snake_case on the platform).
 */
export interface AppVersionSchemas {
  /** The JSON Schema of the app's parameters, passed through untouched. Default: none. */
  parameters?: Record<string, unknown>;
  /** The JSON Schema of the app's configuration, passed through untouched. Default: none. */
  configuration?: Record<string, unknown>;
  /** A configuration schema per IO type (at most 1000). Default: none. */
  ioConfiguration?: IoConfigurationSchema[];
}

type VersionBody = BodyOf<typeof apps.create>;
proves<Same<AppVersionDefaults, CamelCasedDeep<NonNullable<VersionBody["defaults"]>, (typeof DEFAULTS_FREE)[number]>>>();
proves<Same<AppVersionSchemas, CamelCasedDeep<NonNullable<VersionBody["schemas"]>, (typeof SCHEMAS_FREE)[number]>>>();

// ---------------------------------------------------------------------------------------------
// The app manifest (the platform's naming)

/** The app's flags, in the platform's naming. */
export interface AppManifestFlags {
  /** The manifest's spec version, up to 64 characters. Default: the platform's. */
  spec_version?: string;
  /** What a running workload may change without a redeploy. Default: the platform's (`io` and `configuration` false, `resource_parameters` and `resource_properties` true). */
  enable_runtime_update?: {
    /** Whether the IOs may change at runtime. Default `false`. */
    io?: boolean;
    /** Whether the configuration may change at runtime. Default `false`. */
    configuration?: boolean;
    /** Whether resource parameters may change at runtime. Default `true`. */
    resource_parameters?: boolean;
    /** Whether resource properties may change at runtime. Default `true`. */
    resource_properties?: boolean;
  };
  /** Deployment flags: `allowed_resources`. Default: none. */
  deployment?: {
    /** The resources (KRNs, at most 10000) the app may be deployed to. Default: any. */
    allowed_resources?: string[];
  };
  /** Whether a workload must serve at least one resource. Default: the platform's. */
  resources_required?: boolean;
}

/** An IO of the app. */
export interface AppManifestIo {
  /** The IO's name, 1–128 characters. */
  name: string;
  /** Its data type (e.g. `number`), 1–64 characters. */
  data_type: string;
  /** Its unit, up to 64 characters. Default: none. */
  unit?: string;
  /** The direction: `output`, `input`, `input-cc`, `output-cc`, `input-cc+output` or `input+output-cc`. Default `output`. */
  way?: IoWay;
  /** Where the values are stored: `node-and-cloud`, `node` or `none`. Default `node-and-cloud`. */
  storage?: IoStorage;
}

/** A dynamic IO of the app: IOs of a type created at runtime. */
export interface AppManifestDynamicIo {
  /** The IO type's name, 1–128 characters. */
  type_name: string;
  /** Who owns the IOs: `both`, `owned` or `remote`. Default `both`. */
  ownership?: "both" | "owned" | "remote";
  /** What they carry: `both`, `data` or `control`. Default `both`. */
  type?: "both" | "data" | "control";
  /** The data types they may have (at most 100, each 1–64 characters). Default: any. */
  data_types?: string[];
}

/** A parameter the app declares. */
export interface AppManifestParameter {
  /** The parameter's name: letters, digits, '.', '_', '-'; 1–128 characters. */
  name: string;
  /** Its display title, up to 256 characters. Default: none. */
  title?: string;
  /** Its type: `number`, `string` or `boolean`. Default: none. */
  data_type?: "number" | "string" | "boolean";
  /** Its default value: a number, string (up to 4096 characters) or boolean. Default: none. */
  default?: string | number | boolean;
}

/** The app's schemas in the platform's naming: `parameters`, `configuration` (JSON Schemas, untouched) and `io_configuration`. */
export interface AppManifestSchemas {
  /** The JSON Schema of the app's parameters. Default: none. */
  parameters?: Record<string, unknown>;
  /** The JSON Schema of the app's configuration. Default: none. */
  configuration?: Record<string, unknown>;
  /** A configuration schema per IO type (at most 1000). Default: none. */
  io_configuration?: Array<{
    /** The IO type the schema is for, 1–128 characters. */
    type_name: string;
    /** The JSON Schema. */
    schema: Record<string, unknown>;
  }>;
}

/** The app's deployment defaults in the platform's naming. */
export interface AppManifestDefaults {
  /** How the app deploys by default: `max_resources`, `deployment_type` and `target`. Default: none. */
  deployment?: {
    /** The most assets one workload serves, an integer of at least 1. Default: no limit. */
    max_resources?: number;
    /** How updates apply: `standard`, `staged+instant-apply` or `staged-only`. Default `standard`. */
    deployment_type?: DeploymentType;
    /** Where deployments go. Default: none. */
    target?: DeploymentTarget;
  };
  /** The app's defaults: `configuration` and `io_datastream_mapping`. Default: none. */
  app?: {
    /** The app's default configuration, a JSON object. Default: none. */
    configuration?: Record<string, unknown>;
    /** IOs mapped to datastreams (at most 10000). Default: none. */
    io_datastream_mapping?: IoDatastreamMapping[];
  };
  /** Default system settings, a JSON object. Default: none. */
  system?: Record<string, unknown>;
  /** Default API permissions (the platform's shape is not known). Default: none. */
  api_permissions?: unknown;
}

/** A custom action of the app. */
export interface AppManifestCustomAction {
  /** The action's type: letters, digits, '-', '_', ' ', '.', starting and ending with a letter or digit; up to 128 characters. */
  type: string;
  /** The direction: `input-ca` or `output-ca`. */
  way: "input-ca" | "output-ca";
}

/** A data quality indicator of the app. */
export interface AppManifestDataQuality {
  /** Its name, 1–128 characters. */
  name: string;
  /** Its data type, 1–64 characters. */
  data_type: string;
  /** The direction: `input` or `output`. */
  way: "input" | "output";
  /** The datastreams it covers (at most 1000, each 1–256 characters). */
  datastreams: string[];
}

/** An app version's container image in the form of the vendor's current client. */
export interface AppManifestImage {
  /** `manual` with an explicit `uri`; `auto` or `undefined` where the platform provides the image. */
  mode: "auto" | "manual" | "undefined";
  /** The image reference, up to 1024 characters (`latest` is not a tag to use). */
  uri?: string;
}

/**
 * The app manifest in the platform's naming (snake_case), without `name`, `version` and `type`
 * (set with the args). Explicit args win over the manifest's `title`, `description`, `image`,
 * `defaults` and `schemas`.
 */
export interface AppManifest {
  /** The display title, 1–128 characters. Default: the app name. */
  title?: string;
  /** The description, up to 4096 characters. Default: empty. */
  description?: string;
  /** The category, free text up to 256 characters. Default: none. */
  category?: string;
  /**
   * The container image: its reference (up to 1024 characters, sent as `{ mode: "manual", uri }`), or
   * `{ mode, uri }` as the vendor's current client writes it. Default: none.
   */
  image?: string | AppManifestImage;
  /** The app's flags. Default: the platform's. */
  flags?: AppManifestFlags;
  /** The app's IOs (at most 1000). Default: none. */
  io?: AppManifestIo[];
  /** The app's dynamic IOs (at most 1000). Default: none. */
  dynamic_io?: AppManifestDynamicIo[];
  /** The parameters the app declares (at most 1000). Default: none. */
  parameters?: AppManifestParameter[];
  /** The app's schemas. Default: none. */
  schemas?: AppManifestSchemas;
  /** The app's deployment defaults. Default: none. */
  defaults?: AppManifestDefaults;
  /** The app's custom actions (at most 1000). Default: none. */
  custom_actions?: AppManifestCustomAction[];
  /** The app's data quality indicators (at most 1000). Default: none. */
  data_quality?: AppManifestDataQuality[];
}

/** The fields of the manifest that only the args set. */
export const MANIFEST_ARGS_ONLY = ["name", "version", "type"] as const;
type ManifestWire = Omit<VersionBody, (typeof MANIFEST_ARGS_ONLY)[number] | "title" | "description"> & Partial<Pick<VersionBody, "title" | "description">>;
proves<Same<AppManifest, WireShaped<ManifestWire>>>();

// ---------------------------------------------------------------------------------------------
// Values of the resources' args

/** A parameter's value: a number, a string (at most 4096 characters) or a boolean. */
export type Scalar = string | number | boolean;

/** An asset property's value: a scalar or a list of scalars of one type. */
export type PropertyValue = string | number | boolean | string[] | number[] | boolean[];

/** One schedule of the compute nodes. */
export interface Schedule {
  /** Whether the schedule runs; unset: the platform's value. */
  enabled?: boolean;
  /** Seconds between runs, an integer from 1 to 604800 (one week); unset: the platform's value. */
  interval?: number;
}
