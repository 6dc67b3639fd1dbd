#!/usr/bin/env node
/**
 * Writes the skeleton of a new kind over an existing area (`npm run new:kind -- <Kind> <area>`):
 * its declaration module, src/provider/resources/<kind>.ts, which compiles and whose docs and calls
 * say what to fill in. Until they are filled in, test/kinds/classes.test.ts fails naming each one
 * (a doc that starts with "TODO"), and the created object is refused by the skeleton's create; then
 * `npm run classes` writes its class, and the type-check asks for its plant entry (KIND_SECTIONS).
 * And its test module, test/kinds/<kind>.ts, with its entry in test/kinds/index.ts: each part (model,
 * args, scenario, lifecycle case, inPlantProgram, secret canary case, resource in the program of every
 * kind) throws naming itself until it is written.
 * docs/architecture.md, "A new kind over an existing area", is the whole recipe.
 * `root` (tests) writes into another copy of the repository.
 */
const fs = require("node:fs");
const path = require("node:path");

const kebab = (name) => name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
const lowerFirst = (name) => name[0].toLowerCase() + name.slice(1);

/** The declaration module's text. */
function declarationText(kind, area) {
  const binding = `${lowerFirst(kind)}Kind`;
  return `/** ${kind}: TODO: what the object is. */
import type * as pulumi from "@pulumi/pulumi";
import { declareKind } from "../kind";
import { registerKind } from "../registry";
import type { Resolved } from "../input-types";
import { SvcError } from "../../errors";

/** The types of a {@link ${kind}}'s args as programs write them (their docs are the specs' below). */
interface ${kind}ArgTypes {
  name: pulumi.Input<string>;
  adopt?: pulumi.Input<boolean>;
}

export const ${binding} = registerKind(
  declareKind<Resolved<${kind}ArgTypes>>()({
    name: "${kind}",
    platformTerm: "TODO: what the platform calls the object",
    doc: "TODO: the class's doc: what the object is, what a change and a destroy do.",
    argsDoc: "TODO: the args' doc: what a change of the args does.",
    args: {
      name: { required: true, doc: "TODO: what the name is: {rule}. Changing it replaces the TODO." },
      adopt: { local: true, doc: "TODO: take over an existing object with this name instead of failing. Provider-side only (never sent); default \`false\`." },
    },
    id: (i) => i.name,
    // TODO: the calls as the area's endpoints: { create: ${area}.create, read: ${area}.get, update: ..., delete: ... },
    // then delete the create, read and delete functions below: a function written here takes the place of its endpoint.
    endpoints: {},
    create: async () => {
      throw new SvcError("SVC_KIND_UNWRITTEN", "${kind}: its create is not written yet (src/provider/resources/${kebab(kind)}.ts)");
    },
    read: async () => undefined,
    delete: async () => undefined,
    // TODO: the computed outputs, read from the record of the read endpoint, each with its doc:
    // defineOutputs(${area}.get, { created: output("When it was created (RFC 3339).", (r) => r.created) }).
    outputs: {},
  }),
);
`;
}

/** The test module's text: each part throws, naming what to write, when a suite uses it. */
function testModuleText(kind) {
  const file = `test/kinds/${kebab(kind)}.ts`;
  return `/** ${kind}: its part of every suite (docs/architecture.md, "A new kind over an existing area"). */
import fc from "fast-check";
import { SvcError } from "../../src/errors";
import type { KindTests } from "./kind-tests";

/** A part still to write: using it fails, naming it. */
const unwritten =
  (part: string) =>
  (): never => {
    throw new SvcError("SVC_KIND_UNWRITTEN", \`${kind}: write its \${part} (${file})\`);
  };

export const ${lowerFirst(kind)}: KindTests = {
  // TODO: the model tests' entry (test/kinds/kind-model.ts says what each member is).
  model: { add: unwritten("model's add"), adopts: false, records: unwritten("model's records") },
  // TODO: enough args for the class's constructor (test/provider/outputs.test.ts).
  get args(): object {
    return unwritten("args for the outputs suite")();
  },
  // TODO: an arbitrary of valid programs declaring the kind (test/robustness/kind-scenarios.ts holds what scenarios share).
  scenario: fc.constant(unwritten("scenario")),
  // TODO: the lifecycle case: the subject in variants 0 (base), 1 (update) and 2 (replace), and the actions expected.
  e2e: { actions: ["update", "replace"], program: unwritten("lifecycle case") },
  // TODO: whether the program that brings a snapshot under code declares the kind (its KIND_SECTIONS entry in src/plant/generate.ts).
  get inPlantProgram(): boolean {
    return unwritten("inPlantProgram")();
  },
  // TODO: its resource in the secret canary program, each arg a secret could be written into holding its canary (test/helpers/secret-canaries.ts says which args count).
  secret: { resource: "${kebab(kind)}", args: [], declare: unwritten("secret canary case") },
  // TODO: its one resource in the program of every kind (test/model/all-kinds.ts), referring to the quickstart's objects and to what came before it.
  allKinds: unwritten("resource in the program of every kind"),
};
`;
}

/** Adds the test module's import and entry to test/kinds/index.ts (the entry last, so the generator's draws of the other kinds keep their order). */
function addIndexLine(kind, root) {
  const index = path.join(root, "test", "kinds", "index.ts");
  const text = fs.readFileSync(index, "utf8");
  const entries = text.indexOf("export const KIND_TESTS");
  const close = text.indexOf("\n};\n", entries);
  if (entries < 0 || close < 0) throw new Error(`new-kind: no KIND_TESTS record in ${index}`);
  const withEntry = `${text.slice(0, close)}\n  ${kind}: ${lowerFirst(kind)},${text.slice(close)}`;
  const lastImport = withEntry.lastIndexOf("\nimport ", entries);
  const afterImport = withEntry.indexOf("\n", lastImport + 1);
  return fs.writeFileSync(index, `${withEntry.slice(0, afterImport)}\nimport { ${lowerFirst(kind)} } from "./${kebab(kind)}";${withEntry.slice(afterImport)}`);
}

/** Writes the skeleton; returns the paths it wrote, relative to `root`. */
function newKind(kind, area, root = path.resolve(__dirname, "..")) {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(kind)) throw new Error(`new-kind: '${kind}' is no class name (PascalCase)`);
  if (!fs.existsSync(path.join(root, "src", "api", `${area}.ts`))) throw new Error(`new-kind: no area '${area}' (src/api/${area}.ts)`);
  const file = path.join("src", "provider", "resources", `${kebab(kind)}.ts`);
  const tests = path.join("test", "kinds", `${kebab(kind)}.ts`);
  for (const f of [file, tests]) if (fs.existsSync(path.join(root, f))) throw new Error(`new-kind: ${f} exists already`);
  fs.writeFileSync(path.join(root, file), declarationText(kind, area));
  fs.writeFileSync(path.join(root, tests), testModuleText(kind));
  addIndexLine(kind, root);
  return [file, tests, path.join("test", "kinds", "index.ts")];
}

module.exports = { newKind, declarationText, testModuleText };

if (require.main === module) {
  const [kind, area] = process.argv.slice(2);
  if (!kind || !area) {
    console.error("usage: npm run new:kind -- <Kind> <area>   (e.g. npm run new:kind -- Gateway bridges)");
    process.exit(2);
  }
  for (const f of newKind(kind, area)) console.log(`wrote ${f}`);
  console.log("Fill in each TODO, in both modules (docs/architecture.md, 'A new kind over an existing area'), then npm run classes && npm run schema.");
}
