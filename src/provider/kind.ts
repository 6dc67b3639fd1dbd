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
  freeForm?: readonly string[];
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

type Props = Record<string, unknown>;

/** The args of `I` a program must set (its keys that are not optional); any name for an index-signature type. */
// `{} extends Pick<I, K>` is how a key is found optional.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export type RequiredArg<I> = string extends keyof I ? string : { [K in keyof I]-?: {} extends Pick<I, K> ? never : K }[keyof I] & string;

/**
 * Inputs no check has seen (diff, also in preview): each declared arg may be absent, or not known
 * yet, which Pulumi sends as its unknown sentinel whatever the arg's type.
 */
export type Unchecked<I> = { readonly [K in keyof I]?: unknown };

/**
 * A kind as its module declares it, typed against its inputs `I` (the args as the provider receives
 * them, every Input resolved): which args it takes and how each maps to the wire, which changes
 * replace, and the calls. Its computed outputs are an output map (a `const` of its own, so that the
 * resource class's properties are typed from it).
 */
interface DeclarationBase<I extends object> {
  /** Class name and type token suffix, e.g. `Workload` → `pulumi-nodejs:dynamic/svc:Workload`. */
  name: string;
  /** What the platform calls it, for messages: `workload`. */
  noun: string;
  /** Every arg of `I`, and only those, with how it maps to the wire. */
  args: { readonly [K in keyof I]-?: ArgSpec };
  /** Args that are required (checked before any call). */
  required: ReadonlyArray<RequiredArg<I>>;
  /** The platform's identity of the object, from its inputs; becomes the Pulumi id. Absent when the platform assigns it (the record's `id`). */
  id?(inputs: I): string;
  /** The wire schema the create body must satisfy (check validates against it, mapping fields back to args). */
  schema?: z.ZodType;
  /** Rules across fields, on inputs that are known; no API calls. `olds` are the inputs of the last run, if any. */
  check?(inputs: I, nowMs: number, olds: I | undefined): CheckFailure[];
  /** A replacement always deletes the old object first (the two would collide on the platform). */
  deleteBeforeReplace?: boolean;
  /** Replaces the object when this returns true for a pair of inputs (beyond `replaces` args); runs before check, in preview too. */
  replaceWhen?(olds: Unchecked<I>, news: Unchecked<I>): boolean;
  create(ctx: KindContext, inputs: I): Promise<WireRecord>;
  /**
   * For kinds whose id the platform assigns: the object a create with these inputs made at or after
   * `sinceMs`, found when the create's answer was lost (kinds with an `id` are found by reading it).
   */
  findCreated?(ctx: KindContext, inputs: I, sinceMs: number): Promise<WireRecord | undefined>;
  /** The object as the platform holds it now; undefined when it is gone. `inputs` are empty on an import (a read by id alone). */
  read(ctx: KindContext, id: string, inputs: Partial<I>): Promise<WireRecord | undefined>;
  /** Brings an existing object to the declared inputs (used by update and by adoption, where `olds` is undefined). */
  update?(ctx: KindContext, id: string, news: I, olds: I | undefined, changed: Array<keyof I & string>): Promise<WireRecord>;
  /**
   * The user's arg values as the platform's record states them, for refresh; default: each
   * non-local, readable arg from its wire field (nested keys converted). `olds` are empty on an import.
   */
  argsFromRecord?(record: WireRecord, olds: Partial<I>): Partial<I>;
  /**
   * Whether an adopted object already matches; when false adoption runs `update`. Default: the
   * record, read back as args, contains every declared arg.
   */
  skipAdoptUpdate?: boolean;
  /** Computed outputs (camelCase): output name → how it is read from the platform's record; never secrets, never arg names. */
  outputs: OutputMap;
}

/** A kind whose destroy deletes the object, or restores the defaults of a singleton. */
interface DeletingDeclaration<I extends object> extends DeclarationBase<I> {
  /** What destroy does on the platform (default `delete`); the provider, the engine kit and the docs derive from it. */
  onDestroy?: "delete" | "reset";
  /** Deletes the object (`delete`) or restores its defaults (`reset`). */
  delete(ctx: KindContext, id: string, inputs: I): Promise<void>;
}

/** A kind the API cannot delete: destroy releases the object, and a create takes an existing one over. */
interface ReleasingDeclaration<I extends object> extends DeclarationBase<I> {
  onDestroy: "release";
  delete?: never;
}

export type KindDeclaration<I extends object> = DeletingDeclaration<I> | ReleasingDeclaration<I>;

/**
 * A kind as the machinery runs it, whatever its inputs: the declaration's members over the engine's
 * property maps. `defineKind` makes it from a declaration; each call passes the props through the
 * declaration's guard (declared args only, every required one present) before the typed member sees them.
 */
