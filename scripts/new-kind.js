#!/usr/bin/env node
/**
 * Writes the skeleton of a new kind over an existing area (`npm run new:kind -- <Kind> <area>`):
 * its declaration module, src/provider/resources/<kind>.ts, which compiles and whose docs and calls
 * say what to fill in. Until they are filled in, test/kinds/classes.test.ts fails naming each one
 * (a doc that starts with "TODO"), and the created object is refused by the skeleton's create; then
 * `npm run classes` writes its class, and the type-check asks for its plant entry (KIND_SECTIONS).
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
    // TODO: the calls as the area's endpoints: { create: ${area}.create, read: ${area}.get, update: ..., delete: ... }.
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

/** Writes the skeleton; returns the paths it wrote, relative to `root`. */
function newKind(kind, area, root = path.resolve(__dirname, "..")) {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(kind)) throw new Error(`new-kind: '${kind}' is no class name (PascalCase)`);
  if (!fs.existsSync(path.join(root, "src", "api", `${area}.ts`))) throw new Error(`new-kind: no area '${area}' (src/api/${area}.ts)`);
  const file = path.join("src", "provider", "resources", `${kebab(kind)}.ts`);
  if (fs.existsSync(path.join(root, file))) throw new Error(`new-kind: ${file} exists already`);
  fs.writeFileSync(path.join(root, file), declarationText(kind, area));
  return [file];
}

module.exports = { newKind, declarationText };

if (require.main === module) {
  const [kind, area] = process.argv.slice(2);
  if (!kind || !area) {
    console.error("usage: npm run new:kind -- <Kind> <area>   (e.g. npm run new:kind -- Gateway bridges)");
    process.exit(2);
  }
  for (const f of newKind(kind, area)) console.log(`wrote ${f}`);
  console.log("Fill in each TODO (docs/architecture.md, 'A new kind over an existing area'), then npm run classes && npm run schema.");
}
