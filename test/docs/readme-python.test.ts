/**
 * README.md's Python subsection of the native provider, run as written, in one shell as a user types
 * it: the first block from the repository (its build commands, `npm install`, `npm run plugin` and
 * `npm run sdk -- python`, are the ones CI runs before the tests, so they are not run again here: the
 * files they make must exist), then the program's folder under a temporary $HOME (the plugin installed
 * from its archive into ~/.pulumi, a virtual environment with pulumi and the wheel, a local file
 * backend), plant.py written from the README's Python block, and its commands: up, then destroy.
 * The emulator the README starts in another shell (`npx svc-emulator serve`) is the built
 * dist/cli/svc-emulator.js on a free port instead of 4010. After up the platform holds the plant's
 * records, after destroy none of them but the cluster (API v4 cannot delete one). pip and the CLI's
 * build use the user's caches. Skips without Python 3.9+, the built CLI, the plugin archive or the
 * wheel (outside CI, where their absence fails).
 */
import { spawn, spawnSync, type ChildProcess, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SvcClient } from "../../src/client";

const ROOT = path.resolve(__dirname, "../..");
const EMULATOR = path.join(ROOT, "dist/cli/svc-emulator.js");
const DOCUMENTED = "http://127.0.0.1:4010";
/** The first block's commands that build; CI runs them before the tests. */
const BUILDS = ["npm install", "npm run plugin", "npm run sdk -- python"];

const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");

/** The fenced blocks of one language in README.md's `### title` subsection (up to the next heading). */
function blocks(subsection: string, language: string): string[] {
  const start = readme.indexOf(`\n### ${subsection}\n`);
  if (start === -1) throw new Error(`README.md has no '### ${subsection}' subsection`);
  const next = readme.slice(start + 1).search(/\n#{2,3} /);
  const text = readme.slice(start, next === -1 ? undefined : start + 1 + next);
  return [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1]);
}

