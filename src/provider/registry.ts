/**
 * The kinds the provider serves, by name (the name the serialized shim carries). Each resource module
 * registers its kinds as it loads, and `kinds.ts` loads every resource module: so a resource module
 * exports only its public face (its args and its class), and the public declarations never describe a
 * kind, whose wire mapping reaches the client, the endpoint table and zod.
 */
import type { Kind } from "./kind";
import { SvcError } from "../errors";

const registered: Record<string, Kind> = {};

/** Adds a kind to the registry; returns it, so that its module keeps it for its class. */
export function registerKind<K extends Kind>(kind: K): K {
  if (registered[kind.name]) throw new SvcError("SVC_KIND_DECLARATION_INVALID", `two resource kinds are named '${kind.name}'`);
  registered[kind.name] = kind;
  return kind;
}

/** The kinds registered so far; `kinds.ts` gives them once every resource module has loaded. */
export const registeredKinds: Readonly<Record<string, Kind>> = registered;
