// Written by scripts/kind-classes.js from the kind declarations (src/provider/resources/<kind>.ts); do not edit: `npm run classes`.

import type * as pulumi from "@pulumi/pulumi";
import { SvcResource } from "../shim";
import type { DeepInput } from "../input-types";
import type {
  AppManifest,
  AppVersionDefaults,
  AppVersionSchemas,
  DeploymentType,
  PropertyValue,
  Scalar,
  Schedule,
  WorkloadApiPermissions,
  WorkloadRuntime,
  WorkloadSystem,
} from "./contract-types";
import { appKind } from "./app";
import { appParameterValuesKind } from "./app-parameter-values";
import { appVersionKind } from "./app-version";
import { assetKind } from "./asset";
import { assetPropertyKind, assetMetadataKind } from "./asset-property";
import { assetTypeKind, assetClassKind } from "./asset-type";
import { bridgeKind } from "./bridge";
import { clusterKind } from "./cluster";
import { dataTypeKind } from "./data-type";
import { instanceSettingsKind } from "./instance-settings";
import { labelKind, dataLabelKind } from "./label";
import { parameterScheduleKind } from "./parameter-schedule";
import { workloadKind } from "./workload";

/** The arguments of an {@link App}. */
export interface AppArgs {
  /** The app's name, as its first {@link AppVersion} created it (e.g. `version.appName`): lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the App resource. */
  name: pulumi.Input<string>;
  /** The app's display title, 1–128 characters; default: left as the versions set it. Changes update in place. */
  title?: pulumi.Input<string>;
  /** The app's description, at most 4096 characters; default: left as the versions set it. Changes update in place. */
  description?: pulumi.Input<string>;
  /** The app's category, free text at most 256 characters; default: none. Changes update in place. */
  category?: pulumi.Input<string>;
}

/** The app-level fields (title, description, category) of an app that its versions create. Declare it after the first version, e.g. `name: version.appName`, which also orders it after that version. Creating it patches the app; a new `name` replaces it, other changes update in place. Destroying it waits until no workload runs the app, then deletes the app with all its versions. Its outputs are the app's own, fixed fields (type, creation). The app's latest version, status and update time move whenever its versions or workloads change, which are other resources of the stack: kept in this resource's state they would be stale after every such change (and every refresh would report them), so the App does not report them; `getApp` reads them. */
export class App extends SvcResource {
  /** The app's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;
  /** The app's type, fixed by its first version: `app`, `importer`, `exporter` or `docker`. */
  declare readonly type: pulumi.Output<"app" | "importer" | "exporter" | "docker">;
  /** When the app was created (RFC 3339), by its first version. */
  declare readonly createdAt: pulumi.Output<string>;
  /** Who created the app. */
  declare readonly createdBy: pulumi.Output<string>;

  constructor(name: string, args: AppArgs, opts?: pulumi.CustomResourceOptions) {
    super(appKind, name, args, opts);
  }
}

/** The arguments of an {@link AppParameterValues}. */
export interface AppParameterValuesArgs {
  /** The app whose parameters are set (an app name, lowercase letters, digits, '.', '_' and '-', 1–64 characters). Changing it replaces the resource. */
  appName: pulumi.Input<string>;
  /** The app version that declares the parameters, a semantic version such as `1.2.0`. Changing it replaces the resource. */
  appVersion: pulumi.Input<string>;
  /** The resource the values are for: an asset name or KRN (`krn:asset:<name>`). Changing it replaces the resource. */
  resource: pulumi.Input<string>;
  /** The managed values: parameter name → number, string or boolean (the parameter's type). Only these parameters are managed; one removed from here returns to its default. Changes update in place. */
  values: pulumi.Input<Record<string, pulumi.Input<Scalar>>>;
  /** A comment stored with the values when they are written; not read back; default: none. Changes update in place. */
  comment?: pulumi.Input<string>;
}

/** The values of an app version's parameters for one resource (asset), with patch semantics: only the parameters named in `values` are managed; the resource's other parameters are left alone. Removing a parameter from `values` (or destroying the resource) resets it to its default. A new app, version or resource replaces it; the values update in place. */
export class AppParameterValues extends SvcResource {
  /** The managed values as the platform holds them. */
  declare readonly values: pulumi.Output<Record<string, Scalar>>;

  constructor(name: string, args: AppParameterValuesArgs, opts?: pulumi.CustomResourceOptions) {
    super(appParameterValuesKind, name, args, opts);
  }
}

