/**
 * The client's types, derived from the endpoint table: inputs are the zod input types of an
 * endpoint's params, query and body; outputs the zod output type of its success body.
 */
import type { z } from "zod";
import type { AnyEndpoint, Endpoint } from "../api/endpoint";
import type { areas } from "../api/endpoints";
import type { LimitsPage } from "../api/common";
import type { UploadFile } from "./encode";

/** True for the unspecialised `z.ZodType`, i.e. an endpoint that declares no schema there. */
type IsBare<S> = [z.ZodType] extends [S] ? true : false;
type InputOf<S> = IsBare<S> extends true ? unknown : S extends z.ZodType ? z.input<S> : never;

/**
 * Query values travel as text, so the schemas' input types are strings (`page_size: "100"`,
 * `sort_asc: "true"`); callers may pass numbers and booleans, which are sent as their text.
 */
type LooseScalar<V> = V extends string ? (string extends V ? V | number : V extends "true" | "false" | "1" | "0" ? V | boolean : V) : V;
type LooseValue<V> = V extends ReadonlyArray<infer U> ? ReadonlyArray<LooseScalar<U>> : LooseScalar<V>;
export type QueryInput<T> = unknown extends T ? Record<string, unknown> : T extends object ? { [K in keyof T]?: LooseValue<T[K]> } : T;

export type CallInput<E extends AnyEndpoint> =
  E extends Endpoint<infer P, infer Q, infer B, z.ZodType> ? { params?: InputOf<P>; query?: QueryInput<InputOf<Q>>; body?: InputOf<B>; file?: UploadFile } : never;

/**
 * Answers without a declared schema: binary downloads are Buffers, YAML and text answers strings,
 * empty answers undefined. (The table does not carry the kind as a type, so the union is given.)
 */
export type RawAnswer = Buffer | string | undefined;

export type CallOutput<E extends AnyEndpoint> = E extends Endpoint<z.ZodType, z.ZodType, z.ZodType, infer R> ? (IsBare<R> extends true ? RawAnswer : z.output<R>) : never;

/** One item of a list endpoint's `data`. */
export type ListItem<E extends AnyEndpoint> =
  E extends Endpoint<z.ZodType, z.ZodType, z.ZodType, infer R> ? (IsBare<R> extends true ? unknown : z.output<R> extends { data: ReadonlyArray<infer I> } ? I : unknown) : never;

export interface CallOptions {
  /** Per attempt; default the client's timeoutMs. */
  timeoutMs?: number;
  /** Sent as x-request-id (the same on every attempt of the call). */
  requestId?: string;
  signal?: AbortSignal;
  /**
   * For creates that fail without a clear answer: tells whether the create was applied. A value is
   * taken as the create's result; undefined means it was not applied, and the create is repeated.
   */
  ambiguityCheck?: () => Promise<unknown | undefined>;
}

export type EndpointMethod<E extends AnyEndpoint> = (input?: CallInput<E>, options?: CallOptions) => Promise<CallOutput<E>>;

export type AreaClient<A> = { readonly [K in keyof A]: A[K] extends AnyEndpoint ? EndpointMethod<A[K]> : never };

/** `client.<area>.<operation>` for every area of the table. */
export type SvcAreas = { readonly [K in keyof typeof areas]: AreaClient<(typeof areas)[K]> };

/**
 * What a Part 1 list answers when called with `pagination_type: "limits"` or `"stream"` (a stream
 * comes back as `{ data }`, every line checked). `call`'s declared result is the default cursor page,
 * so cast to these when asking for the other shapes.
 */
export type Part1LimitsAnswer<E extends AnyEndpoint> = LimitsPage<ListItem<E>>;
export type Part1StreamAnswer<E extends AnyEndpoint> = { data: Array<ListItem<E>> };
