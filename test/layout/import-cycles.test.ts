/**
 * No module of src/ imports itself back through others (type-only imports count: a loop of types is
 * still two modules that cannot be understood apart). Read from the sources' import and export
 * statements, so that a new loop fails here naming its modules.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(__dirname, "../../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });
}

/** The src modules a file imports or re-exports from (relative specifiers), as absolute paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gms), ...text.matchAll(/^import\s+"(\.[^"]+)"/gm)].map((m) => m[1]);
  return specifiers.flatMap((spec) => {
    const base = resolve(dirname(file), spec);
    const found = [`${base}.ts`, join(base, "index.ts")].find((p) => existsSync(p));
    return found ? [found] : [];
  });
}

/** The groups of modules that reach each other (Tarjan's strongly connected components of more than one module, or a module importing itself). */
function loops(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

test("no import loops in src/", () => {
  const graph = new Map(sources(SRC).map((f) => [f, importsOf(f)]));
  const named = loops(graph).map((group) => group.map((f) => relative(SRC, f)).sort());
  expect(named).toEqual([]);
});

test("the loop finder finds a loop (a ↔ b) and a module importing itself", () => {
  const graph = new Map([
    ["a", ["b"]],
    ["b", ["a", "c"]],
    ["c", []],
    ["d", ["d"]],
  ]);
  expect(loops(graph).map((g) => g.sort())).toEqual([["a", "b"], ["d"]]);
});
