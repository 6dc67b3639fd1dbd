/**
 * Every resource kind the provider serves, by name: loading the public classes (resources/classes.ts,
 * written from the declarations) loads, and so registers, every kind. Adding a kind is its declaration
 * module (resources/<kind>.ts) and `npm run classes`; the provider, generate, the docs and the tests
 * enumerate this record.
 */
import "./resources";
import type * as classes from "./resources/classes";
import { registeredKinds } from "./registry";

export const kinds = registeredKinds;

/** The name of every kind, as its public class is named (a type-level list, for tables keyed by kind). */
export type KindName = keyof typeof classes;
