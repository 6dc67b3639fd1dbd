/**
 * Property values as the engine holds them: plain JSON in which a secret is an object tagged with the
 * secret signature, an unknown (preview only) is the runtime's unknown sentinel string, and a reference
 * to another resource is an object tagged with the resource signature. This is the form the program
 * sends in a registration and receives in the answer; the helpers here convert it to what a provider
 * that accepts neither secrets nor resource references must see, and back. The unknown sentinel and
 * deep equality are ../../pulumi/values.ts, shared with the provider.
 */
import { deepEqual, UNKNOWN } from "../../pulumi/values";

export type PropertyValue = null | boolean | number | string | PropertyValue[] | PropertyMap;
export interface PropertyMap {
  [key: string]: PropertyValue;
}

/** Same constants as @pulumi/pulumi/runtime/rpc (sdk/go/common/resource/properties.go). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const RESOURCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";
export const OUTPUT_SIG = "d0e6a833031e9bbcd3f4e8bde6ca49a4";
/** The key under which a dynamic resource carries its serialized provider. */
export const PROVIDER_KEY = "__provider";

/** The engine's internal properties (`__provider`, the provider's hidden `__svcOwner`): a `__` key, which Pulumi never shows. */
export const isInternalKey = (key: string): boolean => key.startsWith("__");

/** A property map without the engine's internal properties. */
export const withoutInternalKeys = (m: PropertyMap): PropertyMap => Object.fromEntries(Object.entries(m).filter(([k]) => !isInternalKey(k)));

export const isObject = (v: unknown): v is PropertyMap => typeof v === "object" && v !== null && !Array.isArray(v);

export const isSecret = (v: unknown): v is PropertyMap => isObject(v) && v[SIG_KEY] === SECRET_SIG;

export const secret = (value: PropertyValue): PropertyMap => ({ [SIG_KEY]: SECRET_SIG, value });

export const unwrapSecret = (v: PropertyValue): PropertyValue => (isSecret(v) ? (v.value ?? null) : v);

/** Copies a value with every secret wrapper removed, at any depth. */
export function reveal(v: PropertyValue): PropertyValue {
  if (isSecret(v)) return reveal(v.value ?? null);
  if (Array.isArray(v)) return v.map(reveal);
  if (isObject(v)) return mapValues(v, reveal);
  return v;
}

/** Copies a value with every secret replaced by "[secret]", for reports. */
export function redactSecrets(v: PropertyValue): PropertyValue {
  if (isSecret(v)) return "[secret]";
  if (Array.isArray(v)) return v.map(redactSecrets);
  if (isObject(v)) return mapValues(v, redactSecrets);
  return v;
}

export function mapValues(m: PropertyMap, f: (v: PropertyValue, k: string) => PropertyValue): PropertyMap {
  const out: PropertyMap = {};
  for (const [k, v] of Object.entries(m)) out[k] = f(v, k);
  return out;
}

/**
 * What a provider that accepts neither secrets nor resource references receives (the dynamic-provider
 * host answers Configure with acceptSecrets=false): secrets unwrapped, a resource reference replaced by
 * the resource's id (custom resources) or URN (components), unknowns kept as the sentinel.
 */
export function forProvider(v: PropertyValue): PropertyValue {
  if (isSecret(v)) return forProvider(v.value ?? null);
  if (Array.isArray(v)) return v.map(forProvider);
  if (isObject(v)) {
    if (v[SIG_KEY] === RESOURCE_SIG) {
      if (!("id" in v)) return v.urn ?? null;
      return v.id === "" || v.id === null ? UNKNOWN : forProvider(v.id);
    }
    if (v[SIG_KEY] === OUTPUT_SIG) {
      // An output value the runtime could not flatten: known values pass as themselves.
      return "value" in v ? forProvider(v.value ?? null) : UNKNOWN;
    }
    return mapValues(v, forProvider);
  }
  return v;
}

export function forProviderMap(m: PropertyMap): PropertyMap {
  return forProvider(m) as PropertyMap;
}

/**
 * The engine re-marks as secret what a provider answers where the program's inputs held a secret (a
 * provider that does not accept secrets never sees the marking), as the engine's provider plugin does
 * (`annotateSecrets`, pkg/resource/plugin/provider_plugin.go): where input and output are both objects
 * it goes down into them key by key; otherwise an output whose input contains a secret anywhere becomes
 * secret as a whole. Top-level outputs the program names in `additionalSecretOutputs` become secret
 * too. A value the provider itself wrapped as a secret stays one.
 */
export function annotateSecrets(answer: PropertyMap, inputs: PropertyMap, extraSecretKeys: readonly string[] = []): PropertyMap {
  return markStepSecrets(markLike(answer, inputs), inputs, extraSecretKeys);
}

