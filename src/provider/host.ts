/**
 * The provider as the dynamic-provider host loads it: `require("pulumi-svc/provider")`, from the
 * one-line `__provider` module stored with every resource (shim.ts). It turns on the compile cache
 * first, then is the runtime (runtime.ts).
 *
 * The cache is turned on here and nowhere else: it is process-wide, and the runtime is reached from
 * users' programs and test runners too (the lookups load it), whose caches are theirs to decide.
 *
 * In the dynamic-provider host, the host also leaves when the engine that started it is gone
 * (host-exit.ts): a killed `pulumi up` no longer leaves a host behind.
 */
// First: the compile cache applies to the modules loaded after it.
import "./compile-cache";
import { watchEngine } from "./host-exit";

watchEngine();

export * from "./runtime";
