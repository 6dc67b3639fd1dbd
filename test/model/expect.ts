/**
 * What the platform should hold for a program, and the comparison with what it holds. The model is
 * written from the platform's documented behaviour, not from the provider's code: each declared
 * resource stands for records of the emulator's tables, compared field by field on what the program
 * declares (in the platform's own form: snake_case, property values as text, KRNs, instants). Besides
 * the declared objects the platform may hold only what it cannot delete (released clusters and data
 * types) and, for the instance settings when no resource declares them, the defaults.
 */
import type { Store } from "../../src/emulator/store/store";
import { TABLES } from "../../src/emulator/store/tables";
import { INSTANCE_SETTINGS_DEFAULTS } from "../../src/provider/resources/instance-settings";
import { plainArgs, type Decl, type ProgramSpec } from "./program";

// Platform records and declared args are compared as JSON, field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Rec = Record<string, any>;

/** The identity of a platform record in each table the model covers. */
const IDENTITY: Record<string, (r: Rec) => string> = {
  [TABLES.clusters]: (r) => r.name,
  [TABLES.assetClasses]: (r) => r.name,
  [TABLES.assetTypes]: (r) => r.name,
  [TABLES.assets]: (r) => r.name,
  [TABLES.assetProperties]: (r) => `${r.asset_name}/${r.name}`,
  [TABLES.assetMetadata]: (r) => `${r.asset_name}/${r.name}`,
  [TABLES.apps]: (r) => r.name,
  [TABLES.appVersions]: (r) => `${r.name}@${r.version}`,
  [TABLES.workloads]: (r) => r.name,
  [TABLES.parameterValues]: (r) => `${r.app_name}@${r.app_version}/${r.resource}#${r.name}`,
  [TABLES.schedules]: (r) => r.id,
  [TABLES.labels]: (r) => r.name,
  [TABLES.dataLabels]: (r) => String(r.id),
  [TABLES.dataTypes]: (r) => `${r.name}:${r.version}`,
  [TABLES.bridges]: (r) => r.name,
};

/** Tables the model's programs never fill: they must stay empty. */
const UNUSED = [
  TABLES.acps,
  TABLES.acpMetadata,
  TABLES.registryApps,
  TABLES.registryVersions,
  TABLES.registryPackages,
  TABLES.assetTypeMetadata,
  TABLES.labelMetadata,
  TABLES.appResources,
];

export const krn = (ref: string) => (ref.startsWith("krn:") ? ref : `krn:asset:${ref}`);
const valueText = (v: unknown) => (Array.isArray(v) ? JSON.stringify(v) : String(v));
const instant = (t: unknown) => (typeof t === "string" ? Date.parse(t) : NaN);
const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
const snakeKeys = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(snakeKeys) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [snake(k), snakeKeys(x)])) : v;

/** One expected record: its table, its identity, and the checks of its declared fields. */
interface Expected {
  table: string;
  id: string;
  /** Field checks: [field path, expected value, how to compare]. */
  fields: Array<[string, unknown, Compare?]>;
  /** Who declares it, for messages. */
  by: string;
}
type Compare = "exact" | "contained" | "instant" | "sorted";

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => deepEqual((a as Rec)[k], (b as Rec)[k]));
  }
  return false;
}

/** True when everything in `want` is in `got` (objects may hold more keys; arrays match item by item). */
export function contained(want: unknown, got: unknown): boolean {
  if (want === undefined) return true;
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => contained(w, got[i]));
  if (want && typeof want === "object") return !!got && typeof got === "object" && Object.entries(want).every(([k, w]) => contained(w, (got as Rec)[k]));
  return want === got;
}

function same(want: unknown, got: unknown, how: Compare = "exact"): boolean {
  switch (how) {
    case "contained":
      return contained(want, got);
    case "instant":
      return instant(want) === instant(got);
    case "sorted":
      return deepEqual([...(want as string[])].sort(), [...((got as string[]) ?? [])].sort());
    default:
      return deepEqual(want, got);
  }
}

const at = (r: Rec, path: string): unknown => path.split(".").reduce<unknown>((o, k) => (o == null ? undefined : (o as Rec)[k]), r);

/**
 * The records a declared resource stands for. `stateId` is the id the Pulumi state gives it (the
 * platform names schedules and data labels itself).
 */
