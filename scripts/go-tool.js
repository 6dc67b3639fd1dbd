/**
 * A Go program of Pulumi's (the CLI, the YAML language host) built from the Go module proxy as a tool
 * of one of the small Go modules under tools/, whose go.mod pins its version and decides every other
 * one. Nothing of Pulumi's is kept in the repository: the binary is built into the user's cache
 * directory, in a folder named after the pinned version and a hash of go.mod and go.sum, so a repeat
 * costs nothing and a change of pin builds anew. Used by scripts/pulumi-cli.js and scripts/pulumi-yaml.js.
 */
const { execFileSync, spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/** The cache every build goes into; `SVC_PULUMI_CACHE` names another one. */
const cacheRoot = () => process.env.SVC_PULUMI_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-svc");

/**
 * One tool: `module` is the tools/ folder, `pins` the Go module whose version its go.mod pins, `pkg`
 * the package to build, `binary` the file name, `folder(version, hash)` the cache folder's path below
 * the cache root, `ldflags(version)` the linker flags (optional), `works(bin)` whether a built binary
 * is usable (default: it exists).
 */
function goTool({ module, pins, pkg, binary, folder, ldflags, works = (bin) => fs.existsSync(bin) }) {
  const moduleDir = path.join(__dirname, "..", "tools", module);

  /** The version go.mod pins, e.g. "v3.274.1". */
  function pinnedVersion() {
    const mod = fs.readFileSync(path.join(moduleDir, "go.mod"), "utf8");
    const m = new RegExp(`${pins.replace(/[.]/g, "\\.")} (v\\S+)`).exec(mod);
    if (!m) throw new Error(`tools/${module}/go.mod pins no version of ${pins}`);
    return m[1];
  }

  /** The folder the pinned build is (or would be) in. */
  function dir() {
    const hash = crypto.createHash("sha256");
    for (const f of ["go.mod", "go.sum"]) hash.update(fs.readFileSync(path.join(moduleDir, f)));
    return path.join(cacheRoot(), folder(pinnedVersion(), hash.digest("hex").slice(0, 12)));
  }

  /** The binary's path when it is built and works, else undefined. */
  function built() {
    const bin = path.join(dir(), binary);
    return fs.existsSync(bin) && works(bin) ? bin : undefined;
  }

  /** Builds the tool into dir() unless it is there; returns the folder. Output of `go` goes to stderr. */
  function ensure() {
    const target = dir();
    if (built()) return target;
    const go = spawnSync("go", ["version"], { encoding: "utf8" });
    if (go.error || go.status !== 0) {
      throw new Error(`building ${binary} needs Go 1.26 or later on PATH (\`go version\` failed); install Go`);
    }
    const version = pinnedVersion();
    fs.mkdirSync(target, { recursive: true });
    // Built to a temporary name and renamed: a concurrent or interrupted build never leaves half a binary.
    const tmp = path.join(target, `.${binary}-${process.pid}`);
    const started = Date.now();
    process.stderr.write(`building ${binary} ${version} (${go.stdout.trim()}) into ${target}\n`);
    const flags = ldflags ? ["-ldflags", ldflags(version)] : [];
    execFileSync("go", ["build", ...flags, "-o", tmp, pkg], {
      cwd: moduleDir,
      stdio: ["ignore", process.stderr, process.stderr],
      env: { ...process.env, GOFLAGS: "-mod=readonly" },
    });
    fs.renameSync(tmp, path.join(target, binary));
    process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    return target;
  }

  /** As a command: builds if needed and prints the folder; a failure is one line on stderr and exit 1. */
  function main() {
    try {
      process.stdout.write(`${ensure()}\n`);
    } catch (e) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
  }

  return { pinnedVersion, dir, built, ensure, main };
}

module.exports = { goTool, cacheRoot };
