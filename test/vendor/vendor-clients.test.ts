/**
 * The vendor's own Python clients against the emulator over real HTTP: `kelvin-python-api-client`
 * (the current generation) and `kelvin-sdk-client` (the previous one) run every operation they share
 * with the emulator through their own models (test/vendor/test_*_client.py, pytest). Any failure fails
 * this test; each difference the emulator keeps on purpose is an expected failure there (strict, so a
 * change of the emulator shows) and a row of the README's table, which this test checks.
 *
 * The clients live in Python environments that scripts/vendor-clients/setup.sh creates outside the
 * repository ($SVC_VENDOR_VENV, else ~/.cache/pulumi-svc/vendor-venv). Without them the test says so
 * and skips; in CI (CI set) it fails instead.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";

const venv = process.env.SVC_VENDOR_VENV ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-svc", "vendor-venv");
const SUITES = [
  { client: "kelvin-python-api-client", env: "api", file: "test_api_client.py" },
  { client: "kelvin-sdk-client", env: "sdk", file: "test_sdk_client.py" },
] as const;
const pythonOf = (env: string) => join(venv, env, "bin", "python");
const missing = SUITES.filter((s) => !existsSync(pythonOf(s.env)));

interface Result {
  test: string;
  operations: string[];
  outcome: "passed" | "failed" | "skipped" | "xfailed";
  reason: string | null;
  message: string | null;
}

/** Runs one suite with pytest against the emulator: its exit code, output and per-test results. */
function runSuite(emu: Emulator, env: string, file: string): Promise<{ code: number; output: string; results: Result[] }> {
  const dir = mkdtempSync(join(tmpdir(), "vendor-report-"));
  const report = join(dir, "report.json");
  return new Promise((resolve) => {
    execFile(
      pythonOf(env),
      ["-m", "pytest", "-p", "no:cacheprovider", "-q", "-rfE", file],
      {
        cwd: __dirname,
        // No bytecode caches in the repository; the report goes to a temporary folder.
        env: { ...process.env, SVC_BASE_URL: emu.baseUrl, SVC_VENDOR_REPORT: report, PYTHONDONTWRITEBYTECODE: "1" },
        timeout: 300_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const results = existsSync(report) ? (JSON.parse(readFileSync(report, "utf8")) as { results: Result[] }).results : [];
        rmSync(dir, { recursive: true, force: true });
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: stdout + stderr, results });
      },
    );
  });
}

/** The test ids the README's table "Where the emulator differs from the vendor's clients" lists. */
function readmeRows(): Set<string> {
  const readme = readFileSync(join(__dirname, "..", "..", "README.md"), "utf8");
  const section = readme.split(/^### Where the emulator differs from the vendor's clients$/m)[1]?.split(/^#{2,3} /m)[0] ?? "";
  return new Set([...section.matchAll(/`(test_\w+\.py::test_\w+)`/g)].map((m) => m[1]));
}

if (missing.length > 0 && process.env.CI) {
  test("the vendor clients' environments exist (CI)", () => {
    throw new Error(`no Python environment for ${missing.map((s) => s.client).join(", ")} under ${venv}: run scripts/vendor-clients/setup.sh first`);
  });
} else if (missing.length > 0) {
  console.warn(
    `SKIPPED: the vendor clients' tests (test/vendor) need their Python environments under ${venv} ` +
      `(missing: ${missing.map((s) => s.env).join(", ")}); create them with scripts/vendor-clients/setup.sh`,
  );
  test.skip("the vendor's Python clients against the emulator (no Python environment; see the warning above)", () => undefined);
} else {
  describe("the vendor's Python clients against the emulator", () => {
    let emu: Emulator;
    const all: Array<Result & { suite: string }> = [];
    beforeAll(async () => {
      emu = await startEmulator({ log: () => undefined });
    });
    afterAll(async () => {
      await emu?.close();
    });

    test.each(SUITES)(
      "$client: every shared operation is accepted and its answer parses with the client's models",
      async ({ client, env, file }) => {
        const run = await runSuite(emu, env, file);
        all.push(...run.results.map((r) => ({ ...r, suite: client })));
        const failed = run.results.filter((r) => r.outcome === "failed").map((r) => `${r.test}\n${r.message}`);
        const operations = new Set(run.results.flatMap((r) => r.operations));
        const count = (o: Result["outcome"]) => run.results.filter((r) => r.outcome === o).length;
        console.log(
          `${client}: ${operations.size} operations in ${run.results.length} tests: ${count("passed")} passed, ${count("xfailed")} expected differences, ${count("failed")} failed`,
        );
        expect(failed).toEqual([]);
        expect(run.results.length).toBeGreaterThan(0);
        if (run.code !== 0) throw new Error(`pytest exited with ${run.code}:\n${run.output.slice(-4000)}`);
      },
      300_000,
    );

    test("every expected difference is a row of the README's table, and every row one of them", () => {
      const expected = all.filter((r) => r.outcome === "xfailed").map((r) => r.test.replace(/^.*\//, ""));
      expect(expected.length).toBeGreaterThan(0);
      expect([...readmeRows()].sort()).toEqual([...new Set(expected)].sort());
    });
  });
}
