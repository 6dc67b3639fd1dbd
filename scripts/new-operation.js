#!/usr/bin/env node
/**
 * Scaffolds one operation of an existing area: its row in the endpoint table, a handler that answers
 * 501 until it is written, and a test file whose tests fail, each saying what to fill in.
 *
 *   npm run new:operation -- <area> <operation> <GET|POST> <path> [<permission>] [options]
 *
 *   area        the table's name of the area (`bridges`, `legacyWorkloads`; `legacy-workloads` too)
 *   operation   the row's key, which becomes its id (`<area>.<operation>`) and the client's method
 *   path        as the spec writes it, relative to /api/v4, with `{param}` placeholders
 *   permission  the spec's permission (`bridge.update`; `none` for an open operation). Taken from the
 *               spec when the spec has the operation (and then a different one is refused).
 *   --effect E  read, create, update, delete or action: what the operation does (a GET is a read;
 *               a POST must say, as it decides whether a client may repeat it after a lost answer)
 *   --summary S the row's one-line summary
 *   --status N  the success status (else the spec's, else 201 for a create and 200 otherwise)
 *   --body X    the body schema, a constant of the area's file (else the one the spec names, if declared)
 *   --answers X the success body schema, likewise
 *
 * The spec is read as moto reads botocore's service definitions: the operation's row in the spec's
 * tables (platform-api-part-{1,2}.md in ../shared/spec, or SVC_SPEC_DIR) gives its permission, the
 * part it belongs to, its success status, its errors and the names of its body and answer types. An
 * operation the spec's tables lack is declared from the facts file (`source: "facts"`).
 *
 * Writes src/api/<area>.ts (the row), src/emulator/areas/<area>/routes.ts (the handler) and
 * test/emulator/<area>-<operation>.test.ts, then formats them with Prettier.
 */
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const ts = require("typescript");
const { DEFAULT_SPEC_DIR, SPEC_FILES, specPresent } = require("./extract-spec-rows");

const ROOT = path.join(__dirname, "..");
const EFFECTS = ["read", "create", "update", "delete", "action"];
const USAGE = "usage: npm run new:operation -- <area> <operation> <GET|POST> <path> [<permission>|none] [--effect E] [--summary S] [--status N] [--body X] [--answers X]";

const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
const rel = (file) => path.relative(ROOT, file);

/** A refusal of the command line: printed without a stack, exit status 2. */
class UsageError extends Error {}

// ---- the command line -----------------------------------------------------------------------------

const OPTIONS = ["effect", "summary", "status", "body", "answers"];

/** The positional arguments and the options of argv. */
function parseArgs(argv) {
  const positional = [];
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const [key, inline] = a.slice(2).split(/=(.*)/s);
    if (!OPTIONS.includes(key)) throw new UsageError(`unknown option --${key}\n${USAGE}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${key} needs a value\n${USAGE}`);
    options[key] = value;
  }
  if (positional.length < 4 || positional.length > 5) throw new UsageError(USAGE);
  const [areaArg, key, method, opPath, permission] = positional;
  return { areaArg, key, method: method.toUpperCase(), path: opPath, permission, ...options };
}

/** The request as the command line gives it, checked for form. */
function checkForm(req) {
  if (!/^[a-z][A-Za-z0-9]*$/.test(req.key)) throw new UsageError(`operation '${req.key}': a camelCase key (it becomes the client's method), e.g. restart or assetsList`);
  if (req.method !== "GET" && req.method !== "POST") throw new UsageError(`method '${req.method}': GET or POST (the API has no other)`);
  if (!/^\/[a-z0-9/_{}.-]+$/.test(req.path) || /\{(?![a-z_]+\})/.test(req.path)) {
    throw new UsageError(`path '${req.path}': relative to /api/v4, as the spec writes it (/bridges/{bridge_name}/restart)`);
  }
  if (req.permission && req.permission !== "none" && !/^(svc\.permission\.)?[a-z_]+\.[a-z_]+$/.test(req.permission)) {
    throw new UsageError(`permission '${req.permission}': as the spec writes it (bridge.update), or none`);
  }
  if (req.effect && !EFFECTS.includes(req.effect)) throw new UsageError(`--effect ${req.effect}: one of ${EFFECTS.join(", ")}`);
  if (req.method === "GET" && req.effect && req.effect !== "read") throw new UsageError(`a GET is a read (--effect ${req.effect})`);
  if (req.method === "POST" && !req.effect) {
    throw new UsageError(`a POST says what it does: --effect ${EFFECTS.filter((e) => e !== "read").join("|")} (read too, for a POST that changes nothing)`);
  }
  if (req.status && !/^[1-5]\d\d$/.test(req.status)) throw new UsageError(`--status ${req.status}: an HTTP status`);
}

