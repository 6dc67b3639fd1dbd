/**
 * The kit's engine (src/testing/engine) is Pulumi's step generation and nothing of this package's
 * own: it imports neither the provider nor the emulator, nor the svc kit built on it (src/testing
 * outside engine/); the kit gives it what it must know of the kinds (takeovers, destroy effects).
 * src/pulumi, the URN and value notions the provider and the engine share, imports nothing of src.
 * Read from the sources' import statements (static, dynamic and `require`), so that a wrong import
 * fails here naming its file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(__dirname, "../../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });
}

/** The modules a file reaches by a relative specifier (import, export … from, import(), require()), as paths under src/. */
function importsOf(text: string, file: string): string[] {
  const patterns = [/^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gms, /^import\s+"(\.[^"]+)"/gm, /\bimport\(\s*"(\.[^"]+)"\s*\)/g, /\brequire\(\s*"(\.[^"]+)"\s*\)/g];
  return patterns.flatMap((re) => [...text.matchAll(re)].map((m) => relative(SRC, resolve(dirname(file), m[1]))));
}

/** Each import of a file under `folder` that reaches a module `refused` names, as `from → to`. */
function wrongImports(folder: string, refused: (target: string) => boolean): string[] {
  return sources(join(SRC, folder)).flatMap((f) =>
    importsOf(readFileSync(f, "utf8"), f)
      .filter(refused)
      .map((target) => `${relative(SRC, f)} → ${target}`),
  );
}

const under = (target: string, folder: string) => target === folder || target.startsWith(`${folder}/`);

test("the kit's engine imports neither the provider, nor the emulator, nor the svc kit above it", () => {
  const refused = (t: string) => under(t, "provider") || under(t, "emulator") || (under(t, "testing") && !under(t, "testing/engine"));
  expect(wrongImports("testing/engine", refused)).toEqual([]);
});

test("src/pulumi imports nothing of the package", () => {
  expect(wrongImports("pulumi", (t) => !under(t, "pulumi"))).toEqual([]);
});

test("the reader finds static, dynamic and require imports", () => {
  const file = join(SRC, "testing/engine/x.ts");
  const text = ['import { a } from "../../provider/kind";', 'export { b } from "./state";', 'const k = await import("../../emulator");', 'const c = require("../effects");'].join(
    "\n",
  );
  expect(importsOf(text, file).sort()).toEqual(["emulator", "provider/kind", "testing/effects", "testing/engine/state"]);
});

test("URNs are read and written by src/pulumi/urn.ts alone: no other module splits or joins on `::`", () => {
  const sites = sources(SRC)
    .filter((f) => relative(SRC, f) !== join("pulumi", "urn.ts"))
    .flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .flatMap((line, i) => (/["'`]::["'`]/.test(line) ? [`${relative(SRC, f)}:${i + 1}`] : [])),
    );
  expect(sites).toEqual([]);
});
