#!/usr/bin/env node
/**
 * Writes the Pulumi package schema of the native provider, schema/schema.json, from the kind
 * declarations the dynamic resources use (`npm run schema`):
 * - which resources, their args (required, replace-on-change, provider-side) and computed outputs: the
 *   registered kinds (src/provider/kinds.ts);
 * - the types and docs: the TypeScript declarations the programs see (src/provider/resources/classes.ts,
 *   written from the declarations by scripts/kind-classes.js), read with the compiler API: each
 *   kind's `<Kind>Args` interface as the provider receives it (`Resolved<...>`, every Input resolved),
 *   its class's doc comment and its output properties (`pulumi.Output<T>` → T);
 * - the provider's configuration: the settings of src/provider/config.ts (keys, environment variables,
 *   docs, which are secrets).
 * test/native/schema.test.ts checks that the committed file is what this writes.
 */
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const ROOT = path.resolve(__dirname, "..");
const SCHEMA_PATH = path.join(ROOT, "schema", "schema.json");
/** The package name: type tokens are `svc:index:<Kind>`, configuration keys `svc:<key>`. */
const PACKAGE = "svc";
/** The TypeScript module the compiler reads (never written to disk). */
const ENTRY = path.join(ROOT, "src", "provider", "native", "__schema_entry__.ts");

/** The entry module: per kind, its args as the provider receives them and its class's output values. */
function entrySource(kindNames) {
  const lines = [
    'import type * as pulumi from "@pulumi/pulumi";',
    'import type { Resolved } from "../input-types";',
    'import type * as r from "../resources";',
    'import type { SETTINGS } from "../config";',
    "type Out<C> = { [K in keyof C]: C[K] extends pulumi.OutputInstance<infer T> ? T : never };",
    "export type Settings = typeof SETTINGS;",
  ];
  for (const k of kindNames) lines.push(`export type ${k}__args = Resolved<r.${k}Args>;`, `export type ${k}__outs = Out<r.${k}>;`, `export type ${k}__class = r.${k};`);
  return lines.join("\n") + "\n";
}

function compilerProgram(kindNames) {
  const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const options = { ...parsed.options, noEmit: true, incremental: false, composite: false };
  const host = ts.createCompilerHost(options);
  const text = entrySource(kindNames);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, onError) => (path.resolve(file) === ENTRY ? ts.createSourceFile(file, text, lang) : getSourceFile(file, lang, onError));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => path.resolve(file) === ENTRY || fileExists(file);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (path.resolve(file) === ENTRY ? text : readFile(file));
  const program = ts.createProgram({ rootNames: [ENTRY], options, host });
  const problems = ts.getPreEmitDiagnostics(program, program.getSourceFile(ENTRY));
  if (problems.length > 0) throw new Error(`generate-schema: the declarations do not compile:\n${ts.formatDiagnostics(problems, host)}`);
  return program;
}

/** A doc comment as markdown: `{@link X}` → `X` in backticks, lines joined. */
function docOf(checker, symbol) {
  if (!symbol) return undefined;
  const text = ts
    .displayPartsToString(symbol.getDocumentationComment(checker))
    .replace(/\{@link(?:code|plain)?\s+([^}|\s]+)(?:[\s|]+([^}]*))?\}/g, (_, target, label) => "`" + (label?.trim() || target) + "`")
    // A doc's line breaks are the source's wrapping, not the text's: one paragraph is one line.
    .replace(/([^\n])\n(?=[^\n])/g, "$1 ")
    .trim();
  return text || undefined;
}

/** The suffixes of the Go types the Go SDK makes for an enum `E` (`EOutput`, `EPtrInput`, ...). */
const GO_TYPE_SUFFIXES = ["Input", "Output", "Ptr", "PtrInput", "PtrOutput", "Array", "ArrayInput", "ArrayOutput", "Map", "MapInput", "MapOutput"];

const pascal = (s) => s.replace(/(^|[_\-. ])([a-zA-Z0-9])/g, (_, __, c) => c.toUpperCase());

/** Converts TypeScript types to the schema's type specs, collecting the named object and enum types. */
class TypeMapper {
  constructor(checker) {
    this.checker = checker;
    /** token → object or enum type spec */
    this.types = {};
  }

