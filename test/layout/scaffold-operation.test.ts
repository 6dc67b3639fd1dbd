/**
 * `npm run new:operation` and `npm run new:area` (scripts/new-operation.js, scripts/new-area.js), run
 * in one copy of the sources in a temporary folder: the row new:operation adds takes what the spec's
 * row says (a spec of two rows written here), an operation the spec lacks is declared from the facts
 * file, an area new:area adds has the emulator's layout and takes operations; what they wrote
 * type-checks (one type-check for all, the costly step), and each generated test runs and fails
 * saying what to fill in. Refusals write nothing. The repository's files are left as they were.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

/** What the copy holds: the sources, what the scaffold and the generated tests need, the configuration. */
const COPIED = [
  "src",
  "test/helpers",
  "test/emulator/layout.test.ts",
  "test/api/spec-operations.json",
  "scripts/new-operation.js",
  "scripts/new-area.js",
  "scripts/extract-spec-rows.js",
  "tsconfig.json",
  "jest.config.js",
  ".prettierrc.json",
  ".prettierignore",
  "package.json",
];

/** A spec of two documents, each with one operation the table does not have yet. */
const SPEC = {
  "platform-api-part-1.md": [
    "### Apps",
    "",
    "| Method | Path | Input | Success | Errors | Permission |",
    "|---|---|---|---|---|---|",
    "| POST | /apps/{app_name}/archive | body AppPatch | 200, App | 400,401,404,409 | app.update |",
  ],
  "platform-api-part-2.md": [
    "### Bridges",
    "",
    "| Method | Path | Input | Result | Permission |",
    "|---|---|---|---|---|",
    "| POST | /bridges/{bridge_name}/restart | none | empty | bridge.update |",
  ],
};

/**
 * The copy's folder: the same for every run from this repository, so that the type-check's
 * incremental record (beside it, kept between runs) finds the same files again and checks only what
 * changed (about 3 s of CPU instead of 15).
 */
const dir = join(tmpdir(), `pulumi-svc-scaffold-${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}`);
const specDir = join(dir, "spec");
const gitStatus = () => spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: ROOT, encoding: "utf8" }).stdout;
const statusBefore = gitStatus();

function run(script: string, args: string[]) {
  return spawnSync(process.execPath, [script, ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, SVC_SPEC_DIR: specDir } });
}
const scaffold = (...args: string[]) => run("scripts/new-operation.js", args);
const newArea = (...args: string[]) => run("scripts/new-area.js", args);
const read = (file: string) => readFileSync(join(dir, file), "utf8");

beforeAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const p of COPIED) cpSync(join(ROOT, p), join(dir, p), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  mkdirSync(specDir);
  for (const [file, lines] of Object.entries(SPEC)) writeFileSync(join(specDir, file), lines.join("\n") + "\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run new:operation", () => {
  test("refuses, writing nothing: a POST that does not say its effect, a route the table has, a permission other than the spec's", () => {
    const before = read("src/api/bridges.ts");
    const refusals = [
      scaffold("bridges", "restart", "POST", "/bridges/{bridge_name}/restart"),
      scaffold("bridges", "getAgain", "GET", "/bridges/{bridge_name}/get", "bridge.read"),
      scaffold("bridges", "restart", "POST", "/bridges/{bridge_name}/restart", "bridge.delete", "--effect", "action"),
    ];
    expect(refusals.map((r) => [r.status, r.stderr.trim()])).toEqual([
      [2, expect.stringContaining("a POST says what it does: --effect")],
      [2, "new:operation: GET /bridges/{bridge_name}/get is already a row of src/api/bridges.ts"],
      [2, "new:operation: the spec gives POST /bridges/{bridge_name}/restart the permission bridge.update, not bridge.delete"],
    ]);
    expect(read("src/api/bridges.ts")).toBe(before);
  });

  test("writes the row from the spec's row: its permission, part, body and answer schemas, status and errors", () => {
    const r = scaffold("apps", "archive", "POST", "/apps/{app_name}/archive", "--effect", "update", "--summary", "Archive an app");
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain('apps.archive: POST /apps/{app_name}/archive, app.update, update (from platform-api-part-1.md ("Apps"))');
    const row = read("src/api/apps.ts").split("  archive: endpoint({")[1];
    expect(row.slice(0, row.indexOf("}),"))).toBe(
      [
        "",
        '    method: "POST",',
        '    effect: "update",',
        '    path: "/apps/{app_name}/archive",',
        '    permission: "app.update",',
        '    summary: "Archive an app",',
        "    params: appParams,",
        "    body: AppPatch,",
        "    success: { status: 200, body: App },",
        "    errors: [400, 401, 404, 409],",
        "  ",
      ].join("\n"),
    );
    expect(read("test/emulator/apps-archive.test.ts")).toContain("| POST | /apps/{app_name}/archive | body AppPatch | 200, App | 400,401,404,409 | app.update |");
  });

  test("declares an operation the spec lacks from the facts file, in an area whose routes come from other files too", () => {
    const r = scaffold("assets", "typesExport", "GET", "/assets/types/export", "asset_type.read");
    expect(r.stderr).toBe("");
    expect(read("src/api/assets.ts")).toMatch(/typesExport: endpoint\(\{[^}]*source: "facts",\s+permission: "asset_type\.read"/);
    expect(read("src/emulator/areas/assets/routes.ts")).toContain("route(ep.typesExport, () => {");
    expect(scaffold("bridges", "restart", "POST", "/bridges/{bridge_name}/restart", "--effect", "action").status).toBe(0);
  });
});

describe("npm run new:area", () => {
  test("refuses an area that exists, writing nothing", () => {
    const before = read("src/api/endpoints.ts");
    const r = newArea("bridges", "part2");
    expect([r.status, r.stderr]).toEqual([2, expect.stringContaining("new:area: the area bridges exists already: src/api/bridges.ts")]);
    expect(read("src/api/endpoints.ts")).toBe(before);
  });

  test("adds the area's table file, its emulator folder and its lines in both records; new:operation then adds its operations", () => {
    const r = newArea("gateways", "part2", "--title", "Gateways");
    expect(r.stderr).toBe("");
    expect(read("src/api/gateways.ts")).toContain('export const gateways = area("gateways", "part2", {});');
    expect(read("src/api/endpoints.ts")).toMatch(/readonly gateways: typeof gateways;\n\}>;[^]*\n {2}gateways,\n\};/);
    expect(read("src/emulator/areas/index.ts")).toMatch(/import \{ area as gateways \} from "\.\/gateways\/routes";[^]*\n {2}gateways,\n\};/);
    const op = scaffold("gateways", "restart", "POST", "/gateways/{gateway_name}/restart", "gateway.update", "--effect", "action");
    expect(op.stderr).toBe("");
    expect(read("src/api/gateways.ts")).toContain("params: z.object({ gateway_name: z.string().min(1) }),");
  });
});

