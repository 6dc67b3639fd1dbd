/**
 * A resource kind declared as data: which args it takes and how each maps to the wire, which changes
 * replace, and the calls that create, read, update and delete it. `lifecycle.ts` turns a declaration
 * into check/diff/create/read/update/delete, so every kind behaves the same way.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { pathParamNames, type AnyEndpoint } from "../api/endpoint";
import type { CallInput, SvcClient } from "../client";
import { convertKeys, snake } from "./values";
import type { BodyOf, CamelCasedDeep, SnakeCase } from "./wire-types";
import { SvcError } from "../errors";

/**
 * The type token prefix of every resource: `pulumi-nodejs:dynamic/svc:<Kind>`, the token
 * `pulumi.dynamic.Resource` gives, so that the engine hands the resources to the dynamic-provider host.
 */
/**
 * The id an adoption plan reads an object by when the platform assigns its ids (a parameter
 * schedule): the read finds, with the kind's `findCreated`, the object that states every declared
 * arg, which is the one `adopt: true` takes over.
 */
export const ADOPT_BY_CONTENT = "(adopt: the object that states every declared arg)";

export const TYPE_TOKEN_PREFIX = "pulumi-nodejs:dynamic/svc:";

export interface ArgSpec<T = unknown> {
  /**
   * What the arg is, as its doc on hover and in the package schema: what it names, its default, what a
   * change does. The platform's rule for it is never written here: the generated doc states the rule
   * of its wire field (`{rule}` places it, else it ends the doc; see scripts/kind-classes.js, which
   * refuses a registered kind's arg without one).
   */
  doc?: string;
  /**
   * The schema that checks the arg where the kind's wire schema does not hold it (a path value of its
   * endpoints): its rule is stated in the arg's doc. Never used to check (the endpoint's schema does).
   */
  rule?: z.ZodType;
  /**
   * The arg is also a readable output of the resource class, with this doc; `type` is the output's
   * TypeScript type where it is not the arg's (resolved) type.
   */
  output?: string | { doc: string; type: string };
  /**
   * A program must set it (checked before any call). Exactly the args the inputs type requires carry
   * it: a declaration whose specs disagree with its inputs type does not compile (see `ArgSpecs`).
   */
  required?: boolean;
  /** Wire name (snake_case); default: the arg name in snake_case. */
  wire?: string;
  /** A change of this arg replaces the object: the platform cannot change it in place. */
  replaces?: boolean;
  /**
   * How refresh compares the platform's value with what the user wrote: `exact` for free-form
   * objects that pass through untouched, `contained` where the platform fills defaults.
   */
  compare?: "exact" | "contained";
  /**
   * Whether the platform's value states the declared one where it writes it in another form (a time
   * in another offset, a version without its build metadata): then refresh keeps the declared form.
   * Replaces `compare`.
   */
  equal?(declared: T, stated: unknown): boolean;
  /** Structured object or array: convert nested keys camelCase ↔ snake_case (except `freeForm` paths). */
  nested?: boolean;
  /** Wire paths inside the value (e.g. `deployment.*`, `app.configuration`) that pass through untouched. */
  freeForm?: readonly string[];
  /** Not readable back from the platform: refresh keeps the user's value. */
  writeOnly?: boolean;
  /** Not sent to the platform at all (provider-side settings such as `adopt`); kinds' calls never see it. */
  local?: boolean;
  /**
   * The wire schema of the value, where the kind's `schema` does not hold it: the fields it names
   * are the ones the value may have (check refuses others, at every depth).
   */
  schema?: z.ZodType;
}

/** The property the dynamic-provider host reads the serialized provider from; never an arg. */
export const PROVIDER_KEY = "__provider";

/** What the platform would refuse (409) of a create, seen before it: check failures, and warnings where it may still succeed. */
export interface Conflicts {
  failures: CheckFailure[];
  warnings: string[];
}

/**
 * How the provider starts a warning's line on its standard error, which the host hands the engine as
 * the provider's output: `pulumi` lists such lines under Diagnostics, and the kit's engines read them
 * into a run's `warnings`.
 */
export const WARNING_PREFIX = "warning: ";

/** The wire name of an arg: its spec's `wire`, else the arg's name in snake_case. */
export const wireNameOf = (name: string, spec: ArgSpec): string => spec.wire ?? snake(name);

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