  /** The members of a type without `undefined`/`null` (which only make a property optional). */
  present(type) {
    const members = type.isUnion() ? type.types : [type];
    return members.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)));
  }

  optional(type) {
    return type.isUnion() && type.types.some((t) => t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void));
  }

  /** The type spec of `type`; `name` is the token suffix its named types take (`AssetLocation`). */
  spec(type, name) {
    const members = this.present(type);
    if (members.length === 0) return { $ref: "pulumi.json#/Any" };
    const F = ts.TypeFlags;
    if (members.every((t) => t.flags & F.BooleanLiteral)) return { type: "boolean" };
    if (members.length > 1 && members.every((t) => t.flags & F.StringLiteral)) return this.enumOf(name, "string", members);
    if (members.length > 1 && members.every((t) => t.flags & F.NumberLiteral)) return this.enumOf(name, "number", members);
    if (members.length > 1) {
      // A union of kinds of values: each kind once (booleans as one), in a oneOf.
      const parts = [];
      const seen = new Set();
      const bools = members.filter((t) => t.flags & F.BooleanLiteral);
      for (const t of members) {
        if (t.flags & F.BooleanLiteral && t !== bools[0]) continue;
        const s = t.flags & F.BooleanLiteral ? { type: "boolean" } : this.spec(t, name);
        const key = JSON.stringify(s);
        if (!seen.has(key)) {
          seen.add(key);
          parts.push(s);
        }
      }
      if (parts.length === 1) return parts[0];
      if (parts.some((p) => p.$ref === "pulumi.json#/Any")) return { $ref: "pulumi.json#/Any" };
      return { oneOf: parts };
    }
    const t = members[0];
    if (t.flags & (F.String | F.StringLiteral)) return { type: "string" };
    if (t.flags & (F.Number | F.NumberLiteral)) return { type: "number" };
    if (t.flags & (F.Boolean | F.BooleanLiteral)) return { type: "boolean" };
    if (t.flags & (F.Any | F.Unknown)) return { $ref: "pulumi.json#/Any" };
    if (this.checker.isArrayType(t)) return { type: "array", items: this.spec(this.checker.getTypeArguments(t)[0], name) };
    if (this.checker.isTupleType(t)) return { type: "array", items: { $ref: "pulumi.json#/Any" } };
    if (t.flags & F.Object || t.flags & F.Intersection) {
      const props = this.checker.getPropertiesOfType(t);
      const index = this.checker.getIndexInfosOfType(t).find((i) => i.keyType.flags & F.String);
      if (props.length === 0) return { type: "object", additionalProperties: index ? this.spec(index.type, `${name}Value`) : { $ref: "pulumi.json#/Any" } };
      return this.objectOf(name, props);
    }
    throw new Error(`generate-schema: ${name}: no schema type for the TypeScript type '${this.checker.typeToString(t)}'`);
  }

  enumOf(name, type, members) {
    const token = `${PACKAGE}:index:${name}`;
    // The Go SDK names a value's constant <Enum><Value>, which for `output` or `input` is the name of
    // one of the enum's own Go types: such a value is named `<Value>Value`.
    const named = (value) => (typeof value === "string" && GO_TYPE_SUFFIXES.includes(pascal(value)) ? { name: `${pascal(value)}Value` } : {});
    this.types[token] = { type, enum: members.map((m) => ({ ...named(m.value), value: m.value })) };
    return { $ref: `#/types/${token}` };
  }

  objectOf(name, props) {
    const token = `${PACKAGE}:index:${name}`;
    const spec = { type: "object", properties: {}, required: [] };
    this.types[token] = spec;
    for (const p of props) {
      const pt = this.checker.getTypeOfSymbol(p);
      spec.properties[p.name] = { ...this.spec(pt, name + pascal(p.name)), ...described(docOf(this.checker, p)) };
      if (!(p.flags & ts.SymbolFlags.Optional) && !this.optional(pt)) spec.required.push(p.name);
    }
    if (spec.required.length === 0) delete spec.required;
    return { $ref: `#/types/${token}` };
  }
}

const described = (description) => (description ? { description } : {});

/**
 * The package schema of the registered kinds. `kinds` is the registry (src/provider/kinds.ts), `settings`
 * and `secretSettings` the provider's settings (src/provider/config.ts), `version` the package's.
 */
