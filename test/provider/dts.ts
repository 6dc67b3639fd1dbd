/**
 * Reads the public declarations of the package as a user's editor sees them: the entry point's
 * `.d.ts` (what it declares and re-exports), walked with the TypeScript compiler API.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface DocItem {
  /** `class`, `arg`, `output`, `function`, `property` (of an exported interface) or `nested` (a property inside an arg's value). */
  what: "class" | "arg" | "output" | "function" | "property" | "nested";
  /** e.g. `Workload`, `WorkloadArgs.appVersion`, `Workload.statusMessage`, `WorkloadArgs.runtime.resources[].resource`. */
  name: string;
  doc: string;
}

export interface PublicClass {
  name: string;
  doc: string;
  /** The constructor's args type: property → doc. */
  args: Record<string, string>;
  /** The args a program may leave out. */
  optionalArgs: string[];
  /** Readable properties the class adds to pulumi.CustomResource (its own and merged interfaces'): property → doc. */
  properties: Record<string, string>;
  /** Readable property → its type as the checker prints it. */
  propertyTypes: Record<string, string>;
}

export interface PublicApi {
  classes: PublicClass[];
  items: DocItem[];
}

const ROOT = path.join(__dirname, "..", "..");
export const ENTRY = path.join(ROOT, "dist", "index.d.ts");

/** The public API declared by `entry` (default: the built dist/index.d.ts). */
export function readPublicApi(entry = ENTRY): PublicApi {
  if (!fs.existsSync(entry)) throw new Error(`${entry} does not exist: run \`npm run build\` first`);
  const program = ts.createProgram([entry], { strict: true, skipLibCheck: true, types: [], moduleResolution: ts.ModuleResolutionKind.Node10 });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry)!;
  const moduleSymbol = checker.getSymbolAtLocation(source)!;
  const docOf = (s: ts.Symbol) => ts.displayPartsToString(s.getDocumentationComment(checker)).trim();
  // Declared in this package (dist or src), not inherited from @pulumi/pulumi.
  const ours = (s: ts.Symbol) => (s.declarations ?? []).some((d) => !d.getSourceFile().fileName.includes("node_modules"));

  /**
   * The properties inside an arg's value, as a program writes them: through `pulumi.Input` (whose
   * Promise and Output members are not ours), arrays (`[]`) and nested objects; free-form records
   * (index signatures only) have none. Each property once, by its path.
   */
  const nestedOf = (type: ts.Type, path: string, out: Map<string, string>, within: Set<ts.Type>): void => {
    // A type met again inside itself (a recursive type) is not walked twice.
    if (within.has(type)) return;
    within.add(type);
    if (type.isUnion() || type.isIntersection()) {
      for (const t of type.types) nestedOf(t, path, out, within);
    } else if (checker.isArrayType(type)) {
      nestedOf(checker.getTypeArguments(type as ts.TypeReference)[0], `${path}[]`, out, within);
    } else if (type.flags & ts.TypeFlags.Object && type.getCallSignatures().length === 0) {
      const symbol = type.getSymbol() ?? type.aliasSymbol;
      if (!symbol || ours(symbol)) {
        for (const p of checker.getPropertiesOfType(type)) {
          if (!ours(p)) continue;
          const at = `${path}.${p.name}`;
          if (!out.has(at) || out.get(at) === "") out.set(at, docOf(p));
          nestedOf(checker.getTypeOfSymbolAtLocation(p, source), at, out, within);
        }
      }
    }
    within.delete(type);
  };

  const classes: PublicClass[] = [];
  const items: DocItem[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const name = exported.name;
    if (symbol.flags & ts.SymbolFlags.Class) {
      const instance = checker.getDeclaredTypeOfSymbol(symbol);
      const ctorType = checker.getTypeOfSymbolAtLocation(symbol, source);
      const ctor = ctorType.getConstructSignatures()[0];
      const argsParam = ctor?.getParameters()[1];
      const args: Record<string, string> = {};
      const optionalArgs: string[] = [];
      const nested = new Map<string, string>();
      if (argsParam) {
        const argsType = checker.getTypeOfSymbolAtLocation(argsParam, source);
        for (const p of checker.getPropertiesOfType(argsType)) {
          args[p.name] = docOf(p);
          if (p.flags & ts.SymbolFlags.Optional) optionalArgs.push(p.name);
          nestedOf(checker.getTypeOfSymbolAtLocation(p, source), `${name}Args.${p.name}`, nested, new Set());
        }
      }
      const properties: Record<string, string> = {};
      const propertyTypes: Record<string, string> = {};
      for (const p of checker.getPropertiesOfType(instance)) {
        if (!ours(p) || p.flags & ts.SymbolFlags.Method) continue;
        properties[p.name] = docOf(p);
        propertyTypes[p.name] = checker.typeToString(checker.getTypeOfSymbolAtLocation(p, source));
      }
      const cls = { name, doc: docOf(symbol), args, optionalArgs, properties, propertyTypes };
      classes.push(cls);
      items.push({ what: "class", name, doc: cls.doc });
      for (const [k, doc] of Object.entries(args)) items.push({ what: "arg", name: `${name}Args.${k}`, doc });
      for (const [at, doc] of nested) items.push({ what: "nested", name: at, doc });
      for (const [k, doc] of Object.entries(properties)) items.push({ what: "output", name: `${name}.${k}`, doc });
    } else if (symbol.flags & ts.SymbolFlags.Function) {
      items.push({ what: "function", name, doc: docOf(symbol) });
    } else if (symbol.flags & ts.SymbolFlags.Interface && !name.endsWith("Args")) {
      // Interfaces other than a class's args (which are counted with the class): e.g. AssetFilter.
      for (const p of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) items.push({ what: "property", name: `${name}.${p.name}`, doc: docOf(p) });
    }
  }
  return { classes, items };
}

/** Documented / total per kind of item. */
export function coverage(items: DocItem[]): Record<DocItem["what"] | "all", string> {
  const count = (list: DocItem[]) => `${list.filter((i) => i.doc !== "").length}/${list.length}`;
  const by = (w: DocItem["what"]) => count(items.filter((i) => i.what === w));
  return { class: by("class"), arg: by("arg"), output: by("output"), function: by("function"), property: by("property"), nested: by("nested"), all: count(items) };
}

if (require.main === module) {
  // `npx ts-node test/provider/dts.ts [entry]`: prints the coverage and the undocumented items.
  const api = readPublicApi(process.argv[2] ? path.resolve(process.argv[2]) : ENTRY);
  console.log(JSON.stringify(coverage(api.items)));
  for (const i of api.items.filter((i) => i.doc === "")) console.log(`undocumented ${i.what} ${i.name}`);
}
