/**
 * A resource kind declared as data: which args it takes and how each maps to the wire, which changes
 * replace, and the calls that create, read, update and delete it. `machinery.ts` turns a declaration
 * into check/diff/create/read/update/delete, so every kind behaves the same way.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { SvcClient } from "../client";

/**
 * The type token prefix of every resource: `pulumi-nodejs:dynamic/svc:<Kind>`, the token
 * `pulumi.dynamic.Resource` gives, so that the engine hands the resources to the dynamic-provider host.
 */
export const TYPE_TOKEN_PREFIX = "pulumi-nodejs:dynamic/svc:";

export interface ArgSpec {
  /** Wire name (snake_case); default: the arg name in snake_case. */
  wire?: string;
  /** A change of this arg replaces the object: the platform cannot change it in place. */
  replaces?: boolean;
  /**
   * How refresh compares the platform's value with what the user wrote: `exact` for free-form
   * objects that pass through untouched, `contained` where the platform fills defaults.
   */
  compare?: "exact" | "contained";
  /** Structured object or array: convert nested keys camelCase ↔ snake_case (except `freeForm` paths). */
  nested?: boolean;
  /** Wire paths inside the value (e.g. `deployment.*`, `app.configuration`) that pass through untouched. */
  freeForm?: string[];
  /** Not readable back from the platform: refresh keeps the user's value. */
  writeOnly?: boolean;
  /** Not sent to the platform at all (provider-side settings such as `adopt`); kinds' calls never see it. */
  local?: boolean;
}

/**
 * What destroying a resource does to its object on the platform:
 * - `delete` (the default): the object is deleted;
 * - `release`: the API cannot delete it, so it stays on the platform and only leaves the stack; the
 *   next create finds it and takes it over again (bringing it to the declared state);
 * - `reset`: the object always exists (a singleton); destroy restores its defaults.
 */
export type DestroyEffect = "delete" | "release" | "reset";

export interface ProviderSettings {
  /** How long operations that wait (downloads, deploys, schedule application) may take, seconds. */
  operationTimeoutSeconds: number;
}

export interface KindContext {
  client: SvcClient;
  settings: ProviderSettings;
}

/** A record as the platform answers it (snake_case). */
export type WireRecord = Record<string, unknown>;

/** How one computed output is read from the platform's record. */
export type OutputReader = (record: WireRecord) => unknown;

/**
 * A kind's computed outputs, declared once: output name (camelCase) → how it is read from the
 * platform's record. The provider's outputs, the names the resource class registers and the class's
 * readable properties all come from it; the doc comment on an entry is the property's doc on hover.
 */
export type OutputMap = Record<string, OutputReader>;

/** The readable output properties of a resource class, typed from its kind's output map. */
export type Outputs<O extends OutputMap> = { readonly [K in keyof O]: pulumi.Output<ReturnType<O[K]>> };

export interface CheckFailure {
  property: string;
  reason: string;
}

interface KindBase<I extends Record<string, unknown>> {
  /** Class name and type token suffix, e.g. `Workload` → `pulumi-nodejs:dynamic/svc:Workload`. */
  name: string;
  /** What the platform calls it, for messages: `workload`. */
  noun: string;
  args: Record<string, ArgSpec>;
  /** Args that are required (checked before any call). */
  required: string[];
  /** The platform's identity of the object, from its inputs; becomes the Pulumi id. Absent when the platform assigns it (the record's `id`). */
  id?(inputs: I): string;
  /** The wire schema the create body must satisfy (check validates against it, mapping fields back to args). */
  schema?: z.ZodType;
  /** Rules across fields, on inputs that are known; no API calls. `olds` are the inputs of the last run, if any. */
  check?(inputs: I, nowMs: number, olds: I | undefined): CheckFailure[];
  /** A replacement always deletes the old object first (the two would collide on the platform). */
  deleteBeforeReplace?: boolean;
  /** Replaces the object when this returns true for a pair of inputs (beyond `replaces` args). */
  replaceWhen?(olds: I, news: I): boolean;
  create(ctx: KindContext, inputs: I): Promise<WireRecord>;
  /**
   * For kinds whose id the platform assigns: the object a create with these inputs made at or after
   * `sinceMs`, found when the create's answer was lost (kinds with an `id` are found by reading it).
   */
  findCreated?(ctx: KindContext, inputs: I, sinceMs: number): Promise<WireRecord | undefined>;
  /** The object as the platform holds it now; undefined when it is gone. */
  read(ctx: KindContext, id: string, inputs: I): Promise<WireRecord | undefined>;
  /** Brings an existing object to the declared inputs (used by update and by adoption). */
  update?(ctx: KindContext, id: string, news: I, olds: I | undefined, changed: string[]): Promise<WireRecord>;
  /** Computed outputs (camelCase) from the platform's record; never secrets, never arg names. Derived from the declared output map. */
  outputs(record: WireRecord): Record<string, unknown>;
  /** The names of the computed outputs (the keys of the declared output map), which the resource class registers. */
  outputNames: readonly string[];
  /**
   * The user's arg values as the platform's record states them, for refresh; default: each
   * non-local, readable arg from its wire field (nested keys converted).
   */
  argsFromRecord?(record: WireRecord, olds: I): Partial<I>;
  /**
   * Whether an adopted object already matches; when false adoption runs `update`. Default: the
   * record, read back as args, contains every declared arg.
   */
  skipAdoptUpdate?: boolean;
}

/** A kind whose destroy deletes the object, or restores the defaults of a singleton. */
interface DeletingKind<I extends Record<string, unknown>> extends KindBase<I> {
  /** What destroy does on the platform (default `delete`); the provider, the engine kit and the docs derive from it. */
  onDestroy?: "delete" | "reset";
  /** Deletes the object (`delete`) or restores its defaults (`reset`). */
  delete(ctx: KindContext, id: string, inputs: I): Promise<void>;
}

/** A kind the API cannot delete: destroy releases the object, and a create takes an existing one over. */
interface ReleasingKind<I extends Record<string, unknown>> extends KindBase<I> {
  onDestroy: "release";
  delete?: never;
}

export type Kind<I extends Record<string, unknown> = Record<string, any>> = DeletingKind<I> | ReleasingKind<I>;

export const destroyEffectOf = (kind: Kind): DestroyEffect => kind.onDestroy ?? "delete";

type Declared<K> = K extends unknown ? Omit<K, "outputs" | "outputNames"> & { outputs: OutputMap } : never;

/**
 * A kind as its module declares it: everything a kind has, with its computed outputs as an output
 * map (a `const` of its own, so that the resource class's properties can be typed from it).
 */
export type KindDeclaration<I extends Record<string, unknown>> = Declared<Kind<I>>;

/** Reads every declared output from a record. */
export function readOutputs(map: OutputMap, record: WireRecord): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map).map(([k, read]) => [k, read(record)]));
}

/** A kind's output map, checked and kept with its exact keys, value types and doc comments. */
export const defineOutputs = <O extends OutputMap>(outputs: O): O => outputs;

export function defineKind<I extends Record<string, unknown>>(declaration: KindDeclaration<I>): Kind<I> {
  const map = declaration.outputs;
  return { ...declaration, outputs: (record: WireRecord) => readOutputs(map, record), outputNames: Object.keys(map) } as Kind<I>;
}