/** The arguments of an {@link AppVersion}. `image`, `defaults` and `schemas` change in place (as args or in the manifest); a change of anything else replaces the version. */
export interface AppVersionArgs {
  /** The app's name: lowercase letters, digits and '-', starting and ending with a letter or digit, 1–64 characters; the first version creates the app. Changing it replaces the version. */
  appName: pulumi.Input<string>;
  /** The version, a semantic version such as `1.2.0` (at most 64 characters). Changing it replaces the version. */
  version: pulumi.Input<string>;
  /** The app's type: `app`, `importer`, `exporter` or `docker`. Changing it replaces the version. */
  type: pulumi.Input<"app" | "importer" | "exporter" | "docker">;
  /** The display title, 1–128 characters; default: the manifest's, else the app name. Changing it replaces the version. */
  title?: pulumi.Input<string>;
  /** The description, at most 4096 characters; default: the manifest's, else empty. Changing it replaces the version. */
  description?: pulumi.Input<string>;
  /** The container image, at most 1024 characters; default: the manifest's, else none. Changes update in place. */
  image?: pulumi.Input<string>;
  /** The deployment defaults: `deployment`, `app` (its `configuration` passes through untouched), `system` and `apiPermissions` (untouched); camelCase here, snake_case on the platform. Default: the manifest's, else none. Changes update in place. */
  defaults?: pulumi.Input<DeepInput<AppVersionDefaults>>;
  /** The schemas: `parameters` and `configuration` (JSON Schemas, untouched) and `ioConfiguration`. Default: the manifest's, else none. Changes update in place. */
  schemas?: pulumi.Input<DeepInput<AppVersionSchemas>>;
  /** The rest of the app manifest in the platform's shape (snake_case: io, parameters, flags, ...): an object, or the path of a YAML file read when the program runs. A relative path is relative to the program's working directory (`process.cwd()` of the program: with the Pulumi CLI, the project directory that holds Pulumi.yaml, or `main` when that names a directory). A file that cannot be read or is not a YAML mapping fails the resource's check, naming the path and that directory. Explicit args win over the manifest; `name`, `version` and `type` must be set with the args. Default: none. A change of its `image`, `defaults` or `schemas` (where no arg overrides them) updates in place; a change of anything else in it replaces the version. */
  manifest?: pulumi.Input<DeepInput<AppManifest> | string>;
  /** Take over a version that already exists instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** One version of an app, with the id `<app>@<version>`; the first version creates the app. `image`, `defaults` and `schemas` change in place (the platform's patchable keys, patch semantics), whether an arg or the manifest sets them; any other change replaces the version, because the platform cannot patch the rest of a manifest. Destroying it deletes the version. */
export class AppVersion extends SvcResource {
  /** The app's name. */
  declare readonly appName: pulumi.Output<string>;
  /** The version. */
  declare readonly version: pulumi.Output<string>;
  /** The app's type. */
  declare readonly type: pulumi.Output<string>;
  /** When the version was created (RFC 3339). */
  declare readonly createdAt: pulumi.Output<string>;
  /** Who created the version. */
  declare readonly createdBy: pulumi.Output<string>;
  /** When the version was last changed (RFC 3339). */
  declare readonly updatedAt: pulumi.Output<string>;
  /** Who changed the version last. */
  declare readonly updatedBy: pulumi.Output<string>;
  /** The names of the parameters the version declares (its manifest's `parameters`), in order. */
  declare readonly parameterNames: pulumi.Output<string[]>;
  /** The version's flags as the platform holds them (snake_case, the platform's defaults filled in). */
  declare readonly flags: pulumi.Output<{ [x: string]: unknown }>;

