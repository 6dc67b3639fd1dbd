/**
 * Consumer projects: the package as users install it. The built package is packed with `npm pack`,
 * then a fresh project (Pulumi's TypeScript template: its exact tsconfig.json, `@pulumi/pulumi` and the
 * tarball as dependencies) installs it with npm, compiles with its own TypeScript and runs scripts
 * with the running node, with the project as working directory.
 *
 * Projects are kept between runs under $SVC_CONSUMER_CACHE (default: <tmp>/pulumi-svc-consumer), one
 * per tarball, fixture files, @pulumi/pulumi spec and Node major; results of type checks are kept with
 * them. Jest workers share a project through a lock directory.
 */
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import semver from "semver";

const run = promisify(execFile);

/** `CONSUMER=full`: every scenario, with the latest @pulumi/pulumi and the floor of the peer range. */
export const FULL = process.env.CONSUMER === "full";

/**
 * For tests that run only with CONSUMER=full: says so once on stderr, where the run is read, and
 * returns what their titles end with (jest's own report only says "skipped").
 */
export function fullOnly(what: string): string {
  if (FULL) return "";
  process.stderr.write(`${what}: SKIPPED: runs only with CONSUMER=full (as .ci/run runs the suite)\n`);
  return " (SKIPPED: runs only with CONSUMER=full)";
}

const repo = path.resolve(__dirname, "../..");
const fixtures = path.join(__dirname, "project");
const cacheRoot = process.env.SVC_CONSUMER_CACHE ?? path.join(os.tmpdir(), "pulumi-svc-consumer");
const ownPackage = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
const nodeMajor = process.versions.node.split(".")[0];

/** The tsconfig.json that `pulumi new typescript` writes, byte for byte. */
export const TEMPLATE_TSCONFIG = `{
    "compilerOptions": {
        "strict": true,
        "outDir": "bin",
        "target": "es2020",
        "module": "commonjs",
        "moduleResolution": "node",
        "sourceMap": true,
        "experimentalDecorators": true,
        "pretty": true,
        "noFallthroughCasesInSwitch": true,
        "noImplicitReturns": true,
        "forceConsistentCasingInFileNames": true
    },
    "files": [
        "index.ts"
    ]
}
`;

const examplesDir = path.join(repo, "examples");
/** The shipped examples that are Pulumi programs (a folder with an index.ts): the project holds each under examples/. */
export const EXAMPLES = fs
  .readdirSync(examplesDir)
  .filter((d) => fs.existsSync(path.join(examplesDir, d, "index.ts")))
  .sort();
/** An example's TypeScript files, relative to the examples folder. */
const exampleSources = (name: string) => ["index.ts", "program.ts"].map((f) => path.join(name, f)).filter((f) => fs.existsSync(path.join(examplesDir, f)));

/**
 * The compilations: `template` is the template's options over the program and the test file (it emits
 * bin/, which the scripts run); node16 and bundler check the same files under other module
 * resolutions; `example-<name>` checks a shipped example under the template's options.
 */
const TSCONFIGS: Record<string, object> = {
  template: { extends: "./tsconfig.json", files: ["index.ts", "kit.ts"] },
  node16: { extends: "./tsconfig.json", compilerOptions: { module: "node16", moduleResolution: "node16", noEmit: true }, files: ["index.ts", "kit.ts"] },
  bundler: { extends: "./tsconfig.json", compilerOptions: { module: "preserve", moduleResolution: "bundler", noEmit: true }, files: ["index.ts", "kit.ts"] },
  ...Object.fromEntries(EXAMPLES.map((name) => [`example-${name}`, { extends: "./tsconfig.json", compilerOptions: { noEmit: true }, files: [`examples/${name}/index.ts`] }])),
};
export type Variant = "template" | "node16" | "bundler" | `example-${string}`;

/** `latest`: the peer range as declared (npm picks for the running Node); `floor`: its lowest version, exactly. */
export type PulumiLine = "latest" | "floor";
export const PULUMI_LINES: PulumiLine[] = FULL ? ["latest", "floor"] : ["latest"];

export const peerRange: string = ownPackage.peerDependencies["@pulumi/pulumi"];

export function pulumiSpec(line: PulumiLine): string {
  return line === "latest" ? peerRange : semver.minVersion(peerRange)!.version;
}

