/**
 * The model of every resource kind, by kind name (the provider's registered names; a test checks that
 * the two lists agree). The order is the generator's: a random addition draws its kind from this list,
 * so reordering it changes every generated program and the seeds that reproduce them.
 */
import { app } from "./app";
import { appParameterValues } from "./app-parameter-values";
import { appVersion } from "./app-version";
import { asset } from "./asset";
import { assetClass } from "./asset-class";
import { assetMetadata } from "./asset-metadata";
import { assetProperty } from "./asset-property";
import { assetType } from "./asset-type";
import { bridge } from "./bridge";
import { cluster } from "./cluster";
import { dataLabel } from "./data-label";
import { dataType } from "./data-type";
import { instanceSettings } from "./instance-settings";
import type { KindModel } from "./kind-model";
import { label } from "./label";
import { parameterSchedule } from "./parameter-schedule";
import { workload } from "./workload";

export const MODELS = {
  Cluster: cluster,
  AssetClass: assetClass,
  AssetType: assetType,
  Asset: asset,
  AssetProperty: assetProperty,
  AssetMetadata: assetMetadata,
  AppVersion: appVersion,
  App: app,
  Workload: workload,
  AppParameterValues: appParameterValues,
  ParameterSchedule: parameterSchedule,
  Label: label,
  DataLabel: dataLabel,
  DataType: dataType,
  Bridge: bridge,
  InstanceSettings: instanceSettings,
} satisfies Record<string, KindModel>;

export type KindName = keyof typeof MODELS;
export const KINDS = Object.keys(MODELS) as KindName[];
