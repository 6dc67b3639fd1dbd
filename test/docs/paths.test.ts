/**
 * Every relative file path that README.md and examples/**\/README.md name (in inline code or a link,
 * outside code blocks) is in the package as `npm pack` packs it, resolved against the document's
 * folder or the package root (`node_modules/pulumi-svc/...` is the package root of an install). A
 * path the package does not ship passes only where the same paragraph (table row, list item) says
 * it is in the repository, and then it must be in the repository.
 *
 * docs/architecture.md is the maintainers' page of the repository: each path it names is in the
 * repository, from the root, from src/ (as the layer map writes them: `emulator/stages.ts`) or, for a
 * bare file name (`lifecycle.ts`), somewhere under src/, scripts/ or test/. Each command it and
 * README.md name is there too: `npm run <script>` a script of package.json, `node <file>` and
 * `npx jest <path>` a file or folder of the repository.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

/** Paths the docs name that the emulator creates at run time; they are not files of the package. */
const RUNTIME_PATHS = new Set([".svc-emulator/state.json"]);

const FILE_EXTENSIONS = /\.(ts|js|mjs|cjs|json|ya?ml|md|sh|txt)$/;

/** The maintainers' page, whose paths are the repository's. */
const ARCHITECTURE = "docs/architecture.md";

interface Mention {
  doc: string;
  line: number;
  path: string;
  /** The paragraph, table row or list item it stands in says "repository". */
  repositoryAllowed: boolean;
}

/** The documentation files: README.md and every README.md under examples/. */
function docs(): string[] {
  const out = ["README.md"];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const rel = posix.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name === "README.md") out.push(rel);
    }
  };
  walk("examples");
  return out;
}

