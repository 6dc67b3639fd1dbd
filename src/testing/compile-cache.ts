/**
 * The environment that gives the provider hosts a run starts Node's module compile cache from their
 * first module on. The package turns the cache on for its own modules once the host loads it
 * (src/provider/compile-cache.ts), but the host loads @pulumi/pulumi before that, and compiling it is
 * most of a host's start (Node 22: 0.56 s to load it, 0.31 s from the cache). Each engine starts a host
 * per stack or per command, so the kit names Node's default place for the cache (the one the package's
 * own call uses) in their environment. A `NODE_COMPILE_CACHE` of the caller's is kept, and
 * `NODE_DISABLE_COMPILE_CACHE=1` turns both off; Node lines without the cache ignore the variable.
 */
import * as os from "node:os";
import * as path from "node:path";

export function compileCacheEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (env.NODE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return {};
  return { NODE_COMPILE_CACHE: path.join(os.tmpdir(), "node-compile-cache") };
}
