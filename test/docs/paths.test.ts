/**
 * Every relative file path that README.md and examples/**\/README.md name (in inline code or a link,
 * outside code blocks) is in the package as `npm pack` packs it, resolved against the document's
 * folder or the package root (`node_modules/pulumi-svc/...` is the package root of an install). A
 * path the package does not ship passes only where the same paragraph (table row, list item) says
 * it is in the repository, and then it must be in the repository.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

/** Paths the docs name that the emulator creates at run time; they are not files of the package. */
const RUNTIME_PATHS = new Set([".svc-emulator/state.json"]);

const FILE_EXTENSIONS = /\.(ts|js|mjs|cjs|json|ya?ml|md|sh|txt)$/;

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
