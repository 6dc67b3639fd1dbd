/**
 * The client loads undici's Pool on its own, not undici's index (which loads fetch, WebSocket, caches
 * and mocks): the provider host pays for every module it loads before its first call.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";

const root = path.join(__dirname, "..", "..");

test("undici's Pool module is the class undici's index exports", () => {
  expect(require("undici/lib/dispatcher/pool")).toBe(require("undici").Pool);
});

test("loading the built client loads undici's Pool but not undici's index", () => {
  const script = `
    const before = new Set(Object.keys(require.cache));
    require(${JSON.stringify(path.join(root, "dist", "client", "index.js"))});
    const undici = Object.keys(require.cache).filter((f) => !before.has(f) && f.includes("/node_modules/undici/"));
    process.stdout.write(JSON.stringify(undici.map((f) => f.slice(f.indexOf("/node_modules/undici/") + "/node_modules/undici/".length))));
  `;
  const loaded = JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8" })) as string[];
  expect(loaded).toContain("lib/dispatcher/pool.js");
  expect(loaded).not.toContain("index.js");
  expect(loaded).not.toContain("lib/web/fetch/index.js");
});
