/**
 * Everything a user touches is documented on hover: every public resource class, arg and output
 * property, lookup and interface property of the built `.d.ts` carries a doc comment, and each arg's
 * doc says what a change does as the kind declares it (replaces, or updates in place) and states the
 * limits the contract (the zod schemas of src/api) sets: lengths, the name rule, enum values, ranges
 * and defaults.
 */
import type { z } from "zod";
import { CLUSTER_SETTING_DEFAULTS, clusterSettings } from "../../src/api/clusters";
import { NAME_PATTERN } from "../../src/api/common";
import { kinds } from "../../src/provider/kinds";
import { camel } from "../../src/provider/values";
import { coverage, readPublicApi, type PublicApi } from "./dts";

let api: PublicApi;
beforeAll(() => {
  api = readPublicApi();
});

const classOf = (name: string) => api.classes.find((c) => c.name === name);

test("every public resource class, arg, output, lookup and interface property has a doc comment", () => {
  const undocumented = api.items.filter((i) => i.doc === "").map((i) => `${i.what} ${i.name}`);
  expect(undocumented).toEqual([]);
  // The walk reached the declarations: every kind's class, with its args and outputs.
  expect(api.items.length).toBeGreaterThan(200);
  expect(coverage(api.items).class).toBe(`${Object.keys(kinds).length}/${Object.keys(kinds).length}`);
});

test("the properties inside args (runtime, manifest, defaults, schemas, ...) are reached and documented on hover", () => {
  const nested = new Map(api.items.filter((i) => i.what === "nested").map((i) => [i.name, i.doc]));
  for (const at of [
    "WorkloadArgs.runtime.resources[].resource",
    "WorkloadArgs.runtime.resources[].asset.type.title",
    "WorkloadArgs.runtime.datastreams[].dataTypeName",
    "AppVersionArgs.defaults.deployment.maxResources",
    "AppVersionArgs.defaults.app.ioDatastreamMapping[].datastream",
    "AppVersionArgs.schemas.ioConfiguration[].typeName",
    "AppVersionArgs.manifest.parameters[].data_type",
    "AppVersionArgs.manifest.flags.enable_runtime_update.resource_parameters",
    "DataTypeArgs.icd.fields[].array",
    "InstanceSettingsArgs.acp.status.interval",
  ]) {
    expect(nested.get(at)).toMatch(/\w/);
  }
  // Free-form values (a record of anything) have no properties to document.
  expect([...nested.keys()].filter((k) => k.startsWith("WorkloadArgs.runtime.configuration."))).toEqual([]);
  expect(nested.size).toBeGreaterThan(100);
});

test("the public resource classes are exactly the provider's kinds", () => {
  expect(api.classes.map((c) => c.name).sort()).toEqual(Object.keys(kinds).sort());
});

test("every optional arg's doc states its default", () => {
  const missing = api.classes.flatMap((c) => c.optionalArgs.filter((a) => !/default/i.test(c.args[a])).map((a) => `${c.name}Args.${a}`));
  expect(missing).toEqual([]);
  expect(api.classes.flatMap((c) => c.optionalArgs).length).toBeGreaterThan(40);
});

describe("each arg's doc says what a change does, as the kind declares it", () => {
  for (const kind of Object.values(kinds)) {
    test(kind.name, () => {
      const cls = classOf(kind.name);
      expect(cls).toBeDefined();
      // A kind whose every change replaces (no update call) says so for every arg.
      const alwaysReplaces = kind.replaceWhen?.({}, {}) === true || kind.update === undefined;
      const wrong: string[] = [];
      for (const [arg, spec] of Object.entries(kind.args)) {
        const doc = cls!.args[arg];
        if (doc === undefined) {
          wrong.push(`${arg}: not an arg of ${kind.name}Args`);
          continue;
        }
        if (spec.local) {
          if (!/provider-side/i.test(doc)) wrong.push(`${arg}: a provider-side setting; its doc should say it is never sent`);
          continue;
        }
        const replaces = alwaysReplaces || spec.replaces === true;
        if (replaces && !/replaces/.test(doc)) wrong.push(`${arg}: a change replaces the ${kind.platformTerm}, the doc does not say so: ${doc}`);
        if (!replaces && !/in place/.test(doc)) wrong.push(`${arg}: a change updates in place, the doc does not say so: ${doc}`);
      }
      // Every arg of the class is one the kind declares (no undocumented behaviour).
      for (const arg of Object.keys(cls!.args)) if (!(arg in kind.args)) wrong.push(`${arg}: in ${kind.name}Args but not declared by the kind`);
      expect(wrong).toEqual([]);
    });
  }
});

