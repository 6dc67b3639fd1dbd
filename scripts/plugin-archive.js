#!/usr/bin/env node
/**
 * The native provider as a self-contained plugin archive (`npm run plugin`), which
 *
 *   pulumi plugin install resource svc <version> --file pulumi-resource-svc-v<version>-linux-<arch>.tar.gz
 *
 * installs for a user who has no Node project (a Python, Go or YAML team): the launcher
 * `pulumi-resource-svc`, the Node.js runtime this script runs on (so the machine needs no Node), the
 * built package (dist/, schema/, package.json) and its production dependencies with @pulumi/pulumi,
 * installed by npm into the archive's node_modules. Written to .build/plugin/ (ignored); prints the
 * archive's path. Needs `npm run build` first.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const OUT_DIR = path.join(ROOT, ".build", "plugin");

const ARCH = { x64: "amd64", arm64: "arm64" }[process.arch] ?? process.arch;

function archivePath(version) {
  return path.join(OUT_DIR, `pulumi-resource-svc-v${version}-${process.platform}-${ARCH}.tar.gz`);
}

function build() {
  const started = Date.now();
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  if (!fs.existsSync(path.join(ROOT, "dist", "provider", "native", "main.js"))) throw new Error("dist/ is not built: run npm run build first");
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "svc-plugin-"));
  try {
    fs.cpSync(path.join(ROOT, "dist"), path.join(stage, "dist"), { recursive: true, filter: (f) => !f.endsWith(".map") && !f.endsWith(".d.ts") });
    fs.cpSync(path.join(ROOT, "schema"), path.join(stage, "schema"), { recursive: true });
    // The package's runtime dependencies, and @pulumi/pulumi (the gRPC library and the protocol's messages).
    const pulumiVersion = JSON.parse(fs.readFileSync(require.resolve("@pulumi/pulumi/package.json"), "utf8")).version;
    const manifest = { name: pkg.name, version: pkg.version, private: true, license: pkg.license, dependencies: { ...pkg.dependencies, "@pulumi/pulumi": pulumiVersion } };
    fs.writeFileSync(path.join(stage, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
    execFileSync("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", "--no-package-lock", "--prefer-offline", "--ignore-scripts"], {
      cwd: stage,
      stdio: ["ignore", process.stderr, process.stderr],
    });
    // The runtime: this Node.js binary.
    fs.copyFileSync(process.execPath, path.join(stage, "node"));
    fs.chmodSync(path.join(stage, "node"), 0o755);
    const launcher = [
      "#!/bin/sh",
      "# The svc package's native Pulumi provider, with its own Node.js runtime.",
      'here="${0%/*}"',
      'exec "$here/node" "$here/dist/provider/native/main.js" "$@"',
      "",
    ].join("\n");
    fs.writeFileSync(path.join(stage, "pulumi-resource-svc"), launcher, { mode: 0o755 });
    fs.mkdirSync(OUT_DIR, { recursive: true });
    const archive = archivePath(pkg.version);
    execFileSync("tar", ["-czf", archive, "-C", stage, "."]);
    process.stderr.write(`plugin archive: ${path.relative(ROOT, archive)}, ${(fs.statSync(archive).size / 1e6).toFixed(0)} MB (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
    return archive;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

module.exports = { archivePath, build };

if (require.main === module) {
  try {
    process.stdout.write(`${build()}\n`);
  } catch (e) {
    process.stderr.write(`plugin archive: ${e.message}\n`);
    process.exit(1);
  }
}