// ---- the spec -------------------------------------------------------------------------------------

/** The spec's rows as the repository keeps them (method, path, permission, document). */
const keptRows = () => JSON.parse(fs.readFileSync(path.join(ROOT, "test/api/spec-operations.json"), "utf8")).rows;

/**
 * The operation's row in the spec's tables, by column name (Method, Path, Input, Success or Result,
 * Errors, Permission), with its document and section; undefined when the spec lacks it. Read from the
 * spec documents when they are there, else from the rows the repository keeps (permission only).
 */
function specRow(method, opPath) {
  const dir = path.resolve(process.env.SVC_SPEC_DIR ?? DEFAULT_SPEC_DIR);
  if (!specPresent(dir)) {
    const r = keptRows().find((x) => x.method === method && x.path === opPath);
    return r && { Permission: r.permission ?? "none required", file: r.file, section: undefined, line: undefined };
  }
  for (const file of SPEC_FILES) {
    let section;
    let columns;
    const lines = fs.readFileSync(path.join(dir, file), "utf8").split(/\r?\n/);
    for (const [i, line] of lines.entries()) {
      if (line.startsWith("### ")) section = line.slice(4).trim();
      if (!line.startsWith("|")) continue;
      const cells = line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim());
      if (cells[0] === "Method") columns = cells;
      else if (columns && cells[0] === method && cells[1] === opPath) {
        return { ...Object.fromEntries(columns.map((c, n) => [c, cells[n]])), file, section, line: line.trim(), lineNo: i + 1 };
      }
    }
  }
  return undefined;
}

/** What the spec's row says of the operation, in the table's terms. */
function fromSpec(row) {
  if (!row) return { source: "facts" };
  const success = row.Success ?? row.Result ?? "";
  const status = /^(\d{3})\b/.exec(success)?.[1];
  const answers = /\b([A-Z][A-Za-z0-9]+)\b/.exec(success.replace(/^\d{3},?\s*/, ""))?.[1];
  const body = /^body\s+([A-Z][A-Za-z0-9]+)/.exec(row.Input ?? "")?.[1];
  const errors = row.Errors ? row.Errors.split(",").map((s) => Number(s.trim())) : undefined;
  const permission = row.Permission === "none required" ? "none" : row.Permission;
  return { source: row.file.includes("part-1") ? "part1" : "part2", permission, status, answers, body, errors };
}

// ---- reading the sources --------------------------------------------------------------------------

function parse(file) {
  return ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function walk(node, visit) {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

const propName = (p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined);
const prop = (obj, name) => obj.properties.find((p) => ts.isPropertyAssignment(p) && propName(p) === name);

/** The `area("<name>", ...)` call of an area file, with the object literal of its rows. */
function areaCall(source, name) {
  let found;
  walk(source, (n) => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "area" && n.arguments[0]?.text === name) found = n;
  });
  const rows = found?.arguments[2];
  if (!rows || !ts.isObjectLiteralExpression(rows)) return undefined;
  return { constName: found.parent.name?.text, rows };
}

/** Every `endpoint({...})` row of the table's area files, as method and path. */
function tableRoutes() {
  const out = [];
  for (const f of fs.readdirSync(path.join(ROOT, "src/api"))) {
    walk(parse(path.join(ROOT, "src/api", f)), (n) => {
      if (!ts.isCallExpression(n) || !ts.isIdentifier(n.expression) || n.expression.text !== "endpoint") return;
      const init = n.arguments[0];
      if (!init || !ts.isObjectLiteralExpression(init)) return;
      const text = (k) => prop(init, k)?.initializer.text;
      out.push({ method: text("method"), path: text("path"), file: f });
    });
  }
  return out;
}

/**
 * The params schemas of a file, each as { key: the expression of its rule }: constants named
 * `...Params` and rows' `params:` fields, written as `z.object({...})`.
 */