/** The record an endpoint answers, as its success schema types it (after the client validated it). */
export type RecordOf<E extends AnyEndpoint> = NonNullable<E["success"]["body"]> extends infer S extends z.ZodType ? z.output<S> : never;

/**
 * How one computed output is read from the kind's record `R` (its read endpoint's answer). A reader
 * made by {@link echoes} also names the args `A` whose value the output states (whole, in part, in
 * another form, or inside a record that holds it).
 */
export type OutputReader<R, A extends string = string> = ((record: R) => unknown) & { readonly echoes?: readonly A[]; readonly doc?: string };

/**
 * A kind's computed outputs, declared once: output name (camelCase) → how it is read from the
 * platform's record. The provider's outputs, the names the resource class registers and the class's
 * readable properties all come from it; the doc comment on an entry is the property's doc on hover.
 * (`OutputMap` alone, over `never`, is any kind's map.)
 */
export type OutputMap<R = never, A extends string = string> = Record<string, OutputReader<R, A>>;

/**
 * An output that states the value of the args `args` (the platform's copy of one, a field of one, its
 * text, a record holding it): the output is kept secret in the state whenever one of those args is
 * secret in the program, as the engine keeps an output secret whose same-named input is. The resource
 * class decides it per resource (see `SvcResource`), so it holds on either engine and at every step.
 */
export const echoes = <const A extends string, R, T>(args: readonly A[], read: (record: R) => T): ((record: R) => T) & { readonly echoes: readonly A[] } =>
  Object.assign((record: R) => read(record), { echoes: args });

/**
 * A computed output with its doc (the doc of the resource class's property, on hover and in the
 * package schema): `output("When it was created (RFC 3339).", (r) => r.created)`.
 */
export const output = <F extends (record: never) => unknown>(doc: string, read: F): F & { readonly doc: string } => Object.assign(read, { doc });

/** The values of a kind's computed outputs, as its output map reads them. */
export type OutputValues<O extends OutputMap> = { [K in keyof O]: ReturnType<O[K]> };

/**
 * What a kind's create, read or update answered: the platform's record, and how the computed outputs
 * are read from it (a closure over the record while its type is still the kind's own record type).
 */
export interface Answer {
  record: WireRecord;
  outputs(): Props;
}

/**
 * The values of the output properties `K` of a resource class `C` as it declares them (plain types, so
 * that its public declaration stays free of the kind): `proves<Same<OutputValues<typeof outputs>,
 * DeclaredOutputs<C, keyof typeof outputs>>>()` ties the class to its kind's output map.
 */
export type DeclaredOutputs<C, K extends keyof C> = { -readonly [P in K]: C[P] extends pulumi.OutputInstance<infer T> ? T : never };

export interface CheckFailure {
  /** The top-level arg. */
  property: string;
  /** The rule and the value given, inside the arg (`[0].name: ...`), without the arg's name: the engine prints it in front. */
  reason: string;
}

type Props = Record<string, unknown>;

/**
 * The spec of the arg `K` of the inputs `I`: `required: true` exactly when `I` requires the arg, so
 * that the list of required args cannot disagree with the inputs type.
 */
// `{} extends Pick<I, K>` is how a key is found optional.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type SpecOf<I, K extends keyof I> = string extends keyof I ? ArgSpec : {} extends Pick<I, K> ? ArgSpec<I[K]> & { required?: false } : ArgSpec<I[K]> & { required: true };

/** Every arg of `I`, and only those, with how it maps to the wire; the required ones say so. */
export type ArgSpecs<I> = { readonly [K in keyof I]-?: SpecOf<I, K> };

