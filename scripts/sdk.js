#!/usr/bin/env node
/**
 * Generates the SDKs of the native provider from schema/schema.json into sdk/ (not committed) and
 * builds each one (`npm run sdk`):
 * - tools/sdkgen (Pulumi's code generators at the CLI's pkg/v3 version) is built into the user's cache,
 *   in a folder named after a hash of its sources, so a repeat costs nothing;
 * - sdk/python: the package `pulumi_svc`, built into a wheel in sdk/dist;
 * - sdk/nodejs: the package `@pulumi-svc/svc`, compiled with this repository's TypeScript into sdk/nodejs/bin;
 * - sdk/go: the module `github.com/pulumi-svc/pulumi-svc/sdk` (package svc), built with `go build`.
 *
 *   node scripts/sdk.js [python nodejs go]     (default: all three)
 *
 * Each step prints its time. Go is needed for the generator and the Go SDK; Python 3 with pip for the wheel.
 */
const { spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const SDKGEN_DIR = path.join(ROOT, "tools", "sdkgen");
const SDK_DIR = path.join(ROOT, "sdk");
const SCHEMA = path.join(ROOT, "schema", "schema.json");

const cacheRoot = () => process.env.SVC_PULUMI_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-svc");

/** Where the generator's binary is (or would be) built: named after a hash of its sources. */
function sdkgenPath() {
  const hash = crypto.createHash("sha256");
  for (const f of ["go.mod", "go.sum", "main.go"]) hash.update(fs.readFileSync(path.join(SDKGEN_DIR, f)));
  return path.join(cacheRoot(), `sdkgen-${hash.digest("hex").slice(0, 12)}`, "sdkgen");
}

/** The Python the SDK's wheel is built with: $SVC_SDK_PYTHON, else the test environment's (scripts/native-python.sh), else python3. */
function pythonPath() {
  if (process.env.SVC_SDK_PYTHON) return process.env.SVC_SDK_PYTHON;
  const venv = path.join(process.env.SVC_PYTHON_SDK_VENV || path.join(cacheRoot(), "python-sdk", "venv"), "bin", "python");
  return fs.existsSync(venv) ? venv : "python3";
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], ...opts });
  if (r.error) throw new Error(`${cmd} ${args.join(" ")}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (exit ${r.status})`);
}

function timed(what, fn) {
  const started = Date.now();
  const result = fn();
  console.error(`sdk: ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result;
}

/** Builds tools/sdkgen unless its binary for these sources exists; returns the binary. */
function ensureSdkgen() {
  const bin = sdkgenPath();
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  timed(`built the generator into ${bin}`, () => run("go", ["build", "-o", bin, "."], { cwd: SDKGEN_DIR }));
  return bin;
}

/** The Go SDK's module file: the generated package needs the Pulumi Go SDK at the CLI's version. */
function goModule(version) {
  return ["module github.com/pulumi-svc/pulumi-svc/sdk", "", "go 1.24", "", `require github.com/pulumi/pulumi/sdk/v3 ${version}`, ""].join("\n");
}

function pulumiGoVersion() {
  const mod = fs.readFileSync(path.join(SDKGEN_DIR, "go.mod"), "utf8");
  return /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(mod)[1];
}

function main(languages) {
  const version = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
  const sdkgen = ensureSdkgen();
  timed(`generated ${languages.join(", ")} from schema/schema.json`, () => run(sdkgen, ["-schema", SCHEMA, "-out", SDK_DIR, "-version", version, ...languages]));
  if (languages.includes("python")) {
    const dir = path.join(SDK_DIR, "python");
    // pyproject.toml names a README beside it; the generator writes the package's into the package.
    fs.copyFileSync(path.join(dir, "pulumi_svc", "README.md"), path.join(dir, "README.md"));
    const out = path.join(SDK_DIR, "dist");
    fs.rmSync(out, { recursive: true, force: true });
    const python = pythonPath();
    // With the test environment's Python (setuptools installed) the build needs no download.
    const isolation = python === "python3" ? [] : ["--no-build-isolation"];
    timed(`built the wheel into sdk/dist with ${python}`, () =>
      run(python, ["-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps", ...isolation, "-w", out, dir]),
    );
    console.log(
      path.join(
        out,
        fs.readdirSync(out).find((f) => f.endsWith(".whl")),
      ),
    );
  }
  if (languages.includes("nodejs")) {
    const dir = path.join(SDK_DIR, "nodejs");
    timed("compiled the Node.js SDK (sdk/nodejs/bin)", () => run(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", path.join(dir, "tsconfig.json")]));
  }
  if (languages.includes("go")) {
    fs.writeFileSync(path.join(SDK_DIR, "go.mod"), goModule(pulumiGoVersion()));
    timed("built the Go SDK (go mod tidy, go build ./...)", () => {
      run("go", ["mod", "tidy"], { cwd: SDK_DIR });
      run("go", ["build", "./..."], { cwd: SDK_DIR });
    });
  }
}

module.exports = { sdkgenPath, ensureSdkgen, SDK_DIR };

if (require.main === module) {
  const languages = process.argv.slice(2);
  try {
    main(languages.length ? languages : ["python", "nodejs", "go"]);
  } catch (e) {
    console.error(`sdk: ${e.message}`);
    process.exit(1);
  }
}
