/**
 * `npm run new:kind` writes a declaration module that compiles, into a copy of the sources, and
 * whose docs and calls say what is still to fill in; and the kind's test module, listed in
 * test/kinds/index.ts, whose parts fail naming what to write.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";

const { newKind } = require("../../scripts/new-kind.js") as { newKind(kind: string, area: string, root: string): string[] };
const { generateClasses } = require("../../scripts/kind-classes.js") as { generateClasses(o: object): string };

const ROOT = path.join(__dirname, "..", "..");

jest.setTimeout(600_000);

let copy: string;
beforeAll(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), "new-kind-"));
  fs.cpSync(path.join(ROOT, "src"), path.join(copy, "src"), { recursive: true });
  for (const dir of ["test/kinds", "test/model"]) fs.cpSync(path.join(ROOT, dir), path.join(copy, dir), { recursive: true });
  fs.mkdirSync(path.join(copy, "test", "robustness"));
  fs.copyFileSync(path.join(ROOT, "test/robustness/kind-scenarios.ts"), path.join(copy, "test/robustness/kind-scenarios.ts"));
  for (const f of ["tsconfig.json", "package.json"]) fs.copyFileSync(path.join(ROOT, f), path.join(copy, f));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"), "dir");
});
afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

test("the skeleton of a kind over an existing area compiles, and its docs say what to write", () => {
  const written = newKind("Gateway", "bridges", copy);
  expect(written).toEqual([path.join("src", "provider", "resources", "gateway.ts"), path.join("test", "kinds", "gateway.ts"), path.join("test", "kinds", "index.ts")]);
  const file = path.join(copy, written[0]);
  const tests = path.join(copy, written[1]);
  const config = ts.readConfigFile(path.join(copy, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, copy);
  const program = ts.createProgram({ rootNames: [file, tests], options: { ...parsed.options, noEmit: true, incremental: false, composite: false } });
  // The index names Gateway before `npm run classes` makes it a kind name: only the two new modules are checked here.
  const problems = [file, tests].flatMap((f) => ts.getPreEmitDiagnostics(program, program.getSourceFile(f)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")));
  expect(problems).toEqual([]);
  const index = fs.readFileSync(path.join(copy, written[2]), "utf8");
  expect(index).toContain('import { gateway } from "./gateway";');
  expect(index).toContain("\n  Gateway: gateway,\n};\n");
  const testText = fs.readFileSync(tests, "utf8");
  expect(testText.match(/\/\/ TODO: /g)).toHaveLength(7);
  const { gateway } = require(tests) as {
    gateway: { model: { add(): unknown }; args: object; scenario: unknown; e2e: { program(v: number): void }; secret: { declare(): unknown }; allKinds(): unknown };
  };
  expect(() => gateway.model.add()).toThrow("Gateway: write its model's add (test/kinds/gateway.ts)");
  expect(() => gateway.args).toThrow("Gateway: write its args for the outputs suite");
  expect(() => gateway.e2e.program(0)).toThrow("Gateway: write its lifecycle case");
  expect(() => gateway.secret.declare()).toThrow("Gateway: write its secret canary case");
  expect(() => gateway.allKinds()).toThrow("Gateway: write its resource in the program of every kind");
  const text = fs.readFileSync(file, "utf8");
  expect(text).toMatch(/doc: "TODO: /);
  expect(text).toMatch(/SVC_KIND_UNWRITTEN/);
  expect(() => newKind("Gateway", "bridges", copy)).toThrow(/exists already/);
  expect(() => newKind("Gateway2", "nosuch", copy)).toThrow(/no area/);
});

test("until its TODOs are written, the classes cannot be written: the generator names each one", () => {
  const resources = path.join(copy, "src", "provider", "resources");
  if (!fs.existsSync(path.join(resources, "gateway.ts"))) newKind("Gateway", "bridges", copy);
  const load = (m: string) => require(path.join(resources, m));
  const { registeredKinds } = require(path.join(copy, "src", "provider", "registry")) as { registeredKinds: object };
  const { PATTERN_RULES } = require(path.join(copy, "src", "api", "common")) as { PATTERN_RULES: unknown };
  const run = () => generateClasses({ load, kinds: () => registeredKinds, patternRules: PATTERN_RULES, resources });
  expect(run).toThrow(/Gateway: the declaration's doc is still to write/);
  expect(run).toThrow(/Gateway: the doc of the arg 'name' is still to write/);
  expect(run).toThrow(/Gateway: the declaration's platformTerm is still to write/);
});