/** The names of the required args of a kind's specs. */
export const requiredArgs = (specs: Readonly<Record<string, ArgSpec>>): string[] => Object.keys(specs).filter((name) => specs[name].required === true);

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
interface DeclarationBase<I extends object, R extends WireRecord = WireRecord> {
  /** Class name and type token suffix, e.g. `Workload` → `pulumi-nodejs:dynamic/svc:Workload`. */
  name: string;
  /** What the platform calls its objects, as messages name them: `workload`, `asset type`. */
  platformTerm: string;
  /** The resource class's doc: what the object is, what destroying it does (kind-classes.js requires it of a registered kind). */
  doc?: string;
  /** The doc of the class's args interface (`<Kind>Args`): what a change of the args does as a whole. */
  argsDoc?: string;
  /**
   * The args as the program gave them, made into what the class registers (runs in the program,
   * before any provider call): e.g. a manifest given as a file path read into its value.
   */
  programArgs?(args: object): object;
  /** Every arg of `I`, and only those, with how it maps to the wire; the required ones say so. */
  args: ArgSpecs<I>;
  /** The platform's identity of the object, from its inputs; becomes the Pulumi id. Absent when the platform assigns it (the record's `id`). */
  id?(inputs: I): string;
  /**
   * The wire schema the args must satisfy (check validates against it, mapping fields back to args);
   * for a kind that names its create endpoint, default: that endpoint's body.
   */
  schema?: z.ZodType;
  /** Rules across fields, on inputs that are known; no API calls. `olds` are the inputs of the last run, if any. */
  check?(inputs: I, nowMs: number, olds: I | undefined): CheckFailure[];
  /** A replacement always deletes the old object first (the two would collide on the platform). */
  deleteBeforeReplace?: boolean;
  /** Replaces the object when this returns true for a pair of inputs (beyond `replaces` args); runs before check, in preview too. */
  replaceWhen?(olds: Unchecked<I>, news: Unchecked<I>): boolean;
  /**
   * After check passed, in preview too: what the platform holds that would refuse this object (409),
   * read from the platform. `name` is the resource's name in the program (from its `__svcOwner` identity, ownership.ts).
   */
  conflicts?(ctx: KindContext, inputs: I, olds: I | undefined, name: string | undefined): Promise<Conflicts>;
  /**
   * Sees each diff of the run (the object's id, the new inputs, whether it is replaced), so that a
   * conflict whose two sides are seen in either order is told once both are; returns warnings.
   */
  noteDiff?(id: string, news: Unchecked<I>, name: string | undefined, replaced: boolean): string[];
  create(ctx: KindContext, inputs: I): Promise<R>;
  /**
   * For kinds whose id the platform assigns: the object a create with these inputs made at or after
   * `sinceMs`, found when the create's answer was lost (kinds with an `id` are found by reading it).
   */
  findCreated?(ctx: KindContext, inputs: I, sinceMs: number): Promise<R | undefined>;
  /** The object as the platform holds it now; undefined when it is gone. `inputs` are empty on an import (a read by id alone). */
  read(ctx: KindContext, id: string, inputs: Partial<I>): Promise<R | undefined>;
  /** Brings an existing object to the declared inputs (used by update and by adoption, where `olds` is undefined). */
  update?(ctx: KindContext, id: string, news: I, olds: I | undefined, changed: Array<keyof I & string>): Promise<R>;
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
  /**
   * Computed outputs (camelCase): output name → how it is read from the kind's record `R` (what
   * create, read and update answer); never arg names. An output that states an arg's value says so
   * ({@link echoes}), and is secret whenever that arg is.
   */
  outputs: OutputMap<R, keyof I & string>;
}

/** A kind whose destroy deletes the object, or restores the defaults of a singleton. */
interface DeletingDeclaration<I extends object, R extends WireRecord> extends DeclarationBase<I, R> {
  /** What destroy does on the platform (default `delete`); the provider, the engine kit and the docs derive from it. */
  onDestroy?: "delete" | "reset";
  /** Deletes the object (`delete`) or restores its defaults (`reset`). */
  delete(ctx: KindContext, id: string, inputs: I): Promise<void>;
}

/** A kind the API cannot delete: destroy releases the object, and a create takes an existing one over. */
interface ReleasingDeclaration<I extends object, R extends WireRecord> extends DeclarationBase<I, R> {
  onDestroy: "release";
  delete?: never;
}

export type KindDeclaration<I extends object, R extends WireRecord = WireRecord> = DeletingDeclaration<I, R> | ReleasingDeclaration<I, R>;

/**
 * A kind as the lifecycle (lifecycle.ts) runs it, whatever its inputs: the declaration's members over the engine's
 * property maps. `defineKind` makes it from a declaration; each call passes the props through the
 * declaration's guard (declared args only, every required one present) before the typed member sees them.
 */