/**
 * What the engine marks secret in the new state of every step but a replacement, an unchanged
 * resource's included (step_executor.go): the outputs `additionalSecretOutputs` names, and each output
 * whose input of the same name is a secret.
 */
export function markStepSecrets(outputs: PropertyMap, inputs: PropertyMap, extraSecretKeys: readonly string[]): PropertyMap {
  return mapValues(outputs, (v, k) => (!isSecret(v) && (extraSecretKeys.includes(k) || isSecret(inputs[k])) ? secret(v) : v));
}

function markLike(outs: PropertyMap, ins: PropertyMap): PropertyMap {
  return mapValues(outs, (out, k) => {
    if (!(k in ins) || isSecret(out)) return out;
    const input = ins[k];
    if (isObject(out) && isObject(input) && !isSecret(input)) return markLike(out, input);
    return containsSecret(input) ? secret(out) : out;
  });
}

/** Whether a value is or holds a secret at any depth. */
export function containsSecret(v: PropertyValue): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecret);
  if (isObject(v)) return Object.values(v).some(containsSecret);
  return false;
}

/**
 * Top-level keys whose values differ between two property maps, compared without secret markings
 * (a value turning secret is not a change of value). The internal keys (`__provider`, which changes
 * whenever the program's provider code does and which the dynamic-provider host ignores, and a
 * provider's hidden inputs) are left out unless asked for.
 */
export function changedKeys(olds: PropertyMap, news: PropertyMap, options: { provider?: boolean } = {}): string[] {
  let keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])];
  // The engine's own comparison (for a provider without a diff method) counts them as inputs.
  if (!options.provider) keys = keys.filter((k) => !isInternalKey(k));
  return [...keys].filter((k) => !deepEqual(reveal(olds[k] ?? null), reveal(news[k] ?? null))).sort();
}

/** Drops `undefined` (absent) entries recursively, which protobuf Structs cannot carry. */
export function toPropertyValue(v: unknown): PropertyValue {
  if (v === undefined || v === null) return null;
  if (typeof v === "boolean" || typeof v === "number" || typeof v === "string") return v;
  if (Array.isArray(v)) return v.map(toPropertyValue);
  if (typeof v === "object") {
    const out: PropertyMap = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) out[k] = toPropertyValue(x);
    return out;
  }
  return String(v);
}

export function toPropertyMap(v: unknown): PropertyMap {
  const m = toPropertyValue(v);
  return isObject(m) ? m : {};
}

/** Copies a value without the given dotted paths. */
export function omitPaths(v: PropertyValue, paths: readonly string[]): PropertyValue {
  if (paths.length === 0) return v;
  const here = new Set(paths.filter((p) => !p.includes(".")));
  const deeper = new Map<string, string[]>();
  for (const p of paths) {
    const i = p.indexOf(".");
    if (i > 0) deeper.set(p.slice(0, i), [...(deeper.get(p.slice(0, i)) ?? []), p.slice(i + 1)]);
  }
  const inner = unwrapSecret(v);
  if (Array.isArray(inner)) return inner.filter((_, i) => !here.has(String(i))).map((x, i) => omitPaths(x, deeper.get(String(i)) ?? []));
  if (!isObject(inner)) return v;
  const out: PropertyMap = {};
  for (const [k, x] of Object.entries(inner)) if (!here.has(k)) out[k] = omitPaths(x, deeper.get(k) ?? []);
  return out;
}

/** Dotted paths of every secret inside a value, for reporting which properties are secret. */
export function secretPaths(v: PropertyValue, prefix = ""): string[] {
  if (isSecret(v)) return [prefix || "."];
  const join = (k: string | number) => (prefix ? `${prefix}.${k}` : String(k));
  if (Array.isArray(v)) return v.flatMap((x, i) => secretPaths(x, join(i)));
  if (isObject(v)) return Object.entries(v).flatMap(([k, x]) => secretPaths(x, join(k)));
  return [];
}

/**
 * Marks as secret every string that contains one of the given secret texts (secret configuration that
 * a provider echoed back without marking it), so that it is encrypted in the state like any secret.
 */
export function protectSecretTexts(v: PropertyValue, texts: readonly string[]): PropertyValue {
  if (texts.length === 0) return v;
  if (isSecret(v)) return v;
  if (typeof v === "string") return texts.some((t) => v.includes(t)) ? secret(v) : v;
  if (Array.isArray(v)) return v.map((x) => protectSecretTexts(x, texts));
  if (isObject(v)) return mapValues(v, (x) => protectSecretTexts(x, texts));
  return v;
}
