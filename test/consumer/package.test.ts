/**
 * The package as users install it: packed, installed into a fresh project made from Pulumi's
 * TypeScript template, compiled by that project's TypeScript under the template's tsconfig and under
 * node16 (and bundler with CONSUMER=full) resolution, and run from there through the testing kit.
 *
 * Fast form (npm test): the latest @pulumi/pulumi the peer range gives. CONSUMER=full: also the floor
 * of the peer range, exactly.
 */
import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import {
  consumerProject,
  EXAMPLES,
  FULL,
  fullOnly,
  peerRange,
  PULUMI_LINES,
  pulumiSpec,
  runKit,
  runNode,
  stepValue,
  TEMPLATE_TSCONFIG,
  typeCheck,
  type ConsumerProject,
  type RunSummary,
} from "./consumer";

const PREPARE_MS = 15 * 60_000;
const RUN_MS = 5 * 60_000;

const PLANT = ["anomaly", "centrifugal-pump", "line-1", "monitor-1.0.0", "pump-1", "pump-1-power", "pump-monitor", "pumps"];
const BUNDLER_SKIPPED = fullOnly("test/consumer/package.test.ts: moduleResolution bundler");

describe.each(PULUMI_LINES)("@pulumi/pulumi %s", (line) => {
  let project: ConsumerProject;

  beforeAll(async () => {
    project = await consumerProject(line);
  }, PREPARE_MS);

  test("npm installs the version the peer range gives", () => {
    if (line === "floor") expect(project.pulumiVersion).toBe(pulumiSpec("floor"));
    else expect(semver.satisfies(project.pulumiVersion, peerRange)).toBe(true);
  });

  test("Pulumi's TypeScript template compiles the program and a test of every entry point without errors", async () => {
    const result = await typeCheck(project, "template");
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
  });

  test(
    "module and moduleResolution node16 compile them without errors",
    async () => {
      const result = await typeCheck(project, "node16");
      expect(result.output).toBe("");
      expect(result.code).toBe(0);
    },
    RUN_MS,
  );

  (FULL ? test : test.skip)(
    `moduleResolution bundler compiles them without errors${BUNDLER_SKIPPED}`,
    async () => {
      const result = await typeCheck(project, "bundler");
      expect(result.output).toBe("");
      expect(result.code).toBe(0);
    },
    RUN_MS,
  );

  test.each(EXAMPLES)(
    "the shipped example %s compiles under Pulumi's TypeScript template against the installed package",
    async (name) => {
      const result = await typeCheck(project, `example-${name}`);
      expect(result.output).toBe("");
      expect(result.code).toBe(0);
    },
    RUN_MS,
  );

  test("an example that is a project of its own (a tsconfig.json of its own) ships the template's tsconfig.json", () => {
    const own = EXAMPLES.filter((name) => fs.existsSync(path.join(__dirname, "../../examples", name, "tsconfig.json")));
    expect(own).toContain("gitops");
    for (const name of own) expect(fs.readFileSync(path.join(__dirname, "../../examples", name, "tsconfig.json"), "utf8")).toBe(TEMPLATE_TSCONFIG);
  });

  test(
    "pulumi up's own compiler (the ts-node and TypeScript @pulumi/pulumi vendors for projects without one) type-checks and loads the program",
    async () => {
      const vendor = path.join(project.dir, "node_modules", "@pulumi", "pulumi", "vendor");
      const tsNode = fs.readdirSync(vendor).find((d) => d.startsWith("ts-node@"));
      const typescript = fs.readdirSync(vendor).find((d) => d.startsWith("typescript@"));
      expect({ tsNode, typescript }).toEqual({ tsNode: expect.any(String), typescript: expect.any(String) });
      // As cmd/run of @pulumi/pulumi registers ts-node (type checking on), then requires the program;
      // without ts-node's output cache, whose key leaves out the declarations the program imports.
      const register = { compiler: path.join(vendor, typescript!, "typescript.js"), project: "tsconfig.json", compilerOptions: {}, cache: false };
      const script = `require(${JSON.stringify(path.join(vendor, tsNode!))}).register(${JSON.stringify(register)}); require("./index.ts"); console.log("loaded");`;
      const out = await runNode(project, ["-e", script]);
      expect(out.stderr).toBe("");
      expect(out.stdout.trim()).toBe("loaded");
    },
    RUN_MS,
  );

  test(
    "a stack trace (--enable-source-maps) names the package's source files, and their text is installed",
    async () => {
      const script = 'try { new (require("pulumi-svc/client").SvcClient)({ baseUrl: "not a url", token: "t" }); } catch (e) { console.log(e.stack); }';
      const out = await runNode(project, ["--enable-source-maps", "-e", script]);
      expect(out.stderr).toBe("");
      const frames = [...out.stdout.matchAll(/at (?:new )?([\w.$]+) \((\/[^()]*?node_modules\/pulumi-svc\/[^():]+):(\d+):\d+\)/g)].map((m) => ({
        fn: m[1],
        file: m[2],
        line: Number(m[3]),
      }));
      expect(frames.length).toBeGreaterThan(0);
      for (const f of frames) {
        expect(path.relative(path.join(project.dir, "node_modules", "pulumi-svc"), f.file)).toMatch(/^src\/.+\.ts$/);
        expect(fs.existsSync(f.file)).toBe(true);
        const lines = fs.readFileSync(f.file, "utf8").split("\n");
        expect(lines.length).toBeGreaterThanOrEqual(f.line);
        expect(lines[f.line - 1].trim()).not.toBe("");
        // The frame's function is defined in the file the trace names.
        expect(lines.join("\n")).toContain(f.fn.split(".").pop());
      }
    },
    RUN_MS,
  );

  test(
    "the project's jest runs a kit test under pulumi-svc/testing/jest-environment (project/jest.config.js)",
    async () => {
      const out = await runNode(project, [path.join("node_modules", "jest", "bin", "jest.js"), "--ci", "--colors=false"]);
      expect({ code: out.code, output: out.stderr }).toEqual({ code: 0, output: expect.stringContaining("Tests:       1 passed, 1 total") });
      expect(out.stderr).toContain("PASS ./environment.test.js");
    },
    RUN_MS,
  );

  test(
    "the kit deploys the program from inside the project, re-runs it unchanged and destroys it",
    async () => {
      const run = await runKit(project, "short");
      expect(run.pulumi).toBe(project.pulumiVersion);
      expect(run.node).toBe(process.version);
      const up = stepValue<RunSummary>(run, "up");
      expect(up.ops).toEqual(PLANT.map((n) => `create ${n}`));
      expect(stepValue(run, "outputs")).toMatchObject({ pumpPath: "line-1/pump-1", appType: "app", storedPower: "7.5", assetTypeTitle: "Centrifugal pump" });
      expect(stepValue(run, "exists after up")).toBe(true);
      expect(stepValue<RunSummary>(run, "re-run")).toMatchObject({ changes: 0, totals: { same: PLANT.length } });
      expect(stepValue<RunSummary>(run, "destroy").ops).toEqual(PLANT.map((n) => `delete ${n}`));
      expect(stepValue(run, "exists after destroy")).toBe(false);
    },
    RUN_MS,
  );
});
