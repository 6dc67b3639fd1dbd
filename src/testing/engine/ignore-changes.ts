/**
 * `ignoreChanges`, as the engine's processIgnoreChanges applies it: each property path
 * (`runtime.configuration`, `tags["a.b"]`, `items[0].name`, `*` for any key or element) keeps the old
 * inputs' value there, or stays absent where the old inputs have none.
 */
import { isObject, isSecret, secret, unwrapSecret, type PropertyMap, type PropertyValue } from "./values";

export function applyIgnoreChanges(news: PropertyMap, olds: PropertyMap | undefined, ignore: readonly string[]): PropertyMap {
  if (!olds || ignore.length === 0) return news;
  if (ignore.includes("*")) return { ...olds };
  let out: PropertyValue = news;
  for (const path of ignore) out = resetPath(out, olds, parsePath(path));
  return out as PropertyMap;
}

/** The top-level property a path starts with: `a` for `a.b[0]`. */
export const topLevel = (path: string): string => path.split(/[.[]/)[0];

/** `dest` with the value at `path` taken from `source` (removed where `source` has none); secrets stay secret. */
function resetPath(dest: PropertyValue, source: PropertyValue | undefined, path: ReadonlyArray<string | number>): PropertyValue {
  if (path.length === 0) return source === undefined ? dest : source;
  if (isSecret(dest)) return secret(resetPath(unwrapSecret(dest), source === undefined ? undefined : unwrapSecret(source), path));
  const src = source === undefined ? undefined : unwrapSecret(source);
  if (Array.isArray(dest)) return resetElements(dest, src, path);
  if (!isObject(dest)) return dest;
  return resetKeys(dest, src, path);
}

function resetElements(dest: PropertyValue[], src: PropertyValue | undefined, [head, ...rest]: ReadonlyArray<string | number>): PropertyValue {
  const indexes = head === "*" ? dest.map((_, i) => i) : typeof head === "number" ? [head] : [];
  const copy = [...dest];
  for (const i of indexes) {
    if (i >= copy.length) continue;
    const from = Array.isArray(src) ? src[i] : undefined;
    if (rest.length === 0 && from === undefined) continue; // an element cannot be removed from the middle
    copy[i] = resetPath(copy[i], from, rest);
  }
  return copy;
}

function resetKeys(dest: PropertyMap, src: PropertyValue | undefined, [head, ...rest]: ReadonlyArray<string | number>): PropertyValue {
  const keys = head === "*" ? Object.keys(dest) : [String(head)];
  const copy: PropertyMap = { ...dest };
  for (const k of keys) {
    const from = isObject(src) ? src[k] : undefined;
    if (rest.length === 0) {
      if (from === undefined) delete copy[k];
      else copy[k] = from;
    } else if (k in copy) copy[k] = resetPath(copy[k], from, rest);
    else if (from !== undefined) copy[k] = from;
  }
  return copy;
}

/** A property path's segments: `a.b[0]["c.d"]` → ["a", "b", 0, "c.d"]. */
function parsePath(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  const re = /\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[(\d+|\*)\]|([^.[\]]+)/g;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    if (m[1] !== undefined) out.push(JSON.parse(`"${m[1]}"`) as string);
    else if (m[2] !== undefined) out.push(m[2] === "*" ? "*" : Number(m[2]));
    else out.push(m[3]);
  }
  return out;
}
