/**
 * What destroying a resource does on the platform, by the type token it registers under, as its kind
 * declares (`onDestroy`). The engine kit asks it for its destroy report and for its check that destroy
 * left nothing behind; it loads every kind, so the kit loads it only for stacks holding these resources.
 */
import { destroyEffectOf, TYPE_TOKEN_PREFIX, type DestroyEffect } from "./kind";
import { kinds } from "./kinds";

/** The effect for a `pulumi-nodejs:dynamic/svc:<Kind>` type; undefined for other types and unknown kinds. */
export function destroyEffect(type: string): DestroyEffect | undefined {
  if (!type.startsWith(TYPE_TOKEN_PREFIX)) return undefined;
  const kind = kinds[type.slice(TYPE_TOKEN_PREFIX.length)];
  return kind && destroyEffectOf(kind);
}
