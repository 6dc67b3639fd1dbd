/**
 * Installing without the npm registry, which does not have pulumi-svc yet: the program that the
 * installed `svc-emulator generate` writes, and the GitOps example copied from the install, each
 * install with `npm install` from the source their package.json names, then compile under their own
 * tsconfig.json (Pulumi's template) against what was installed.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { consumerProject, packTarball, runNode, type ConsumerProject } from "./consumer";

const run = promisify(execFile);
const PREPARE_MS = 15 * 60_000;
const RUN_MS = 10 * 60_000;

const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };
const VENDORED = `file:vendor/pulumi-svc-${version}.tgz`;

/** `npm install` in `dir` (from the cache where it can), then the folder's own tsc over its own tsconfig.json. */
async function installAndCompile(dir: string): Promise<{ installed: string; tsc: string }> {
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: dir, maxBuffer: 64 << 20 }).catch((e: Error & { stderr?: string }) => {
    throw new Error(`npm install in ${dir} failed: ${e.stderr ?? e.message}`);
  });
  const installed = (JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "pulumi-svc", "package.json"), "utf8")) as { version: string }).version;
  const tsc = await run(process.execPath, [path.join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", dir, "--noEmit", "--pretty", "false"], { cwd: dir }).then(
    () => "",
    (e: { stdout?: string; message: string }) => e.stdout || e.message,
  );
  return { installed, tsc };
}

describe("installing pulumi-svc without the registry", () => {
  let project: ConsumerProject;
  let work: string;

  beforeAll(async () => {
    project = await consumerProject("latest");
    work = fs.mkdtempSync(path.join(os.tmpdir(), "svc-install-"));
  }, PREPARE_MS);
  afterAll(() => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test(
    "the installed `svc-emulator generate` writes a program whose package.json installs pulumi-svc (packed into vendor/) and which compiles",
    async () => {
      const installed = path.join(project.dir, "node_modules", "pulumi-svc");
      const out = path.join(work, "infra");
      const generate = await runNode(project, [
        path.join(installed, "dist", "cli", "svc-emulator.js"),
        "generate",
        "--from",
        path.join(installed, "examples", "fixtures", "plant.yaml"),
        "--out",
        out,
      ]);
      expect(generate.stderr).toBe("");
      expect(generate.code).toBe(0);
      const pkg = JSON.parse(fs.readFileSync(path.join(out, "package.json"), "utf8")) as { dependencies: Record<string, string> };
      expect(pkg.dependencies["pulumi-svc"]).toBe(VENDORED);
      expect(await installAndCompile(out)).toEqual({ installed: version, tsc: "" });
    },
    RUN_MS,
  );

  test(
    "the GitOps example, copied from the install with the packed package where its package.json says, installs and compiles",
    async () => {
      const out = path.join(work, "gitops");
      fs.cpSync(path.join(project.dir, "node_modules", "pulumi-svc", "examples", "gitops"), out, { recursive: true });
      const pkg = JSON.parse(fs.readFileSync(path.join(out, "package.json"), "utf8")) as { dependencies: Record<string, string> };
      // The example names this version's tarball: bumping the version means updating the example.
      expect(pkg.dependencies["pulumi-svc"]).toBe(VENDORED);
      expect(fs.existsSync(path.join(out, ".github", "workflows", "pulumi.yml"))).toBe(true);
      fs.mkdirSync(path.join(out, "vendor"));
      fs.writeFileSync(path.join(out, VENDORED.slice("file:".length)), (await packTarball()).tarball);
      expect(await installAndCompile(out)).toEqual({ installed: version, tsc: "" });
    },
    RUN_MS,
  );
});
