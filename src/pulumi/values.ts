/**
 * Two notions of Pulumi's property values that the provider (over its wire values) and the kit's
 * engine (over the engine's JSON form) share with one meaning: the unknown sentinel, and deep
 * equality. Imports nothing.
 *
 * Equality: key order is ignored, and an absent key equals a key holding `undefined`. The engine's
 * JSON values never hold `undefined` (a protobuf Struct cannot carry it), so there the rule is plain
 * JSON equality; the provider's values, built from args before `scrub`, may hold it, and there a
 * field set to `undefined` is a field not given. `null` is a value: it differs from absent.
 */

/** What Pulumi sends for a value that is not known yet (during preview), whatever its type. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(v: unknown): boolean {
  return v === UNKNOWN;
}

/** True when the value, or anything inside it, is not known yet. */
export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (isRecord(v)) return Object.values(v).some(containsUnknown);
  return false;
}

/** Deep equality of JSON-like values: key order ignored, an absent key equal to one holding `undefined`. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].every((k) => deepEqual(a[k], b[k]));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
