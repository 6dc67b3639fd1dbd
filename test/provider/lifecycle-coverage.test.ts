/**
 * Every resource kind the provider declares has a lifecycle case in the resource suite
 * (resources.e2e.test.ts: create, a clean re-run, update, replace, destroy), and the suite has no
 * case for a kind that does not exist. The suite's cases are read from its source (its `cases`
 * array), so that this check runs without running the suite. The same holds for the model tests'
 * test module per kind (test/kinds/index.ts, whose type-check already asks for one and for each of
 * its parts: the model tests' entry, the outputs suite's args, the robustness tests' scenario).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import * as svc from "../../src";
import { kinds } from "../../src/provider/kinds";
import { SvcResource } from "../../src/provider/shim";
import { KIND_TESTS } from "../kinds";

const SUITE = join(__dirname, "resources.e2e.test.ts");

/** The `kind` of every entry of the top-level `cases` array of a suite's source. */
export function lifecycleCases(source: string, fileName = SUITE): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || decl.name.text !== "cases" || !decl.initializer || !ts.isArrayLiteralExpression(decl.initializer)) continue;
      for (const element of decl.initializer.elements) {
        if (!ts.isObjectLiteralExpression(element)) throw new Error(`${fileName}: a case that is not an object literal: ${element.getText(file).slice(0, 80)}`);
        const kind = element.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === "kind");
        if (!kind || !ts.isStringLiteral(kind.initializer)) throw new Error(`${fileName}: a case without a literal kind: ${element.getText(file).slice(0, 80)}`);
        found.push(kind.initializer.text);
      }
    }
  }
  return found;
}

/**
 * What is wrong with the `what` entries of `where` (one per kind) against the declared kinds; empty
 * when every kind has one entry.
 */
export function coverageProblems(declared: string[], entries: string[], what = "lifecycle case", where = SUITE): string[] {
  const problems = declared.filter((k) => !entries.includes(k)).map((k) => `kind ${k} has no ${what} in ${where}`);
  problems.push(...entries.filter((k) => !declared.includes(k)).map((k) => `the ${what} for ${k} names no declared kind (declared: ${declared.join(", ")})`));
  problems.push(...entries.filter((k, i) => entries.indexOf(k) !== i).map((k) => `kind ${k} has more than one ${what}`));
  return problems;
}

describe("Every declared kind has a lifecycle case", () => {
  test("the resource suite has one case for each kind the provider declares, and none for anything else", () => {
    const declared = Object.keys(kinds).sort();
    // The registry holds a kind for each resource class the main entry exports, and nothing else.
    const classes = Object.entries(svc)
      .filter(([, value]) => typeof value === "function" && value.prototype instanceof SvcResource)
      .map(([name]) => name)
      .sort();
    expect(classes.length).toBeGreaterThan(0);
    expect(declared).toEqual(classes);
    expect(coverageProblems(declared, lifecycleCases(readFileSync(SUITE, "utf8")))).toEqual([]);
  });

  test("a kind without a case, a case for an unknown kind, and a repeated case are each named", () => {
    const suite = `const cases: Case[] = [{ kind: "Cluster", program: () => {} }, { kind: "Gadget" }, { kind: "Gadget" }];`;
    expect(coverageProblems(["Asset", "Cluster"], lifecycleCases(suite, "suite.ts"))).toEqual([
      `kind Asset has no lifecycle case in ${SUITE}`,
      "the lifecycle case for Gadget names no declared kind (declared: Asset, Cluster)",
      "the lifecycle case for Gadget names no declared kind (declared: Asset, Cluster)",
      "kind Gadget has more than one lifecycle case",
    ]);
    expect(() => lifecycleCases(`const cases = [{ kind: name }];`, "suite.ts")).toThrow("suite.ts: a case without a literal kind: { kind: name }");
  });
});

describe("Every declared kind has a test module", () => {
  test("the kinds' test modules hold one entry for each kind the provider declares (test/kinds), and none for anything else", () => {
    expect(coverageProblems(Object.keys(kinds), Object.keys(KIND_TESTS), "test module", "test/kinds/index.ts")).toEqual([]);
  });
});