interface KindBase {
  name: string;
  noun: string;
  args: Readonly<Record<string, ArgSpec>>;
  required: readonly string[];
  id?(inputs: Props): string;
  schema?: z.ZodType;
  check?(inputs: Props, nowMs: number, olds: Props | undefined): CheckFailure[];
  deleteBeforeReplace?: boolean;
  replaceWhen?(olds: Props, news: Props): boolean;
  create(ctx: KindContext, inputs: Props): Promise<WireRecord>;
  findCreated?(ctx: KindContext, inputs: Props, sinceMs: number): Promise<WireRecord | undefined>;
  read(ctx: KindContext, id: string, inputs: Props): Promise<WireRecord | undefined>;
  update?(ctx: KindContext, id: string, news: Props, olds: Props | undefined, changed: string[]): Promise<WireRecord>;
  /** Computed outputs (camelCase) from the platform's record. Derived from the declared output map. */
  outputs(record: WireRecord): Props;
  /** The names of the computed outputs (the keys of the declared output map), which the resource class registers. */
  outputNames: readonly string[];
  argsFromRecord?(record: WireRecord, olds: Props): Props;
  skipAdoptUpdate?: boolean;
}

interface DeletingKind extends KindBase {
  onDestroy?: "delete" | "reset";
  delete(ctx: KindContext, id: string, inputs: Props): Promise<void>;
}

interface ReleasingKind extends KindBase {
  onDestroy: "release";
  delete?: never;
}

export type Kind = DeletingKind | ReleasingKind;

export const destroyEffectOf = (kind: Kind): DestroyEffect => kind.onDestroy ?? "delete";

/** Reads every declared output from a record. */
export function readOutputs(map: OutputMap, record: WireRecord): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map).map(([k, read]) => [k, read(record)]));
}

/** A kind's output map, checked and kept with its exact keys, value types and doc comments. */
export const defineOutputs = <O extends OutputMap>(outputs: O): O => outputs;

/** Why props are not a kind's inputs: the required args they lack. */
function missingArgs(required: readonly string[], props: Props): string[] {
  return required.filter((r) => props[r] === undefined);
}

/**
 * The machinery's kind from a declaration typed against its inputs. The engine hands the provider
 * property maps; a declaration's members see them only once they hold its inputs: the declared args
 * (others dropped) with every required one present. Their values are the ones check validated (the
 * wire schema and the kind's rules run on every input before the engine creates or updates anything).
 */
export function defineKind<I extends object>(declaration: KindDeclaration<I>): Kind {
  const d = declaration;
  const declared = Object.keys(d.args);
  const isArg = (name: string): name is keyof I & string => declared.includes(name);
  const pick = (props: Props): Props => {
    const out: Props = {};
    for (const name of declared) if (props[name] !== undefined) out[name] = props[name];
    return out;
  };
  const holds = (args: Props): args is Props & I => missingArgs(d.required, args).length === 0;
  const partial = (args: Props): args is Props & Partial<I> => Object.keys(args).every(isArg);
  /** The inputs in props, or an error naming the required args they lack. */
  const inputs = (props: Props, op: string): I => {
    const args = pick(props);
    if (holds(args)) return args;
    throw new Error(`${d.name}: ${op} needs the required arg(s) ${missingArgs(d.required, args).join(", ")}, which the inputs lack`);
  };
  const olds = (props: Props | undefined): I | undefined => {
    const args = props && pick(props);
    return args && holds(args) ? args : undefined;
  };
  const some = (props: Props): Partial<I> => {
    const args = pick(props);
    return partial(args) ? args : {};
  };
  const map = d.outputs;
  const { id, check, replaceWhen, findCreated, update, argsFromRecord } = d;
  const base: KindBase = {
    name: d.name,
    noun: d.noun,
    args: d.args,
    required: d.required,
    id: id && ((props) => id(inputs(props, "id"))),
    schema: d.schema,
    check: check && ((props, nowMs, before) => check(inputs(props, "check"), nowMs, olds(before))),
    deleteBeforeReplace: d.deleteBeforeReplace,
    replaceWhen: replaceWhen && ((before, after) => replaceWhen(pick(before), pick(after))),
    create: async (ctx, props) => d.create(ctx, inputs(props, "create")),
    findCreated: findCreated && (async (ctx, props, sinceMs) => findCreated(ctx, inputs(props, "create"), sinceMs)),
    read: async (ctx, id, props) => d.read(ctx, id, some(props)),
    update: update && (async (ctx, id, news, before, changed) => update(ctx, id, inputs(news, "update"), olds(before), changed.filter(isArg))),
    outputs: (record) => readOutputs(map, record),
    outputNames: Object.keys(map),
    argsFromRecord: argsFromRecord && ((record, before) => Object.fromEntries(Object.entries(argsFromRecord(record, some(before))))),
    skipAdoptUpdate: d.skipAdoptUpdate,
  };
  if (d.onDestroy === "release") return { ...base, onDestroy: "release" };
  const remove = d.delete;
  return { ...base, onDestroy: d.onDestroy, delete: async (ctx, id, props) => remove(ctx, id, inputs(props, "delete")) };
}
