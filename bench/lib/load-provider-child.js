"use strict";
/**
 * Loads the package's provider as the dynamic-provider host does (`require("pulumi-svc/provider")`
 * from the host's working directory, after @pulumi/pulumi and its dynamic module, which the host has
 * loaded already) and answers how long that took: wall and CPU time, and the modules it added, by
 * package. Run as a child process (bench/lib/load.js runChild), a fresh process each time.
 *
 * Message in: { root } (bench/lib/package-root.js hostRoot()). Message out: { wallMs, cpuMs, modules, byPackage }.
 */
const path = require("node:path");

process.on("message", ({ root }) => {
  try {
    // The host runs @pulumi/pulumi of this checkout (the kit resolves it), the one the build uses.
    require("@pulumi/pulumi");
    require("@pulumi/pulumi/dynamic");
    const req = require("node:module").createRequire(path.join(root, "index.js"));
    const before = new Set(Object.keys(require.cache));
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    req("pulumi-svc/provider");
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpu = process.cpuUsage(cpu0);
    const added = Object.keys(require.cache).filter((f) => !before.has(f));
    const byPackage = {};
    for (const f of added) {
      const i = f.lastIndexOf("node_modules/");
      const rest = i === -1 ? "pulumi-svc" : f.slice(i + "node_modules/".length);
      const parts = rest.split("/");
      const name = i === -1 ? "pulumi-svc" : parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
      byPackage[name] = (byPackage[name] ?? 0) + 1;
    }
    process.send({ ok: true, result: { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, modules: added.length, byPackage } }, () => process.exit(0));
  } catch (err) {
    process.send({ ok: false, error: String(err?.stack ?? err) }, () => process.exit(1));
  }
});