/** The lines of a shell block that are commands (no comments, no blank lines), a trailing comment cut. */
const commandLines = (block: string) =>
  block
    .split("\n")
    .map((l) => l.replace(/\s+# .*$/, "").trim())
    .filter((l) => l !== "" && !l.startsWith("#"));

/** The files of the repository a command names as `$svc/<path>`. */
const namedFiles = (command: string) => [...command.matchAll(/\$svc\/([^"\s]+)/g)].map((m) => path.join(ROOT, m[1]));

const [build, folder, run] = blocks("Python", "sh");
const [program] = blocks("Python", "python");

/** Why the subsection cannot run here, or undefined. */
function missing(): string | undefined {
  const python = spawnSync("python3", ["-c", "import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)"]);
  if (python.status !== 0) return "python3 (3.9 or later) is not installed";
  const cli = require("../../scripts/pulumi-cli.js") as { builtCli(): string | undefined; cliDir(): string };
  if (!cli.builtCli()) return `the Pulumi CLI is not built in ${cli.cliDir()} (npm run --silent pulumi:path builds it; it needs Go)`;
  if (!fs.existsSync(EMULATOR)) return `${EMULATOR} is not built (npm run build)`;
  const builder = (f: string) => (f.endsWith(".whl") ? "npm run sdk -- python, which needs Go" : "npm run plugin");
  const absent = namedFiles(folder ?? "").filter((f) => !fs.existsSync(f));
  if (absent.length) return absent.map((f) => `${path.relative(ROOT, f)} is not built (${builder(f)})`).join("; ");
  return undefined;
}

const why = missing();
if (why) {
  if (process.env.CI) throw new Error(`CI runs README.md's Python subsection, but ${why}`);
  console.warn(`skipping README.md's Python subsection: ${why}`);
}

jest.setTimeout(900_000);

describe("README.md, the native provider's Python subsection", () => {
  test("it has the build block, the program's folder, plant.py and its commands", () => {
    expect({ build: !!build, folder: !!folder, run: !!run, program: !!program }).toEqual({ build: true, folder: true, run: true, program: true });
    const built = commandLines(build).filter((c) => BUILDS.includes(c));
    expect(built).toEqual(BUILDS);
    // The build commands are the package's scripts.
    const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(["plugin", "sdk", "pulumi:path"].filter((s) => !scripts[s])).toEqual([]);
    // The archive and the wheel the folder's commands install are what the builds write.
    expect(namedFiles(folder).map((f) => path.relative(ROOT, f))).toEqual([
      expect.stringMatching(/^\.build\/plugin\/pulumi-resource-svc-v\d+\.\d+\.\d+-linux-\w+\.tar\.gz$/),
      expect.stringMatching(/^sdk\/dist\/pulumi_svc-\d+\.\d+\.\d+-py3-none-any\.whl$/),
    ]);
    expect(commandLines(run)).toEqual(["python plant.py", "python plant.py destroy"]);
    expect(program).toContain(DOCUMENTED);
  });

  (why ? test.skip : test)("run as written, up deploys the quickstart's plant to the emulator and destroy removes it", async () => {
    const emulator = await serve();
    const client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "svc-readme-python-"));
    const shell = terminal(home);
    try {
      await shell.type(["cd " + JSON.stringify(ROOT), ...commandLines(build).filter((c) => !BUILDS.includes(c)), ...commandLines(folder)]);
      fs.writeFileSync(path.join(shell.cwd(), "plant.py"), program.split(DOCUMENTED).join(emulator.baseUrl));
      const [up, destroy] = commandLines(run);

      await shell.type([up]);
      expect((await client.clusters.get({ params: { cluster_name: "plant-a" } })).title).toBe("Plant A");
      expect(await client.assets.get({ params: { asset_name: "pump-2" } })).toMatchObject({ asset_type_name: "centrifugal-pump", path: "line-1/pump-2" });
      expect((await client.workloads.get({ params: { workload_name: "pump-monitor-line-1" } })).app_version).toBe("1.1.0");
      const schedules = await client.schedules.list({ body: { states: ["scheduled"] } });
      expect(schedules.data.map((s) => s.resources)).toEqual([["krn:asset:pump-1", "krn:asset:pump-2"]]);

      await shell.type([destroy]);
      // API v4 cannot delete a cluster: destroy releases it from the stack.
      expect((await client.clusters.get({ params: { cluster_name: "plant-a" } })).title).toBe("Plant A");
      expect((await client.schedules.list({ body: { states: ["scheduled"] } })).data).toEqual([]);
      await expect(client.assets.get({ params: { asset_name: "pump-2" } })).rejects.toMatchObject({ status: 404 });
      await expect(client.workloads.get({ params: { workload_name: "pump-monitor-line-1" } })).rejects.toMatchObject({ status: 404 });
    } finally {
      await shell.exit();
      await client.close();
      emulator.process.kill("SIGTERM");
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

/** `svc-emulator serve` (as `npx svc-emulator serve` runs it) on a free port; its address once it listens. */
function serve(): Promise<{ baseUrl: string; process: ChildProcess }> {
  const proc = spawn(process.execPath, [EMULATOR, "serve", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  return new Promise((resolve, reject) => {
    proc.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const m = /listening on (http:\/\/\S+) /.exec(stdout);
      if (m) resolve({ baseUrl: m[1], process: proc });
    });
    proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    proc.once("exit", (code) => reject(new Error(`svc-emulator exited with ${code}: ${stderr}`)));
  });
}

/**
 * One bash session, as a user's terminal: `type` runs commands in it one after the other and
 * resolves when the last has ended (each followed by a marker line carrying its status and the
 * shell's folder); a failing command fails with what the session printed. $HOME is `home`; pip and
 * the CLI's build use the user's own caches, as on a machine where these ran before. The PATH loses
 * the folders holding a `pulumi-resource-svc` (the test runner's node_modules/.bin has this
 * package's): the program must use the plugin the README installs.
 */
function terminal(home: string) {
  const cache = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache");
  const PATH = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((d) => d && !fs.existsSync(path.join(d, "pulumi-resource-svc")))
    .join(path.delimiter);
  const env = {
    PATH,
    HOME: home,
    XDG_CACHE_HOME: cache,
    PIP_CACHE_DIR: path.join(cache, "pip"),
    GOPATH: process.env.GOPATH ?? path.join(os.homedir(), "go"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  const bash: ChildProcessWithoutNullStreams = spawn("bash", ["--norc", "--noprofile"], { env, cwd: home });
  let output = "";
  let folder = home;
  const waiters: Array<() => void> = [];
  bash.stdout.on("data", (d: Buffer) => {
    output += d.toString();
    waiters.splice(0).forEach((w) => w());
  });
  bash.stderr.on("data", (d: Buffer) => (output += d.toString()));
  bash.on("close", () => waiters.splice(0).forEach((w) => w()));
  let n = 0;
  return {
    cwd: () => folder,
    async type(commands: string[]) {
      for (const command of commands) {
        const marker = `@@done-${++n}@@`;
        const from = output.length;
        bash.stdin.write(`${command}\necho "${marker} $? $PWD"\n`);
        const pattern = new RegExp(`${marker} (\\d+) (.*)\\n`);
        let m: RegExpExecArray | null;
        while (!(m = pattern.exec(output.slice(from)))) {
          if (bash.exitCode !== null) throw new Error(`the shell ended at: ${command}\n${output.slice(from)}`);
          await new Promise<void>((resolve) => waiters.push(resolve));
        }
        folder = m[2];
        if (m[1] !== "0") throw new Error(`'${command}' failed (exit ${m[1]}):\n${output.slice(from)}`);
      }
    },
    exit: () =>
      new Promise<void>((resolve) => {
        if (bash.exitCode !== null) return resolve();
        bash.once("close", () => resolve());
        bash.stdin.end("exit\n");
      }),
  };
}
