/**
 * The emulator's layout (README "Layout"): one folder per area of the endpoint table, each with the
 * same files — `model.ts` (stored records and their rules, no HTTP) and `routes.ts` (handlers and
 * views), larger areas adding `model-*.ts` and `routes-*.ts` beside them — and imports that go one
 * way: routes → model, never the reverse; the rest of the emulator (fixtures, the snapshot reader)
 * reads an area's model only; the emulator imports neither the plant tools nor the command line.
 * Read from the sources' import statements, so that a misplaced import fails here.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { areas } from "../../src/api/endpoints";
import { allRoutes, emulatorAreas } from "../../src/emulator/areas";

const ROOT = resolve(__dirname, "../..");
const SRC = join(ROOT, "src");
const AREAS = join(SRC, "emulator", "areas");

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The modules a file imports (relative specifiers only), as paths from the repository root without extension. */
function importsOf(file: string): Array<{ target: string; typeOnly: boolean }> {
  const text = readFileSync(file, "utf8");
  const out: Array<{ target: string; typeOnly: boolean }> = [];
  const patterns = [
    /^import\s+(type\s+)?[^;]*?from\s+"(\.{1,2}\/[^"]+)";/gms,
    /^export\s+(type\s+)?[^;]*?from\s+"(\.{1,2}\/[^"]+)";/gms,
    /^import\s+()"(\.{1,2}\/[^"]+)";/gm,
    /()\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g,
  ];
  for (const re of patterns) {
    for (const m of text.matchAll(re)) out.push({ target: relative(ROOT, resolve(dirname(file), m[2])), typeOnly: !!m[1] });
  }
  return out;
}

const rel = (p: string) => relative(ROOT, p);
const areaFile = /^src\/emulator\/areas\/([a-z-]+)\/((?:model|routes)(?:-[a-z-]+)?)$/;
const isRoutes = (target: string) => areaFile.exec(target)?.[2].startsWith("routes") ?? false;

describe("every area of the endpoint table has the same files under src/emulator/areas", () => {
  test("one folder per area of the table, none more, each with model.ts and routes.ts", () => {
    const folders = readdirSync(AREAS).filter((n) => statSync(join(AREAS, n)).isDirectory());
    expect(folders.sort()).toEqual(Object.keys(areas).map(kebab).sort());
    for (const folder of folders) {
      expect([folder, readdirSync(join(AREAS, folder)).filter((n) => n === "model.ts" || n === "routes.ts")]).toEqual([folder, ["model.ts", "routes.ts"]]);
    }
  });

  test("an area folder holds only model and routes files", () => {
    const others = filesUnder(AREAS)
      .map(rel)
      .filter((f) => f !== "src/emulator/areas/index.ts" && !areaFile.test(f.replace(/\.ts$/, "")));
    expect(others).toEqual([]);
  });

  test("the router's record is keyed by the table's areas, and each area routes only its own operations", () => {
    expect(Object.keys(emulatorAreas).sort()).toEqual(Object.keys(areas).sort());
    // allRoutes refuses a route of another area's operation; every operation has its route.
    const routed = allRoutes().map((r) => r.endpoint.id);
    const own = Object.values(areas).flatMap((a) => Object.values(a).map((e) => e.id));
    expect(routed.sort()).toEqual(own.sort());
  });
});

describe("imports go one way", () => {
  const sources = filesUnder(SRC);
  const tests = filesUnder(join(ROOT, "test"));

  test("a model imports no routes, and the handler module for types only", () => {
    const wrong = sources
      .filter((f) => /\/model(-[a-z-]+)?\.ts$/.test(f) && f.startsWith(AREAS))
      .flatMap((f) => importsOf(f).map((i) => ({ from: rel(f), ...i })))
      .filter(
        (i) =>
          isRoutes(i.target) ||
          i.target === "src/emulator/areas/index" ||
          ["src/emulator/server", "src/emulator/body"].includes(i.target) ||
          (i.target === "src/emulator/handler" && !i.typeOnly),
      )
      .map((i) => `${i.from} → ${i.target}`);
    expect(wrong).toEqual([]);
  });

  test("outside the areas, only an area's model is imported (the router takes the routes from areas/index.ts)", () => {
    const wrong = [...sources, ...tests]
      .filter((f) => !f.startsWith(AREAS + "/"))
      .flatMap((f) => importsOf(f).map((i) => ({ from: rel(f), ...i })))
      .filter((i) => isRoutes(i.target))
      .map((i) => `${i.from} → ${i.target}`);
    expect(wrong).toEqual([]);
  });

  test("the emulator imports neither the plant tools nor the command line; nothing but the command line imports it", () => {
    const emulator = sources.filter((f) => f.startsWith(join(SRC, "emulator") + "/"));
    const wrong = [
      ...emulator.flatMap((f) => importsOf(f).map((i) => ({ from: rel(f), ...i }))).filter((i) => /^src\/(plant|cli)(\/|$)/.test(i.target)),
      ...sources
        .filter((f) => !f.startsWith(join(SRC, "cli") + "/"))
        .flatMap((f) => importsOf(f).map((i) => ({ from: rel(f), ...i })))
        .filter((i) => /^src\/cli(\/|$)/.test(i.target)),
    ].map((i) => `${i.from} → ${i.target}`);
    expect(wrong).toEqual([]);
  });
});