  constructor(name: string, args: AppVersionArgs, opts?: pulumi.CustomResourceOptions) {
    super(appVersionKind, name, appVersionKind.programArgs?.(args) ?? args, opts);
  }
}

/** The arguments of an {@link Asset}. */
export interface AssetArgs {
  /** The asset's name, unique on the platform: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the asset. */
  name: pulumi.Input<string>;
  /** The asset's display title, 1–64 characters. Changes update in place. */
  title: pulumi.Input<string>;
  /** The asset's type: the name of an {@link AssetType} (lowercase letters, digits, '.', '_' and '-', 1–64 characters). Changes update in place. */
  assetTypeName: pulumi.Input<string>;
  /** The name of the parent asset in the hierarchy (lowercase letters, digits, '.', '_' and '-', 1–64 characters); default: none (a top-level asset). Changes update in place. */
  parentName?: pulumi.Input<string>;
  /** Where the asset is: `lat` from -90 to 90 and `lon` from -180 to 180 (degrees); default: none. Changes update in place. */
  location?: pulumi.Input<{
    /** The latitude in degrees, from -90 to 90. */
    lat: pulumi.Input<number>;
    /** The longitude in degrees, from -180 to 180. */
    lon: pulumi.Input<number>;
  }>;
  /** Take over an asset that already exists with this name instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** An asset of the plant hierarchy. A new `name` replaces it; everything else updates in place (the update always sends the title, as the platform requires). Its properties and metadata are managed by {@link AssetProperty} and {@link AssetMetadata}, so that one object is never owned by two resources. Destroying it deletes the asset. */
export class Asset extends SvcResource {
  /** The asset's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;
  /** The asset's display title. */
  declare readonly title: pulumi.Output<string>;
  /** The asset's type. */
  declare readonly assetTypeName: pulumi.Output<string>;
  /** The asset's place in the hierarchy: the names from the top-level asset down to this one, joined by `/`. */
  declare readonly path: pulumi.Output<string>;
  /** The title of the asset's type. It is the type's value, not this resource's: when that title is secret, name `assetTypeTitle` in this resource's `additionalSecretOutputs`. */
  declare readonly assetTypeTitle: pulumi.Output<string>;
  /** The asset's connection state: `online`, `offline`, `partially_online` or `unknown`. */
  declare readonly state: pulumi.Output<"unknown" | "online" | "offline" | "partially_online">;
  /** When data of the asset was last seen (RFC 3339); unset until then. */
  declare readonly lastSeen: pulumi.Output<string | undefined>;
  /** When the asset was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the asset was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetArgs, opts?: pulumi.CustomResourceOptions) {
    super(assetKind, name, args, opts);
  }
}

/** The arguments of an {@link AssetProperty}. */
export interface AssetPropertyArgs {
  /** The asset the property belongs to: an asset name (lowercase letters, digits, '.', '_' and '-', 1–64 characters). Changing it replaces the property. */
  assetName: pulumi.Input<string>;
  /** The property's name: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the property. */
  name: pulumi.Input<string>;
  /** The property's display title, 1–64 characters; default: none. Property names are platform-wide: when the name exists already, its title stays as it is. Changes update in place. */
  title?: pulumi.Input<string>;
  /** The value: a string, number, boolean or an array of one of these. The platform stores it as text (arrays as JSON), which refresh compares with the text of the declared value. Changes update in place. */
  value: pulumi.Input<PropertyValue>;
  /** Take over a property that already exists with this name on the asset instead of failing. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** A property of an asset (a named value such as a rated power). A new `assetName` or `name` replaces it; the title and the value update in place. Destroying it deletes the property. */
export class AssetProperty extends SvcResource {
  /** The value as the platform stores it: text (arrays as JSON). */
  declare readonly storedValue: pulumi.Output<string>;
  /** The title as the platform holds it (it keeps the title of a property name that existed already). */
  declare readonly storedTitle: pulumi.Output<string>;
  /** When the property was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the property was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetPropertyArgs, opts?: pulumi.CustomResourceOptions) {
    super(assetPropertyKind, name, args, opts);
  }
}

/** The arguments of an {@link AssetMetadata}. */
export interface AssetMetadataArgs {
  /** The asset the metadata belongs to: an asset name (lowercase letters, digits, '.', '_' and '-', 1–64 characters). Changing it replaces the metadata. */
  assetName: pulumi.Input<string>;
  /** The metadata record's name: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the metadata. */
  name: pulumi.Input<string>;
  /** The metadata: a free-form JSON object, passed through untouched. Changes update in place. */
  payload: pulumi.Input<Record<string, unknown>>;
  /** Take over a metadata record that already exists with this name on the asset instead of failing. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** A metadata record of an asset: a named free-form JSON payload. A new `assetName` or `name` replaces it; the payload updates in place. Destroying it deletes the record. */
export class AssetMetadata extends SvcResource {
  /** When the metadata was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the metadata was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetMetadataArgs, opts?: pulumi.CustomResourceOptions) {
    super(assetMetadataKind, name, args, opts);
  }
}

/** The arguments of an {@link AssetType}. */
export interface AssetTypeArgs {
  /** The type's name, unique on the platform: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the asset type. */
  name: pulumi.Input<string>;
  /** The type's display title, 1–64 characters. Changes update in place. */
  title: pulumi.Input<string>;
  /** The class the type belongs to: the name of an {@link AssetClass} (lowercase letters, digits, '.', '_' and '-', 1–64 characters); default: none. Changes update in place. */
  assetClassName?: pulumi.Input<string>;
  /** Take over an asset type that already exists with this name instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** An asset type: what kind of thing an {@link Asset} is (e.g. a pump), optionally in an {@link AssetClass}. A new `name` replaces it; the title and the class update in place. Destroying it deletes the type. */
export class AssetType extends SvcResource {
  /** The type's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;
  /** The type's display title. */
  declare readonly title: pulumi.Output<string>;
  /** When the type was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the type was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetTypeArgs, opts?: pulumi.CustomResourceOptions) {
    super(assetTypeKind, name, args, opts);
  }
}

/** The arguments of an {@link AssetClass}. */
export interface AssetClassArgs {
  /** The class's name, unique on the platform: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the asset class. */
  name: pulumi.Input<string>;
  /** The class's display title, 1–64 characters. Changes update in place. */
  title: pulumi.Input<string>;
  /** Take over an asset class that already exists with this name instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** An asset class: a group of asset types. A new `name` replaces it; the title updates in place. Destroying it deletes the class. */
export class AssetClass extends SvcResource {
  /** The class's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;
  /** The class's display title. */
  declare readonly title: pulumi.Output<string>;
  /** When the class was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the class was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetClassArgs, opts?: pulumi.CustomResourceOptions) {
    super(assetClassKind, name, args, opts);
  }
}

/** The arguments of a {@link Bridge}. The API has no bridge update: a change of any of them replaces the bridge (the old one is deleted first, as the name stays). */
export interface BridgeArgs {
  /** The bridge's name, unique on the platform: lowercase letters, digits, '.', '_' and '-', 1–32 characters. Changing it replaces the bridge. */
  name: pulumi.Input<string>;
  /** The cluster the bridge's workload runs on: a cluster name (lowercase letters, digits, '.', '_' and '-', 1–64 characters). Changing it replaces the bridge. */
  clusterName: pulumi.Input<string>;
  /** The bridge app to deploy: an app name (lowercase letters, digits, '.', '_' and '-', 1–64 characters). Changing it replaces the bridge. */
  appName: pulumi.Input<string>;
  /** The version of the bridge app, 1–64 characters; default: the app's latest version (in the app registry, else in the apps). Changing it replaces the bridge. */
  appVersion?: pulumi.Input<string>;
  /** The node of the cluster to run on: a node name (lowercase letters, digits, '.', '_' and '-', 1–64 characters); default: the platform picks one. Changing it replaces the bridge. */
  nodeName?: pulumi.Input<string>;
  /** A display title, 1–64 characters; default: the name. Changing it replaces the bridge. */
  title?: pulumi.Input<string>;
  /** The protocol the bridge speaks, 1–64 characters; default: none. Changing it replaces the bridge. */
  protocol?: pulumi.Input<string>;
  /** The bridge app's configuration, passed through untouched (`metrics_map`, protocol settings, ...; snake_case as the platform writes it). Changing it replaces the bridge. */
  payload: pulumi.Input<Record<string, unknown>>;
  /** Take over a bridge that already exists with this name instead of failing. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** A bridge: a bridge app deployed with its workload, reading (or writing) asset metrics from a data source. The API has no bridge update, so every change replaces the bridge; as the name stays, the old one is deleted first. Destroying it deletes the bridge and its workload. */
export class Bridge extends SvcResource {
  /** The bridge's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;
  /** The workload that runs the bridge app. */
  declare readonly workloadName: pulumi.Output<string>;
  /** The compute node (ACP) of the bridge (the platform reports the cluster's name). */
  declare readonly acpName: pulumi.Output<string>;
  /** The state of the bridge's workload, e.g. `running`, `stopped`, `failed` (the workload states). */
  declare readonly state: pulumi.Output<string>;
  /** Whether the bridge is enabled on the platform (an enabled bridge runs, a disabled one is stopped). */
  declare readonly enabled: pulumi.Output<boolean>;
  /** When the bridge was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the bridge was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: BridgeArgs, opts?: pulumi.CustomResourceOptions) {
    super(bridgeKind, name, args, opts);
  }
}

/** The arguments of a {@link Cluster}. Settings left unset keep the platform's values (its defaults on a new cluster). */
export interface ClusterArgs {
  /** The cluster's name, unique on the platform: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the cluster. */
  name: pulumi.Input<string>;
  /** A display title, 1–64 characters; default: the name. Changes update in place. */
  title?: pulumi.Input<string>;
  /** The cluster's kind: `k3s` (the default), `kubernetes` or `docker`. Changing it replaces the cluster. */
  type?: pulumi.Input<"k3s" | "kubernetes" | "docker">;
  /** Whether the cluster is marked ready (a new cluster is not; a ready cluster goes `online`); default: the platform's value. Changes update in place. */
  ready?: pulumi.Input<boolean>;
  /** Whether the nodes forward their logs to the platform; default `true`. Changes update in place. */
  forwardLogsEnabled?: pulumi.Input<boolean>;
  /** The log forwarding buffer size, an integer from 1 to 20; default 5. Changes update in place. */
  forwardLogsBufferSize?: pulumi.Input<number>;
  /** Whether the platform scrapes the cluster's manifests; default `true`. Changes update in place. */
  manifestsScrapeEnabled?: pulumi.Input<boolean>;
  /** Seconds between manifest scrapes, an integer from 30 to 86400; default 86400. Changes update in place. */
  manifestsScrapeInterval?: pulumi.Input<number>;
  /** Seconds between syncs with the platform, an integer from 10 to 86400; default 30. Changes update in place. */
  syncScrapeInterval?: pulumi.Input<number>;
  /** Whether the nodes send telemetry; default `true`. Changes update in place. */
  telemetryEnabled?: pulumi.Input<boolean>;
  /** The telemetry buffer size, an integer from 1 to 20; default 5. Changes update in place. */
  telemetryBufferSize?: pulumi.Input<number>;
  /** Seconds between telemetry scrapes, an integer from 1 to 3600; default 30. Changes update in place. */
  telemetryScrapeInterval?: pulumi.Input<number>;
  /** Whether telemetry alerts are raised; default `true`. Changes update in place. */
  telemetryAlertsEnabled?: pulumi.Input<boolean>;
  /** Options of the edge components: `imagePullPolicy`, `Always` or `IfNotPresent`; default: the platform's. Changes update in place. */
  edgeOptions?: pulumi.Input<{
    /** When the nodes pull the edge components' images: `Always` or `IfNotPresent`; default: the platform's. */
    imagePullPolicy?: pulumi.Input<"Always" | "IfNotPresent">;
  }>;
  /** Take over a cluster that already exists with this name (the import route). A Cluster always does: clusters cannot be deleted, so a create finds the cluster an earlier destroy released. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** A cluster of edge nodes. A new `name` replaces it (the old cluster is released); its `type` cannot change once the cluster exists; the title and the settings update in place. API v4 has no cluster delete: destroying a Cluster resource releases it from the stack and leaves it on the platform, and creating one whose cluster exists takes it over again. The edge API credentials are write-only secrets and are not managed here, so no password ever enters the state. */
export class Cluster extends SvcResource {
  /** The cluster's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;
  /** The cluster's display title, if set. */
  declare readonly title: pulumi.Output<string | undefined>;
  /** The cluster's status: `pending_provision`, `pending`, `online`, `unreachable` or `requires_attention`. */
  declare readonly status: pulumi.Output<"requires_attention" | "online" | "pending_provision" | "pending" | "unreachable">;
  /** When the cluster last reported to the platform (RFC 3339); unset until it has. */
  declare readonly lastSeen: pulumi.Output<string | undefined>;
  /** The cluster's pod network (CIDR), once it reported it. */
  declare readonly podCidr: pulumi.Output<string>;
  /** The cluster's service network (CIDR), once it reported it. */
  declare readonly serviceCidr: pulumi.Output<string>;
  /** The Kubernetes version the cluster runs, once it reported it. */
  declare readonly k8sVersion: pulumi.Output<string>;
  /** The version of the platform's edge software on the cluster, once it reported it. */
  declare readonly svcVersion: pulumi.Output<string>;
  /** When the cluster was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the cluster was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    super(clusterKind, name, args, opts);
  }
}

/** The arguments of a {@link DataType}. A published version is immutable: a change replaces it, which means publishing a new `icd.version`. */
export interface DataTypeArgs {
  /** The definition: `name` (dotted lowercase segments such as `plant.pump_reading`, matching `^([a-z][a-z0-9_]+.)+[a-z][a-z0-9_]+$`), `className` (`^[a-zA-Z][a-zA-Z0-9_]+$`, up to 128 characters), `description` (up to 4096 characters, default empty), `version` (a semantic version, default `0.0.1`) and `fields`, up to 1000 of `{ name, type, description?, array? }` (`type` a primitive type or another data type as `name:version` or `name`; field names unique). Changing it replaces the data type; the same name and version with another definition fails the check (change `icd.version`). */
  icd: pulumi.Input<{
    /** The type's name: dotted lowercase segments such as `plant.pump_reading`, up to 128 characters. */
    name: pulumi.Input<string>;
    /** The class name, `^[a-zA-Z][a-zA-Z0-9_]+$`, up to 128 characters. */
    className: pulumi.Input<string>;
    /** The description, up to 4096 characters; default empty. */
    description?: pulumi.Input<string>;
    /** The version, a semantic version; default `0.0.1`. */
    version?: pulumi.Input<string>;
    /** The fields, at most 1000, names unique; default: none. */
    fields?: pulumi.Input<
      pulumi.Input<{
        /** The field's name, 1–128 characters. */
        name: pulumi.Input<string>;
        /** Its type: a primitive type (such as `number`, `string`, `int32`, `timestamp`) or another data type as `name:version` or `name`; up to 200 characters. */
        type: pulumi.Input<string>;
        /** Its description, up to 4096 characters; default empty. */
        description?: pulumi.Input<string>;
        /** Whether it holds a list of values; default `false`. */
        array?: pulumi.Input<boolean>;
      }>[]
    >;
  }>;
  /** Where the type comes from, 1–64 characters: `connect` makes it a connect type; default `user`. Changing it replaces the data type. */
  source?: pulumi.Input<string>;
  /** Take over the version if it exists (a DataType always does, with the same definition: versions cannot be deleted). Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** One version of a data type definition (its ICD), with the id `<name>:<version>`. A published version is immutable and API v4 offers no delete: publishing a new definition means a new `icd.version` (which replaces the resource), and destroying the resource releases the version from the stack while it stays on the platform. Creating one whose version exists with the same definition takes it over again. */
export class DataType extends SvcResource {
  /** The type's class name (the icd's `className`). */
  declare readonly type: pulumi.Output<string>;
  /** Whether it is a connect type (`source: connect`). */
  declare readonly connect: pulumi.Output<boolean>;
  /** The JSON Schema the platform derived from the definition. */
  declare readonly jsonSchema: pulumi.Output<Record<string, unknown>>;
  /** When the version was published (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the version was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: DataTypeArgs, opts?: pulumi.CustomResourceOptions) {
    super(dataTypeKind, name, args, opts);
  }
}

/** The arguments of {@link InstanceSettings}. */
export interface InstanceSettingsArgs {
  /** The compute nodes' (ACP) schedules: `autoUpdate` (default: disabled, every 86400 s), `metrics` (default: enabled, every 60 s) and `status` (default: enabled, every 30 s), each `{ enabled, interval }` with the interval an integer number of seconds from 1 to 604800 (one week). Unset keys keep the platform's values. Changes update in place. */
  acp: pulumi.Input<{
    /** Automatic updates of the nodes' software; default: disabled, every 86400 s. */
    autoUpdate?: pulumi.Input<Schedule>;
    /** Metrics reports; default: enabled, every 60 s. */
    metrics?: pulumi.Input<Schedule>;
    /** Status reports; default: enabled, every 30 s. */
    status?: pulumi.Input<Schedule>;
  }>;
}

/** The platform's one settings record (a singleton: declare it once per platform). Creating the resource takes the record over and applies the declared values (no write when the platform already holds them); changes update in place; destroying it restores the documented defaults. */
export class InstanceSettings extends SvcResource {
  /** The settings as the platform holds them (declared and untouched keys), snake_case as on the platform. */
  declare readonly effective: pulumi.Output<{ acp: Record<string, Schedule> }>;

