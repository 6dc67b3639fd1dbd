/**
 * What the test suites know of one resource kind, in one place: each kind's module (test/kinds/<kind>.ts,
 * named as its declaration module src/provider/resources/<kind>.ts) exports one of these, and
 * `index.ts` lists them by kind name. A part left out fails the type-check, so a new kind cannot
 * skip a suite.
 */
import type * as pulumi from "@pulumi/pulumi";
import type fc from "fast-check";
import type { KindName } from "../../src/provider/kinds";
import type * as classes from "../../src/provider/resources/classes";
import type { Scenario } from "../robustness/kind-scenarios";
import type { KindModel } from "./kind-model";

/** A lifecycle case's program variant: 0 (base), 1 (update) or 2 (replace). */
export type Variant = 0 | 1 | 2;

/** The kind's case in the resource suite (test/provider/resources.e2e.test.ts): create, a clean re-run, update, replace, destroy. */
export interface E2eCase {
  /** Declares the subject (named "subject") and what it needs, in variant 0 (base), 1 (update) or 2 (replace). */
  program(v: Variant): void;
  /** Expected action on "subject" for variants 1 and 2. */
  actions: [variant1: "update" | "replace" | "none", variant2: "update" | "replace" | "none"];
  /** The stack holds something API v4 cannot delete (a cluster, a data type) or a singleton: destroy is checked by hand. */
  retained?: boolean;
}

/** What the kinds before it in a canary program declared, by kind: the resource a later kind refers to. */
export type Declared = { [K in KindName]?: InstanceType<(typeof classes)[K]> };

/** A round of the secret canary program, as one kind's resource sees it. */
export interface CanaryRound {
  /** 1 or 2: the second round changes the canaries. */
  round: number;
  /** The canary of the kind's arg `arg` in this round. */
  c(arg: string): string;
  /** Makes a value secret (`pulumi.secret`). */
  s: typeof pulumi.secret;
  /** What the kinds before it declared. */
  before: Declared;
}

/**
 * The kind's resource in the secret canary program (test/helpers/secret-canaries.ts says which args
 * count), whose canaries the secret suites (test/engine/secret-echoes.test.ts,
 * test/cli/secret-echoes.test.ts) search every file an engine writes for.
 */
export interface SecretCase {
  /** The resource's logical name. */
  resource: string;
  /** The args that hold a canary; empty when the kind has none a secret could be written into. */
  args: readonly string[];
  /** Why the kind carries no canary, when it carries none. */
  noCanary?: string;
  /** Declares the resource (and what only it needs), each of `args` a secret holding its canary; returns what later kinds refer to. */
  declare(r: CanaryRound): Declared[KindName] | void;
}

/** What the program of every kind (test/model/all-kinds.ts) gives the resource of a kind the quickstart leaves out. */
export interface AllKindsRound {
  /** The quickstart's cluster, by name. */
  cluster: pulumi.Output<string>;
  /** The quickstart's pump-1, by name, as an output of the pumps (so that what refers to it comes after it). */
  pump1: pulumi.Output<string>;
  /** What the kinds before it declared (the kinds the quickstart declares are not in it). */
  before: Declared;
}

/**
 * The kind in the program of every kind, which the faults test runs under injected faults and the
 * upgrade test replays over the state a release wrote: `"quickstart"` when the quickstart
 * (examples/quickstart/program.ts) declares it, else its one resource there, referring to what came
 * before it. A resource that is there once stays as it is: the recorded state holds it.
 */
export type AllKindsPart = "quickstart" | ((r: AllKindsRound) => Declared[KindName] | void);

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
  /** The secret suites' case. */
  secret: SecretCase;
  /** The kind in the program of every kind (test/model/all-kinds.ts). */
  allKinds: AllKindsPart;
}