export interface ConsumerProject {
  dir: string;
  line: PulumiLine;
  /** The @pulumi/pulumi version npm installed. */
  pulumiVersion: string;
}

export interface TypeCheck {
  code: number;
  /** tsc's diagnostics, one per line (`file(line,col): error TSxxxx: ...`); empty when clean. */
  output: string;
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

let packed: Promise<{ tarball: Buffer; sha: string }> | undefined;

/** Packs the built package once per test file (`npm pack`, as publishing would): the tarball and its SHA-256. */
export function packTarball(): Promise<{ tarball: Buffer; sha: string }> {
  packed ??= (async () => {
    const built = path.join(repo, "dist", "index.js");
    if (!fs.existsSync(built) || !fs.existsSync(path.join(repo, "dist", "node10", "index.d.ts"))) {
      throw new Error("the package is not built: run `npm run build` (npm test does) before the consumer tests");
    }
    if (newestMtime(path.join(repo, "src")) > fs.statSync(built).mtimeMs) {
      throw new Error("dist/ is older than src/: run `npm run build` (npm test does) before the consumer tests");
    }
    const dest = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-svc-pack-"));
    const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dest], { cwd: repo, maxBuffer: 64 << 20 });
    const [info] = JSON.parse(stdout) as Array<{ filename: string }>;
    const tarball = fs.readFileSync(path.join(dest, info.filename));
    fs.rmSync(dest, { recursive: true, force: true });
    return { tarball, sha: sha256(tarball) };
  })();
  return packed;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `body` holding the lock directory `lock` (another jest worker may be preparing the same project). */
async function withLock<T>(lock: string, body: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      // A lock left by a killed run is taken over after 20 minutes.
      const st = fs.statSync(lock, { throwIfNoEntry: false });
      const age = st ? Date.now() - st.mtimeMs : 0;
      if (age > 20 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() - started > 20 * 60_000) throw new Error(`waited 20 minutes for ${lock}`, { cause: e });
      else await sleep(500);
    }
  }
  try {
    return await body();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

async function tsc(dir: string, variant: Variant): Promise<TypeCheck> {
  const args = [path.join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", `tsconfig.${variant}.json`, "--pretty", "false"];
  try {
    await run(process.execPath, args, { cwd: dir, maxBuffer: 64 << 20 });
    return { code: 0, output: "" };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === "number" ? err.code : 1, output: `${err.stdout ?? ""}${err.stderr ?? ""}`.trim() };
  }
}

const projects = new Map<PulumiLine, Promise<ConsumerProject>>();

/**
 * The consumer project for a line of @pulumi/pulumi, installed and compiled under the template
 * (bin/ holds the scripts); made on first use, or taken from the cache.
 */
export function consumerProject(line: PulumiLine): Promise<ConsumerProject> {
  let p = projects.get(line);
  if (!p) {
    p = prepare(line);
    projects.set(line, p);
  }
  return p;
}

async function prepare(line: PulumiLine): Promise<ConsumerProject> {
  const tarball = await packTarball();
  const spec = pulumiSpec(line);
  // The project's own tools, at this repository's versions: its TypeScript, and jest with the Node
  // environment the package's jest environment extends.
  const tools = Object.fromEntries(["typescript", "jest", "jest-environment-node"].map((name) => [name, ownPackage.devDependencies[name] as string]));
  const sources = fs.readdirSync(fixtures).sort();
  const examples = EXAMPLES.flatMap(exampleSources);
  const read = (dir: string, files: string[]) => files.map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]);
  const key = sha256(JSON.stringify([tarball.sha, spec, tools, nodeMajor, TEMPLATE_TSCONFIG, TSCONFIGS, read(fixtures, sources), read(examplesDir, examples)])).slice(0, 16);
  const prefix = `${line}-node${nodeMajor}-`;
  const dir = path.join(cacheRoot, prefix + key);
  fs.mkdirSync(cacheRoot, { recursive: true });
  return withLock(`${dir}.lock`, async () => {
    const ready = path.join(dir, ".ready.json");
    if (!fs.existsSync(ready)) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, "pulumi-svc.tgz"), tarball.tarball);
      for (const f of sources) fs.copyFileSync(path.join(fixtures, f), path.join(dir, f));
      for (const f of examples) {
        fs.mkdirSync(path.join(dir, "examples", path.dirname(f)), { recursive: true });
        fs.copyFileSync(path.join(examplesDir, f), path.join(dir, "examples", f));
      }
      const manifest = {
        name: "svc-consumer",
        private: true,
        dependencies: { "@pulumi/pulumi": spec, "pulumi-svc": "file:./pulumi-svc.tgz" },
        devDependencies: { "@types/node": `^${nodeMajor}`, ...tools },
      };
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
      fs.writeFileSync(path.join(dir, "tsconfig.json"), TEMPLATE_TSCONFIG);
      for (const [variant, config] of Object.entries(TSCONFIGS)) fs.writeFileSync(path.join(dir, `tsconfig.${variant}.json`), JSON.stringify(config, null, 2) + "\n");
      await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: dir, maxBuffer: 64 << 20 }).catch((e: Error & { stderr?: string }) => {
        throw new Error(`npm install in ${dir} failed: ${e.stderr ?? e.message}`);
      });
      // The template's compilation emits bin/ for the scripts; the others only check. Their diagnostics
      // are kept for the tests; they run at once (each is a full tsc run over the declarations).
      const variants: Variant[] = FULL ? ["template", "node16", "bundler"] : ["template", "node16"];
      await Promise.all(variants.map(async (v) => fs.writeFileSync(path.join(dir, `typecheck-${v}.json`), JSON.stringify(await tsc(dir, v)))));
      const pulumiVersion = JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")).version;
      fs.writeFileSync(ready, JSON.stringify({ pulumiVersion }));
      // Projects of older tarballs for this line and Node major go.
      for (const other of fs.readdirSync(cacheRoot)) {
        if (other.startsWith(prefix) && !other.startsWith(prefix + key) && !other.endsWith(".lock")) fs.rmSync(path.join(cacheRoot, other), { recursive: true, force: true });
      }
    }
    const { pulumiVersion } = JSON.parse(fs.readFileSync(ready, "utf8"));
    return { dir, line, pulumiVersion };
  });
}

