/**
 * What a destroy does to each object. pulumi-svc's resources declare it per kind (`onDestroy`): most
 * delete; a cluster or a data type, which API v4 cannot delete, is released (it stays on the platform
 * and only leaves the stack); the instance settings, which always exist, are reset to their defaults.
 * `retainOnDelete` releases any resource. Everything else is deleted.
 */
import { TYPE_TOKEN_PREFIX, type DestroyEffect } from "../provider/kind";
import type { ResourceState } from "./engine/state";

export type { DestroyEffect };

/** The effect of destroying each of `entries`; the kinds' declarations load only when one of them is a pulumi-svc resource. */
export async function destroyEffects(entries: readonly ResourceState[]): Promise<(entry: ResourceState) => DestroyEffect> {
  const declared = entries.some((e) => e.type.startsWith(TYPE_TOKEN_PREFIX)) ? (await import("../provider/destroy-effects")).destroyEffect : () => undefined;
  return (e) => (e.retainOnDelete ? "release" : (declared(e.type) ?? "delete"));
}
