#!/usr/bin/env node
/**
 * Pulumi's YAML language host, `pulumi-language-yaml`, for the tests of YAML programs in a project
 * folder (test/native/yaml.test.ts): built from the Go module proxy as a tool of the small Go module in
 * tools/pulumi-yaml (its go.mod pins github.com/pulumi/pulumi-yaml v1.25.0) into the user's cache, in a
 * folder named after the pin and a hash of go.mod and go.sum, as scripts/pulumi-cli.js builds the CLI.
 * The CLI finds the host on PATH.
 *
 *   node scripts/pulumi-yaml.js     builds it if needed, prints the folder that holds it
 */
const { execFileSync, spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const MODULE_DIR = path.join(__dirname, "..", "tools", "pulumi-yaml");
const HOST_PACKAGE = "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml";
const BINARY = "pulumi-language-yaml";

function pinnedVersion() {
  const mod = fs.readFileSync(path.join(MODULE_DIR, "go.mod"), "utf8");
  const m = /github\.com\/pulumi\/pulumi-yaml (v\S+)/.exec(mod);
  if (!m) throw new Error("tools/pulumi-yaml/go.mod pins no version of github.com/pulumi/pulumi-yaml");
  return m[1];
}

const cacheRoot = () => process.env.SVC_PULUMI_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-svc");

/** The folder the pinned host is (or would be) built into. */
function hostDir() {
  const hash = crypto.createHash("sha256");
  for (const f of ["go.mod", "go.sum"]) hash.update(fs.readFileSync(path.join(MODULE_DIR, f)));
  return path.join(cacheRoot(), `pulumi-yaml-${pinnedVersion()}-${hash.digest("hex").slice(0, 12)}`);
}

/** The host's folder when it is built, else undefined. */
function builtHost() {
  const dir = hostDir();
  return fs.existsSync(path.join(dir, BINARY)) ? dir : undefined;
}

/** Builds the host into hostDir() unless it is there; returns the folder. */
function ensureHost() {
  const dir = hostDir();
  if (builtHost()) return dir;
  const go = spawnSync("go", ["version"], { encoding: "utf8" });
  if (go.error || go.status !== 0) throw new Error("building pulumi-language-yaml needs Go on PATH (`go version` failed)");
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${BINARY}-${process.pid}`);
  const started = Date.now();
  process.stderr.write(`building ${BINARY} ${pinnedVersion()} into ${dir}\n`);
  execFileSync("go", ["build", "-o", tmp, HOST_PACKAGE], { cwd: MODULE_DIR, stdio: ["ignore", process.stderr, process.stderr], env: { ...process.env, GOFLAGS: "-mod=readonly" } });
  fs.renameSync(tmp, path.join(dir, BINARY));
  process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  return dir;
}

module.exports = { hostDir, builtHost, ensureHost };

if (require.main === module) {
  try {
    process.stdout.write(`${ensureHost()}\n`);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
}
