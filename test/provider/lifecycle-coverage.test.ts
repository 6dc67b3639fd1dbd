/**
 * Every resource kind the provider declares has a test module (test/kinds/<kind>.ts, listed by
 * test/kinds/index.ts) holding its part of every suite: the model tests' entry, the outputs suite's
 * args, the robustness tests' scenario, the resource suite's lifecycle case and whether the plant
 * round trip's program declares it. The type-check asks
 * for each module and each part; this test says the same at run time, naming what is missing or extra.
 */
import * as svc from "../../src";
import { kinds } from "../../src/provider/kinds";
import { SvcResource } from "../../src/provider/shim";
import { KIND_TESTS } from "../kinds";

/**
 * What is wrong with the `what` entries of `where` (one per kind) against the declared kinds; empty
 * when every kind has one entry.
 */
export function coverageProblems(declared: string[], entries: string[], what = "test module", where = "test/kinds/index.ts"): string[] {
  const problems = declared.filter((k) => !entries.includes(k)).map((k) => `kind ${k} has no ${what} in ${where}`);
  problems.push(...entries.filter((k) => !declared.includes(k)).map((k) => `the ${what} for ${k} names no declared kind (declared: ${declared.join(", ")})`));
  problems.push(...entries.filter((k, i) => entries.indexOf(k) !== i).map((k) => `kind ${k} has more than one ${what}`));
  return problems;
}

describe("Every declared kind has a test module", () => {
  test("the kinds' test modules hold one entry for each kind the provider declares, and none for anything else", () => {
    const declared = Object.keys(kinds).sort();
    // The registry holds a kind for each resource class the main entry exports, and nothing else.
    const classes = Object.entries(svc)
      .filter(([, value]) => typeof value === "function" && value.prototype instanceof SvcResource)
      .map(([name]) => name)
      .sort();
    expect(classes.length).toBeGreaterThan(0);
    expect(declared).toEqual(classes);
    expect(coverageProblems(declared, Object.keys(KIND_TESTS))).toEqual([]);
  });

  test("each kind's test module holds every part", () => {
    const parts = ["allKinds", "args", "e2e", "inPlantProgram", "model", "scenario", "secret"];
    const missing = Object.entries(KIND_TESTS).flatMap(([kind, t]) =>
      parts.filter((p) => !(p in t) || (t as unknown as Record<string, unknown>)[p] === undefined).map((p) => `${kind}: ${p}`),
    );
    expect(missing).toEqual([]);
  });

  test("a kind without a test module, one for an unknown kind, and a repeated one are each named", () => {
    expect(coverageProblems(["Asset", "Cluster"], ["Cluster", "Gadget", "Gadget"])).toEqual([
      "kind Asset has no test module in test/kinds/index.ts",
      "the test module for Gadget names no declared kind (declared: Asset, Cluster)",
      "the test module for Gadget names no declared kind (declared: Asset, Cluster)",
      "kind Gadget has more than one test module",
    ]);
  });
});