function expectedOf(spec: ProgramSpec, d: Decl, stateId: string | undefined): Expected[] {
  const a = plainArgs(spec, d);
  const by = `${d.kind} ${d.name}`;
  const f: Expected["fields"] = [];
  const opt = (field: string, v: unknown, how?: Compare) => {
    if (v !== undefined) f.push([field, v, how]);
  };
  const one = (table: string, id: string): Expected[] => [{ table, id, fields: f, by }];
  switch (d.kind) {
    case "Cluster":
      opt("title", a.title);
      opt("type", a.type);
      for (const k of [
        "ready",
        "forwardLogsEnabled",
        "forwardLogsBufferSize",
        "manifestsScrapeEnabled",
        "manifestsScrapeInterval",
        "syncScrapeInterval",
        "telemetryEnabled",
        "telemetryBufferSize",
        "telemetryScrapeInterval",
        "telemetryAlertsEnabled",
      ])
        opt(snake(k), a[k]);
      opt("edge_options.image_pull_policy", a.edgeOptions?.imagePullPolicy);
      return one(TABLES.clusters, a.name);
    case "AssetClass":
      opt("title", a.title);
      return one(TABLES.assetClasses, a.name);
    case "AssetType":
      opt("title", a.title);
      opt("asset_class_name", a.assetClassName);
      return one(TABLES.assetTypes, a.name);
    case "Asset":
      opt("title", a.title);
      opt("asset_type_name", a.assetTypeName);
      opt("asset_parent_name", a.parentName);
      opt("location", a.location);
      return one(TABLES.assets, a.name);
    case "AssetProperty":
      opt("value", valueText(a.value));
      opt("title", a.title);
      return one(TABLES.assetProperties, `${a.assetName}/${a.name}`);
    case "AssetMetadata":
      opt("payload", a.payload);
      return one(TABLES.assetMetadata, `${a.assetName}/${a.name}`);
    case "AppVersion": {
      const m = (a.manifest ?? {}) as Rec;
      opt("type", a.type);
      opt("title", a.title ?? m.title ?? a.appName);
      opt("description", a.description ?? m.description ?? "");
      opt("image", a.image);
      opt("defaults", a.defaults === undefined ? undefined : snakeKeys(a.defaults), "contained");
      opt("parameters", m.parameters, "contained");
      opt("io", m.io, "contained");
      return one(TABLES.appVersions, `${a.appName}@${a.version}`);
    }
    case "App":
      opt("title", a.title);
      opt("description", a.description);
      opt("category", a.category);
      return one(TABLES.apps, a.name);
    case "Workload": {
      opt("app_name", a.appName);
      opt("app_version", a.appVersion);
      opt("cluster_name", a.clusterName);
      opt("title", a.title);
      if (a.runtime !== undefined) {
        opt(
          "runtime.resources",
          (a.runtime.resources ?? []).map((r: Rec) => ({ resource: r.resource })),
          "contained",
        );
        opt("runtime.configuration", a.runtime.configuration, "exact");
      }
      // The platform's own `enabled` follows the run state (false while stopped): a workload declared
      // enabled: false is pending, any other runs or is stopped as declared.
      opt("status.state", a.enabled === false ? "pending_deploy" : a.running === false ? "stopped" : "running");
      return one(TABLES.workloads, a.name);
    }
    case "AppParameterValues":
      return Object.entries(a.values as Rec).map(([name, value]) => ({
        table: TABLES.parameterValues,
        id: `${a.appName}@${a.appVersion}/${krn(a.resource)}#${name}`,
        fields: [["value", value]],
        by,
      }));
    case "ParameterSchedule":
      opt("app_name", a.appName);
      opt("app_version", a.appVersion);
      opt("scheduled_for", a.scheduledFor, "instant");
      opt("resources", (a.resources as string[]).map(krn), "sorted");
      opt("parameters", a.parameters);
      opt("comment", a.comment);
      opt("state", "scheduled");
      if (a.revert) {
        opt("revert.scheduled_for", a.revert.scheduledFor, "instant");
        opt(
          "revert.resource_parameters",
          a.revert.resourceParameters.map((rp: Rec) => ({ resource: krn(rp.resource), parameters: rp.parameters })),
        );
      }
      return one(TABLES.schedules, stateId ?? `(no id in the state for ${d.name})`);
    case "Label":
      opt("title", a.title);
      return one(TABLES.labels, a.name);
    case "DataLabel":
      opt("label_name", a.labelName);
      opt("start_date", a.startDate, "instant");
      opt("end_date", a.endDate, "instant");
      opt("description", a.description);
      opt("confidence", a.confidence);
      opt("validation", a.validation);
      opt("metrics", a.metrics === undefined ? undefined : snakeKeys(a.metrics));
      opt("source.type", a.source?.type);
      return one(TABLES.dataLabels, stateId ?? `(no id in the state for ${d.name})`);
    case "DataType": {
      const icd = a.icd as Rec;
      opt("icd.class_name", icd.className);
      opt("icd.fields", icd.fields, "contained");
      return one(TABLES.dataTypes, `${icd.name}:${icd.version ?? "0.0.1"}`);
    }
    case "Bridge":
      opt("cluster_name", a.clusterName);
      opt("app_name", a.appName);
      opt("app_version", a.appVersion);
      opt("payload", a.payload);
      opt("protocol", a.protocol);
      opt("title", a.title);
      // A bridge runs as a workload of its name.
      return [
        ...one(TABLES.bridges, a.name),
        {
          table: TABLES.workloads,
          id: a.name,
          fields: [
            ["cluster_name", a.clusterName],
            ["app_name", a.appName],
          ],
          by,
        },
      ];
    case "InstanceSettings":
      // Only the declared schedules are managed; the others keep what the platform has.
      return [{ table: TABLES.instanceSettings, id: "settings", fields: [["acp", snakeKeys(a.acp), "contained"]], by }];
  }
}

