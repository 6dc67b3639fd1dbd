/**
 * CONSUMER=full: the program's whole life through the testing kit, run from inside a consumer project
 * (see consumer.ts) with the latest @pulumi/pulumi the peer range gives and with its floor, under the
 * kit's engine and under the real one (`engine: "pulumi"`, with the CLI scripts/pulumi-cli.js builds).
 */
import path from "node:path";
import { consumerProject, FULL, fullOnly, PULUMI_LINES, runKit, stepValue, type ConsumerProject, type KitRun, type RunSummary } from "./consumer";

const cli = require("../../scripts/pulumi-cli.js") as { cliDir(): string; builtCli(): string | undefined };
const PULUMI = cli.builtCli();
if (FULL && !PULUMI) {
  if (process.env.CI) throw new Error(`CI runs the kit's engine: "pulumi" from the consumer project, but the Pulumi CLI is not built in ${cli.cliDir()}`);
  process.stderr.write(`test/consumer/lifecycle.test.ts: engine "pulumi": SKIPPED: the Pulumi CLI is not built in ${cli.cliDir()} (npm run --silent pulumi:path)\n`);
}

const PREPARE_MS = 15 * 60_000;
const RUN_MS = 5 * 60_000;

const PLANT = ["anomaly", "centrifugal-pump", "line-1", "monitor-1.0.0", "pump-1", "pump-1-power", "pump-monitor", "pumps"];
/** The types of the resources the state the CLI exported holds for the program (project/plant.ts): its kinds, as dynamic resources. */
const STATE_TYPES = ["App", "AppVersion", "Asset", "AssetClass", "AssetProperty", "AssetType", "Label"].map((k) => `pulumi-nodejs:dynamic/svc:${k}`);

/** What kit.ts's editedLife reports, on either engine: every object created, nothing changed by the re-run, the edit previewed and applied as itself, an empty refresh. */
function expectEditedLife(run: KitRun): void {
  expect(stepValue<RunSummary>(run, "up").ops).toEqual(PLANT.map((n) => `create ${n}`));
  expect(stepValue(run, "outputs")).toMatchObject({ pumpPath: "line-1/pump-1", appType: "app", storedPower: "7.5" });
  expect(stepValue<RunSummary>(run, "re-run")).toMatchObject({ changes: 0, totals: { same: PLANT.length } });
  const edit = ["update line-1 (title)", "update pump-1-power (value)"];
  expect(stepValue<RunSummary>(run, "preview of the edit").ops).toEqual(edit);
  const applied = stepValue<RunSummary>(run, "up of the edit");
  expect(applied.ops).toEqual(edit);
  expect(applied.outputs).toMatchObject({ storedPower: "9" });
  expect(stepValue(run, "line title on the platform")).toBe("Line 1 (north hall)");
  expect(stepValue<RunSummary>(run, "refresh")).toMatchObject({ changes: 0, ops: [] });
}

const SKIPPED = fullOnly("test/consumer/lifecycle.test.ts: the program's whole life from a consumer project");

