/**
 * Types that tie the resources' args to the API contract (the zod schemas of src/api), and the few
 * value-level helpers that go with them:
 *
 * - `CamelCasedDeep<T, Free>`: a wire type as the args spell it, keys camelCased at every level except
 *   inside the free-form paths (the type-level twin of `convertKeys(value, camel, free)`);
 * - `WireShaped<T>`: a wire type as an arg that keeps the platform's naming (the app manifest);
 * - `DeepInput<T>`, `Resolved<T>` (input-types.ts, re-exported): a type as programs write it, and as the provider receives it;
 * - `Same<A, B>` / `Assert<…>` / `proves<…>()`: compile-time proof that a documented arg type is exactly the contract's;
 * - `wireOf(schema, value, free)` and `conforms(schema, value)`: a nested arg's value as the wire
 *   carries it, checked against the schema it is sent under, with the schema's input type.
 */
import type { z } from "zod";
import { renderPath } from "../api/common";
import { SvcError } from "../errors";
import { convertKeys, describeIssue, snake, type Issue } from "./values";
import type { Primitive } from "./input-types";

export type { DeepInput, Resolved } from "./input-types";

/** `app_version` → `appVersion`: the type-level twin of `camel` (values.ts). */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** `assetTypeName` → `asset_type_name`: the type-level twin of `snake` (values.ts) for camelCase names. */
export type SnakeCase<S extends string> = S extends `${infer C}${infer Rest}` ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${SnakeCase<Rest>}` : S;

/** A dotted wire path, `*` standing for any array item (the notation of `ArgSpec.freeForm`). */
type Join<P extends string, K extends string> = P extends "" ? K : `${P}.${K}`;

/** Whether `K` is an optional key of `T`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type IsOptional<T, K extends keyof T> = {} extends Pick<T, K> ? true : false;

/**
 * An optional field's value without `null`: the contract reads an explicit `null` on an optional
 * field as the field left out (facts §1.1), so an arg leaves the field out instead.
 */
type FieldValue<T, K extends keyof T> = IsOptional<T, K> extends true ? Exclude<T[K], null> : T[K];

type Mapped<T, Free extends string, Path extends string, Camel extends boolean> = Path extends Free
  ? T
  : T extends Primitive
    ? T
    : T extends ReadonlyArray<infer Item>
      ? Array<Mapped<Item, Free, Join<Path, "*">, Camel>>
      : T extends object
        ? { [K in keyof T as K extends string ? (Camel extends true ? CamelCase<K> : K) : never]: Mapped<FieldValue<T, K>, Free, Join<Path, K & string>, Camel> }
        : T;

/**
 * A wire type (snake_case) as the args spell it: keys camelCased at every level, except below the
 * free-form paths `Free` (wire naming, dotted, `*` for any array item, as in `ArgSpec.freeForm`),
 * whose values pass through as the contract types them. Optional fields drop `null`.
 */
export type CamelCasedDeep<T, Free extends string = never> = Mapped<T, Free, "", true>;

/** A wire type as an arg in the platform's naming (keys kept); optional fields drop `null`. */
export type WireShaped<T> = Mapped<T, never, "", false>;

/** Deep structural form of a type, so that an interface and a mapped type of the same shape compare equal. */
type Normal<T> = T extends Primitive ? T : T extends ReadonlyArray<infer Item> ? Array<Normal<Item>> : T extends object ? { [K in keyof T]: Normal<T[K]> } : T;

/** `true` when A and B are the same type (same keys, same optionality, same value types at every depth). */
export type Same<A, B> = (<X>() => X extends Normal<A> ? 1 : 2) extends <X>() => X extends Normal<B> ? 1 : 2 ? true : false;

/** Compiles only when given `true`: `type _ = Assert<Same<Documented, Derived>>`. */
export type Assert<T extends true> = T;

/**
 * States a compile-time proof where it is written: `proves<Same<Documented, Derived>>()` compiles only
 * when the two types are the same. It does nothing at run time.
 */
export const proves = <_Proof extends true>(): void => undefined;

/** The input type of a body schema; `never` for an endpoint that declares none. */
export type BodyOf<E extends { body?: z.ZodType }> = NonNullable<E["body"]> extends z.ZodType ? z.input<NonNullable<E["body"]>> : never;

/** Whether `value` is a valid input of `schema` (it parses), as a type guard. */
export function conforms<S extends z.ZodType>(schema: S, value: unknown): value is z.input<S> {
  return schema.safeParse(value).success;
}

/**
 * `value` as an input of `schema`, which it must satisfy. Bodies built from inputs check validated
 * always do; one that does not is refused here, naming the field, the rule and the value, instead of
 * reaching the platform.
 */
export function conformed<S extends z.ZodType>(schema: S, value: unknown): z.input<S> {
  if (conforms(schema, value)) return value;
  const parsed = schema.safeParse(value, { reportInput: true });
  const issues = parsed.success ? [] : parsed.error.issues;
  const shown = issues.slice(0, 3).map((issue: Issue) => `${renderPath("", issue.path).slice(1) || "(body)"}: ${describeIssue(issue, (k) => k)}`);
  throw new SvcError("SVC_BODY_INVALID", `the request body does not satisfy the API's schema: ${shown.join("; ")}`);
}

/**
 * A nested arg's value as the wire carries it: keys snake_cased except below the free-form paths
 * (wire naming, as in `ArgSpec.freeForm`), typed and checked as an input of `schema`.
 */
export function wireOf<S extends z.ZodType, F extends string = never>(schema: S, value: CamelCasedDeep<z.input<S>, F>, freeForm: readonly F[] = []): z.input<S> {
  return conformed(schema, convertKeys(value, snake, freeForm));
}
