/**
 * A Pulumi TypeScript program folder as a kit Program, for `svc-emulator adopt-plan`: each run
 * evaluates the program's files afresh (a Pulumi program declares its resources when its modules
 * load), transpiled with the TypeScript compiler the program's project installs. Packages the program
 * imports (pulumi-svc, @pulumi/pulumi) are required as usual, so they are the instances the kit uses
 * when the command runs from the program's own install.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type * as TypeScript from "typescript";
import { SvcError } from "../errors";

type Transpile = (source: string, fileName: string) => string;

function typescriptOf(dir: string): Transpile {
  let ts: typeof TypeScript;
  try {
    ts = createRequire(path.join(dir, "package.json"))("typescript") as typeof TypeScript;
  } catch (e) {
    throw new SvcError("SVC_TYPESCRIPT_MISSING", `${dir}: the program's project has no TypeScript compiler (install it there: npm install --save-dev typescript)`, { cause: e });
  }
  return (source, fileName) =>
    ts.transpileModule(source, { fileName, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true } }).outputText;
}

/** The program in `dir` (its package.json `main`, else index.ts) as a function that runs it afresh. */
export function loadTypeScriptProgram(dir: string): () => void {
  const root = path.resolve(dir);
  const pkgFile = path.join(root, "package.json");
  const main = existsSync(pkgFile) ? ((JSON.parse(readFileSync(pkgFile, "utf8")) as { main?: string }).main ?? "index.ts") : "index.ts";
  const entry = path.resolve(root, main);
  if (!existsSync(entry)) throw new SvcError("SVC_PROGRAM_MAIN_MISSING", `${dir}: no program entry ${main} (package.json "main", default index.ts)`);
  const transpile = typescriptOf(root);
  return () => {
    const loaded = new Map<string, { exports: unknown }>();
    const load = (file: string): unknown => {
      const known = loaded.get(file);
      if (known) return known.exports;
      const mod = { exports: {} as unknown };
      loaded.set(file, mod);
      const outside = createRequire(file);
      const local = (id: string) => {
        if (!id.startsWith(".")) return outside(id);
        const base = path.resolve(path.dirname(file), id);
        const ts = [`${base}.ts`, path.join(base, "index.ts")].find(existsSync);
        return ts ? load(ts) : outside(id);
      };
      const js = transpile(readFileSync(file, "utf8"), file);
      new Function("exports", "require", "module", "__filename", "__dirname", js)(mod.exports, local, mod, file, path.dirname(file));
      return mod.exports;
    };
    load(entry);
  };
}
