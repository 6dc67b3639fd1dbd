/**
 * The error catalog (src/errors/) is whole and documented, as fastify's test of lib/errors.js keeps
 * its errors: the committed docs/errors.md is the page the catalog gives; every code the sources
 * raise is in the catalog and on the page; every entry of the catalog is raised somewhere (no dead
 * codes); and the provider, the kit, the plant tools and the command line throw no free-text
 * `new Error(` but the stated exceptions below. Read from the sources, so a new throw fails here
 * naming its file and line.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { catalogEntry, errorCatalog, isSvcError, SvcError, type ErrorLayer } from "../../src/errors";
import { errorsPage } from "../../src/errors/page";

const ROOT = resolve(__dirname, "../..");
const SRC = join(ROOT, "src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });
}

/** Every source outside the catalog itself, by its path from the repository's root. */
const files = new Map(
  sources(SRC)
    .filter((f) => !f.startsWith(join(SRC, "errors")))
    .map((f) => [relative(ROOT, f), readFileSync(f, "utf8")]),
);

const catalogCodes = (Object.keys(errorCatalog) as ErrorLayer[]).flatMap((layer) => Object.keys(errorCatalog[layer]));

/** The codes constructed in the sources: the first argument of `new SvcError(` or of a subclass (`new ProviderConfigError(`). */
function raisedCodes(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [file, text] of files) {
    for (const m of text.matchAll(/new\s+\w+\(\s*"([A-Z][A-Z0-9_]+)"/g)) found.set(m[1], [...(found.get(m[1]) ?? []), file]);
  }
  return found;
}

/** The lines of `file` that construct a plain `Error`. */
const plainErrors = (text: string): number[] =>
  text
    .split("\n")
    .map((line, i) => (/\bnew Error\(/.test(line) ? i + 1 : 0))
    .filter(Boolean);

/** The folders whose errors come from the catalog. */
const CONVERTED = ["src/provider/", "src/testing/", "src/plant/", "src/cli/"];

/**
 * Plain errors that stay, each with why. An entry whose file no longer has one fails the last test,
 * so the list only shrinks.
 */
const ALLOWED: Record<string, string> = {
  "src/testing/program.ts": "refusal(): the gRPC status the mock monitor answers the SDK with (code CANCELLED), which stops the program; it never reaches the user",
};
const allowed = (file: string) => file in ALLOWED;

describe("the error catalog", () => {
  test("docs/errors.md is current: regenerate it with `npm run errors:doc` after changing src/errors/", () => {
    expect(readFileSync(join(ROOT, "docs/errors.md"), "utf8")).toBe(errorsPage());
  });

  test("every code is one entry: unique across the layers, named SVC_ in capitals, with a meaning and a fix", () => {
    expect(new Set(catalogCodes).size).toBe(catalogCodes.length);
    for (const code of catalogCodes) {
      expect(code).toMatch(/^SVC_[A-Z0-9]+(_[A-Z0-9]+)*$/);
      const e = catalogEntry(code)!;
      expect({ code, meaning: e.meaning.length > 20, fix: e.fix.length > 10 }).toEqual({ code, meaning: true, fix: true });
    }
  });

  test("every code the sources raise is in the catalog and on the page", () => {
    const raised = raisedCodes();
    expect(raised.size).toBeGreaterThan(40);
    const page = errorsPage();
    const missing = [...raised].filter(([code]) => !catalogEntry(code) || !page.includes(`### ${code}\n`)).map(([code, where]) => `${code} (${where.join(", ")})`);
    expect(missing).toEqual([]);
  });

  test("every entry of the catalog is raised somewhere (no dead codes)", () => {
    // The kind scaffold's skeleton raises its code in the module it writes (npm run new:kind).
    const text = [...files.values(), readFileSync(join(ROOT, "scripts/new-kind.js"), "utf8")].join("\n");
    expect(catalogCodes.filter((code) => !text.includes(`"${code}"`))).toEqual([]);
  });

  test("the provider, the kit, the plant tools and the command line throw no plain Error but the stated exceptions", () => {
    const found = [...files]
      .filter(([file]) => CONVERTED.some((dir) => file.startsWith(dir)) && !allowed(file))
      .flatMap(([file, text]) => plainErrors(text).map((line) => `${file}:${line}`));
    expect(found).toEqual([]);
  });

  test("the list of exceptions only shrinks: each names a file that still has a plain Error", () => {
    const stale = Object.keys(ALLOWED).filter((file) => plainErrors(files.get(file) ?? "").length === 0);
    expect(stale).toEqual([]);
  });
});

describe("SvcError", () => {
  test("its message ends with the code; its detail is the message without it; it keeps its cause", () => {
    const cause = new Error("EACCES");
    const e = new SvcError("SVC_CONFIG_INVALID", "svc:operationTimeoutSeconds must be a positive number of seconds, got 'soon'", { cause });
    expect(e.message).toBe("svc:operationTimeoutSeconds must be a positive number of seconds, got 'soon' [SVC_CONFIG_INVALID]");
    expect(e.detail).toBe("svc:operationTimeoutSeconds must be a positive number of seconds, got 'soon'");
    expect(e.cause).toBe(cause);
    expect(e.name).toBe("SvcError");
    expect(isSvcError(e, "SVC_CONFIG_INVALID")).toBe(true);
    expect(isSvcError(e, "SVC_CONFIG_MISSING")).toBe(false);
    expect(isSvcError(cause)).toBe(false);
  });

  test("a masked message masks the detail too (the provider masks secrets in the messages it answers)", () => {
    const e = new SvcError("SVC_PLATFORM_REFUSED", "Label 'l': create failed: title 'hunter2' is too long");
    e.message = e.message.split("hunter2").join("[secret]");
    expect(e.detail).toBe("Label 'l': create failed: title '[secret]' is too long");
  });
});
