#!/usr/bin/env node
/**
 * Scaffolds an area: its file of the endpoint table with no rows yet, its folder in the emulator
 * (model.ts and routes.ts), and its lines in the two records the compiler ties together (the table's
 * `areas`, the emulator's `emulatorAreas`). Its operations then come one by one from
 * `npm run new:operation`.
 *
 *   npm run new:area -- <name> <part1|part2> [--title "..."]
 *
 *   name    the area's name in the table, camelCase (`bridges`, `legacyWorkloads`); its files are
 *           named in kebab case (src/api/legacy-workloads.ts, src/emulator/areas/legacy-workloads/)
 *   part    the spec document its operations come from (platform-api-part-1.md or -part-2.md)
 *   --title the spec's section title, for the files' doc comments (else the name)
 *
 * Writes src/api/<area>.ts, src/emulator/areas/<area>/model.ts and routes.ts, and edits
 * src/api/endpoints.ts and src/emulator/areas/index.ts; refuses, writing nothing, an area that exists.
 */
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const ts = require("typescript");
const { runAsCommand, UsageError, ROOT, kebab, rel, parse, walk, afterLast, insertAt, ensureImport } = require("./new-operation");

const USAGE = 'usage: npm run new:area -- <name> <part1|part2> [--title "..."]';

function parseArgs(argv) {
  const positional = [];
  let title;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--title") title = argv[++i];
    else if (argv[i].startsWith("--title=")) title = argv[i].slice("--title=".length);
    else if (argv[i].startsWith("--")) throw new UsageError(`unknown option ${argv[i]}\n${USAGE}`);
    else positional.push(argv[i]);
  }
  const [name, part] = positional;
  if (positional.length !== 2 || (title === undefined && argv.includes("--title"))) throw new UsageError(USAGE);
  if (!/^[a-z][A-Za-z0-9]*$/.test(name)) throw new UsageError(`name '${name}': camelCase, as the table names the area (bridges, legacyWorkloads)`);
  if (part !== "part1" && part !== "part2") throw new UsageError(`part '${part}': part1 or part2, the spec document the area's operations come from`);
  return { name, part, title: title ?? name };
}

/** The files the area adds, by path. */
function newFiles({ name, part, title }) {
  const folder = `src/emulator/areas/${kebab(name)}`;
  const doc = `spec Part ${part.slice(-1)} "${title}"`;
  return {
    [`src/api/${kebab(name)}.ts`]: `/**
 * ${title} (${doc}): the area's models and its rows of the endpoint table, one per
 * operation. \`npm run new:operation -- ${name} <operation> <GET|POST> <path>\` adds each.
 */
import { area } from "./endpoint";

export const ${name} = area("${name}", "${part}", {});
`,
    [`${folder}/model.ts`]: `/**
 * ${title}: the area's stored records and their rules, read and written through the store; no HTTP
 * (the routes turn requests into calls of this module). Design choices where the spec is silent are
 * listed here as the rules are written.
 */
export {};
`,
    [`${folder}/routes.ts`]: `/** ${title}: the area's routes and views (records and rules in model.ts). */
import type { AreaModule } from "../../handler";

export const area: AreaModule = {
  routes: [],
};
`,
  };
}

/** src/api/endpoints.ts with the area imported, in the \`Areas\` type and in \`areas\`. */
function withTableLine(content, name) {
  content = ensureImport(content, `./${kebab(name)}`, name).content;
  const source = ts.createSourceFile("endpoints.ts", content, ts.ScriptTarget.Latest, true);
  let typeLiteral;
  let record;
  walk(source, (n) => {
    if (ts.isTypeAliasDeclaration(n) && n.name.text === "Areas") walk(n.type, (t) => (typeLiteral ??= ts.isTypeLiteralNode(t) ? t : undefined));
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === "areas" && ts.isObjectLiteralExpression(n.initializer)) record = n.initializer;
  });
  if (!typeLiteral || !record) throw new UsageError("src/api/endpoints.ts has no `type Areas = AreaTable<{...}>` and `areas = {...}` to add the area to");
  // The later position first, so that the earlier one still holds.
  const recordAt = afterLast(record, content);
  content = insertAt(content, recordAt.pos, `${recordAt.comma}\n  ${name},`);
  const last = typeLiteral.members[typeLiteral.members.length - 1];
  return insertAt(content, last ? last.getEnd() : typeLiteral.getStart() + 1, `\n  readonly ${name}: typeof ${name};`);
}

/** src/emulator/areas/index.ts with the area's routes imported and in \`emulatorAreas\`. */
function withEmulatorLine(content, name) {
  content = ensureImport(content, `./${kebab(name)}/routes`, "area", name).content;
  const source = ts.createSourceFile("index.ts", content, ts.ScriptTarget.Latest, true);
  let record;
  walk(source, (n) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === "emulatorAreas" && ts.isObjectLiteralExpression(n.initializer)) record = n.initializer;
  });
  if (!record) throw new UsageError("src/emulator/areas/index.ts has no `emulatorAreas = {...}` to add the area to");
  const at = afterLast(record, content);
  return insertAt(content, at.pos, `${at.comma}\n  ${name},`);
}

function main(argv) {
  const req = parseArgs(argv);
  const files = newFiles(req);
  const tableFile = path.join(ROOT, "src/api/endpoints.ts");
  const emulatorFile = path.join(ROOT, "src/emulator/areas/index.ts");
  const taken = [...Object.keys(files), `src/emulator/areas/${kebab(req.name)}`].filter((f) => fs.existsSync(path.join(ROOT, f)));
  if (taken.length) throw new UsageError(`the area ${req.name} exists already: ${taken.join(", ")}`);
  let declared = false;
  walk(parse(tableFile), (n) => (declared ||= ts.isShorthandPropertyAssignment(n) && n.name.text === req.name));
  if (declared) throw new UsageError(`src/api/endpoints.ts has an area ${req.name} already`);

  // Everything is made before anything is written: a refusal leaves the sources as they were.
  const edits = {
    [rel(tableFile)]: withTableLine(fs.readFileSync(tableFile, "utf8"), req.name),
    [rel(emulatorFile)]: withEmulatorLine(fs.readFileSync(emulatorFile, "utf8"), req.name),
  };
  fs.mkdirSync(path.join(ROOT, "src/emulator/areas", kebab(req.name)));
  for (const [file, text] of Object.entries({ ...files, ...edits })) fs.writeFileSync(path.join(ROOT, file), text);
  const written = Object.keys({ ...files, ...edits });
  const fmt = spawnSync(process.execPath, [require.resolve("prettier/bin/prettier.cjs"), "--write", "--log-level", "warn", ...written], { cwd: ROOT, encoding: "utf8" });
  if (fmt.status !== 0) process.stderr.write(`prettier could not format what was written:\n${fmt.stderr}`);
  process.stdout.write(
    [
      `area ${req.name} (${req.part}):`,
      ...written.map((f) => `  wrote ${f}`),
      "next:",
      `  1. each operation: npm run new:operation -- ${req.name} <operation> <GET|POST> <path> [<permission>] [--effect E]`,
      `  2. its table names in src/emulator/store/tables.ts; fixtures and the snapshot reader if its records belong in a fixture`,
      "",
    ].join("\n"),
  );
}

if (require.main === module) runAsCommand("new:area", main);
