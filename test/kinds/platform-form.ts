/**
 * The platform's own form of what a program declares, written from the spec (not from the provider's
 * mapping): snake_case keys, property values as text, asset references as KRNs.
 */

export const krn = (ref: string) => (ref.startsWith("krn:") ? ref : `krn:asset:${ref}`);
export const valueText = (v: unknown) => (Array.isArray(v) ? JSON.stringify(v) : String(v));
export const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
export const snakeKeys = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(snakeKeys) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [snake(k), snakeKeys(x)])) : v;
/** An instant in the platform's form with microseconds (`2030-01-01T00:00:00.000000Z`). */
export const micros = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
