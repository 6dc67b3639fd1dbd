#!/usr/bin/env node
/**
 * Writes src/provider/resources/classes.ts, the public face of every resource kind, from the kind
 * declarations (`npm run classes`). A declaration module (src/provider/resources/<kind>.ts) states a
 * kind once: its args' types (the `<Kind>ArgTypes` interface it gives `declareKind`), each arg's doc
 * in its spec, each output's doc beside its reader, the class's and the args' docs. From it this
 * writes, per kind:
 * - `<Kind>Args`: each arg with its type as the declaration writes it and its doc, where `{rule}` (or
 *   the doc's end) states the rule of the arg's wire field, rendered from the zod schema that checks
 *   it (lengths, the name pattern, enum values, ranges): the rule is stated once, where it is checked;
 * - the class `<Kind>`: its doc, its readable outputs (echoed args and computed outputs, typed by the
 *   readers' return types) and its constructor over the kind.
 * The public declarations name no kind, no zod and no table: the kind is used only in the
 * constructor's body. Run it after changing a declaration, then `npm run schema`. test/kinds/classes.test.ts checks that the committed file is what this writes.
 */
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");
const { execFileSync } = require("node:child_process");

const ROOT = path.resolve(__dirname, "..");
const RESOURCES = path.join(ROOT, "src", "provider", "resources");
const CLASSES_PATH = path.join(RESOURCES, "classes.ts");
const HEADER = "// Written by scripts/kind-classes.js from the kind declarations (src/provider/resources/<kind>.ts); do not edit: `npm run classes`.\n";

/** The declaration modules: the modules of src/provider/resources (of `resources`) that register kinds. */
function declarationModules(resources = RESOURCES) {
  return fs
    .readdirSync(resources)
    .filter((f) => f.endsWith(".ts") && f !== "classes.ts" && f !== "index.ts")
    .filter((f) => fs.readFileSync(path.join(resources, f), "utf8").includes("registerKind("))
    .map((f) => f.slice(0, -".ts".length))
    .sort();
}

/**
 * Each kind a source file registers (`export const xKind = registerKind(declareKind<...>()({ name: "X", ... }))`):
 * its name, the binding its class constructs, its output map and its args types (`<Kind>ArgTypes`).
 */