  constructor(name: string, args: InstanceSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super(instanceSettingsKind, name, args, opts);
  }
}

/** The arguments of a {@link Label}. */
export interface LabelArgs {
  /** The label's name, unique on the platform: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the label. */
  name: pulumi.Input<string>;
  /** The label's display title, 1–64 characters. Changes update in place. */
  title: pulumi.Input<string>;
  /** Take over a label that already exists with this name instead of failing. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** A label: the name data labels carry, with a title. A new `name` replaces it; the title updates in place. Destroying it deletes the label. */
export class Label extends SvcResource {
  /** The label's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;
  /** When the label was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the label was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: LabelArgs, opts?: pulumi.CustomResourceOptions) {
    super(labelKind, name, args, opts);
  }
}

/** The arguments of a {@link DataLabel}. Every argument updates in place (the platform assigns the data label's id). */
export interface DataLabelArgs {
  /** The label this range carries: the name of a {@link Label} (lowercase letters, digits, '.', '_' and '-', 1–64 characters). Changes update in place. */
  labelName: pulumi.Input<string>;
  /** Where the range starts: an RFC 3339 time, microseconds allowed. Changes update in place. */
  startDate: pulumi.Input<string>;
  /** Where the range ends: an RFC 3339 time, microseconds allowed, not before `startDate`. Changes update in place. */
  endDate: pulumi.Input<string>;
  /** The asset metrics the range covers, at most 1000 items, each `{ assetName, name }`; default: none (`[]`). Changes update in place. */
  metrics?: pulumi.Input<
    pulumi.Input<{
      /** The asset's name: lowercase letters, digits, '.', '_' and '-', 1–64 characters. */
      assetName: pulumi.Input<string>;
      /** The metric's name, 1–256 characters. */
      name: pulumi.Input<string>;
    }>[]
  >;
  /** Who set the label: `type` `workload` or `user`, with free-form `info` (passed through untouched); default `{ type: "user", info: {} }`. Changes update in place. */
  source?: pulumi.Input<{
    /** Who set the label: `workload` or `user`. */
    type: pulumi.Input<"workload" | "user">;
    /** Free-form information about the source, passed through untouched; default `{}`. */
    info?: pulumi.Input<Record<string, unknown>>;
  }>;
  /** A description, at most 4096 characters; default: none. Changes update in place. */
  description?: pulumi.Input<string>;
  /** How sure the label is: an integer from 0 to 100 (the platform's default is 0). Changes update in place. */
  confidence?: pulumi.Input<number>;
  /** Whether the range was validated (e.g. by a person); default `false`. Changes update in place. */
  validation?: pulumi.Input<boolean>;
  /** Free-form information stored with the range, passed through untouched; default: none. Changes update in place. */
  info?: pulumi.Input<Record<string, unknown>>;
}

/** A data label: a {@link Label} set on a time range of asset metrics (e.g. an anomaly). The platform assigns its id; every argument updates in place. Destroying it deletes the data label. */
export class DataLabel extends SvcResource {
  /** The data label's id, assigned by the platform (also the resource's id, as text). */
  declare readonly labelId: pulumi.Output<number>;
  /** When the data label was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the data label was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: DataLabelArgs, opts?: pulumi.CustomResourceOptions) {
    super(dataLabelKind, name, args, opts);
  }
}

/** The arguments of a {@link ParameterSchedule}. The API has no update: a change of any of them replaces the schedule (the old one is deleted first). */
export interface ParameterScheduleArgs {
  /** The app whose parameters are set (lowercase letters, digits, '.', '_' and '-', 1–64 characters). Changing it replaces the schedule. */
  appName: pulumi.Input<string>;
  /** The app version that declares the parameters, a semantic version such as `1.2.0`. Changing it replaces the schedule. */
  appVersion: pulumi.Input<string>;
  /** When the values are applied: an RFC 3339 time, in the future when the schedule is created (a schedule whose time has passed is left as it is until its arguments change). Changing it replaces the schedule. */
  scheduledFor: pulumi.Input<string>;
  /** The assets the values are applied to, 1–10000: asset names or KRNs (`krn:asset:<name>`). Changing it replaces the schedule. */
  resources: pulumi.Input<pulumi.Input<string>[]>;
  /** The parameter values applied to every listed resource: parameter name → number, string or boolean; at least one. Changing it replaces the schedule. */
  parameters: pulumi.Input<Record<string, pulumi.Input<Scalar>>>;
  /** Values to restore later: `scheduledFor` (after the schedule's own time) and `resourceParameters`, one entry per listed resource that sets exactly the scheduled parameters. Default: no revert. Changing it replaces the schedule. */
  revert?: pulumi.Input<{
    /** When the values are restored: an RFC 3339 time after the schedule's own `scheduledFor`. */
    scheduledFor: pulumi.Input<string>;
    /** The values to restore, one entry per listed resource (at most 10000). */
    resourceParameters: pulumi.Input<
      pulumi.Input<{
        /** The resource: an asset name or KRN (`krn:asset:<name>`) among the schedule's `resources`. */
        resource: pulumi.Input<string>;
        /** The values to restore: parameter name → number, string or boolean, exactly the scheduled parameters. */
        parameters: pulumi.Input<Record<string, pulumi.Input<Scalar>>>;
      }>[]
    >;
  }>;
  /** A comment stored with the schedule, at most 1024 characters; default: none. Changing it replaces the schedule. */
  comment?: pulumi.Input<string>;
  /** Take over a pending schedule (state `scheduled`) of the app version that states every declared argument instead of creating one: the platform assigns a schedule's id, so it is found by what it states (`generate` declares a snapshot's schedules so). Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** Parameter values applied to assets at a time (`scheduledFor`), optionally reverted later. The platform assigns the schedule's id. The API has no update, so every argument change replaces the schedule, deleting the old one first. A schedule whose time has passed (applied or completed) is left as it is by later runs until its arguments change. Destroying it deletes the schedule. The preview warns when another waiting schedule already sets one of its parameters on one of its assets at the same time (the platform would refuse it), naming that schedule and what to do. */
export class ParameterSchedule extends SvcResource {
  /** Where the schedule is: `scheduled` (waiting), `scheduled-revert` (applied, the revert waits), `completed` or `error`. */
  declare readonly state: pulumi.Output<"error" | "scheduled" | "scheduled-revert" | "completed">;
  /** The values the listed resources had before the schedule applied its own, per resource. */
  declare readonly originalResourceParameters: pulumi.Output<{ resource: string; parameters: Record<string, string | number | boolean> }[]>;
  /** When the values were applied (RFC 3339); unset until then. */
  declare readonly appliedAt: pulumi.Output<string | undefined>;
  /** Who (or what) applied the values; unset until then. */
  declare readonly appliedBy: pulumi.Output<string | undefined>;
  /** When the revert restored the values (RFC 3339); unset until then, and without a revert. */
  declare readonly revertedAt: pulumi.Output<string | undefined>;
  /** Who (or what) reverted the values; unset until then. */
  declare readonly revertedBy: pulumi.Output<string | undefined>;
  /** Why applying or reverting failed, when the state is `error`. */
  declare readonly errorMsg: pulumi.Output<string | undefined>;
  /** When the schedule was created (RFC 3339). */
  declare readonly createdAt: pulumi.Output<string>;
  /** Who created the schedule. */
  declare readonly createdBy: pulumi.Output<string>;