export interface PlatformModel {
  /** The program the platform should hold (empty after destroy). */
  declared: ProgramSpec;
  /** Clusters (by name) and data types (`name:version`) that were created once and that the platform cannot delete. */
  released: { clusters: Set<string>; dataTypes: Set<string> };
}

/** Every way the platform differs from the model (empty when it holds exactly what the program declares). */
export function platformProblems(store: Store, model: PlatformModel, stateIds: Map<string, string>): string[] {
  const snap = store.snapshot();
  const rows = (table: string) => (snap[table] ?? []).map(([, v]) => v as Rec);
  const problems: string[] = [];
  const expected = model.declared.flatMap((d) => expectedOf(model.declared, d, stateIds.get(d.name)));

  // Every declared record is there with the declared values.
  for (const e of expected) {
    if (e.table === TABLES.instanceSettings) {
      const got = rows(e.table)[0] ?? {};
      for (const [path, want, how] of e.fields)
        if (!same(want, at(got, path), how)) problems.push(`${e.by}: instance settings ${path} is ${JSON.stringify(at(got, path))}, declared ${JSON.stringify(want)}`);
      continue;
    }
    const found = rows(e.table).filter((r) => IDENTITY[e.table](r) === e.id);
    if (found.length === 0) {
      problems.push(`${e.by}: ${e.table} '${e.id}' is missing on the platform`);
      continue;
    }
    for (const [path, want, how] of e.fields) {
      const got = at(found[0], path);
      if (!same(want, got, how)) problems.push(`${e.by}: ${e.table} '${e.id}' ${path} is ${JSON.stringify(got)}, declared ${JSON.stringify(want)}`);
    }
  }

  // Nothing else is there (objects of pending schedules only: a schedule that ran stays as history).
  const wanted = new Map<string, Set<string>>();
  for (const e of expected) (wanted.get(e.table) ?? wanted.set(e.table, new Set()).get(e.table)!).add(e.id);
  for (const name of model.released.clusters) (wanted.get(TABLES.clusters) ?? wanted.set(TABLES.clusters, new Set()).get(TABLES.clusters)!).add(name);
  for (const id of model.released.dataTypes) (wanted.get(TABLES.dataTypes) ?? wanted.set(TABLES.dataTypes, new Set()).get(TABLES.dataTypes)!).add(id);
  for (const [table, identity] of Object.entries(IDENTITY)) {
    const ids = rows(table)
      .filter((r) => table !== TABLES.schedules || r.state === "scheduled" || r.state === "scheduled-revert")
      .map(identity);
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) problems.push(`${table} '${id}' exists twice on the platform`);
      seen.add(id);
      if (!wanted.get(table)?.has(id))
        problems.push(
          `${table} '${id}' is on the platform but the program does not declare it${table === TABLES.clusters || table === TABLES.dataTypes ? " (nor did an earlier one)" : ""}`,
        );
    }
  }
  for (const table of UNUSED) if (rows(table).length > 0) problems.push(`${table} holds ${rows(table).length} record(s); the program makes none`);
  if (!model.declared.some((d) => d.kind === "InstanceSettings")) {
    const got = rows(TABLES.instanceSettings)[0];
    if (got && !deepEqual(got.acp, INSTANCE_SETTINGS_DEFAULTS.acp)) problems.push(`instance settings are ${JSON.stringify(got.acp)}, not the defaults (no resource declares them)`);
  }
  for (const name of model.released.clusters) if (!rows(TABLES.clusters).some((r) => r.name === name)) problems.push(`released cluster '${name}' is gone from the platform`);
  for (const id of model.released.dataTypes)
    if (!rows(TABLES.dataTypes).some((r) => `${r.name}:${r.version}` === id)) problems.push(`released data type '${id}' is gone from the platform`);
  return problems;
}

/** The objects a program creates that the platform cannot delete. */
export function releasedBy(spec: ProgramSpec): { clusters: string[]; dataTypes: string[] } {
  return {
    clusters: spec.filter((d) => d.kind === "Cluster").map((d) => plainArgs(spec, d).name as string),
    dataTypes: spec
      .filter((d) => d.kind === "DataType")
      .map((d) => {
        const icd = plainArgs(spec, d).icd as Rec;
        return `${icd.name}:${icd.version ?? "0.0.1"}`;
      }),
  };
}

/** The id the provider gives a declared resource whose identity the program fixes (undefined where the platform assigns it). */
export function naturalId(spec: ProgramSpec, d: Decl): string | undefined {
  const a = plainArgs(spec, d);
  switch (d.kind) {
    case "AssetProperty":
    case "AssetMetadata":
      return `${a.assetName}/${a.name}`;
    case "AppVersion":
      return `${a.appName}@${a.version}`;
    case "AppParameterValues":
      return `${a.appName}@${a.appVersion}/${krn(a.resource)}`;
    case "DataType":
      return `${a.icd.name}:${a.icd.version ?? "0.0.1"}`;
    case "InstanceSettings":
      return "instance-settings";
    case "ParameterSchedule":
    case "DataLabel":
      return undefined;
    default:
      return a.name;
  }
}