/** Paragraphs, table rows and list items outside fenced code, each with its first line number. */
function units(markdown: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  let current: { line: number; lines: string[] } | undefined;
  let fenced = false;
  const flush = () => {
    if (current) out.push({ line: current.line, text: current.lines.join("\n") });
    current = undefined;
  };
  markdown.split("\n").forEach((raw, i) => {
    const line = raw.trimStart();
    if (line.startsWith("```")) {
      flush();
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    if (line === "" || line.startsWith("|") || line.startsWith("- ") || line.startsWith("#")) flush();
    if (line === "") return;
    if (!current) current = { line: i + 1, lines: [] };
    current.lines.push(line);
    if (line.startsWith("|") || line.startsWith("#")) flush();
  });
  flush();
  return out;
}

/** Whether an inline code span or link target reads as a relative file path. */
function looksLikePath(s: string): boolean {
  if (/\s|:|#|\*|<|>|\{|\$|FILE/.test(s) || s.startsWith("/") || s.startsWith("-") || s.startsWith("@")) return false;
  if (s.startsWith("pulumi-svc/")) return false; // a package specifier (`pulumi-svc/client`)
  return s.includes("/") ? /^[\w.@-]+(\/[\w.@-]+)*\/?$/.test(s) : FILE_EXTENSIONS.test(s);
}

function mentions(doc: string, markdown: string): Mention[] {
  const out: Mention[] = [];
  for (const unit of units(markdown)) {
    const spans = [...unit.text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
    const links = [...unit.text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
    for (const path of [...spans, ...links]) {
      if (!looksLikePath(path) || RUNTIME_PATHS.has(path)) continue;
      out.push({ doc, line: unit.line, path, repositoryAllowed: /\brepository\b/i.test(unit.text) });
    }
  }
  return out;
}

/** The files `npm pack` puts in the package. */
function packedFiles(): Set<string> {
  const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(`npm pack --dry-run failed: ${r.stderr}`);
  const [pack] = JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>;
  return new Set(pack.files.map((f) => f.path));
}

/** The repository's files (tracked, or new and not ignored); the work tree when git is not there. */
function repositoryHas(): (path: string) => boolean {
  const r = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) return (p) => existsSync(join(ROOT, p));
  const files = new Set(r.stdout.split("\n").filter(Boolean));
  return (p) => files.has(p) || [...files].some((f) => f.startsWith(p.endsWith("/") ? p : `${p}/`));
}

/** Where a mention may point: beside its document, or at the package root. */
function candidates(doc: string, path: string): string[] {
  const rooted = path.replace(/^(\.\/)?node_modules\/pulumi-svc\//, "");
  return [...new Set([posix.normalize(posix.join(posix.dirname(doc), rooted)), posix.normalize(rooted)])].filter((p) => !p.startsWith(".."));
}

/** Where a path the maintainers' page names may be: from the root, from src/, or a bare name anywhere in the sources. */
function inRepositoryFromDocs(has: (p: string) => boolean, files: readonly string[], path: string): boolean {
  if (has(path) || has(posix.join("src", path))) return true;
  return !path.includes("/") && files.some((f) => /^(src|scripts|test)\//.test(f) && posix.basename(f) === path);
}

/** The commands a document names, inline or in code blocks: `npm run X`, `node FILE`, `npx jest PATH`. */
function commands(markdown: string): Array<{ line: number; kind: "script" | "file"; name: string }> {
  const out: Array<{ line: number; kind: "script" | "file"; name: string }> = [];
  markdown.split("\n").forEach((text, i) => {
    for (const m of text.matchAll(/\bnpm run (?:--silent )?([a-z][\w:-]*)/g)) out.push({ line: i + 1, kind: "script", name: m[1] });
    for (const m of text.matchAll(/(?:^|[\s`(])(?:node|npx jest) ((?:scripts|bench|test|src)\/[\w./-]*)/g)) out.push({ line: i + 1, kind: "file", name: m[1] });
  });
  return out;
}

describe("file paths named in README.md and examples/**/README.md", () => {
  test("the path finder picks paths and leaves URLs, API paths, config keys, placeholders and package names alone", () => {
    const md = [
      "Run `examples/quickstart/` with `Pulumi.yaml` and [the plant](examples/fixtures/plant.yaml);",
      "not `/api/v4/openapi.json`, `svc:emulator`, `FILE.yaml`, `pulumi-svc/client`, `asset.read`, `https://x.io/a.md`.",
      "",
      "```sh",
      "cat inside/a/code/block.ts",
      "```",
      "| `test/a.test.ts` | in the repository |",
      "| `src/b.ts` | shipped |",
    ].join("\n");
    expect(mentions("README.md", md).map((m) => [m.path, m.repositoryAllowed])).toEqual([
      ["examples/quickstart/", false],
      ["Pulumi.yaml", false],
      ["examples/fixtures/plant.yaml", false],
      ["test/a.test.ts", true],
      ["src/b.ts", false],
    ]);
  });

  test("each is in the package as packed, or in the repository where the text says so", () => {
    const packed = packedFiles();
    const inPackage = (p: string) => packed.has(p) || [...packed].some((f) => f.startsWith(p.endsWith("/") ? p : `${p}/`));
    const inRepository = repositoryHas();
    const all = docs().flatMap((doc) => mentions(doc, readFileSync(join(ROOT, doc), "utf8")));
    expect(all.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const m of all) {
      const where = candidates(m.doc, m.path);
      if (where.some(inPackage)) continue;
      if (m.repositoryAllowed && where.some(inRepository)) continue;
      problems.push(
        `${m.doc}:${m.line}: \`${m.path}\` is not in the package (npm pack)` +
          (m.repositoryAllowed ? " nor in the repository" : "; if it is a repository file, say so in the same paragraph"),
      );
    }
    expect(problems).toEqual([]);
  });
});

describe(`${ARCHITECTURE} and the commands of the docs`, () => {
  const trackedFiles = (): string[] => {
    const r = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    return r.stdout.split("\n").filter(Boolean);
  };

  test("the command finder picks npm scripts and the files node and jest run", () => {
    const md = [
      "Run `npm run openapi`, then `npx jest test/api/openapi.test.ts`;",
      "```sh",
      "npm run --silent pulumi:path && node scripts/pulumi-cli.js",
      "```",
      "not `npm install` or `node --version`.",
    ].join("\n");
    expect(commands(md).map((c) => `${c.kind} ${c.name}`)).toEqual(["script openapi", "file test/api/openapi.test.ts", "script pulumi:path", "file scripts/pulumi-cli.js"]);
  });

  test(`each path ${ARCHITECTURE} names is in the repository`, () => {
    const files = trackedFiles();
    const has = repositoryHas();
    const found = mentions(ARCHITECTURE, readFileSync(join(ROOT, ARCHITECTURE), "utf8"));
    expect(found.length).toBeGreaterThan(30);
    const missing = found.filter((m) => !inRepositoryFromDocs(has, files, m.path)).map((m) => `${ARCHITECTURE}:${m.line}: \`${m.path}\``);
    expect(missing).toEqual([]);
  });

  test(`each command README.md and ${ARCHITECTURE} name exists: an npm script of package.json, a file of the repository`, () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    const has = repositoryHas();
    const problems = ["README.md", ARCHITECTURE].flatMap((doc) =>
      commands(readFileSync(join(ROOT, doc), "utf8"))
        .filter((c) => (c.kind === "script" ? !(c.name in scripts) : !has(c.name.replace(/\/$/, ""))))
        .map((c) => `${doc}:${c.line}: ${c.kind === "script" ? `npm run ${c.name}: no such script in package.json` : `${c.name}: not in the repository`}`),
    );
    expect(problems).toEqual([]);
  });
});