function paramsSchemas(source) {
  const out = [];
  const shapeOf = (init) => {
    if (!init || !ts.isCallExpression(init) || init.expression.getText(source) !== "z.object" || !ts.isObjectLiteralExpression(init.arguments[0] ?? {})) return undefined;
    return Object.fromEntries(init.arguments[0].properties.filter(ts.isPropertyAssignment).map((p) => [propName(p), p.initializer.getText(source)]));
  };
  walk(source, (n) => {
    const named = ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && /params$/i.test(n.name.text);
    const field = ts.isPropertyAssignment(n) && propName(n) === "params";
    const shape = named || field ? shapeOf(n.initializer) : undefined;
    if (shape) out.push({ constName: named ? n.name.text : undefined, shape });
  });
  return out;
}

/** Whether the file declares a constant `name` (a schema the row may use). */
function declares(source, name) {
  let found = false;
  walk(source, (n) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name) found = true;
  });
  return found;
}

/**
 * The params schema for a path's values: a constant of the area's file with exactly those keys, else
 * an object whose values take their rules from another params object of the file that has the key
 * (one rule for one path value), else a non-empty string to be given its rule from the spec.
 */
function paramsSchema(source, names) {
  if (names.length === 0) return undefined;
  const schemas = paramsSchemas(source);
  const same = schemas.find((s) => s.constName && Object.keys(s.shape).length === names.length && names.every((n) => n in s.shape));
  if (same) return { text: same.constName, guessed: [] };
  const guessed = [];
  const ruleOf = (n) => {
    const found = schemas.find((s) => n in s.shape);
    if (found) return found.shape[n];
    guessed.push(n);
    return "z.string().min(1)";
  };
  return { text: `z.object({ ${names.map((n) => `${n}: ${ruleOf(n)}`).join(", ")} })`, guessed };
}

// ---- writing --------------------------------------------------------------------------------------

/** Inserts `text` at `pos` of `file`'s content. */
const insertAt = (content, pos, text) => content.slice(0, pos) + text + content.slice(pos);

/** Where to add an element to an object or array literal: after its last element (and its comma), with the comma it needs. */
function afterLast(node, text) {
  const list = node.elements ?? node.properties;
  if (list.length === 0) return { pos: node.getStart() + 1, comma: "" };
  let pos = list[list.length - 1].getEnd();
  while (/\s/.test(text[pos])) pos++;
  return text[pos] === "," ? { pos: pos + 1, comma: "" } : { pos: list[list.length - 1].getEnd(), comma: "," };
}

/**
 * `content` with `name` imported from `module`: added to the file's value import of that module, or
 * as a new import after the last one.
 */
function ensureImport(content, module, name, local = name) {
  const source = ts.createSourceFile("x.ts", content, ts.ScriptTarget.Latest, true);
  const imports = source.statements.filter(ts.isImportDeclaration);
  const from = imports.filter(
    (i) => i.moduleSpecifier.text === module && !i.importClause?.isTypeOnly && i.importClause?.namedBindings && ts.isNamedImports(i.importClause.namedBindings),
  );
  for (const i of from) {
    const bound = i.importClause.namedBindings.elements.find((e) => (e.propertyName ?? e.name).text === name && !e.isTypeOnly);
    if (bound) return { content, local: bound.name.text };
  }
  const spec = local === name ? name : `${name} as ${local}`;
  if (from.length > 0) {
    const named = from[0].importClause.namedBindings;
    const last = named.elements[named.elements.length - 1];
    return { content: insertAt(content, last.getEnd(), `, ${spec}`), local };
  }
  // A type-only import of the module becomes an import of the name and, inline, of its types.
  const typeOnly = imports.find(
    (i) => i.moduleSpecifier.text === module && i.importClause?.isTypeOnly && i.importClause.namedBindings && ts.isNamedImports(i.importClause.namedBindings),
  );
  if (typeOnly) {
    const types = typeOnly.importClause.namedBindings.elements.map((e) => `type ${e.getText(source)}`);
    const merged = `import { ${[spec, ...types].join(", ")} } from "${module}";`;
    return { content: content.slice(0, typeOnly.getStart(source)) + merged + content.slice(typeOnly.end), local };
  }
  const last = imports[imports.length - 1];
  return { content: insertAt(content, last ? last.end : 0, `\nimport { ${spec} } from "${module}";`), local };
}

