/**
 * The provider host's entry (`pulumi-svc/provider`, src/provider/host.ts) turns on Node's module
 * compile cache, so that the modules it loads next are compiled once per machine; nothing else of the
 * package does: the cache is process-wide, and users' programs and test runners load the package's
 * main entry, its lookups (which load the provider's runtime) and the client.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import * as nodeModule from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.join(__dirname, "..", "..");
const supported = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function";

/**
 * Runs `load` (an async function body) in a fresh process whose temporary directory is `tmp`, from the
 * repository's root (where `pulumi-svc` resolves to the built package); answers the cache directory Node reports.
 */
function cacheDirAfter(load: string, tmp: string, env: Record<string, string> = {}): string | null {
  const script = `
    (async () => {
      ${load}
      process.stdout.write(JSON.stringify(require("node:module").getCompileCacheDir?.() ?? null));
    })().catch((e) => { console.error(e); process.exit(1); });
  `;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, ...env };
  delete childEnv.NODE_COMPILE_CACHE;
  if (!("NODE_DISABLE_COMPILE_CACHE" in env)) delete childEnv.NODE_DISABLE_COMPILE_CACHE;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8", env: childEnv })) as string | null;
}

/** What the dynamic-provider host does: the `__provider` module's require, by package name. */
const HOST = `require("pulumi-svc/provider");`;

(supported ? describe : describe.skip)("the provider's compile cache (Node 22.1+)", () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(tmpdir(), "svc-compile-cache-"));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  test("loading the provider as the host does turns the cache on in the temporary directory and fills it", () => {
    const dir = cacheDirAfter(HOST, tmp);
    expect(dir).not.toBeNull();
    expect(dir!.startsWith(path.join(tmp, "node-compile-cache"))).toBe(true);
    expect(readdirSync(dir!).length).toBeGreaterThan(0);
  });

  test("NODE_DISABLE_COMPILE_CACHE=1 keeps it off", () => {
    expect(cacheDirAfter(HOST, tmp, { NODE_DISABLE_COMPILE_CACHE: "1" })).toBeNull();
    expect(readdirSync(tmp)).toEqual([]);
  });

  test("the main entry, a lookup (which loads the provider's runtime) and the client leave it off", () => {
    const load = `
      const svc = require("pulumi-svc");
      require("pulumi-svc/client");
      // Outside a configured stack the lookup fails (no platform configured), after loading the runtime.
      const failed = await svc.getApp("pump-monitor").then(() => undefined, (e) => e);
      if (!/no platform configured/.test(String(failed?.message))) throw new Error("the lookup did not fail as expected: " + failed);
      if (!Object.keys(require.cache).some((f) => f.endsWith(${JSON.stringify(path.join("dist", "provider", "runtime.js"))}))) throw new Error("the runtime was not loaded");
    `;
    expect(cacheDirAfter(load, tmp)).toBeNull();
    expect(readdirSync(tmp)).toEqual([]);
  });
});
