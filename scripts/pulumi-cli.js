#!/usr/bin/env node
/**
 * The real Pulumi CLI, built from the Go module proxy as a tool of the small Go module in
 * tools/pulumi (its go.mod pins github.com/pulumi/pulumi/pkg/v3 and decides every version; Pulumi's
 * own replace lines do not apply to it, so the one a build needs is carried over there). Nothing of
 * Pulumi's is kept in the repository: the binary is built into the user's cache directory, in a
 * folder named after the pinned version and a hash of go.mod and go.sum, so a repeat costs nothing
 * and a change of pin builds anew.
 *
 *   npm run --silent pulumi:path     builds the CLI if needed, prints the folder that holds `pulumi`
 *
 * The tests ask `cliDir()` and skip when it holds no CLI (`.ci/run` builds it first).
 */
const { execFileSync, spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const MODULE_DIR = path.join(__dirname, "..", "tools", "pulumi");
const CLI_PACKAGE = "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi";
const VERSION_VAR = "github.com/pulumi/pulumi/sdk/v3/go/common/version.Version";

/** The pkg/v3 version tools/pulumi/go.mod pins, e.g. "v3.274.1". */
function pinnedVersion() {
  const mod = fs.readFileSync(path.join(MODULE_DIR, "go.mod"), "utf8");
  const m = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(mod);
  if (!m) throw new Error(`tools/pulumi/go.mod pins no version of github.com/pulumi/pulumi/pkg/v3`);
  return m[1];
}

function cacheRoot() {
  if (process.env.SVC_PULUMI_CACHE) return process.env.SVC_PULUMI_CACHE;
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-svc");
}

/** The folder the pinned CLI is (or would be) built into. `SVC_PULUMI_DIR` names another one. */
function cliDir() {
  if (process.env.SVC_PULUMI_DIR) return process.env.SVC_PULUMI_DIR;
  const hash = crypto.createHash("sha256");
  for (const f of ["go.mod", "go.sum"]) hash.update(fs.readFileSync(path.join(MODULE_DIR, f)));
  return path.join(cacheRoot(), `pulumi-${pinnedVersion()}-${hash.digest("hex").slice(0, 12)}`, "bin");
}

/** The CLI's path when it is built and answers `pulumi version`, else undefined. */
function builtCli() {
  const bin = path.join(cliDir(), "pulumi");
  if (!fs.existsSync(bin)) return undefined;
  const run = spawnSync(bin, ["version"], { encoding: "utf8", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } });
  return run.status === 0 ? bin : undefined;
}

/** Builds the CLI into cliDir() unless it is there; returns the folder. Output of `go` goes to stderr. */
function ensureCli() {
  const dir = cliDir();
  if (builtCli()) return dir;
  const go = spawnSync("go", ["version"], { encoding: "utf8" });
  if (go.error || go.status !== 0) {
    throw new Error("building the Pulumi CLI needs Go 1.26 or later on PATH (`go version` failed); install Go, or set SVC_PULUMI_DIR to a folder holding a `pulumi` binary");
  }
  const version = pinnedVersion();
  fs.mkdirSync(dir, { recursive: true });
  // Built to a temporary name and renamed: a concurrent or interrupted build never leaves half a binary.
  const tmp = path.join(dir, `.pulumi-${process.pid}`);
  const started = Date.now();
  process.stderr.write(`building the Pulumi CLI ${version} (${go.stdout.trim()}) into ${dir}\n`);
  execFileSync("go", ["build", "-ldflags", `-X ${VERSION_VAR}=${version}`, "-o", tmp, CLI_PACKAGE], {
    cwd: MODULE_DIR,
    stdio: ["ignore", process.stderr, process.stderr],
    env: { ...process.env, GOFLAGS: "-mod=readonly" },
  });
  fs.renameSync(tmp, path.join(dir, "pulumi"));
  // Builds of other pins (or of an older go.mod) are not used again.
  const own = path.dirname(dir);
  if (!process.env.SVC_PULUMI_DIR && path.dirname(own) === cacheRoot()) {
    for (const other of fs.readdirSync(cacheRoot()))
      if (other.startsWith("pulumi-v") && other !== path.basename(own)) fs.rmSync(path.join(cacheRoot(), other), { recursive: true, force: true });
  }
  process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  return dir;
}

module.exports = { cliDir, builtCli, ensureCli, pinnedVersion };

if (require.main === module) {
  try {
    process.stdout.write(`${ensureCli()}\n`);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
}
