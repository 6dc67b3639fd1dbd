/**
 * Nested args are typed from the API contract for users: a program compiled against the installed
 * package (its built `.d.ts`, as `pulumi-svc` resolves) accepts valid `runtime`, `manifest`, `defaults`
 * and `schemas` values, and refuses a mistake inside them at compile time, not at preview. Were one
 * of them typed `Record<string, unknown>` again, the mistakes would compile and this test fails.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { compileFixture, markedMistakes, unmetMistakes } from "../helpers/marked-errors";
import { ENTRY } from "./dts";

const FIXTURE = path.join(__dirname, "fixtures", "typed-args.ts");
/** The compiler's errors on `source` (as FIXTURE), compiled as a user's program. */
const compile = (source: string) =>
  compileFixture(FIXTURE, source, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: [],
    skipLibCheck: true,
  });

const text = fs.readFileSync(FIXTURE, "utf8");
const mistakes = markedMistakes(text);

beforeAll(() => {
  if (!fs.existsSync(ENTRY)) throw new Error(`${ENTRY} does not exist: run \`npm run build && node scripts/link-self.js\` first`);
});

// The fixture as written (each directive met) is compiled by `npm run typecheck` (tsconfig.json includes test/).
test("each mistake inside runtime, manifest, defaults and schemas is an error on its own line, naming it; the valid values compile", () => {
  expect(mistakes.length).toBeGreaterThanOrEqual(13);
  // Compiled without its directives, as a user's program: errors on the marked lines only.
  expect(unmetMistakes(text, compile)).toEqual([]);
});