/** The row's text, as the area's file writes rows. */
function rowText(op) {
  const fields = [
    `method: "${op.method}"`,
    `effect: "${op.effect}"`,
    `path: "${op.path}"`,
    op.source === "facts" ? `// Not in the spec's tables: name the facts section it comes from.\n    source: "facts"` : undefined,
    `permission: ${op.permission === "none" ? "null" : `"${op.permission.replace(/^svc\.permission\./, "")}"`}`,
    `summary: ${JSON.stringify(op.summary)}`,
    op.params && `params: ${op.params.text}`,
    op.body && `body: ${op.body}`,
    `success: { status: ${op.status}${op.answers ? `, body: ${op.answers}` : ""} }`,
    op.errors && `errors: [${op.errors.join(", ")}]`,
  ].filter(Boolean);
  return `\n  ${op.key}: endpoint({\n    ${fields.join(",\n    ")},\n  }),`;
}

/** The area's file with the row added, and the name of the area's constant. */
function withRow(file, op) {
  const source = parse(file);
  const call = areaCall(source, op.area);
  if (!call) throw new UsageError(`${rel(file)} has no area("${op.area}", ...) call to add the row to`);
  if (prop(call.rows, op.key)) throw new UsageError(`${op.area}.${op.key} is already in ${rel(file)}`);
  const { pos, comma } = afterLast(call.rows, source.text);
  const row = rowText(op);
  let content = insertAt(source.text, pos, comma + row);
  content = ensureImport(content, "./endpoint", "endpoint").content;
  if (/\bz\./.test(row)) content = ensureImport(content, "zod", "z").content;
  return { content, constName: call.constName };
}

/**
 * The area's routes with the handler added: a route of the row that answers 501 (NOT_IMPLEMENTED)
 * naming what to write, so the table's suites name the operation instead of failing to load.
 */
function withHandler(file, op, constName) {
  let content = fs.readFileSync(file, "utf8");
  const apiModule = `../../../api/${kebab(op.area)}`;
  const ep = ensureImport(content, apiModule, constName, "ep");
  content = ep.content;
  content = ensureImport(content, "../../handler", "route").content;
  const fail = ensureImport(content, "../../../api/errors", "notImplemented");
  content = fail.content;
  const source = ts.createSourceFile(file, content, ts.ScriptTarget.Latest, true);
  let routes;
  walk(source, (n) => {
    if (ts.isPropertyAssignment(n) && propName(n) === "routes" && ts.isArrayLiteralExpression(n.initializer)) routes = n.initializer;
  });
  if (!routes) throw new UsageError(`${rel(file)} has no \`routes: [...]\` to add the handler to`);
  const handler =
    `\n\n    // ${op.area}.${op.key}: to be written. Its rules go in model.ts; the answer is what the row's\n` +
    `    // success schema describes (the compiler checks it against the row).\n` +
    `    route(${ep.local}.${op.key}, () => {\n` +
    `      throw ${fail.local}("${op.area}.${op.key} has no handler yet: write it in ${rel(file)}");\n` +
    `    }),`;
  const { pos, comma } = afterLast(routes, content);
  return insertAt(content, pos, comma + handler);
}

/** What each error status means, as the spec's Errors table says (Part 1). */
const STATUS_MEANING = {
  400: "a value of the request breaks a rule; quote the rule",
  404: "a record the request names does not exist",
  406: "the operation cannot be applied in the records' state",
  409: "a conflict with the records as they are",
  412: "a precondition that no longer holds",
  424: "something the operation needs is not there yet",
  500: "an internal error the spec lists",
  501: "an operation the spec says is not implemented for the record",
};

/** The call of the operation a test starts from: its path values as placeholders, an empty body. */
function callText(op) {
  const parts = [op.params && `params: { ${op.paramNames.map((n) => `${n}: "x"`).join(", ")} }`, op.body && "body: {}"].filter(Boolean);
  return parts.length ? `emu.send(ep, { ${parts.join(", ")} })` : "emu.send(ep)";
}

