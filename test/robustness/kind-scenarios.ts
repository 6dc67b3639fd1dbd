/**
 * What the kinds' scenarios share (each kind's scenario is in its test module, test/kinds/<kind>.ts):
 * fast-check arbitraries of valid args, each drawing one resource of its kind (and what it needs: an
 * asset needs a type, a workload an app version and a cluster) with optional args left out or set,
 * values the platform normalises (times in other offsets, titles the platform fills) and, for app
 * versions, manifests whose fields the explicit args override. A scenario is a program as data
 * (test/model/program.ts), so a failure prints as the TypeScript a user would write. `u` makes every
 * platform name of one scenario unique on a shared emulator.
 */
import fc from "fast-check";
import type { ProgramSpec, Value } from "../model/program";

export type Scenario = (u: number) => ProgramSpec;
export type Args = Record<string, Value>;

const ref = (name: string, out: string, prefix?: string): Value => (prefix ? { $ref: name, out, prefix } : { $ref: name, out });

/** A record of optional fields: each key present or left out (never `undefined`, which Pulumi drops anyway). */
export const some = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) => fc.record(fields, { requiredKeys: [] });

/** Drops the keys whose value is undefined, so that a scenario prints as a program would be written. */
export const defined = (o: Record<string, unknown>): Args => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Args;

/** Display text with spaces and punctuation, as titles hold (1 to `max` characters). */
export const text = (max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9][A-Za-z0-9 .,:_()/-]{0,${max - 1}}$`));

export const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);

export const bool = fc.boolean();

/** Free-form JSON objects (configuration, payloads, JSON Schemas): any keys, any JSON values. */
export const freeObject = fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,11}$/), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Value>, { maxKeys: 4 });

export const semver = fc.tuple(fc.nat(20), fc.nat(20), fc.nat(20), fc.constantFrom("", "-rc.1", "-beta", "+build.5")).map(([a, b, c, tag]) => `${a}.${b}.${c}${tag}`);

/** An instant after 2031 in one of the RFC 3339 forms the platform accepts (it answers in its own form). */
export const time = (fromMs = Date.UTC(2031, 0, 1)) =>
  fc.tuple(fc.integer({ min: 0, max: 400 * 86_400 }), fc.constantFrom("Z", "ms", "us", "+02:00", "-05:30")).map(([s, form]) => ({ ms: fromMs + s * 1000, form }));

export function rfc3339({ ms, form }: { ms: number; form: string }): string {
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

export const cluster = (u: number, name = `c-${u}`): ProgramSpec => [{ kind: "Cluster", name, args: { name } }];

export const assetType = (u: number): ProgramSpec => [{ kind: "AssetType", name: `t-${u}`, args: { name: `t-${u}`, title: `Type ${u}` } }];

export const asset = (u: number, n = 1): ProgramSpec =>
  Array.from({ length: n }, (_, i) => ({
    kind: "Asset",
    name: `a-${u}-${i}`,
    args: { name: `a-${u}-${i}`, title: `Asset ${i}`, assetTypeName: ref(`t-${u}`, "name") },
  }));

/** An app version that declares the parameters `threshold` (number), `mode` (string) and `flag` (boolean). */
export const PARAMETERS = [
  { name: "threshold", data_type: "number", default: 80 },
  { name: "mode", data_type: "string", default: "standard" },
  { name: "flag", data_type: "boolean", default: false },
] as const;

export const version = (u: number, logical = `v-${u}`): ProgramSpec => [
  { kind: "AppVersion", name: logical, args: { appName: `app-${u}`, version: "1.0.0", type: "app", manifest: { parameters: PARAMETERS.map((p) => ({ ...p })) } } },
];

export const parameterValue = { threshold: fc.integer({ min: 0, max: 500 }), mode: fc.constantFrom("eco", "boost", "off"), flag: bool };

export const parameterValues = some(parameterValue).filter((v) => Object.keys(v).length > 0) as fc.Arbitrary<Args>;

// ---------------------------------------------------------------------------------------------
// App versions: manifests, and explicit args that override them

export const ioWay = fc.constantFrom("output", "input-cc", "input-cc+output", "input", "output-cc", "input+output-cc");

export const ioStorage = fc.constantFrom("node-and-cloud", "node", "none");

export const deploymentType = fc.constantFrom("standard", "staged+instant-apply", "staged-only");

export const uniqueBy = <T>(arb: fc.Arbitrary<T>, key: (t: T) => string, max = 3) => fc.uniqueArray(arb, { maxLength: max, selector: key });

/** The manifest's parameters: unique names, defaults of the declared type (or of the type the default gives). */
export const manifestParameter = fc
  .record({ name: word, title: fc.option(text(40), { nil: undefined }), kind: fc.constantFrom("number", "string", "boolean", undefined) })
  .chain(({ name, title, kind }) =>
    fc
      .option<string | number | boolean>(kind === "number" ? fc.integer({ min: 0, max: 99 }) : kind === "boolean" ? bool : text(10), { nil: undefined })
      .map((d) => defined({ name, title, data_type: kind, default: kind === undefined && typeof d !== "string" ? undefined : d })),
  );

export const target = some({ type: text(20), cluster: fc.record({ name: word }) });

/** `defaults` in the platform's naming (the manifest's) or camelCased (the arg's). */
export const defaultsOf = (camel: boolean) =>
  some({
    deployment: some({ [camel ? "maxResources" : "max_resources"]: fc.integer({ min: 1, max: 50 }), [camel ? "deploymentType" : "deployment_type"]: deploymentType, target }),
    app: some({ configuration: freeObject, [camel ? "ioDatastreamMapping" : "io_datastream_mapping"]: fc.array(fc.record({ io: word, datastream: word }), { maxLength: 2 }) }),
    system: freeObject,
    [camel ? "apiPermissions" : "api_permissions"]: fc.oneof(freeObject, fc.array(word, { maxLength: 2 })),
  });

export const schemasOf = (camel: boolean) =>
  some({
    parameters: freeObject,
    configuration: freeObject,
    [camel ? "ioConfiguration" : "io_configuration"]: fc.array(fc.record({ [camel ? "typeName" : "type_name"]: word, schema: freeObject }), { maxLength: 2 }),
  });

export const manifest = some({
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

// ---------------------------------------------------------------------------------------------
// The other kinds