describe("what the scaffolds wrote", () => {
  test("type-checks; every generated test runs and fails saying what to fill in; the new area has the emulator's layout", () => {
    const generated = [
      "test/emulator/apps-archive.test.ts",
      "test/emulator/assets-types-export.test.ts",
      "test/emulator/bridges-restart.test.ts",
      "test/emulator/gateways-restart.test.ts",
    ];
    // The table, the client and the emulator (each area's routes) with the generated tests: what the rows reach.
    const files = ["src/api/index.ts", "src/client/index.ts", "src/emulator/index.ts", ...generated];
    writeFileSync(join(dir, "tsconfig.scaffold.json"), JSON.stringify({ extends: "./tsconfig.json", include: [], files }));
    const tsc = spawnSync(
      process.execPath,
      [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.scaffold.json", "--noEmit", "--incremental", "--tsBuildInfoFile", `${dir}.tsbuildinfo`],
      {
        cwd: dir,
        encoding: "utf8",
      },
    );
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);

    const results = join(dir, "results.json");
    const layout = "test/emulator/layout.test.ts";
    spawnSync(process.execPath, [require.resolve("jest/bin/jest"), "--maxWorkers=1", "--ci", "--json", "--outputFile", results, ...generated, layout], {
      cwd: dir,
      encoding: "utf8",
    });
    const run = JSON.parse(readFileSync(results, "utf8")) as {
      numRuntimeErrorTestSuites: number;
      testResults: Array<{ name: string; assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }>;
    };
    expect(run.numRuntimeErrorTestSuites).toBe(0);
    const written = generated.reduce((n, f) => n + (read(f).match(/^ {2}test\(/gm) ?? []).length, 0);
    const [layoutRun, ...generatedRuns] = [run.testResults.find((s) => s.name.endsWith(layout))!, ...run.testResults.filter((s) => !s.name.endsWith(layout))];
    expect(layoutRun.assertionResults.filter((a) => a.status !== "passed").map((a) => [a.fullName, a.failureMessages])).toEqual([]);
    const outcomes = generatedRuns.flatMap((s) => s.assertionResults.map((a) => [a.fullName, a.status, /fill in: .+ \(it answers 501 now\)/.test(a.failureMessages[0] ?? "")]));
    expect(outcomes).toHaveLength(written);
    expect(outcomes.filter(([, status, says]) => status !== "failed" || !says)).toEqual([]);
  }, 300_000);
});

describe("the repository", () => {
  test("its files are as they were", () => {
    expect(gitStatus()).toBe(statusBefore);
  });
});
