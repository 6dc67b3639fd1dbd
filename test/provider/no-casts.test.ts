/**
 * The provider is typed from the API contract without casts that silence the compiler: no `as never`
 * and no `as unknown as` in src/provider. A site that truly needs one goes on the allow-list below,
 * with the reason.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.join(__dirname, "..", "..");
const PROVIDER = path.join(ROOT, "src", "provider");
const CAST = /\bas\s+never\b|\bas\s+unknown\s+as\b/;

/** `file:line` (relative to the repository, `/` separated) → why the cast is needed. None today. */
const ALLOWED: Record<string, string> = {};

/** Every TypeScript file under `dir`. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith(".ts") ? [full] : [];
  });
}

/** `file:line: text` of every cast in the given files. */
export function castsIn(files: string[]): string[] {
  return files.flatMap((file) =>
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .flatMap((text, i) => (CAST.test(text) ? [`${path.relative(ROOT, file).split(path.sep).join("/")}:${i + 1}: ${text.trim()}`] : [])),
  );
}

test("src/provider has no `as never` and no `as unknown as` outside the allow-list", () => {
  const files = sources(PROVIDER);
  expect(files.length).toBeGreaterThan(20);
  const found = castsIn(files);
  const at = (entry: string) => entry.split(": ")[0];
  expect(found.filter((f) => !(at(f) in ALLOWED))).toEqual([]);
  // An allowed site that no longer holds a cast leaves the list.
  expect(Object.keys(ALLOWED).filter((site) => !found.some((f) => at(f) === site))).toEqual([]);
});

test("the check finds both forms of cast, with file and line", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "casts-"));
  try {
    const file = path.join(dir, "sample.ts");
    fs.writeFileSync(file, ["const a = 1;", "const b = a as never;", "const c = (a as unknown as string).length;", "const d = a as number;"].join("\n"));
    const rel = path.relative(ROOT, file).split(path.sep).join("/");
    expect(castsIn([file])).toEqual([`${rel}:2: const b = a as never;`, `${rel}:3: const c = (a as unknown as string).length;`]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
