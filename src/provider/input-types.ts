/**
 * The args types as programs write them and as the provider receives them. Apart from wire-types.ts
 * (which ties them to the contract's zod schemas) because the public declarations of the resource
 * classes use them, and those must not reach zod.
 */
import type * as pulumi from "@pulumi/pulumi";

export type Primitive = string | number | boolean | bigint | symbol | null | undefined;

/**
 * A plain type as a program may write it: the value, and every value inside it, may be a
 * `pulumi.Input` (an Output of another resource, a Promise). Keeps the properties' docs.
 */
export type DeepInput<T> = T extends Primitive
  ? T
  : T extends ReadonlyArray<infer Item>
    ? Array<pulumi.Input<DeepInput<Item>>>
    : T extends object
      ? { [K in keyof T]: pulumi.Input<DeepInput<T[K]>> }
      : T;

/** An args type as the provider receives it: every `pulumi.Input`, at any depth, resolved to its value. */
export type Resolved<T> =
  T extends pulumi.OutputInstance<infer U>
    ? Resolved<U>
    : T extends PromiseLike<infer U>
      ? Resolved<U>
      : T extends Primitive
        ? T
        : T extends ReadonlyArray<infer Item>
          ? Array<Resolved<Item>>
          : T extends object
            ? { [K in keyof T]: Resolved<T[K]> }
            : T;
