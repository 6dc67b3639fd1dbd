/**
 * What the model tests know of one resource kind, in one place: how the generator declares, changes
 * and removes it, which platform records it stands for, the id the provider gives it, and what can be
 * changed on its object out of band. Each kind's entry is written from the platform's documented
 * behaviour, not from the provider's mapping code, so that the model stays an independent oracle.
 * The entries are listed by kind name in `index.ts`, which the generator, the expectations and the
 * runner enumerate.
 */
import type { SvcClient } from "../../src/client";
import type { World } from "../model/generate";
import type { Decl, Value } from "../model/program";
import type { Rng } from "../model/rng";

// Platform records and declared args are compared as JSON, field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Rec = Record<string, any>;

/** How a declared value is compared with the platform's. */
export type Compare = "exact" | "contained" | "instant" | "sorted";

/** A field check: [field path, expected value, how to compare]. */
export type Field = [string, unknown, Compare?];

/** A record the platform should hold: its table, its identity there, and the checks of its declared fields. */
export interface PlatformRecord {
  table: string;
  id: string;
  fields: Field[];
}

/** A record of `table` with the fields whose declared value is defined. */
export const record = (table: string, id: string, fields: Field[]): PlatformRecord => ({
  table,
  id,
  fields: fields.filter(([, v]) => v !== undefined),
});

/** Offers changes of one declaration; each is drawn and applied only if the generator picks it. */
export interface Changes {
  /** Sets arg `key` to a value drawn when the change is applied. */
  set(key: string, value: (r: Rng) => Value): void;
  /** A change, described as `what`, that does more than set one arg. */
  apply(what: string, change: (r: Rng) => void): void;
}

/** Offers out-of-band changes of one declared object (made through the client, as someone outside the stack would). */
export interface Drifts {
  /** Edits the object so that the refresh reports arg `field` as changed. */
  edit(field: string, what: string, run: (client: SvcClient) => Promise<unknown>): void;
  /** Deletes the object. */
  del(run: (client: SvcClient) => Promise<unknown>): void;
}

export interface KindModel {
  /** Adds a declaration of the kind (and what it needs) to `w`'s program and returns it; `n` numbers its names. */
  add(w: World, r: Rng, n: number): Decl;
  /** Whether the kind takes `adopt` (the generator sets and drops it). */
  adopts: boolean;
  /** False where the generator must not give the declaration a new logical name. */
  renames?: false;
  /** Changes of `d` that the platform makes in place. */
  updates?(w: World, d: Decl, c: Changes): void;
  /** Changes of `d` that replace its object. */
  replaces?(w: World, d: Decl, c: Changes): void;
  /** Whether `d` goes with the `doomed` declarations besides those it refers to. */
  goesWith?(w: World, d: Decl, doomed: Set<string>): boolean;
  /** What must happen to the program before `d` is removed. */
  beforeRemove?(w: World, d: Decl): void;
  /** The records the platform should hold for a declaration with plain args `a` (`stateId`: the id the state gives it, or words saying it has none). */
  records(a: Rec, stateId: string): PlatformRecord[];
  /**
   * The table of the kind's records, a record's identity there, and which of its records count (all
   * when absent): to find records that nothing declares.
   */
  table?: { name: string; identity: (r: Rec) => string; counts?: (r: Rec) => boolean };
  /** The id the provider gives the declaration, where the program fixes it (undefined where the platform assigns it); its name when absent. */
  id?(a: Rec): string | undefined;
  /** Whether the platform cannot delete the kind's objects: once created, its record (under its `id`) stays. */
  released?: true;
  /** The out-of-band changes of the object of a declaration with plain args `a` (`id`: the state's). */
  drift?(a: Rec, id: string | undefined, d: Drifts): void;
}
