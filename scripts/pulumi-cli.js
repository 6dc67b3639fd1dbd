#!/usr/bin/env node
/**
 * The real Pulumi CLI, built from the Go module proxy as a tool of the small Go module in
 * tools/pulumi (its go.mod pins github.com/pulumi/pulumi/pkg/v3 and decides every version; Pulumi's
 * own replace lines do not apply to it, so the one a build needs is carried over there), into the
 * user's cache (scripts/go-tool.js).
 *
 *   npm run --silent pulumi:path     builds the CLI if needed, prints the folder that holds `pulumi`
 *
 * The tests ask `cliDir()` and skip when it holds no CLI (`.ci/run` builds it first).
 * `SVC_PULUMI_DIR` names a folder holding a `pulumi` binary to use instead.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { goTool, cacheRoot } = require("./go-tool");

const VERSION_VAR = "github.com/pulumi/pulumi/sdk/v3/go/common/version.Version";

const cli = goTool({
  module: "pulumi",
  pins: "github.com/pulumi/pulumi/pkg/v3",
  pkg: "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
  binary: "pulumi",
  folder: (version, hash) => path.join(`pulumi-${version}-${hash}`, "bin"),
  ldflags: (version) => `-X ${VERSION_VAR}=${version}`,
  works: (bin) => spawnSync(bin, ["version"], { encoding: "utf8", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } }).status === 0,
});

/** The folder the pinned CLI is (or would be) built into. */
const cliDir = () => process.env.SVC_PULUMI_DIR || cli.dir();

/** The CLI's path when it is built and answers `pulumi version`, else undefined. */
function builtCli() {
  if (!process.env.SVC_PULUMI_DIR) return cli.built();
  const bin = path.join(process.env.SVC_PULUMI_DIR, "pulumi");
  return fs.existsSync(bin) ? bin : undefined;
}

/** Builds the CLI into cliDir() unless it is there; returns the folder. Builds of other pins are removed. */
function ensureCli() {
  if (process.env.SVC_PULUMI_DIR) return process.env.SVC_PULUMI_DIR;
  const dir = cli.ensure();
  const own = path.basename(path.dirname(dir));
  for (const other of fs.readdirSync(cacheRoot())) if (other.startsWith("pulumi-v") && other !== own) fs.rmSync(path.join(cacheRoot(), other), { recursive: true, force: true });
  return dir;
}

module.exports = { cliDir, builtCli, ensureCli, pinnedVersion: cli.pinnedVersion };

if (require.main === module) {
  try {
    process.stdout.write(`${ensureCli()}\n`);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
}