/** What is left to write in the row: the parts the spec gives that the scaffold could not. */
function rowTodo(op) {
  return [
    op.summaryGiven ? undefined : "its summary (made up from the key)",
    op.params?.guessed.length ? `the rules of the path values ${op.params.guessed.join(", ")} (a non-empty string for now)` : undefined,
    op.bodyOf && !op.body ? `its body schema ${op.bodyOf} (the spec names it; the area's file does not declare it)` : undefined,
    !op.bodyOf && !op.body && op.method === "POST" ? "its body schema, if it takes one" : undefined,
    op.method === "GET" ? "its query schema, if it takes one" : undefined,
    op.answersOf && !op.answers ? `its answer schema ${op.answersOf} (the spec names it; the area's file does not declare it)` : undefined,
    !op.answersOf && !op.answers ? "its answer schema, if it answers a body" : undefined,
    op.effect === "create" ? "its confirm (how a client finds out whether a create whose answer was lost was applied)" : undefined,
  ].filter(Boolean);
}

const testCase = (name, body) => `\n  test(${JSON.stringify(name)}, async () => {\n${body}\n  });\n`;

/**
 * The test file: one failing test per thing to fill in. Each sends the operation (so it shows how, and
 * the message says what the emulator answers now) and fails saying what the test is to check.
 */
function testText(op, spec) {
  const id = `${op.area}.${op.key}`;
  const where = spec?.section ? `${spec.file}, "${spec.section}"` : spec ? spec.file : "the facts file";
  const answer = spec?.Success ?? spec?.Result;
  const said = [where, spec?.Input && `input: ${spec.Input}`, answer && `answer: ${answer}`].filter(Boolean).join("; ");
  const call = callText(op);
  const fill = (what) => `    const a = await ${call};\n    fillIn(a, ${JSON.stringify(what)});`;
  const todo = rowTodo(op);
  const errors = (op.errors ?? [400, 401, 403, 404]).filter((s) => s !== 401 && s !== 403);
  const cases = [
    todo.length &&
      testCase(
        `its row in src/api/${kebab(op.area)}.ts says what the spec says`,
        fill(`complete the row of ${id}: ${todo.join("; ")}; then replace this test with one of a rule the row states`),
      ),
    testCase("does what the spec says", fill(`what ${id} does (${said}), in the spec's words in this test's name: the answer, and what a read shows afterwards`)),
    ...errors.map((s) => testCase(`answers ${s} when ...`, fill(`the case in which ${id} answers ${s} (${STATUS_MEANING[s] ?? "as the spec lists it"}), and the error's message`))),
  ].filter(Boolean);
  const quoted = spec?.line
    ? ` * The spec's row (${spec.file}:${spec.lineNo}):\n *   ${spec.line}\n`
    : " * Not in the spec's tables: declared from the facts file (the row's comment names its section).\n";
  return `/**
 * ${id}: ${op.method} ${op.path}
 * As \`npm run new:operation\` scaffolded it, each test below fails until it is written: replace it
 * with a test of what the spec says, through HTTP, the rule quoted in the test's name.
${quoted} * 401 and 403 are checked for every operation by test/robustness/permissions.test.ts, and every
 * answer against the row's success schema by test/robustness/fuzz.test.ts.
 */
import { areas } from "../../src/api/endpoints";
import { useEmulator, type Answer } from "../helpers/emulator";

const emu = useEmulator();
const ep = areas.${op.area}.${op.key};

/** Fails a test that is still to be written, saying what it is to check and what the operation answers now. */
function fillIn(now: Answer, what: string): never {
  throw new Error(\`fill in: \${what} (it answers \${now.status} now)\`);
}

describe(\`\${ep.id} (\${ep.method} \${ep.path})\`, () => {${cases.join("")}});
`;
}

// ---- the command ----------------------------------------------------------------------------------