function generateSchema({ kinds, settings, secretSettings, version, description }) {
  const names = Object.keys(kinds).sort();
  const program = compilerProgram(names);
  const checker = program.getTypeChecker();
  const entry = checker.getSymbolAtLocation(program.getSourceFile(ENTRY));
  const exported = Object.fromEntries(checker.getExportsOfModule(entry).map((s) => [s.name, s]));
  const typeOf = (name) => checker.getDeclaredTypeOfSymbol(exported[name]);
  const mapper = new TypeMapper(checker);

  const resources = {};
  for (const name of names) {
    const kind = kinds[name];
    const argsType = typeOf(`${name}__args`);
    const outsType = typeOf(`${name}__outs`);
    const argProps = Object.fromEntries(checker.getPropertiesOfType(argsType).map((p) => [p.name, p]));
    const outProps = Object.fromEntries(checker.getPropertiesOfType(outsType).map((p) => [p.name, p]));
    const inputProperties = {};
    const properties = {};
    const requiredOutputs = [];
    for (const [arg, spec] of Object.entries(kind.args)) {
      const symbol = argProps[arg];
      if (!symbol) throw new Error(`generate-schema: ${name}: the arg '${arg}' is not a property of ${name}Args`);
      const type = mapper.spec(checker.getTypeOfSymbol(symbol), name + pascal(arg));
      const prop = { ...type, ...described(docOf(checker, symbol)), ...(spec.replaces ? { replaceOnChanges: true } : {}) };
      inputProperties[arg] = prop;
      // The state holds every arg the program gave (outputs are the args and the computed values).
      const { replaceOnChanges: _r, ...out } = prop;
      properties[arg] = out;
      if (spec.required) requiredOutputs.push(arg);
    }
    for (const arg of Object.keys(argProps)) {
      if (!(arg in kind.args)) throw new Error(`generate-schema: ${name}: ${name}Args has '${arg}', which the kind does not declare`);
    }
    for (const output of kind.outputNames) {
      const symbol = outProps[output];
      if (!symbol) throw new Error(`generate-schema: ${name}: the output '${output}' is not a property of the class ${name}`);
      const type = checker.getTypeOfSymbol(symbol);
      properties[output] = { ...mapper.spec(type, name + pascal(output)), ...described(docOf(checker, symbol)) };
      if (!mapper.optional(type)) requiredOutputs.push(output);
    }
    const classSymbol = checker.getDeclaredTypeOfSymbol(exported[`${name}__class`]).getSymbol();
    resources[`${PACKAGE}:index:${name}`] = {
      ...described(docOf(checker, classSymbol)),
      inputProperties,
      requiredInputs: [...kind.required],
      properties,
      required: requiredOutputs,
    };
  }

  // The provider's configuration: every setting, its environment variable, its doc; credentials are secrets.
  const settingProps = Object.fromEntries(checker.getPropertiesOfType(typeOf("Settings")).map((p) => [p.name, p]));
  const variables = {};
  const typeOfSetting = { operationTimeoutSeconds: "number", skipCredentialsCheck: "boolean" };
  for (const [key, env] of Object.entries(settings)) {
    variables[key] = {
      type: typeOfSetting[key] ?? "string",
      ...described(docOf(checker, settingProps[key])),
      defaultInfo: { environment: [env] },
      ...(secretSettings.includes(key) ? { secret: true } : {}),
    };
  }

  return {
    name: PACKAGE,
    displayName: "SVC edge-application platform",
    version,
    description,
    keywords: ["pulumi", "svc", "edge", "industrial", "kind/native"],
    license: "Apache-2.0",
    repository: "https://github.com/pulumi-svc/pulumi-svc",
    publisher: "pulumi-svc",
    meta: { moduleFormat: "(.*)" },
    language: {
      python: { packageName: "pulumi_svc", requires: { pulumi: ">=3.0.0,<4.0.0" }, pyproject: { enabled: true }, respectSchemaVersion: true },
      nodejs: { packageName: "@pulumi-svc/svc", dependencies: { "@pulumi/pulumi": "^3.0.0" }, respectSchemaVersion: true },
      go: { importBasePath: "github.com/pulumi-svc/pulumi-svc/sdk/go/svc", generateResourceContainerTypes: true, respectSchemaVersion: true },
    },
    config: { variables },
    provider: {
      description: "The provider of the svc package: the platform it manages, and the credentials it uses (stack configuration `svc:<key>`, or the environment variables).",
      inputProperties: variables,
    },
    resources,
    types: Object.fromEntries(Object.entries(mapper.types).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** The schema as the committed file holds it. */
const render = (schema) => JSON.stringify(schema, null, 2) + "\n";

/** The schema of the built package (dist), as `npm run schema` writes it. */
function schemaOfBuild() {
  const { kinds } = require(path.join(ROOT, "dist", "provider", "kinds"));
  const { SETTINGS, SECRET_SETTINGS } = require(path.join(ROOT, "dist", "provider", "config"));
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  return generateSchema({ kinds, settings: SETTINGS, secretSettings: SECRET_SETTINGS, version: pkg.version, description: pkg.description });
}

module.exports = { generateSchema, render, SCHEMA_PATH };

if (require.main === module) {
  const started = Date.now();
  const schema = schemaOfBuild();
  fs.mkdirSync(path.dirname(SCHEMA_PATH), { recursive: true });
  fs.writeFileSync(SCHEMA_PATH, render(schema));
  console.log(
    `${path.relative(process.cwd(), SCHEMA_PATH)}: ${Object.keys(schema.resources).length} resources, ${Object.keys(schema.types).length} types (${Date.now() - started} ms)`,
  );
}
