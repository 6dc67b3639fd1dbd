/**
 * An app version's manifest given as a file: read where the program runs (the resource class reads it
 * before registering), and `loadManifest`, its public form for programs.
 */
import fs from "node:fs";
import path from "node:path";
import type * as Yaml from "yaml";
import { SvcError } from "../../errors";

/** A YAML mapping, as read. */
export type Json = Record<string, unknown>;

/** The key of the value a manifest file that could not be used is replaced with; check reports it. */
export const UNUSABLE_MANIFEST = "__unusableManifest";

/** The YAML parser, loaded at the first manifest file: the provider host loads this module with every kind, and most programs have none. */
let yaml: typeof Yaml | undefined;
function parseYaml(text: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  yaml ??= require("yaml") as typeof Yaml;
  return yaml.parse(text);
}

/**
 * Reads a manifest YAML file, relative paths against `cwd` (the program's working directory): the
 * mapping it holds, or why it cannot be used (naming the path given, the directory and the file).
 */
export function readManifestFile(file: string, cwd = process.cwd()): { manifest: Json } | { problem: string } {
  const resolved = path.resolve(cwd, file);
  const where = path.isAbsolute(file) ? `manifest file '${file}'` : `manifest file '${file}' (relative to the program's working directory ${cwd}: ${resolved})`;
  let text: string;
  try {
    text = fs.readFileSync(resolved, "utf8");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === "ENOENT" ? "no such file" : err.code === "EISDIR" ? "it is a directory" : err.code === "EACCES" ? "permission denied" : err.message;
    return { problem: `cannot read the ${where}: ${why}${err.code && !why.includes(err.code) ? ` (${err.code})` : ""}` };
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    return { problem: `the ${where} is not valid YAML: ${(e as Error).message.split("\n")[0]}` };
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) {
    const holds = doc === null || doc === undefined ? "nothing" : Array.isArray(doc) ? "a list" : `a ${typeof doc}`;
    return { problem: `the ${where} must hold a YAML mapping (the app manifest); it holds ${holds}` };
  }
  return { manifest: doc as Json };
}

/** Reads a manifest YAML file (relative paths against the working directory); throws when it cannot be used. */
export function loadManifest(file: string): Json {
  const read = readManifestFile(file);
  if ("problem" in read) throw new SvcError("SVC_MANIFEST_UNUSABLE", `AppVersion: ${read.problem}`);
  return read.manifest;
}