/** The operation to scaffold: the command line's request completed from the spec and the area's file. */
function resolveOperation(req) {
  const area = camel(req.areaArg);
  const apiFile = path.join(ROOT, "src/api", `${kebab(area)}.ts`);
  const routesFile = path.join(ROOT, "src/emulator/areas", kebab(area), "routes.ts");
  for (const f of [apiFile, routesFile]) if (!fs.existsSync(f)) throw new UsageError(`no area '${area}': ${rel(f)} does not exist (npm run new:area makes one)`);
  const clash = tableRoutes().find((r) => r.method === req.method && r.path === req.path);
  if (clash) throw new UsageError(`${req.method} ${req.path} is already a row of src/api/${clash.file}`);

  const specLine = specRow(req.method, req.path);
  const spec = fromSpec(specLine);
  const given = req.permission?.replace(/^svc\.permission\./, "");
  if (spec.permission && given && given !== spec.permission) throw new UsageError(`the spec gives ${req.method} ${req.path} the permission ${spec.permission}, not ${given}`);
  const permission = spec.permission ?? given;
  if (!permission) throw new UsageError(`${req.method} ${req.path} is not in the spec's tables: give its permission (from the facts file), or none`);

  const source = parse(apiFile);
  const paramNames = [...req.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
  const schema = (given, named) => {
    if (given && !declares(source, given)) throw new UsageError(`${rel(apiFile)} declares no ${given}`);
    return given ?? (named && declares(source, named) ? named : undefined);
  };
  const effect = req.effect ?? "read";
  return {
    area,
    apiFile,
    routesFile,
    testFile: path.join(ROOT, "test/emulator", `${kebab(area)}-${kebab(req.key)}.test.ts`),
    spec: specLine,
    op: {
      area,
      key: req.key,
      method: req.method,
      path: req.path,
      effect,
      source: spec.source,
      permission,
      summary: req.summary ?? `${req.key.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`).replace(/^./, (c) => c.toUpperCase())} (${area})`,
      summaryGiven: req.summary !== undefined,
      paramNames,
      params: paramsSchema(source, paramNames),
      body: schema(req.body, spec.body),
      bodyOf: spec.body,
      answers: schema(req.answers, spec.answers),
      answersOf: spec.answers,
      status: Number(req.status ?? spec.status ?? (effect === "create" ? 201 : 200)),
      errors: spec.errors,
    },
  };
}

/** Whether the repository's copy of the spec's rows (test/api/spec-operations.json) has the operation. */
function keptRow(op) {
  return keptRows().some((r) => r.method === op.method && r.path === op.path);
}

function main(argv) {
  const req = parseArgs(argv);
  checkForm(req);
  const plan = resolveOperation(req);
  if (fs.existsSync(plan.testFile)) throw new UsageError(`${rel(plan.testFile)} exists already`);
  // Everything is made before anything is written: a refusal leaves the sources as they were.
  const row = withRow(plan.apiFile, plan.op);
  const handler = withHandler(plan.routesFile, plan.op, row.constName);
  fs.mkdirSync(path.dirname(plan.testFile), { recursive: true });
  fs.writeFileSync(plan.apiFile, row.content);
  fs.writeFileSync(plan.routesFile, handler);
  fs.writeFileSync(plan.testFile, testText(plan.op, plan.spec));
  const written = [plan.apiFile, plan.routesFile, plan.testFile].map(rel);
  const fmt = spawnSync(process.execPath, [require.resolve("prettier/bin/prettier.cjs"), "--write", "--log-level", "warn", ...written], { cwd: ROOT, encoding: "utf8" });
  if (fmt.status !== 0) process.stderr.write(`prettier could not format what was written:\n${fmt.stderr}`);
  const id = `${plan.op.area}.${plan.op.key}`;
  const from = plan.spec ? `from ${plan.spec.file}${plan.spec.section ? ` ("${plan.spec.section}")` : ""}` : 'not in the spec\'s tables: declared with source "facts"';
  process.stdout.write(
    [
      `${id}: ${plan.op.method} ${plan.op.path}, ${plan.op.permission}, ${plan.op.effect} (${from})`,
      ...written.map((f) => `  wrote ${f}`),
      "next:",
      `  1. complete the row in ${written[0]} (its summary, schemas and errors as the spec writes them)`,
      `  2. write the handler in ${written[1]} (its rules in model.ts)`,
      `  3. replace each test of ${written[2]} (each fails with "fill in: ..." until then)`,
      "  4. npm run build && npm run openapi; then the type-check and the table's suites (spec coverage, fuzz, permissions) name anything still missing",
      ...(plan.spec?.line && !keptRow(plan.op) ? ["  5. npm run spec:rows: test/api/spec-operations.json lacks this row of the spec"] : []),
      "",
    ].join("\n"),
  );
}

/** Runs a scaffold's `main` as the npm script `name`: a usage error is one line on stderr and exit code 2. */
function runAsCommand(name, run) {
  try {
    run(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${name}: ${e.message}\n`);
    process.exitCode = 2;
  }
}

if (require.main === module) runAsCommand("new:operation", main);

/** What new-area.js shares: reading and editing the sources the same way. */
module.exports = { main, runAsCommand, UsageError, ROOT, kebab, camel, rel, parse, walk, prop, afterLast, insertAt, ensureImport };
