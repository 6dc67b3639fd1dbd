/**
 * What the test suites know of one resource kind, in one place: each kind's module (test/kinds/<kind>.ts,
 * named as its declaration module src/provider/resources/<kind>.ts) exports one of these, and
 * `index.ts` lists them by kind name. A part left out fails the type-check, so a new kind cannot
 * skip a suite.
 */
import type fc from "fast-check";
import type { Scenario } from "../robustness/kind-scenarios";
import type { KindModel } from "./kind-model";

export interface KindTests {
  /** The model tests' entry (test/model): how the generator declares, changes and removes the kind, and what the platform should hold. */
  model: KindModel;
  /** Enough args for the class's constructor (test/provider/outputs.test.ts, whose mocks never call the provider). */
  args: object;
  /** The robustness and lifecycle tests' arbitrary of valid programs that declare the kind (test/robustness/kind-scenarios.ts holds what they share). */
  scenario: fc.Arbitrary<Scenario>;
}
