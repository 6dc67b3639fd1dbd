/**
 * The test modules of every resource kind, by kind name: a `Record` over the provider's kinds, so a
 * kind without its test module fails the type-check. The suites enumerate this record instead of
 * lists of their own. The order is the model generator's: a random addition draws its kind from
 * this list, so reordering it changes every generated program and the seeds that reproduce them.
 */
import type fc from "fast-check";
import type { KindName } from "../../src/provider/kinds";
import type { Scenario } from "../robustness/kind-scenarios";
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
import type { KindTests } from "./kind-tests";
import { label } from "./label";
import { parameterSchedule } from "./parameter-schedule";
import { workload } from "./workload";

export type { KindName };

export const KIND_TESTS: Record<KindName, KindTests> = {
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
};

/** Every kind, in the generator's order. */
export const KINDS = Object.keys(KIND_TESTS) as KindName[];

/** Each kind's model (test/model), by kind name. */
export const MODELS = Object.fromEntries(KINDS.map((k) => [k, KIND_TESTS[k].model])) as Record<KindName, KindModel>;

/** Each kind's arbitrary of scenarios (test/robustness), by kind name. */
export const SCENARIOS = Object.fromEntries(KINDS.map((k) => [k, KIND_TESTS[k].scenario])) as Record<KindName, fc.Arbitrary<Scenario>>;
