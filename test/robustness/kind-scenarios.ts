/**
 * fast-check arbitraries of valid args for every resource kind: each draws one resource of its kind
 * (and what it needs: an asset needs a type, a workload an app version and a cluster) with optional
 * args left out or set, values the platform normalises (times in other offsets, titles the platform
 * fills) and, for app versions, manifests whose fields the explicit args override. A scenario is a
 * program as data (test/model/program.ts), so a failure prints as the TypeScript a user would write.
 * `u` makes every platform name of one scenario unique on a shared emulator.
 */
import fc from "fast-check";
import type { KindName, ProgramSpec, Value } from "../model/program";

export type Scenario = (u: number) => ProgramSpec;
type Args = Record<string, Value>;

const ref = (name: string, out: string, prefix?: string): Value => (prefix ? { $ref: name, out, prefix } : { $ref: name, out });

/** A record of optional fields: each key present or left out (never `undefined`, which Pulumi drops anyway). */
const some = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) => fc.record(fields, { requiredKeys: [] });
/** Drops the keys whose value is undefined, so that a scenario prints as a program would be written. */
const defined = (o: Record<string, unknown>): Args => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Args;

/** Display text with spaces and punctuation, as titles hold (1 to `max` characters). */
const text = (max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9][A-Za-z0-9 .,:_()/-]{0,${max - 1}}$`));
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const bool = fc.boolean();
/** Free-form JSON objects (configuration, payloads, JSON Schemas): any keys, any JSON values. */
const freeObject = fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,11}$/), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Value>, { maxKeys: 4 });
const semver = fc.tuple(fc.nat(20), fc.nat(20), fc.nat(20), fc.constantFrom("", "-rc.1", "-beta", "+build.5")).map(([a, b, c, tag]) => `${a}.${b}.${c}${tag}`);

/** An instant after 2031 in one of the RFC 3339 forms the platform accepts (it answers in its own form). */
const time = (fromMs = Date.UTC(2031, 0, 1)) =>
  fc.tuple(fc.integer({ min: 0, max: 400 * 86_400 }), fc.constantFrom("Z", "ms", "us", "+02:00", "-05:30")).map(([s, form]) => ({ ms: fromMs + s * 1000, form }));
function rfc3339({ ms, form }: { ms: number; form: string }): string {
  const iso = new Date(ms).toISOString();
  if (form === "Z") return iso.replace(".000Z", "Z");
  if (form === "ms") return iso;
  if (form === "us") return iso.replace(/Z$/, "000Z");
  const sign = form[0] === "+" ? 1 : -1;
  const [h, m] = form.slice(1).split(":").map(Number);
  const local = new Date(ms + sign * (h * 60 + m) * 60_000).toISOString().replace(".000Z", "");
  return `${local.replace(/Z$/, "")}${form}`;
}

// ---------------------------------------------------------------------------------------------
// Prerequisites

const cluster = (u: number, name = `c-${u}`): ProgramSpec => [{ kind: "Cluster", name, args: { name } }];
const assetType = (u: number): ProgramSpec => [{ kind: "AssetType", name: `t-${u}`, args: { name: `t-${u}`, title: `Type ${u}` } }];
const asset = (u: number, n = 1): ProgramSpec =>
  Array.from({ length: n }, (_, i) => ({
    kind: "Asset",
    name: `a-${u}-${i}`,
    args: { name: `a-${u}-${i}`, title: `Asset ${i}`, assetTypeName: ref(`t-${u}`, "name") },
  }));
/** An app version that declares the parameters `threshold` (number), `mode` (string) and `flag` (boolean). */
const PARAMETERS = [
  { name: "threshold", data_type: "number", default: 80 },
  { name: "mode", data_type: "string", default: "standard" },
  { name: "flag", data_type: "boolean", default: false },
] as const;
const version = (u: number, logical = `v-${u}`): ProgramSpec => [
  { kind: "AppVersion", name: logical, args: { appName: `app-${u}`, version: "1.0.0", type: "app", manifest: { parameters: PARAMETERS.map((p) => ({ ...p })) } } },
];
const parameterValue = { threshold: fc.integer({ min: 0, max: 500 }), mode: fc.constantFrom("eco", "boost", "off"), flag: bool };
const parameterValues = some(parameterValue).filter((v) => Object.keys(v).length > 0) as fc.Arbitrary<Args>;

// ---------------------------------------------------------------------------------------------
// App versions: manifests, and explicit args that override them

const ioWay = fc.constantFrom("output", "input-cc", "input-cc+output", "input", "output-cc", "input+output-cc");
const ioStorage = fc.constantFrom("node-and-cloud", "node", "none");
const deploymentType = fc.constantFrom("standard", "staged+instant-apply", "staged-only");
const uniqueBy = <T>(arb: fc.Arbitrary<T>, key: (t: T) => string, max = 3) => fc.uniqueArray(arb, { maxLength: max, selector: key });

/** The manifest's parameters: unique names, defaults of the declared type (or of the type the default gives). */
const manifestParameter = fc
  .record({ name: word, title: fc.option(text(40), { nil: undefined }), kind: fc.constantFrom("number", "string", "boolean", undefined) })
  .chain(({ name, title, kind }) =>
    fc
      .option<string | number | boolean>(kind === "number" ? fc.integer({ min: 0, max: 99 }) : kind === "boolean" ? bool : text(10), { nil: undefined })
      .map((d) => defined({ name, title, data_type: kind, default: kind === undefined && typeof d !== "string" ? undefined : d })),
  );
const target = some({ type: text(20), cluster: fc.record({ name: word }) });
/** `defaults` in the platform's naming (the manifest's) or camelCased (the arg's). */
const defaultsOf = (camel: boolean) =>
  some({
    deployment: some({ [camel ? "maxResources" : "max_resources"]: fc.integer({ min: 1, max: 50 }), [camel ? "deploymentType" : "deployment_type"]: deploymentType, target }),
    app: some({ configuration: freeObject, [camel ? "ioDatastreamMapping" : "io_datastream_mapping"]: fc.array(fc.record({ io: word, datastream: word }), { maxLength: 2 }) }),
    system: freeObject,
    [camel ? "apiPermissions" : "api_permissions"]: fc.oneof(freeObject, fc.array(word, { maxLength: 2 })),
  });
const schemasOf = (camel: boolean) =>
  some({
    parameters: freeObject,
    configuration: freeObject,
    [camel ? "ioConfiguration" : "io_configuration"]: fc.array(fc.record({ [camel ? "typeName" : "type_name"]: word, schema: freeObject }), { maxLength: 2 }),
  });

const manifest = some({
  title: text(60),
  description: fc.oneof(fc.constant(""), text(80)),
  category: text(30),
  image: fc.stringMatching(/^registry\.local\/[a-z]{1,8}:[0-9]\.[0-9]$/),
  flags: some({
    spec_version: fc.constantFrom("1.0", "2.1"),
    enable_runtime_update: some({ io: bool, configuration: bool, resource_parameters: bool, resource_properties: bool }),
    deployment: some({
      allowed_resources: fc.array(
        word.map((w) => `krn:asset:${w}`),
        { maxLength: 2 },
      ),
    }),
    resources_required: bool,
  }),
  io: uniqueBy(
    some({ unit: fc.constantFrom("bar", "°C", ""), way: ioWay, storage: ioStorage }).chain((o) => word.map((name) => ({ name, data_type: "number", ...o }))),
    (i) => i.name,
  ),
  dynamic_io: fc.array(
    some({ ownership: fc.constantFrom("both", "owned", "remote"), type: fc.constantFrom("both", "data", "control"), data_types: fc.array(word, { maxLength: 2 }) }).chain((o) =>
      word.map((type_name) => ({ type_name, ...o })),
    ),
    { maxLength: 2 },
  ),
  parameters: uniqueBy(manifestParameter, (p) => String(p.name)),
  schemas: schemasOf(false),
  defaults: defaultsOf(false),
  custom_actions: fc.array(fc.record({ type: fc.stringMatching(/^[a-z][a-z0-9 ._-]{0,10}[a-z0-9]$/), way: fc.constantFrom("input-ca", "output-ca") }), { maxLength: 2 }),
  data_quality: fc.array(fc.record({ name: word, data_type: fc.constant("number"), way: fc.constantFrom("input", "output"), datastreams: fc.array(word, { maxLength: 2 }) }), {
    maxLength: 2,
  }),
});

const appVersion: fc.Arbitrary<Scenario> = fc
  .record({
    version: semver,
    type: fc.constantFrom("app", "importer", "exporter", "docker"),
    manifest: fc.option(manifest, { nil: undefined }),
    // Explicit args, which win over the manifest's fields of the same name.
    own: some({
      title: text(60),
      description: text(80),
      image: fc.stringMatching(/^reg\/app:1\.[0-9]\.[0-9]$/),
      defaults: defaultsOf(true),
      schemas: schemasOf(true),
      adopt: bool,
    }),
  })
  .map(({ version: v, type, manifest: m, own }) => (u) => [{ kind: "AppVersion", name: `v-${u}`, args: defined({ appName: `app-${u}`, version: v, type, ...own, manifest: m }) }]);

const app: fc.Arbitrary<Scenario> = some({ title: text(60), description: text(80), category: text(30) }).map((own) => (u) => [
  ...version(u),
  { kind: "App", name: `app-${u}`, args: { name: ref(`v-${u}`, "appName"), ...(own as Args) } },
]);

// ---------------------------------------------------------------------------------------------
// The other kinds

const clusterArb: fc.Arbitrary<Scenario> = some({
  title: text(60),
  type: fc.constantFrom("k3s", "kubernetes", "docker"),
  ready: bool,
  forwardLogsEnabled: bool,
  forwardLogsBufferSize: fc.integer({ min: 1, max: 20 }),
  manifestsScrapeEnabled: bool,
  manifestsScrapeInterval: fc.integer({ min: 30, max: 86400 }),
  syncScrapeInterval: fc.integer({ min: 10, max: 86400 }),
  telemetryEnabled: bool,
  telemetryBufferSize: fc.integer({ min: 1, max: 20 }),
  telemetryScrapeInterval: fc.integer({ min: 1, max: 3600 }),
  telemetryAlertsEnabled: bool,
  edgeOptions: some({ imagePullPolicy: fc.constantFrom("Always", "IfNotPresent") }),
  adopt: bool,
}).map((own) => (u) => [{ kind: "Cluster", name: `c-${u}`, args: { name: `c-${u}`, ...(own as Args) } }]);

const assetClass: fc.Arbitrary<Scenario> = fc
  .record({ title: text(64), adopt: fc.option(bool, { nil: undefined }) })
  .map((own) => (u) => [{ kind: "AssetClass", name: `k-${u}`, args: defined({ name: `k-${u}`, ...own }) }]);

const assetTypeArb: fc.Arbitrary<Scenario> = fc
  .record({ title: text(64), inClass: bool, adopt: fc.option(bool, { nil: undefined }) })
  .map(({ title, inClass, adopt }) => (u) => [
    ...(inClass ? [{ kind: "AssetClass" as KindName, name: `k-${u}`, args: { name: `k-${u}`, title: "Class" } }] : []),
    { kind: "AssetType", name: `t-${u}`, args: defined({ name: `t-${u}`, title, assetClassName: inClass ? ref(`k-${u}`, "name") : undefined, adopt }) },
  ]);

const location = fc.record({ lat: fc.double({ min: -90, max: 90, noNaN: true }), lon: fc.double({ min: -180, max: 180, noNaN: true }) });
const assetArb: fc.Arbitrary<Scenario> = fc
  .record({ title: text(64), withParent: bool, location: fc.option(location, { nil: undefined }), adopt: fc.option(bool, { nil: undefined }) })
  .map(({ title, withParent, location: l, adopt }) => (u) => [
    ...assetType(u),
    ...(withParent ? [{ kind: "Asset" as KindName, name: `p-${u}`, args: { name: `p-${u}`, title: "Parent", assetTypeName: ref(`t-${u}`, "name") } }] : []),
    {
      kind: "Asset",
      name: `a-${u}`,
      args: defined({ name: `a-${u}`, title, assetTypeName: ref(`t-${u}`, "name"), parentName: withParent ? ref(`p-${u}`, "name") : undefined, location: l, adopt }),
    },
  ]);

const propertyValue = fc.oneof(
  text(40),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double({ min: -1e12, max: 1e12, noNaN: true }),
  bool,
  fc.array(text(10), { maxLength: 3 }),
  fc.array(fc.integer({ min: -99, max: 99 }), { maxLength: 3 }),
  fc.array(bool, { maxLength: 3 }),
);
const assetProperty: fc.Arbitrary<Scenario> = fc
  .record({ value: propertyValue, title: fc.option(text(64), { nil: undefined }), adopt: fc.option(bool, { nil: undefined }) })
  .map((own) => (u) => [
    ...assetType(u),
    ...asset(u),
    { kind: "AssetProperty", name: `prop-${u}`, args: defined({ assetName: ref(`a-${u}-0`, "name"), name: `prop_${u}`, ...own }) },
  ]);

const assetMetadata: fc.Arbitrary<Scenario> = fc
  .record({ payload: freeObject, adopt: fc.option(bool, { nil: undefined }) })
  .map((own) => (u) => [
    ...assetType(u),
    ...asset(u),
    { kind: "AssetMetadata", name: `meta-${u}`, args: defined({ assetName: ref(`a-${u}-0`, "name"), name: `meta-${u}`, ...own }) },
  ]);

const runtime = some({
  resources: fc.array(
    some({
      parameters: some(parameterValue),
      datastreams: fc.dictionary(word, some({ way: ioWay, storage: ioStorage, remote: bool, configuration: freeObject }), { maxKeys: 2 }),
      asset: some({ name: word, title: text(30), type: some({ name: word, title: text(30) }) }),
    }),
    { maxLength: 2 },
  ),
  configuration: freeObject,
  datastreams: fc.array(
    some({ semanticTypeName: text(20), unitName: fc.constantFrom("bar", "°C") }).chain((o) => word.map((name) => ({ name, dataTypeName: "number", ...o }))),
    {
      maxLength: 2,
    },
  ),
});
const workload: fc.Arbitrary<Scenario> = fc
  .record({
    own: some({
      title: text(100),
      nodeName: word,
      system: freeObject,
      apiPermissions: fc.oneof(freeObject, fc.array(word, { maxLength: 2 })),
      deploymentType,
      enabled: bool,
      running: bool,
      adopt: bool,
    }),
    runtime: fc.option(runtime, { nil: undefined }),
  })
  .map(({ own, runtime: rt }) => (u) => {
    const resources = ((rt?.resources ?? []) as Args[]).map((r, i) => ({ ...r, resource: ref(`a-${u}-${i}`, "name", "krn:asset:") }));
    const args: Args = { name: `w-${u}`, appName: ref(`v-${u}`, "appName"), appVersion: ref(`v-${u}`, "version"), clusterName: ref(`c-${u}`, "name"), ...(own as Args) };
    if (rt) args.runtime = defined({ ...rt, resources: rt.resources ? resources : undefined });
    return [...version(u), ...cluster(u), ...assetType(u), ...asset(u, 2), { kind: "Workload", name: `w-${u}`, args }];
  });

const appParameterValues: fc.Arbitrary<Scenario> = fc
  .record({ values: parameterValues, krn: bool, comment: fc.option(text(40), { nil: undefined }) })
  .map(({ values, krn, comment }) => (u) => [
    ...version(u),
    ...assetType(u),
    ...asset(u),
    {
      kind: "AppParameterValues",
      name: `pv-${u}`,
      args: defined({
        appName: ref(`v-${u}`, "appName"),
        appVersion: ref(`v-${u}`, "version"),
        resource: ref(`a-${u}-0`, "name", krn ? "krn:asset:" : undefined),
        values,
        comment,
      }),
    },
  ]);

const parameterSchedule: fc.Arbitrary<Scenario> = fc
  .record({
    at: time(),
    resources: fc.array(bool, { minLength: 1, maxLength: 2 }),
    parameters: parameterValues,
    revert: fc.option(fc.record({ after: fc.integer({ min: 60, max: 86_400 }), form: fc.constantFrom("Z", "ms", "us", "+02:00"), values: fc.array(parameterValues) }), {
      nil: undefined,
    }),
    comment: fc.option(text(60), { nil: undefined }),
  })
  .map(({ at, resources, parameters, revert, comment }) => (u) => {
    const refs = resources.map((krn, i) => ref(`a-${u}-${i}`, "name", krn ? "krn:asset:" : undefined));
    const args: Args = { appName: ref(`v-${u}`, "appName"), appVersion: ref(`v-${u}`, "version"), scheduledFor: rfc3339(at), resources: refs, parameters };
    if (comment !== undefined) args.comment = comment;
    if (revert) {
      // A revert sets exactly the scheduled parameters on every listed resource.
      const restore = (i: number): Args => Object.fromEntries(Object.keys(parameters).map((k) => [k, (revert.values[i] ?? parameters)[k] ?? parameters[k]]));
      args.revert = {
        scheduledFor: rfc3339({ ms: at.ms + revert.after * 1000, form: revert.form }),
        resourceParameters: refs.map((resource, i) => ({ resource, parameters: restore(i) })),
      };
    }
    return [...version(u), ...assetType(u), ...asset(u, resources.length), { kind: "ParameterSchedule", name: `s-${u}`, args }];
  });

const label: fc.Arbitrary<Scenario> = fc
  .record({ title: text(64), adopt: fc.option(bool, { nil: undefined }) })
  .map((own) => (u) => [{ kind: "Label", name: `l-${u}`, args: defined({ name: `l-${u}`, ...own }) }]);

const dataLabel: fc.Arbitrary<Scenario> = fc
  .record({
    start: time(Date.UTC(2030, 0, 1)),
    hours: fc.integer({ min: 1, max: 48 }),
    endForm: fc.constantFrom("Z", "ms", "us", "+02:00"),
    metrics: fc.option(fc.array(word, { maxLength: 2 }), { nil: undefined }),
    own: some({
      source: some({ info: freeObject }).chain((s) => fc.constantFrom("workload", "user").map((type) => ({ type, ...s }))),
      description: text(80),
      confidence: fc.integer({ min: 0, max: 100 }),
      validation: bool,
      info: freeObject,
    }),
  })
  .map(({ start, hours, endForm, metrics, own }) => (u) => [
    { kind: "Label", name: `l-${u}`, args: { name: `l-${u}`, title: "Label" } },
    ...assetType(u),
    ...asset(u),
    {
      kind: "DataLabel",
      name: `dl-${u}`,
      args: defined({
        labelName: ref(`l-${u}`, "name"),
        startDate: rfc3339(start),
        endDate: rfc3339({ ms: start.ms + hours * 3_600_000, form: endForm }),
        metrics: metrics?.map((name) => ({ assetName: ref(`a-${u}-0`, "name"), name })),
        ...(own as Args),
      }),
    },
  ]);

const dataType: fc.Arbitrary<Scenario> = fc
  .record({
    icd: some({
      description: text(80),
      version: semver,
      fields: uniqueBy(
        fc
          .record({ name: word, type: fc.constantFrom("number", "string", "boolean", "int32", "timestamp") })
          .chain((f) => some({ description: text(30), array: bool }).map((o) => ({ ...f, ...o }))),
        (f) => f.name,
      ),
    }),
    className: fc.stringMatching(/^[A-Z][A-Za-z0-9_]{1,20}$/),
    source: fc.option(fc.constantFrom("user", "connect", "plant"), { nil: undefined }),
    adopt: fc.option(bool, { nil: undefined }),
  })
  .map(({ icd, className, source, adopt }) => (u) => [
    { kind: "DataType", name: `dt-${u}`, args: defined({ icd: { name: `model.type_${u}`, className, ...(icd as Args) }, source, adopt }) },
  ]);

const bridge: fc.Arbitrary<Scenario> = fc
  .record({
    withVersion: bool,
    payload: freeObject,
    own: some({ nodeName: word, title: text(60), protocol: fc.constantFrom("opcua", "modbus", "mqtt"), adopt: bool }),
  })
  .map(({ withVersion, payload, own }) => (u) => [
    ...version(u),
    ...cluster(u),
    {
      kind: "Bridge",
      name: `b-${u}`,
      args: defined({
        name: `b-${u}`,
        clusterName: ref(`c-${u}`, "name"),
        appName: ref(`v-${u}`, "appName"),
        appVersion: withVersion ? ref(`v-${u}`, "version") : undefined,
        payload,
        ...(own as Args),
      }),
    },
  ]);

const schedule = some({ enabled: bool, interval: fc.integer({ min: 1, max: 604_800 }) });
const instanceSettings: fc.Arbitrary<Scenario> = some({ autoUpdate: schedule, metrics: schedule, status: schedule }).map((acp) => () => [
  { kind: "InstanceSettings", name: "settings", args: { acp: acp as Args } },
]);

/** One arbitrary of scenarios per kind. */
export const SCENARIOS: Record<KindName, fc.Arbitrary<Scenario>> = {
  Cluster: clusterArb,
  AssetClass: assetClass,
  AssetType: assetTypeArb,
  Asset: assetArb,
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
