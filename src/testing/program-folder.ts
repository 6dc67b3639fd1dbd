/**
 * A program in a folder, as `pulumi new typescript` and `svc-emulator generate` write one: the
 * entry is Pulumi.yaml's `main` (a file, or a folder with its package.json `main` or index), else the
 * folder's package.json `main`, else index.ts or index.js. As the language host does, the module's
 * exports are the stack outputs, and a module that exports a function is run by calling it.
 *
 * The module is loaded afresh for every run, so that each run registers the program's resources (a
 * module cached by an earlier run registers nothing, and the run would delete everything). Under jest
 * it is loaded in an isolated module registry (jest.isolateModules), through the test's transforms
 * (ts-jest for TypeScript); jest keeps each file's source for the whole test file, so an edit of the
 * program's files within one test file is not seen there. Elsewhere the folder's modules are dropped
 * from Node's require cache first (edits are seen), and a TypeScript entry needs a TypeScript loader
 * registered in the process (ts-node/register, say).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import type { Program } from "./program";
import { SvcError } from "../errors";

/** Where a program lives, for `testing.stack({ dir })`. */
export interface ProgramFolder {
  /** The program's folder (its Pulumi.yaml or package.json decides the entry). */
  dir: string;
}

export const isProgramFolder = (p: Program | ProgramFolder): p is ProgramFolder => typeof p === "object" && p !== null && typeof p.dir === "string";

/** The folder's program, loaded afresh each time it runs. */
export function folderProgram(folder: ProgramFolder): Program {
  const dir = path.resolve(folder.dir);
  const entry = entryOf(dir);
  return () => {
    const exported = loadFresh(dir, entry);
    const run = typeof exported === "function" ? exported : isObject(exported) && typeof exported.default === "function" ? exported.default : undefined;
    return run ? (run as () => unknown)() : exported;
  };
}

function entryOf(dir: string): string {
  if (!fs.existsSync(dir)) throw new SvcError("SVC_PROGRAM_FOLDER_MISSING", `testing.stack({ dir }): the program folder ${dir} does not exist`);
  const project = path.join(dir, "Pulumi.yaml");
  const main = fs.existsSync(project) ? (parse(fs.readFileSync(project, "utf8")) as { main?: unknown } | null)?.main : undefined;
  const target = typeof main === "string" ? path.resolve(dir, main) : dir;
  const found = fs.existsSync(target) && fs.statSync(target).isFile() ? target : moduleIn(target);
  if (!found) {
    throw new SvcError(
      "SVC_PROGRAM_ENTRY_MISSING",
      `testing.stack({ dir }): no program entry in ${target} (looked for ${typeof main === "string" ? "Pulumi.yaml's main, then " : ""}package.json's main, index.ts and index.js)`,
    );
  }
  return found;
}

function moduleIn(folder: string): string | undefined {
  const pkg = path.join(folder, "package.json");
  const main = fs.existsSync(pkg) ? (JSON.parse(fs.readFileSync(pkg, "utf8")) as { main?: unknown }).main : undefined;
  const candidates = [...(typeof main === "string" ? [path.resolve(folder, main)] : []), path.join(folder, "index.ts"), path.join(folder, "index.js")];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

declare const jest: { isolateModules(fn: () => void): void } | undefined;

function loadFresh(dir: string, entry: string): unknown {
  let exported: unknown;
  if (typeof jest !== "undefined" && typeof jest.isolateModules === "function") {
    jest.isolateModules(() => {
      exported = require(entry);
    });
    return exported;
  }
  const own = `${dir}${path.sep}`;
  for (const key of Object.keys(require.cache)) if (key.startsWith(own) && !key.slice(own.length).split(path.sep).includes("node_modules")) delete require.cache[key];
  return require(entry);
}

const isObject = (v: unknown): v is { default?: unknown } => typeof v === "object" && v !== null;
