/**
 * The client loads undici through its public entry, never a file under undici's lib/: those files are
 * not part of undici's contract, and a release that adds an `exports` map makes requiring them fail,
 * which would stop the provider from loading at all.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.join(__dirname, "..", "..");
const UNDICI = "/node_modules/undici/";

/** The undici files a fresh process loads with the built client at `dist` (relative to undici's folder). */
function undiciFilesLoadedBy(dist: string): string[] {
  const script = `
    const before = new Set(Object.keys(require.cache));
    require(${JSON.stringify(path.join(dist, "client", "index.js"))});
    const undici = Object.keys(require.cache).filter((f) => !before.has(f) && f.includes(${JSON.stringify(UNDICI)}));
    process.stdout.write(JSON.stringify(undici.map((f) => f.slice(f.lastIndexOf(${JSON.stringify(UNDICI)}) + ${UNDICI.length}))));
  `;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })) as string[];
}

test("loading the built client loads undici's index", () => {
  expect(undiciFilesLoadedBy(path.join(root, "dist"))).toContain("index.js");
});

test("the client loads with an undici whose `exports` map gives its index alone", () => {
  // A copy of the built package beside an undici that exports only ".": the real one behind its index.
  const dir = mkdtempSync(path.join(tmpdir(), "svc-undici-exports-"));
  try {
    cpSync(path.join(root, "dist"), path.join(dir, "dist"), { recursive: true, filter: (f) => !f.includes(`${path.sep}node10`) });
    const modules = path.join(dir, "node_modules");
    mkdirSync(path.join(modules, "undici"), { recursive: true });
    for (const name of readdirSync(path.join(root, "node_modules"))) {
      if (name !== "undici" && !name.startsWith(".")) symlinkSync(path.join(root, "node_modules", name), path.join(modules, name));
    }
    writeFileSync(path.join(modules, "undici", "package.json"), JSON.stringify({ name: "undici", main: "index.js", exports: { ".": "./index.js" } }));
    writeFileSync(path.join(modules, "undici", "index.js"), `module.exports = require(${JSON.stringify(path.join(root, "node_modules", "undici"))});\n`);
    expect(undiciFilesLoadedBy(path.join(dir, "dist"))).toContain("index.js");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
