/**
 * The environment that gives the provider hosts a run starts Node's module compile cache from their
 * first module on. The package turns the cache on for its own modules once the host loads it
 * (src/provider/compile-cache.ts), but the host loads @pulumi/pulumi before that and compiles it again
 * at every start (on Node 22 the cache took a host's CPU per start from 0.65-0.70 s to 0.58-0.63 s).
 * Each engine starts a host per stack or per command, so the kit names Node's default place for the
 * cache (the one the package's own call uses) in their environment. A `NODE_COMPILE_CACHE` of the caller's is kept, and
 * `NODE_DISABLE_COMPILE_CACHE=1` turns both off; Node lines without the cache ignore the variable.
 */
import * as os from "node:os";
import * as path from "node:path";

export function compileCacheEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (env.NODE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return {};
  return { NODE_COMPILE_CACHE: path.join(os.tmpdir(), "node-compile-cache") };
}
