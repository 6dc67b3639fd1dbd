/**
 * The provider host turns on Node's module compile cache when it loads the provider
 * (src/provider/compile-cache.ts), so that the modules it loads next are compiled once per machine.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import * as nodeModule from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.join(__dirname, "..", "..");
const supported = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function";

/** Loads the built provider in a fresh process whose temporary directory is `tmp`; answers the cache directory Node reports. */
function loadProvider(tmp: string, env: Record<string, string> = {}): string | null {
  const script = `
    require(${JSON.stringify(path.join(root, "dist", "provider", "runtime.js"))});
    process.stdout.write(JSON.stringify(require("node:module").getCompileCacheDir?.() ?? null));
  `;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, ...env };
  delete childEnv.NODE_COMPILE_CACHE;
  if (!("NODE_DISABLE_COMPILE_CACHE" in env)) delete childEnv.NODE_DISABLE_COMPILE_CACHE;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8", env: childEnv })) as string | null;
}

(supported ? describe : describe.skip)("the provider's compile cache (Node 22.1+)", () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(tmpdir(), "svc-compile-cache-"));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  test("loading the provider turns the cache on in the temporary directory and fills it", () => {
    const dir = loadProvider(tmp);
    expect(dir).not.toBeNull();
    expect(dir!.startsWith(path.join(tmp, "node-compile-cache"))).toBe(true);
    expect(readdirSync(dir!).length).toBeGreaterThan(0);
  });

  test("NODE_DISABLE_COMPILE_CACHE=1 keeps it off", () => {
    expect(loadProvider(tmp, { NODE_DISABLE_COMPILE_CACHE: "1" })).toBeNull();
    expect(readdirSync(tmp)).toEqual([]);
  });
});
