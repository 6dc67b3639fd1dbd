/** What the program sends the engine for each resource, what the engine answers, and the state entry it records. */
import type { HookBinding } from "./hooks";
import type { ResourceState } from "./state";
import type { PropertyMap, PropertyValue } from "./values";

/** A resource registration as the program sends it (RegisterResourceRequest / ReadResourceRequest). */
export interface Registration {
  type: string;
  name: string;
  custom: boolean;
  parent?: string;
  /** Inputs in the engine's JSON form (secrets marked, unknowns as the sentinel). */
  inputs: PropertyMap;
  dependencies: string[];
  /** The resource option, when the program sets it. */
  deleteBeforeReplace?: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  protect?: boolean;
  retainOnDelete?: boolean;
  deletedWith?: string;
  additionalSecretOutputs: string[];
  /** The `import` option: adopt the existing object with this id. */
  importId?: string;
  /** Set for `get` (ReadResource): the id of the object to read. */
  readId?: string;
  /** The `replacementTrigger` option: a change of this value (unknowns included) replaces the resource. */
  replacementTrigger?: PropertyValue;
  /** The `replaceWith` option: the URNs whose replacement replaces this resource too. */
  replaceWith?: string[];
  /** The `aliases` option: what the resource was called before (its state is taken over, not replaced). */
  aliases?: AliasSpec[];
  /** For each input, the URNs of the resources its value came from. */
  propertyDependencies?: Record<string, string[]>;
  /** The `hooks` option: the names of the hooks to run around its steps. */
  hooks?: HookBinding;
}

/** An alias: a former URN, or the parts of the former URN that differ (the others are the resource's own). */
export interface AliasSpec {
  urn?: string;
  name?: string;
  type?: string;
  project?: string;
  stack?: string;
  parentUrn?: string;
  noParent?: boolean;
}

export interface Answer {
  urn: string;
  /** Empty when unknown (a preview of a new object) or for components. */
  id: string;
  outputs: PropertyMap;
}

/** The state entry of a registration, with the options its state keeps (only those the program set). */
export function stateEntry(urn: string, reg: Registration, inputs: PropertyMap, outputs: PropertyMap, id?: string): ResourceState {
  const e: ResourceState = { urn, type: reg.type, name: reg.name, custom: reg.custom, id, inputs, outputs, dependencies: reg.dependencies };
  if (reg.parent) e.parent = reg.parent;
  if (reg.protect) e.protect = true;
  if (reg.retainOnDelete) e.retainOnDelete = true;
  if (reg.deletedWith) e.deletedWith = reg.deletedWith;
  if (reg.replacementTrigger !== undefined && reg.replacementTrigger !== null) e.replacementTrigger = reg.replacementTrigger;
  if (reg.replaceWith?.length) e.replaceWith = reg.replaceWith;
  if (reg.hooks) e.hooks = reg.hooks;
  if (reg.additionalSecretOutputs.length) e.additionalSecretOutputs = reg.additionalSecretOutputs;
  const propertyDependencies = Object.entries(reg.propertyDependencies ?? {}).filter(([, urns]) => urns.length > 0);
  if (propertyDependencies.length) e.propertyDependencies = Object.fromEntries(propertyDependencies);
  return e;
}
