/**
 * One resource of every kind, with a distinct secret canary (`canary_<kind>_<arg>_<round>`) in each
 * arg a secret can be written into, for the tests that search every file an engine writes for them.
 * An arg counts unless it names the resource on the platform (it becomes the Pulumi id and URN,
 * which the engine never encrypts), refers to another object (its value is that object's name, found
 * in the other resource's state by right), or takes only numbers, booleans or a fixed set of words
 * (nothing a search could tell from other text). `round` changes every canary of an arg that
 * updates in place, and of the leaves whose replacement is cheap, so that the state's history holds
 * earlier values too. Each kind's resource and canary args are its test module's `secret` case.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";
import { KIND_TESTS, KINDS } from "../kinds";
import type { Declared, SecretCase } from "../kinds/kind-tests";

/** The resource of each kind, and the args that carry a canary: each kind's case (its test module's `secret`), by kind name. */
export const KIND_CASES: Readonly<Record<string, SecretCase>> = Object.fromEntries(KINDS.map((k) => [k, KIND_TESTS[k].secret]));

/** The canary of an arg in a round. */
export const canary = (kind: string, arg: string, round: number): string => `canary_${kind.toLowerCase()}_${arg.toLowerCase()}_${round}`;

/** Every canary the two rounds write, by kind. */
export function canariesOf(kind: string, rounds: readonly number[]): string[] {
  return rounds.flatMap((r) => KIND_CASES[kind].args.map((a) => canary(kind, a, r)));
}

/** The program of round `round`: every kind once, each canary arg a secret, in the kinds' order (each refers to those before it). */
export function canaryProgram(round: number) {
  const before: Declared = {};
  for (const kind of KINDS) {
    const declared = KIND_TESTS[kind].secret.declare({ round, c: (arg) => canary(kind, arg, round), s: pulumi.secret, before });
    if (declared) (before as Record<string, unknown>)[kind] = declared;
  }
}

/** The outputs of a kind that echo one of `secretArgs` (its declaration's `echoes`), which must be secret in the state. */
export function echoingOutputs(outputEchoes: Readonly<Record<string, readonly string[]>>, secretArgs: readonly string[]): string[] {
  return Object.entries(outputEchoes)
    .filter(([, from]) => from.some((a) => secretArgs.includes(a)))
    .map(([output]) => output);
}

/** Every file under `dir` (recursively) whose text holds `needle`, as paths relative to `dir`. */
export function filesHolding(dir: string, needles: readonly string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const visit = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) visit(p);
      else if (entry.isFile()) {
        const text = fs.readFileSync(p).toString("latin1");
        for (const n of needles) if (text.includes(n)) found.set(n, [...(found.get(n) ?? []), path.relative(dir, p)]);
      }
    }
  };
  if (fs.existsSync(dir)) visit(dir);
  return found;
}

/** What a suite needs of its engine's stack. */
interface Stack {
  up(program?: () => void): Promise<unknown>;
  refresh(): Promise<unknown>;
  resource(name: string): { inputs: Record<string, unknown>; outputs: Record<string, unknown>; secretOutputs: string[] };
  close(): Promise<void>;
}

/**
 * The suite for one engine: round 1 then round 2 of the canary program (an update that changes the
 * canaries, so that the state's history holds round 1's) and a refresh, then a search of every file under `root`
 * (the engine's state and whatever it writes beside it, its temporary folders and logs) and of the
 * provider's log lines for every canary of both rounds. `kinds` are the registered ones.
 */
export function describeSecretEchoes(
  title: string,
  root: () => string,
  /** A stack of the engine whose state lives in the folder `folder` under the root. */
  start: (log: (line: string) => void, folder: string) => Promise<Stack>,
  kinds: Readonly<Record<string, { readonly outputEchoes: Readonly<Record<string, readonly string[]>> }>>,
  /** Files the engine must have written under the root (so that the search covers them). */
  written: readonly RegExp[],
  describeIt: jest.Describe = describe,
) {
  describeIt(title, () => {
    let stack: Stack;
    const lines: string[] = [];
    let found: Map<string, string[]>;
    let revealed: string;

    beforeAll(async () => {
      stack = await start((line) => lines.push(line), "main");
      await stack.up(() => canaryProgram(1));
      await stack.up(() => canaryProgram(2));
      await stack.refresh();
      revealed = JSON.stringify(Object.values(KIND_CASES).map((k) => stack.resource(k.resource)));
      const all = Object.keys(KIND_CASES).flatMap((k) => canariesOf(k, [1, 2]));
      found = filesHolding(root(), all);
      const log = lines.join("\n");
      for (const n of all) if (log.includes(n)) found.set(n, [...(found.get(n) ?? []), "(the provider's log)"]);
    });
    afterAll(async () => {
      await stack?.close();
    });

    test("an output in plain text in the state becomes secret once its arg does, without an update", async () => {
      const property = (value: pulumi.Input<string>) => () => {
        const type = new svc.AssetType("plain-type", { name: "plain-type", title: "Plain" });
        const asset = new svc.Asset("plain-asset", { name: "plain-asset", title: "Plain", assetTypeName: type.name });
        new svc.AssetProperty("plain-property", { assetName: asset.name, name: "plain", value });
      };
      const other = await start(() => undefined, "plain");
      try {
        await other.up(property("canary_plain_value"));
        expect(other.resource("plain-property").secretOutputs).toEqual([]);
        await other.up(property(pulumi.secret("canary_plain_value")));
        expect(other.resource("plain-property").secretOutputs.sort()).toEqual(["storedValue", "value"]);
      } finally {
        await other.close();
      }
    });

    test("the search covers the files the engine wrote", () => {
      const files: string[] = [];
      const visit = (d: string) => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          if (e.isDirectory()) visit(path.join(d, e.name));
          else files.push(path.relative(root(), path.join(d, e.name)));
        }
      };
      visit(root());
      for (const w of written) expect(files).toContainEqual(expect.stringMatching(w));
    });

    test("every registered kind has its case", () => {
      expect(Object.keys(KIND_CASES).sort()).toEqual(Object.keys(kinds).sort());
    });

    test.each(Object.keys(KIND_CASES))("%s: no canary of a secret arg in any file, and the outputs that echo it are secret", (kind) => {
      const c = KIND_CASES[kind];
      if (c.args.length === 0) expect(c.noCanary).toBeTruthy();
      // The canaries of round 2 reached the resource (else the search below would prove nothing).
      for (const n of canariesOf(kind, [2])) expect(revealed).toContain(n);
      const leaks = Object.fromEntries(canariesOf(kind, [1, 2]).flatMap((n) => (found.get(n) ? [[n, found.get(n)]] : [])));
      expect(leaks).toEqual({});
      const secretArgs = c.args.length ? c.args : kind === "InstanceSettings" ? ["acp"] : [];
      const view = stack.resource(c.resource);
      const echoing = echoingOutputs(kinds[kind].outputEchoes, secretArgs).filter((o) => view.outputs[o] !== undefined);
      expect(view.secretOutputs).toEqual(expect.arrayContaining(echoing));
    });
  });
}
