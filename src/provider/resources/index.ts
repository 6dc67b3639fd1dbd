/** Every resource kind the provider serves, by name (the name the serialized shim carries). */
import type { Kind } from "../kind";
import { appKind } from "./app";
import { appParameterValuesKind } from "./app-parameter-values";
import { appVersionKind } from "./app-version";
import { clusterKind } from "./cluster";
import { parameterScheduleKind } from "./parameter-schedule";

export const kinds: Record<string, Kind> = Object.fromEntries(
  [appKind, appVersionKind, appParameterValuesKind, clusterKind, parameterScheduleKind].map((k) => [k.name, k as Kind]),
);

export { App, type AppArgs } from "./app";
export { AppParameterValues, type AppParameterValuesArgs } from "./app-parameter-values";
export { AppVersion, type AppVersionArgs } from "./app-version";
export { Cluster, type ClusterArgs } from "./cluster";
export { ParameterSchedule, type ParameterScheduleArgs } from "./parameter-schedule";
