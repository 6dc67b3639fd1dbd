/**
 * Nested args are typed from the API contract for users: a program compiled against the installed
 * package (its built `.d.ts`, as `pulumi-svc` resolves) accepts valid `runtime`, `manifest`, `defaults`
 * and `schemas` values, and refuses a mistake inside them at compile time, not at preview. Were one
 * of them typed `Record<string, unknown>` again, the mistakes would compile and this test fails.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { ENTRY } from "./dts";

const FIXTURE = path.join(__dirname, "fixtures", "typed-args.ts");
const DIRECTIVE = /^(\s*)\/\/ @ts-expect-error (.+)$/;

/** The compiler's errors on `source` (as FIXTURE), compiled as a user's program: line (1-based) and message. */
function compile(source: string): Array<{ line: number; message: string }> {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (file) => (path.resolve(file) === FIXTURE ? source : read(file));
  const getSource = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, onError) => (path.resolve(file) === FIXTURE ? ts.createSourceFile(file, source, language) : getSource(file, language, onError));
  const program = ts.createProgram([FIXTURE], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ({
    line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
    message: `${d.file ? path.basename(d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
  }));
}

const text = fs.readFileSync(FIXTURE, "utf8");
/** Each mistake: the line after its directive, and the text its error must name. */
const mistakes = text
  .split("\n")
  .map((l, i) => ({ line: i + 2, names: DIRECTIVE.exec(l)?.[2] }))
  .filter((m): m is { line: number; names: string } => m.names !== undefined);

beforeAll(() => {
  if (!fs.existsSync(ENTRY)) throw new Error(`${ENTRY} does not exist: run \`npm run build && node scripts/link-self.js\` first`);
});

test("the program compiles: every valid nested value is accepted, and every marked mistake is refused", () => {
  // An unused @ts-expect-error (TS2578) is an error too: a mistake the types no longer catch.
  expect(compile(text)).toEqual([]);
  expect(mistakes.length).toBeGreaterThanOrEqual(13);
});

test("each mistake inside runtime, manifest, defaults and schemas is an error on its own line, naming it", () => {
  const bare = text
    .split("\n")
    .map((l) => l.replace(DIRECTIVE, "$1//"))
    .join("\n");
  const errors = compile(bare);
  const unmatched = mistakes.filter((m) => !errors.some((e) => e.line === m.line && e.message.includes(m.names)));
  expect(unmatched.map((m) => `line ${m.line}: no error naming ${m.names}; errors: ${JSON.stringify(errors.filter((e) => e.line === m.line))}`)).toEqual([]);
  // Nothing else fails: the valid values stay valid.
  expect(errors.filter((e) => !mistakes.some((m) => m.line === e.line))).toEqual([]);
});