(FULL ? describe.each(PULUMI_LINES) : describe.skip.each(PULUMI_LINES))(`@pulumi/pulumi %s${SKIPPED}`, (line) => {
  let project: ConsumerProject;

  beforeAll(async () => {
    project = await consumerProject(line);
  }, PREPARE_MS);

  test(
    "up, identical re-run, edit (previewed, then applied), refresh, destroy, up again after destroy, destroy",
    async () => {
      const run = await runKit(project, "life");
      expect(run.pulumi).toBe(project.pulumiVersion);
      expectEditedLife(run);
      expect(stepValue<RunSummary>(run, "destroy").ops).toEqual(PLANT.map((n) => `delete ${n}`));
      expect(stepValue(run, "exists after destroy")).toBe(false);
      expect(stepValue<RunSummary>(run, "up after destroy").ops).toEqual(PLANT.map((n) => `create ${n}`));
      expect(stepValue(run, "exists after up again")).toBe(true);
      expect(stepValue<RunSummary>(run, "destroy again").ops).toEqual(PLANT.map((n) => `delete ${n}`));
    },
    RUN_MS,
  );

  (PULUMI ? test : test.skip)(
    `the same life under the real engine (engine: "pulumi"): up, identical re-run, edit (previewed, then applied), refresh, destroy; no secret in the backend${PULUMI ? "" : " (SKIPPED: the Pulumi CLI is not built)"}`,
    async () => {
      const run = await runKit(project, "pulumi", { SVC_PULUMI_DIR: path.dirname(PULUMI!) });
      expectEditedLife(run);
      expect(stepValue(run, "state types")).toEqual(STATE_TYPES);
      expect(stepValue(run, "client secret in the backend's files")).toEqual([]);
      expect(stepValue<RunSummary>(run, "destroy").ops).toEqual(PLANT.map((n) => `delete ${n}`));
      expect(stepValue(run, "exists after destroy")).toBe(false);
    },
    RUN_MS,
  );

  test(
    "importResource reads an object made outside the program into the state; declaring it then changes nothing",
    async () => {
      const run = await runKit(project, "import");
      stepValue(run, "up");
      expect(stepValue(run, "create outside the program")).toBe("legacy");
      expect(stepValue(run, "importResource")).toEqual({ id: "legacy", type: "pulumi-nodejs:dynamic/svc:Label", title: "Legacy" });
      expect(stepValue<RunSummary>(run, "up declaring it")).toMatchObject({ changes: 0, totals: { same: PLANT.length + 1 } });
      expect(stepValue<RunSummary>(run, "destroy").ops).toContain("delete legacy");
      expect(stepValue(run, "legacy label after destroy")).toBe(false);
    },
    RUN_MS,
  );

  test(
    "lookups in the program read what the provider's embedded emulator (svc:emulator) holds",
    async () => {
      const run = await runKit(project, "lookup");
      stepValue(run, "up");
      stepValue(run, "up with lookups");
      expect(stepValue(run, "looked up")).toEqual({ found: "pump-1 in line-1", listed: ["line-1", "pump-1"] });
      expect(stepValue<RunSummary>(run, "destroy").ops).toEqual(PLANT.map((n) => `delete ${n}`));
    },
    RUN_MS,
  );

  test(
    "a stack with a cluster (released, not deleted, on destroy) goes up again after destroy",
    async () => {
      const run = await runKit(project, "cluster");
      expect(stepValue<RunSummary>(run, "up").ops).toEqual(["create anomaly", "create plant-a"]);
      // Destroy releases the cluster, and its check through the API accepts that the cluster stays.
      expect(stepValue<RunSummary>(run, "destroy").ops).toEqual(["delete anomaly", "delete plant-a"]);
      expect(stepValue(run, "cluster after destroy")).toBe("plant-a");
      expect(stepValue<RunSummary>(run, "up after destroy").outputs).toMatchObject({ cluster: "plant-a", label: "anomaly" });
      stepValue(run, "destroy again");
    },
    RUN_MS,
  );
  test(
    "a week of use (issue 25): refresh right after an up is empty, drift is named, mistakes are refused or warned, the state is locked",
    async () => {
      const run = await runKit(project, "week");
      expect(stepValue<RunSummary>(run, "up").ops).toEqual(["create monitor", "create pump", "create pump-1"]);
      expect(stepValue<RunSummary>(run, "refresh right after")).toMatchObject({ changes: 0, ops: [] });
      expect(stepValue<RunSummary>(run, "preview after the refresh")).toMatchObject({ changes: 0, ops: [] });
      expect(stepValue<string>(run, "refresh of a drift")).toMatch(/title: "Pump 1" => "Renamed by hand"/);
      expect(stepValue<string>(run, "a mistyped arg")).toMatch(/locaton.*did you mean location\?/);
      expect(stepValue<string[]>(run, "a mistyped config key")).toEqual([
        expect.stringMatching(/^svc:emulater is not a setting of pulumi-svc and is ignored; did you mean svc:emulator\?/),
      ]);
      expect(stepValue<string>(run, "a second stack on a locked state")).toMatch(/is locked by process \d+ on /);
    },
    RUN_MS,
  );
});