interface KindBase {
  name: string;
  platformTerm: string;
  doc?: string;
  argsDoc?: string;
  programArgs?(args: object): object;
  args: Readonly<Record<string, ArgSpec>>;
  /** The args a program must set (those whose spec says `required`). */
  required: readonly string[];
  id?(inputs: Props): string;
  schema?: z.ZodType;
  check?(inputs: Props, nowMs: number, olds: Props | undefined): CheckFailure[];
  deleteBeforeReplace?: boolean;
  replaceWhen?(olds: Props, news: Props): boolean;
  conflicts?(ctx: KindContext, inputs: Props, olds: Props | undefined, name: string | undefined): Promise<Conflicts>;
  noteDiff?(id: string, news: Props, name: string | undefined, replaced: boolean): string[];
  /** The record and the computed outputs (camelCase, read by the declared output map) of each call. */
  create(ctx: KindContext, inputs: Props): Promise<Answer>;
  /** The record a lost create made, as the client takes it for the create's answer. */
  findCreated?(ctx: KindContext, inputs: Props, sinceMs: number): Promise<WireRecord | undefined>;
  read(ctx: KindContext, id: string, inputs: Props): Promise<Answer | undefined>;
  update?(ctx: KindContext, id: string, news: Props, olds: Props | undefined, changed: string[]): Promise<Answer>;
  /** The names of the computed outputs (the keys of the declared output map), which the resource class registers. */
  outputNames: readonly string[];
  /** The doc of each computed output (its property on the resource class). */
  outputDocs: Readonly<Record<string, string>>;
  /** The outputs that state args' values, each with those args: secret whenever one of them is. */
  outputEchoes: Readonly<Record<string, readonly string[]>>;
  argsFromRecord?(record: WireRecord, olds: Props): Props;
  skipAdoptUpdate?: boolean;
  /** The endpoints the kind's declaration names for its calls (kinds declared with `declareKind`); the others are written by hand. */
  endpoints?: NamedEndpoints;
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

/** Reads every declared output from a record of the map's own record type. */
function readOutputs<R>(map: OutputMap<R>, record: R): Props {
  return Object.fromEntries(Object.entries(map).map(([k, read]) => [k, read(record)]));
}

/**
 * A kind's output map, checked and kept with its exact keys, value types and doc comments. Each
 * reader takes the record of `read`, the kind's read endpoint, as its success schema types it: a
 * reader that names a field the record does not have does not compile. (The endpoint only gives
 * the type.)
 */
export const defineOutputs = <E extends AnyEndpoint, O extends OutputMap<RecordOf<E>>>(read: E, outputs: O): O => {
  void read;
  return outputs;
};

/** The outputs of a map that echo args, each with those args; an arg the kind does not declare is an error of the declaration. */
function echoesOf(kind: string, map: OutputMap<never>, declared: readonly string[]): Record<string, readonly string[]> {
  const out: Record<string, readonly string[]> = {};
  for (const [name, reader] of Object.entries(map)) {
    if (!reader.echoes?.length) continue;
    const unknown = reader.echoes.filter((a) => !declared.includes(a));
    if (unknown.length) throw new SvcError("SVC_KIND_DECLARATION_INVALID", `${kind}: the output ${name} echoes ${unknown.join(", ")}, which the kind does not declare as args`);
    out[name] = reader.echoes;
  }
  return out;
}

/** Why props are not a kind's inputs: the required args they lack. */
function missingArgs(required: readonly string[], props: Props): string[] {
  return required.filter((r) => props[r] === undefined);
}

/**
 * The lifecycle's kind from a declaration typed against its inputs. The engine hands the provider
 * property maps; a declaration's members see them only once they hold its inputs: the declared args
 * (others dropped) with every required one present. Their values are the ones check validated (the
 * wire schema and the kind's rules run on every input before the engine creates or updates anything).
 */
export function defineKind<I extends object, R extends WireRecord = WireRecord>(declaration: KindDeclaration<I, R>): Kind {
  const d = declaration;
  const declared = Object.keys(d.args);
  const isArg = (name: string): name is keyof I & string => declared.includes(name);
  const pick = (props: Props): Props => {
    const out: Props = {};
    for (const name of declared) if (props[name] !== undefined) out[name] = props[name];
    return out;
  };
  /** Whether the declared args hold every required one: then they are the kind's inputs. */
  const required = requiredArgs(d.args);
  const hasRequired = (args: Props): args is Props & I => missingArgs(required, args).length === 0;
  const onlyDeclared = (args: Props): args is Props & Partial<I> => Object.keys(args).every(isArg);
  /** The inputs in props, or an error naming the required args they lack. */
  const inputs = (props: Props, op: string): I => {
    const args = pick(props);
    if (hasRequired(args)) return args;
    throw new SvcError("SVC_KIND_INPUTS_INCOMPLETE", `${d.name}: ${op} needs the required arg(s) ${missingArgs(required, args).join(", ")}, which the inputs lack`);
  };
  /** The inputs of the last run, when there was one and they are complete. */
  const previousInputs = (props: Props | undefined): I | undefined => {
    const args = props && pick(props);
    return args && hasRequired(args) ? args : undefined;
  };
  /** The declared args props hold, required or not (a read on an import has none). */
  const knownArgs = (props: Props): Partial<I> => {
    const args = pick(props);
    return onlyDeclared(args) ? args : {};
  };
  const map = d.outputs;
  /** A call's record with the outputs read from it, while it still has the kind's record type. */
  const answer = (record: R): Answer => ({ record, outputs: () => readOutputs(map, record) });
  const answered = (record: R | undefined): Answer | undefined => record && answer(record);
  const { id, check, replaceWhen, findCreated, update, argsFromRecord, conflicts, noteDiff } = d;
  const base: KindBase = {
    name: d.name,
    platformTerm: d.platformTerm,
    doc: d.doc,
    argsDoc: d.argsDoc,
    programArgs: d.programArgs,
    args: d.args,
    required,
    id: id && ((props) => id(inputs(props, "id"))),
    schema: d.schema,
    check: check && ((props, nowMs, before) => check(inputs(props, "check"), nowMs, previousInputs(before))),
    deleteBeforeReplace: d.deleteBeforeReplace,
    replaceWhen: replaceWhen && ((before, after) => replaceWhen(pick(before), pick(after))),
    conflicts: conflicts && ((ctx, props, before, name) => conflicts(ctx, inputs(props, "check"), previousInputs(before), name)),
    noteDiff: noteDiff && ((objectId, news, name, replaced) => noteDiff(objectId, pick(news), name, replaced)),
    create: async (ctx, props) => answer(await d.create(ctx, inputs(props, "create"))),
    findCreated: findCreated && (async (ctx, props, sinceMs) => findCreated(ctx, inputs(props, "create"), sinceMs)),
    read: async (ctx, id, props) => answered(await d.read(ctx, id, knownArgs(props))),
    update: update && (async (ctx, id, news, before, changed) => answer(await update(ctx, id, inputs(news, "update"), previousInputs(before), changed.filter(isArg)))),
    outputNames: Object.keys(map),
    outputDocs: Object.fromEntries(Object.entries(map).map(([name, reader]) => [name, reader.doc ?? ""])),
    outputEchoes: echoesOf(d.name, map, declared),
    argsFromRecord: argsFromRecord && ((record, before) => Object.fromEntries(Object.entries(argsFromRecord(record, knownArgs(before))))),
    skipAdoptUpdate: d.skipAdoptUpdate,
  };
  if (d.onDestroy === "release") return { ...base, onDestroy: "release" };
  const remove = d.delete;
  return { ...base, onDestroy: d.onDestroy, delete: async (ctx, id, props) => remove(ctx, id, inputs(props, "delete")) };
}

// ---------------------------------------------------------------------------------------------
// Kinds that name their endpoints

/** The calls of a kind, by the endpoints of the table that make them. */
export interface NamedEndpoints {
  create?: AnyEndpoint;
  read?: AnyEndpoint;
  update?: AnyEndpoint;
  delete?: AnyEndpoint;
}

/** The wire name of an arg: its spec's `wire`, else the arg's name in snake_case (as `wireArgs` maps it). */
type WireNameOf<K, S> = S extends { wire: infer W extends string } ? W : K extends string ? SnakeCase<K> : never;
/** The args (non-local) that the shared mapping puts under the wire name `W`. */
type ArgAt<A, W> = { [K in keyof A]: A[K] extends { local: true } ? never : WireNameOf<K, A[K]> extends W ? K : never }[keyof A];
/** The wire names of the args the platform receives. */
type SentWireNames<A> = { [K in keyof A]: A[K] extends { local: true } ? never : WireNameOf<K, A[K]> }[keyof A];
type FreeFormOf<S> = S extends { freeForm: ReadonlyArray<infer F extends string> } ? F : never;
/** Whether an arg's value `V` is, once mapped (nested keys snake_cased), a value of the body's field `B`. */
type Carries<V, S, B> = S extends { nested: true } ? ([V] extends [CamelCasedDeep<B, FreeFormOf<S>>] ? true : false) : [V] extends [B] ? true : false;
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type Optional<T, K extends keyof T> = {} extends Pick<T, K> ? true : false;

/** Why the shared mapping of the args `A` (inputs `I`) cannot build the body `B`, one text per field; `never` when it can. */
type FieldProblems<I, A, B> = {
  [W in keyof B & string]-?: [ArgAt<A, W>] extends [never]
    ? Optional<B, W> extends true
      ? never
      : `no arg maps to the body's required field '${W}'`
    : ArgAt<A, W> extends infer K extends keyof I & keyof A & string
      ? Carries<NonNullable<I[K]>, A[K], NonNullable<B[W]>> extends true
        ? Optional<B, W> extends true
          ? never
          : Optional<I, K> extends true
            ? `the body's field '${W}' is required, but the arg '${K}' is optional`
            : never
        : `the arg '${K}' does not fit the body's field '${W}'`
      : never;
}[keyof B & string];

/** The path parameter names of an endpoint, as its params schema types them. */
type ParamNames<E> = E extends { params?: infer P } ? (P extends z.ZodType ? keyof z.input<P> & string : never) : never;

/**
 * Compile-time proof that the shared mapping builds the body of `E` from the args: `unknown` when it
 * does; else a type no endpoint has, naming the problems. A create must also carry every arg the
 * platform receives, in its body or its path.
 */
type Builds<I, A, E, Op extends "create" | "update" | "subset"> = [E] extends [never]
  ? unknown
  : E extends { body?: z.ZodType }
    ? [FieldProblems<I, A, BodyOf<E>> | UnsentProblems<A, E, Op> | SubsetProblems<BodyOf<E>, Op>] extends [never]
      ? unknown
      : { "the args cannot build this endpoint's body": FieldProblems<I, A, BodyOf<E>> | UnsentProblems<A, E, Op> | SubsetProblems<BodyOf<E>, Op> }
    : unknown;

/** For a body built from a chosen subset of the args: its required fields, which the subset may leave out, one text each. */
type SubsetProblems<B, Op> = Op extends "subset"
  ? { [W in keyof B & string]-?: Optional<B, W> extends true ? never : `the body's field '${W}' is required, and a subset of the args may leave it out` }[keyof B & string]
  : never;

/** For a create: the args the platform receives that reach neither the body nor the path, one text each. */
type UnsentProblems<A, E extends { body?: z.ZodType }, Op> = Op extends "create"
  ? Exclude<SentWireNames<A>, keyof BodyOf<E> | ParamNames<E>> extends infer W extends string
    ? `the arg mapped to '${W}' reaches neither the body nor the path`
    : never
  : never;

/**
 * Compile-time proof that the endpoint `E` answers a record of the kind's record type `R` (the one its
 * output readers take): `unknown` when it does; else a type no endpoint has.
 */
type Answers<E, R> = [E] extends [never]
  ? unknown
  : E extends AnyEndpoint
    ? [RecordOf<E>] extends [R]
      ? unknown
      : { "the endpoint answers no record of the kind's record type": RecordOf<E> }
    : unknown;

/**
 * A kind's calls named by their endpoints: the lifecycle builds the create and update bodies from the
 * args through the shared mapping (`wireArgs`: wire names, nested keys snake_cased), keeping the body
 * fields the endpoint's schema declares, and fills each path from `params`.
 */
export interface KindEndpoints<I, A, C, U, Rd, R> {
  create?: C & Builds<I, A, C, "create"> & Answers<C, R>;
  read?: Rd & Answers<Rd, R>;
  update?: U & Builds<I, A, U, "update"> & Answers<U, R>;
  delete?: AnyEndpoint;
  /**
   * The object's path values from its id (on create, the id its inputs give) and its inputs (empty on
   * an import); each call takes the ones its endpoint's path names. Default: a path's one value is the id.
   */
  params?(id: string, inputs: Partial<I>): Record<string, string>;
}

/**
 * A kind declared with the endpoints of its calls. An operation with special behaviour keeps a
 * hand-written function (`create`, `read`, `update`, `delete`), which takes the place of the endpoint.
 */
export type EndpointDeclaration<I extends object, A extends ArgSpecs<I>, C, U, Rd, R extends WireRecord> = Omit<DeclarationBase<I, R>, "args" | "create" | "read"> & {
  args: A & Record<Exclude<keyof A, keyof I>, never>;
  endpoints: KindEndpoints<I, A, C, U, Rd, R>;
  create?: DeclarationBase<I, R>["create"];
  read?: DeclarationBase<I, R>["read"];
  onDestroy?: DestroyEffect;
  delete?(ctx: KindContext, id: string, inputs: I): Promise<void>;
};

/** Which args of a kind a body is built from: those `only` names (default: every arg). */
export interface WireArgsOptions<K extends string> {
  only?: readonly K[];
}

/** The non-local args under their wire names, nested keys converted (the body mapping every kind shares). */
export function wireArgs(specs: Readonly<Record<string, ArgSpec>>, args: Props): WireRecord;
/**
 * The body of the endpoint `ep` from the args (those `options.only` names, default all): the shared
 * mapping, keeping the fields the body declares. It compiles only when the mapping builds that body
 * from any subset of the args (the proof a declaration's endpoints give), so the result is the body's type.
 */
export function wireArgs<I extends object, const A extends ArgSpecs<I>, E extends AnyEndpoint>(
  specs: A,
  args: I,
  ep: E & Builds<I, A, E, "subset">,
  options?: WireArgsOptions<keyof I & string>,
): BodyOf<E>;
export function wireArgs(specs: Readonly<Record<string, ArgSpec>>, args: Props, ep?: AnyEndpoint, options: WireArgsOptions<string> = {}): WireRecord {
  const { only } = options;
  const body: WireRecord = {};
  for (const [name, spec] of Object.entries(specs)) {
    const v = args[name];
    if (v === undefined || spec.local || (only && !only.includes(name))) continue;
    body[wireNameOf(name, spec)] = spec.nested ? convertKeys(v, snake, spec.freeForm ?? []) : v;
  }
  return ep ? keepFields(body, bodyFields("wireArgs", ep)) : body;
}

/** The fields of `wire` among `fields`, in the order of `fields` (the body schema's). */
const keepFields = (wire: WireRecord, fields: readonly string[]): WireRecord => Object.fromEntries(fields.filter((f) => f in wire).map((f) => [f, wire[f]]));

/** The args (non-local) whose wire names are fields of the body of `ep`: the args a body built from them can carry. */
export function argsInBody<A extends Readonly<Record<string, ArgSpec>>>(specs: A, ep: AnyEndpoint): Array<keyof A & string> {
  const fields = bodyFields("argsInBody", ep);
  const isArg = (name: string): name is keyof A & string => name in specs;
  return Object.entries(specs)
    .filter(([name, spec]) => !spec.local && fields.includes(wireNameOf(name, spec)))
    .map(([name]) => name)
    .filter(isArg);
}

/** The body fields an endpoint's schema declares (its object shape); `who` names the caller in the error. */
function bodyFields(who: string, ep: AnyEndpoint): readonly string[] {
  if (ep.body instanceof z.ZodObject) return Object.keys(ep.body.shape);
  throw new SvcError("SVC_KIND_DECLARATION_INVALID", `${who}: the endpoint ${ep.id} declares no object body, so the args cannot build it; write this call by hand`);
}

const isRecord = (v: unknown): v is WireRecord => typeof v === "object" && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);