  constructor(name: string, args: ParameterScheduleArgs, opts?: pulumi.CustomResourceOptions) {
    super(parameterScheduleKind, name, args, opts);
  }
}

/** The arguments of a {@link Workload}. */
export interface WorkloadArgs {
  /** The workload's name, unique on the platform: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the workload. */
  name: pulumi.Input<string>;
  /** The app the workload runs: the name of an app created by an {@link AppVersion} (lowercase letters, digits, '.', '_' and '-', 1–64 characters). Changing it replaces the workload. */
  appName: pulumi.Input<string>;
  /** The version of the app to run: a semantic version such as `1.2.0` (at most 64 characters) that exists for `appName`. Changes update in place (with a staged `deploymentType`, the new version is staged first). */
  appVersion: pulumi.Input<string>;
  /** The cluster the workload runs on: a cluster name, lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changes update in place (the workload moves). */
  clusterName: pulumi.Input<string>;
  /** The node of the cluster to run on: a node name (lowercase letters, digits, '.', '_' and '-', 1–64 characters); default: the platform picks one. Changes update in place. */
  nodeName?: pulumi.Input<string>;
  /** A display title, 1–128 characters; default: the name. Changes update in place. */
  title?: pulumi.Input<string>;
  /** The runtime settings: `resources` (one entry per asset: its resource KRN, parameters and datastreams), `configuration` (the app's configuration, passed through untouched) and `datastreams`. Keys are camelCase here, snake_case on the platform (except inside `configuration`, parameters and datastreams). Default: the app version's defaults. Changes update in place. */
  runtime?: pulumi.Input<DeepInput<WorkloadRuntime>>;
  /** System settings of the deployment (free-form JSON, passed through untouched); default: none. Changes update in place. */
  system?: pulumi.Input<WorkloadSystem>;
  /** The platform API permissions granted to the workload (a JSON object or list, passed through untouched); default: none. Changes update in place. */
  apiPermissions?: pulumi.Input<WorkloadApiPermissions>;
  /** How an update is applied: `standard` (at once, the default), `staged+instant-apply` (staged, then applied by the platform as soon as the edge has downloaded it: `up` waits for that, up to svc:operationTimeoutSeconds, and fails naming the error when the download fails) or `staged-only` (staged until applied on the platform). While a staged version waits, what it changes counts as declared. Sent with each change, not read back. Changes update in place. */
  deploymentType?: pulumi.Input<DeploymentType>;
  /** `false` creates a pending workload (not deployed); setting it to `true` enables it, in place. Default `true`. A pending workload cannot be made pending again: setting it to `false` on an enabled workload replaces it. */
  enabled?: pulumi.Input<boolean>;
  /** `false` stops the workload, `true` starts it (in place); default: left as the platform runs it (a new workload runs). Changes update in place. */
  running?: pulumi.Input<boolean>;
  /** Take over a workload that already exists with this name instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** A workload: an app version deployed to a cluster (and optionally a node). `appVersion`, `clusterName`, `nodeName`, `title`, `runtime`, `system`, `apiPermissions` change in place (patch semantics); a new `name` or `appName` replaces the workload. `enabled: false` creates a pending workload, and setting it to true enables it; `running` maps to start and stop. With a staged `deploymentType` an update stages the new version: the staged version counts as the declared one until it is applied on the platform. Destroying it deletes the workload. */
export class Workload extends SvcResource {
  /** The workload's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;
  /** The app the workload runs. */
  declare readonly appName: pulumi.Output<string>;
  /** The declared app version (the staged one while a staged version waits). */
  declare readonly appVersion: pulumi.Output<string>;
  /** The cluster the workload runs on. */
  declare readonly clusterName: pulumi.Output<string>;
  /** The workload's lifecycle state, e.g. `pending_deploy`, `deploying`, `running`, `stopped`, `failed`, `staged`, `unreachable`. */
  declare readonly state: pulumi.Output<
    | "running"
    | "stopped"
    | "unreachable"
    | "ready"
    | "downloading"
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
    | "staged"
  >;
  /** The platform's message about the current state (empty when there is nothing to report). */
  declare readonly statusMessage: pulumi.Output<string>;
  /** When the node last reported the workload (RFC 3339); unset until it has. */
  declare readonly lastSeen: pulumi.Output<string | undefined>;
  /** Progress of the app package's download to the node: `pending`, `scheduled`, `processing`, `downloading`, `ready` or `failed`. */
  declare readonly downloadStatus: pulumi.Output<"pending" | "ready" | "downloading" | "scheduled" | "processing" | "failed">;
  /** Whether a staged version waits to be applied (staged deployment types). */
  declare readonly staged: pulumi.Output<boolean>;
  /** The app version that is staged, when one is. */
  declare readonly stagedAppVersion: pulumi.Output<string | undefined>;
  /** The app's type: `app`, `importer`, `exporter` or `docker`. */
  declare readonly appType: pulumi.Output<"app" | "importer" | "exporter" | "docker">;
  /** When the workload was created on the platform (RFC 3339). */
  declare readonly createdAt: pulumi.Output<string>;
  /** Who created the workload. */
  declare readonly createdBy: pulumi.Output<string>;
  /** When the workload was last changed on the platform (RFC 3339). */
  declare readonly updatedAt: pulumi.Output<string>;
  /** Who changed the workload last. */
  declare readonly updatedBy: pulumi.Output<string>;

  constructor(name: string, args: WorkloadArgs, opts?: pulumi.CustomResourceOptions) {
    super(workloadKind, name, args, opts);
  }
}
