/**
 * Turns on Node's module compile cache (`module.enableCompileCache`, Node 22.1+) for the modules the
 * provider host loads after this one: the package's, zod's and undici's. The host is a fresh process
 * on every `pulumi up` and `preview`, and compiling those modules is a fixed cost before its first
 * call; with the cache, later runs on the same machine read V8's code cache instead. Node keeps the
 * cache in its default place (`NODE_COMPILE_CACHE`, or `node-compile-cache` in the temporary
 * directory), checks it against each file's content, and `NODE_DISABLE_COMPILE_CACHE=1` turns it off.
 * Imported first by the two provider processes' entry modules (host.ts, which the dynamic-provider
 * host loads, and native/main.ts, the plugin's) and by nothing else: the cache is process-wide, and
 * users' programs and test runners reach the runtime through the lookups.
 */
import * as nodeModule from "node:module";

// Older Node lines lack the function; the cache is then simply not used.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