/**
 * The lifecycle's kind from a declaration that names its endpoints: `declareKind<Inputs>()({ … })`.
 * (Curried so that the args' wire names and the endpoints are inferred while the inputs are given.)
 */
export function declareKind<I extends object>() {
  return <const A extends ArgSpecs<I>, R extends WireRecord, C extends AnyEndpoint = never, U extends AnyEndpoint = never, Rd extends AnyEndpoint = never>(
    declaration: EndpointDeclaration<I, A, C, U, Rd, R>,
  ): Kind => {
    const d = declaration;
    // The declaration's own members, without the calls this function resolves.
    const { endpoints: eps, create: _create, read: _read, update: _update, delete: _delete, onDestroy: _onDestroy, ...rest } = d;
    const specs: Readonly<Record<string, ArgSpec>> = d.args;
    const named: NamedEndpoints = {};
    /** The input of one call of `ep`: its path values, and for create/update the body the args map to. */
    const input = (ep: AnyEndpoint, id: string, inputs: Partial<I>, body?: readonly string[]): CallInput<AnyEndpoint> => {
      const names = pathParamNames(ep.path);
      const out: CallInput<AnyEndpoint> = {};
      if (names.length > 0) {
        // Without params, a path of one value takes the id.
        if (!eps.params && names.length > 1) {
          throw new SvcError(
            "SVC_KIND_DECLARATION_INVALID",
            `${d.name}: the endpoint ${ep.id} needs path values (${names.join(", ")}), more than the id, and the declaration gives no params`,
          );
        }
        const all = eps.params ? eps.params(id, inputs) : { [names[0]]: id };
        out.params = Object.fromEntries(names.map((n) => [n, all[n]]));
      }
      if (body) out.body = keepFields(wireArgs(specs, inputs), body);
      return out;
    };
    /**
     * The answer of a named endpoint as the kind's record. The one place a record's type is asserted:
     * the client validated the answer against the endpoint's success schema, and the declaration's
     * `Answers` proof shows that schema's output is a record of the kind's type.
     */
    const record = (ep: AnyEndpoint, answer: unknown): R => {
      if (isRecord(answer)) return answer as R;
      throw new SvcError("SVC_PLATFORM_ANSWER_INVALID", `${d.name}: ${ep.id} answered no record (${typeof answer})`);
    };
    const idOf = (inputs: I): string => (d.id ? d.id(inputs) : "");

    let create = d.create;
    if (!create && eps.create) {
      const ep: AnyEndpoint = eps.create;
      const fields = bodyFields(d.name, ep);
      if (pathParamNames(ep.path).length > 0 && !d.id) throw new SvcError("SVC_KIND_DECLARATION_INVALID", `${d.name}: ${ep.id} has path values, which need the kind's id`);
      create = async ({ client }, i) => record(ep, await client.call(ep, input(ep, idOf(i), i, fields)));
      named.create = ep;
    }
    let read = d.read;
    if (!read && eps.read) {
      const ep: AnyEndpoint = eps.read;
      read = async ({ client }, id, i) => record(ep, await client.call(ep, input(ep, id, i)));
      named.read = ep;
    }
    let update = d.update;
    if (!update && eps.update) {
      const ep: AnyEndpoint = eps.update;
      const fields = bodyFields(d.name, ep);
      update = async ({ client }, id, i) => record(ep, await client.call(ep, input(ep, id, i, fields)));
      named.update = ep;
    }
    let remove = d.delete;
    if (!remove && eps.delete) {
      const ep: AnyEndpoint = eps.delete;
      remove = async ({ client }, id, i) => {
        await client.call(ep, input(ep, id, i));
      };
      named.delete = ep;
    }
    if (!create || !read) throw new SvcError("SVC_KIND_DECLARATION_INVALID", `${d.name}: the declaration needs a create and a read, each an endpoint or a function`);
    // Check validates against the create body unless the declaration says otherwise.
    const base = { ...rest, args: d.args, schema: d.schema ?? eps.create?.body, create, read, update };
    let kind: Kind;
    if (d.onDestroy === "release") {
      if (remove) throw new SvcError("SVC_KIND_DECLARATION_INVALID", `${d.name}: a kind whose destroy releases the object has no delete`);
      kind = defineKind<I, R>({ ...base, onDestroy: "release" });
    } else {
      if (!remove) throw new SvcError("SVC_KIND_DECLARATION_INVALID", `${d.name}: the declaration needs a delete, an endpoint or a function (or onDestroy "release")`);
      kind = defineKind<I, R>({ ...base, onDestroy: d.onDestroy, delete: remove });
    }
    return { ...kind, endpoints: named };
  };
}
