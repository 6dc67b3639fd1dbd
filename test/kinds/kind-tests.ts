/**
 * What the test suites know of one resource kind, in one place: each kind's module (test/kinds/<kind>.ts,
 * named as its declaration module src/provider/resources/<kind>.ts) exports one of these, and
 * `index.ts` lists them by kind name. A part left out fails the type-check, so a new kind cannot
 * skip a suite.
 */
import type fc from "fast-check";
import type { Scenario } from "../robustness/kind-scenarios";
import type { KindModel } from "./kind-model";

/** A lifecycle case's program variant: 0 (base), 1 (update) or 2 (replace). */
export type Variant = 0 | 1 | 2;

/** The kind's case in the resource suite (test/provider/resources.e2e.test.ts): create, a clean re-run, update, replace, destroy. */
export interface E2eCase {
  /** Declares the subject (named "subject") and what it needs, in variant 0 (base), 1 (update) or 2 (replace). */
  program(v: Variant): void;
  /** Expected action on "subject" for variants 1 and 2. */
  actions: [svc_action: "update" | "replace" | "none", "update" | "replace" | "none"];
  /** The stack holds something API v4 cannot delete (a cluster, a data type) or a singleton: destroy is checked by hand. */
  retained?: boolean;
}

export interface KindTests {
  /** The model tests' entry (test/model): how the generator declares, changes and removes the kind, and what the platform should hold. */
  model: KindModel;
  /** Enough args for the class's constructor (test/provider/outputs.test.ts, whose mocks never call the provider). */
  args: object;
  /** The robustness and lifecycle tests' arbitrary of valid programs that declare the kind (test/robustness/kind-scenarios.ts holds what they share). */
  scenario: fc.Arbitrary<Scenario>;
  /** The resource suite's lifecycle case. */
  e2e: E2eCase;
  /** Whether the program that brings a snapshot under code (the plant round trip, test/robustness/plant-roundtrip.test.ts) declares the kind. */
  inPlantProgram: boolean;
}
