/**
 * Every resource kind the provider serves, by name: loading the resource modules (their public index)
 * registers each of their kinds. Adding a kind is its module and its line in `resources/index.ts`; the
 * provider, generate, the docs and the tests enumerate this record.
 */
import "./resources";
import { registeredKinds } from "./registry";

export const kinds = registeredKinds;