function declarationsIn(source) {
  const found = [];
  const literalIn = (node) => {
    if (ts.isObjectLiteralExpression(node) && node.properties.some((p) => p.name?.getText(source) === "platformTerm")) return node;
    return ts.forEachChild(node, literalIn);
  };
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.getText(source) === "registerKind") {
      const literal = literalIn(node);
      const prop = (name) => literal?.properties.find((p) => p.name?.getText(source) === name);
      const kindName = prop("name")?.initializer?.text;
      const binding = ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : undefined;
      if (!kindName || !binding)
        throw new Error(`kind-classes: ${source.fileName}: write a kind as \`export const xKind = registerKind(declareKind<...>()({ name: "X", platformTerm, ... }))\``);
      found.push({ kindName, argTypes: `${kindName}ArgTypes`, binding, outputs: prop("outputs")?.initializer });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function compilerProgram(files) {
  const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return ts.createProgram({ rootNames: files, options: { ...parsed.options, noEmit: true, incremental: false, composite: false } });
}

// ---------------------------------------------------------------------------------------------
// The rules of the contract, as words

/** A zod schema's definition without the wrappers that only make a field optional, nullable or defaulted. */
function unwrapped(schema) {
  let t = schema;
  for (let i = 0; i < 10; i++) {
    const d = t._zod.def;
    if (["optional", "nullable", "default", "readonly", "prefault", "nonoptional"].includes(d.type)) t = d.innerType;
    else if (d.type === "pipe") t = d.out._zod.def.type === "transform" ? d.in : d.out;
    else break;
  }
  return t._zod.def;
}

/** The checks of a definition, as data. */
const checksOf = (def) => (def.checks ?? []).map((c) => c._zod.def);

/**
 * The rule a zod field sets, in words: its pattern (as `patternRules` describes it), its length, its
 * enum values, its range, its most items; undefined when it sets none of these.
 */
function ruleOf(schema, patternRules) {
  const def = unwrapped(schema);
  const checks = checksOf(def);
  const find = (kind) => checks.find((c) => c.check === kind);
  if (def.type === "enum")
    return (
      "one of " +
      Object.keys(def.entries)
        .map((v) => `\`${v}\``)
        .join(", ")
    );
  if (def.type === "string") {
    const parts = [];
    for (const c of checks.filter((c) => c.check === "string_format" && c.format === "regex")) {
      const words = patternRules.get(String(c.pattern));
      if (words) parts.push(words);
    }
    const min = find("min_length")?.minimum;
    const max = find("max_length")?.maximum;
    if (max !== undefined) parts.push(min ? `${min}–${max} characters` : `at most ${max} characters`);
    else if (min) parts.push(`at least ${min} characters`);
    return parts.length ? parts.join(", ") : undefined;
  }
  if (def.type === "number") {
    const min = find("greater_than")?.value;
    const max = find("less_than")?.value;
    if (min !== undefined && max !== undefined) return `from ${min} to ${max}`;
    return undefined;
  }
  if (def.type === "array") {
    const max = find("max_length")?.maximum;
    return max === undefined ? undefined : `at most ${max} items`;
  }
  return undefined;
}

/** The values of an enum field; undefined for another field. */
function enumValues(schema) {
  const def = unwrapped(schema);
  return def.type === "enum" ? Object.keys(def.entries) : undefined;
}

const snake = (s) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The wire field that checks an arg: its spec's own schema, else its field of the kind's wire schema. */
function fieldOf(kind, arg, spec) {
  if (spec.rule ?? spec.schema) return spec.rule ?? spec.schema;
  const shape = kind.schema?.shape;
  return shape?.[spec.wire ?? snake(arg)];
}

/** What the declarations lack, reported together. */
let problems = [];

/** An arg's doc with its rule: at `{rule}`, else as the doc's last sentence. */
function argDoc(kind, arg, spec, patternRules) {
  if (!spec.doc) problems.push(`${kind.name}: the arg '${arg}' has no doc`);
  if (spec.doc?.startsWith("TODO")) problems.push(`${kind.name}: the doc of the arg '${arg}' is still to write: ${spec.doc}`);
  if (!spec.doc) return "";
  const field = spec.local ? undefined : fieldOf(kind, arg, spec);
  const rule = field && ruleOf(field, patternRules);
  if (spec.doc.includes("{rule}")) {
    if (!rule) problems.push(`${kind.name}: the doc of '${arg}' places a {rule}, and its wire field states none (give the spec the \`rule\` schema that checks it)`);
    return spec.doc.replace("{rule}", rule);
  }
  // An enum whose doc explains each of its values (in backticks) states its rule already.
  const values = field && enumValues(field);
  if (!rule || values?.every((v) => spec.doc.includes(`\`${v}\``))) return spec.doc;
  return `${spec.doc} ${rule[0].toUpperCase()}${rule.slice(1)}.`;
}

// ---------------------------------------------------------------------------------------------
// The text

/** A doc comment, indented, on one line (so that editors and the schema read it as one paragraph). */
const comment = (text, indent) => `${indent}/** ${text} */\n`;

/** The type of a property of the args interface `iface`, as the declaration writes it, and whether it is optional. */
function argTypeOf(iface, arg, source) {
  const member = iface.members.find((m) => m.name?.getText(source) === arg);
  if (!member) throw new Error(`kind-classes: ${iface.name.text} has no property '${arg}'`);
  return { text: member.type.getText(source), optional: Boolean(member.questionToken) };
}

/** `pulumi.Input<T>` → `T` (an echoed arg's output type), for a `T` holding no Input itself. */
function resolvedText(text, optional, where) {
  const m = /^pulumi\.Input<(.*)>$/s.exec(text);
  if (!m || m[1].includes("pulumi.Input")) throw new Error(`kind-classes: ${where}: give the output's type (output: { doc, type })`);
  return optional ? `${m[1]} | undefined` : m[1];
}

/** The value type each computed output's reader returns, as the checker prints it. */
function outputTypes(checker, outputs, where) {
  if (!outputs) return {};
  const type = checker.getTypeAtLocation(outputs);
  const flags = ts.TypeFormatFlags.NoTruncation;
  const out = {};
  for (const p of checker.getPropertiesOfType(type)) {
    const sig = checker.getTypeOfSymbolAtLocation(p, outputs).getCallSignatures()[0];
    const text = checker.typeToString(checker.getReturnTypeOfSignature(sig), undefined, flags);
    if (/\bimport\(|\bz\.|Zod/.test(text)) throw new Error(`kind-classes: ${where}.${p.name}: the output's type names the table or zod: ${text}`);
    out[p.name] = text;
  }
  return out;
}

/** The names a type text uses that the declaration module imports (as types), by their module. */
function importsUsed(source, texts) {
  const used = new Map();
  const all = texts.join("\n");
  for (const stmt of source.statements) {
    if (!ts.isImportDeclaration(stmt) || !stmt.importClause?.namedBindings || !ts.isNamedImports(stmt.importClause.namedBindings)) continue;
    const from = stmt.moduleSpecifier.text;
    for (const el of stmt.importClause.namedBindings.elements) {
      if (!new RegExp(`\\b${el.name.text}\\b`).test(all)) continue;
      if (from !== "./contract-types" && from !== "../input-types" && from !== "../records") {
        throw new Error(
          `kind-classes: ${source.fileName}: the public type ${el.name.text} comes from ${from}; public types come from ./contract-types, ../input-types or ../records`,
        );
      }
      used.set(el.name.text, from);
    }
  }
  for (const stmt of source.statements) {
    if ((ts.isTypeAliasDeclaration(stmt) || ts.isInterfaceDeclaration(stmt)) && new RegExp(`\\b${stmt.name.text}\\b`).test(all) && !stmt.name.text.endsWith("ArgTypes")) {
      throw new Error(`kind-classes: ${source.fileName}: the public type ${stmt.name.text} is declared in the declaration module; move it to ./contract-types`);
    }
  }
  return used;
}

/** Adds to `problems` what a kind's declaration lacks: its docs, the rules its docs place. */
function declarationProblems(kind, patternRules) {
  for (const member of ["doc", "argsDoc", "platformTerm"]) {
    if (!kind[member]) problems.push(`${kind.name}: the declaration has no ${member}`);
    else if (kind[member].startsWith("TODO")) problems.push(`${kind.name}: the declaration's ${member} is still to write: ${kind[member]}`);
  }
  for (const [arg, spec] of Object.entries(kind.args)) argDoc(kind, arg, spec, patternRules);
  for (const o of kind.outputNames) if (!kind.outputDocs[o]) problems.push(`${kind.name}: the output '${o}' has no doc (output("...", reader))`);
}

/** The class and args interface of one kind. */
function kindText(kind, decl, iface, source, checker, patternRules, imports) {
  const args = Object.entries(kind.args);
  const types = Object.fromEntries(args.map(([arg]) => [arg, argTypeOf(iface, arg, source)]));
  for (const m of iface.members) if (!(m.name.getText(source) in kind.args)) throw new Error(`kind-classes: ${kind.name}: ${iface.name.text}.${m.name.getText(source)} is no arg`);
  const outs = outputTypes(checker, decl.outputs, kind.name);
  const echoed = args
    .filter(([, spec]) => spec.output)
    .map(([arg, spec]) => {
      const o = typeof spec.output === "string" ? { doc: spec.output } : spec.output;
      return { name: arg, doc: o.doc, type: o.type ?? resolvedText(types[arg].text, types[arg].optional, `${kind.name}.${arg}`) };
    });
  const computed = kind.outputNames.map((o) => {
    return { name: o, doc: kind.outputDocs[o], type: outs[o] };
  });
  for (const [name, from] of importsUsed(source, [...Object.values(types).map((t) => t.text), ...computed.map((c) => c.type)])) imports.set(name, from);
  let text = comment(kind.argsDoc, "");
  text += `export interface ${kind.name}Args {\n`;
  for (const [arg, spec] of args) text += comment(argDoc(kind, arg, spec, patternRules), "  ") + `  ${arg}${types[arg].optional ? "?" : ""}: ${types[arg].text};\n`;
  text += "}\n\n" + comment(kind.doc, "");
  text += `export class ${kind.name} extends SvcResource {\n`;
  for (const o of [...echoed, ...computed]) text += comment(o.doc, "  ") + `  declare readonly ${o.name}: pulumi.Output<${o.type}>;\n`;
  const args_ = kind.programArgs ? `${decl.binding}.programArgs?.(args) ?? args` : "args";
  text += `\n  constructor(name: string, args: ${kind.name}Args, opts?: pulumi.CustomResourceOptions) {\n    super(${decl.binding}, name, ${args_}, opts);\n  }\n}\n`;
  return text;
}

/**
 * The text of classes.ts. `load(module)` loads a declaration module (registering its kinds) and
 * `kinds` gives the registered kinds once every module loaded; `patternRules` describes the contract's
 * name patterns in words (src/api/common.ts).
 */
function generateClasses({ load, kinds, patternRules, resources = RESOURCES }) {
  const modules = declarationModules(resources);
  for (const m of modules) load(m);
  const registered = kinds();
  problems = [];
  // What the declarations lack is told before the types are read (which takes the compiler a while).
  for (const kind of Object.values(registered)) declarationProblems(kind, patternRules);
  if (problems.length) throw new Error(`kind-classes: the declarations are incomplete:\n${problems.join("\n")}`);
  const program = compilerProgram(modules.map((m) => path.join(RESOURCES, `${m}.ts`)));
  const checker = program.getTypeChecker();
  const imports = new Map();
  const values = new Map();
  const bodies = [];
  const seen = new Set();
  for (const m of modules) {
    const source = program.getSourceFile(path.join(RESOURCES, `${m}.ts`));
    for (const decl of declarationsIn(source)) {
      const kind = registered[decl.kindName];
      if (!kind) throw new Error(`kind-classes: ${m}.ts declares ${decl.kindName}, which is not registered (registerKind)`);
      const iface = source.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === decl.argTypes);
      if (!iface) throw new Error(`kind-classes: ${m}.ts: the interface ${decl.argTypes} is not declared in the module`);
      values.set(m, [...(values.get(m) ?? []), decl.binding]);
      bodies.push(kindText(kind, decl, iface, source, checker, patternRules, imports));
      seen.add(decl.kindName);
    }
  }
  if (problems.length) throw new Error(`kind-classes: the declarations are incomplete:\n${problems.join("\n")}`);
  const missing = Object.keys(registered).filter((k) => !seen.has(k));
  if (missing.length) throw new Error(`kind-classes: registered kinds without a declaration module: ${missing.join(", ")}`);
  const byModule = new Map();
  for (const [name, from] of imports) byModule.set(from, [...(byModule.get(from) ?? []), name].sort());
  const typeImports = [...byModule].sort(([a], [b]) => a.localeCompare(b)).map(([from, names]) => `import type { ${names.join(", ")} } from "${from}";`);
  const head = [
    HEADER,
    'import type * as pulumi from "@pulumi/pulumi";',
    'import { SvcResource } from "../shim";',
    ...typeImports,
    ...[...values].map(([m, names]) => `import { ${names.join(", ")} } from "./${m}";`),
  ].join("\n");
  return `${head}\n\n${bodies.join("\n")}`;
}

/** The text formatted as the repository's prettier configuration formats it. */
function formatted(text) {
  const prettier = require.resolve("prettier/bin/prettier.cjs", { paths: [ROOT] });
  return execFileSync(process.execPath, [prettier, "--stdin-filepath", CLASSES_PATH], { cwd: ROOT, input: text, encoding: "utf8" });
}

/** The classes of the built package (dist), as `npm run classes` writes them. */
function classesOfBuild() {
  const dist = path.join(ROOT, "dist", "provider");
  const { registeredKinds } = require(path.join(dist, "registry"));
  const { PATTERN_RULES } = require(path.join(ROOT, "dist", "api", "common"));
  return formatted(generateClasses({ load: (m) => require(path.join(dist, "resources", m)), kinds: () => registeredKinds, patternRules: PATTERN_RULES }));
}

module.exports = { generateClasses, formatted, ruleOf, declarationModules, CLASSES_PATH, RESOURCES };

if (require.main === module) {
  fs.writeFileSync(CLASSES_PATH, classesOfBuild());
  console.log(`${path.relative(process.cwd(), CLASSES_PATH)} written`);
}