/** The rules a zod field sets that a doc must state: string lengths and pattern, enum values, number range. */
function rulesOf(field: z.ZodType): { maxLength?: number; maxItems?: number; namePattern?: boolean; values?: string[]; min?: number; max?: number } {
  // zod 4 definitions are walked as data (their types are internal).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Def = Record<string, any>;
  let t = field as unknown as { _zod: { def: Def } };
  for (let i = 0; i < 10; i++) {
    const d = t._zod.def;
    if (["optional", "nullable", "default", "readonly"].includes(d.type)) t = d.innerType;
    else if (d.type === "pipe") t = d.out._zod.def.type === "transform" ? d.in : d.out;
    else break;
  }
  const d = t._zod.def;
  const checks = ((d.checks ?? []) as Array<{ _zod: { def: Def } }>).map((c) => c._zod.def);
  const rules: ReturnType<typeof rulesOf> = {};
  if (d.type === "enum") rules.values = Object.keys(d.entries);
  for (const c of checks) {
    if (c.check === "max_length") rules[d.type === "array" ? "maxItems" : "maxLength"] = c.maximum;
    if (c.check === "string_format" && c.format === "regex" && String(c.pattern) === String(NAME_PATTERN)) rules.namePattern = true;
    if (c.check === "greater_than") rules.min = c.value;
    if (c.check === "less_than") rules.max = c.value;
  }
  return rules;
}

/** What a doc fails to state of the rules. */
function missingRules(text: string, rules: ReturnType<typeof rulesOf>): string[] {
  const doc = text.replace(/\s+/g, " ");
  const missing: string[] = [];
  if (rules.maxItems !== undefined && !doc.includes(`${rules.maxItems}`)) missing.push(`the most items (${rules.maxItems})`);
  if (rules.maxLength !== undefined && !doc.includes(`${rules.maxLength} characters`)) missing.push(`the length limit (${rules.maxLength} characters)`);
  if (rules.namePattern && !/lowercase letters, digits/.test(doc)) missing.push("the name rule (lowercase letters, digits, '.', '_', '-')");
  for (const v of rules.values ?? []) if (!doc.includes(`\`${v}\``)) missing.push(`the allowed value \`${v}\``);
  if (rules.min !== undefined && rules.max !== undefined && !doc.includes(`from ${rules.min} to ${rules.max}`)) missing.push(`the range (from ${rules.min} to ${rules.max})`);
  return missing;
}

describe("each arg's doc states the limits of the contract", () => {
  for (const kind of Object.values(kinds)) {
    const shape = (kind.schema as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
    if (!shape) continue;
    test(kind.name, () => {
      const cls = classOf(kind.name)!;
      const wrong: string[] = [];
      for (const [arg, spec] of Object.entries(kind.args)) {
        const field = shape[spec.wire ?? arg.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
        if (!field) continue;
        for (const m of missingRules(cls.args[arg] ?? "", rulesOf(field))) wrong.push(`${kind.name}Args.${arg}: the doc does not state ${m}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  test("Cluster settings: range and default from the contract", () => {
    const cls = classOf("Cluster")!;
    const wrong: string[] = [];
    for (const [wire, field] of Object.entries(clusterSettings)) {
      const arg = camel(wire);
      const doc = cls.args[arg] ?? "";
      for (const m of missingRules(doc, rulesOf(field))) wrong.push(`ClusterArgs.${arg}: the doc does not state ${m}`);
      const def = CLUSTER_SETTING_DEFAULTS[wire as keyof typeof CLUSTER_SETTING_DEFAULTS];
      if (!new RegExp(`default \`?${def}\`?`).test(doc)) wrong.push(`ClusterArgs.${arg}: the doc does not state the default ${def}`);
    }
    expect(wrong).toEqual([]);
  });
});