/** The project's own tsc over the program and the test file under a tsconfig variant (kept with the project). */
export async function typeCheck(project: ConsumerProject, variant: Variant): Promise<TypeCheck> {
  const file = path.join(project.dir, `typecheck-${variant}.json`);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8"));
  const result = await tsc(project.dir, variant);
  const tmp = `${file}.${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(result));
  fs.renameSync(tmp, file);
  return result;
}

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs node with `args` in the project (the running node, i.e. the Node line under test). */
export function runNode(project: ConsumerProject, args: string[], timeoutMs = 300_000, env: Record<string, string> = {}): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: project.dir, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_OPTIONS: "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface KitStep {
  step: string;
  ok: boolean;
  value?: unknown;
  error?: string;
}

export interface KitRun {
  pulumi?: string;
  node?: string;
  steps: KitStep[];
  error?: string;
  /** Everything the script wrote, for failure messages. */
  log: string;
}

/** Runs a scenario of bin/kit.js (test/consumer/project/kit.ts) in the project. */
export async function runKit(project: ConsumerProject, scenario: string, env: Record<string, string> = {}): Promise<KitRun> {
  const out = await runNode(project, [path.join("bin", "kit.js"), scenario], undefined, env);
  const log = `${out.stdout}\n${out.stderr}`.trim();
  const line = out.stdout.split("\n").find((l) => l.startsWith("KIT-RESULT "));
  if (!line) return { steps: [], error: `bin/kit.js ${scenario} exited with ${out.code} and no result`, log };
  return { ...JSON.parse(line.slice("KIT-RESULT ".length)), log };
}

/** The value of a step that must have succeeded; otherwise an error naming the step and what went wrong. */
export function stepValue<T = unknown>(run: KitRun, name: string): T {
  const s = run.steps.find((x) => x.step === name);
  if (!s)
    throw new Error(
      `step "${name}" did not run (steps: ${run.steps.map((x) => x.step).join(", ") || "none"})${run.error ? `; the script failed: ${run.error}` : ""}\n${run.log.slice(-4000)}`,
    );
  if (!s.ok) throw new Error(`step "${name}" failed: ${s.error}`);
  return s.value as T;
}

/** A run as kit.ts reports it. */
export interface RunSummary {
  totals: Record<string, number>;
  changes: number;
  ops: string[];
  outputs: Record<string, unknown>;
}
