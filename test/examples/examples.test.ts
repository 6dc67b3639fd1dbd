/**
 * The shipped examples go up, re-run with no changes, update, refresh and destroy through the engine
 * kit and the real dynamic-provider host, against the provider's embedded emulator (svc:emulator),
 * as `npm run quickstart` and `pulumi up` run them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as testing from "../../src/testing";
import { quickstart } from "../../examples/quickstart/program";
import { gitops, loadDesired } from "../../examples/gitops/program";

testing.registerMatchers();

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-example-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The embedded emulator keeps its state in a file, as `svc:emulator: <path>` asks. */
const embedded = () => ({ config: { "svc:emulator": path.join(dir, "emulator.json") }, statePath: path.join(dir, "stack.json") });

describe("examples/quickstart", () => {
  test("goes up against the embedded emulator, re-runs clean, refreshes without drift and is destroyed", async () => {
    // API v4 has no cluster delete: the quickstart's cluster stays on the platform after destroy.
    const stack = await testing.stack(quickstart, { ...embedded(), checkDestroy: false });
    try {
      const up = await stack.up();
      expect(up.operations.filter((o) => o.op === "create")).toHaveLength(14);
      expect(stack.outputs).toMatchObject({ cluster: "plant-a", clusterStatus: "online", workloadState: "running", scheduleState: "scheduled", assetPaths: ["line-1/pump-1", "line-1/pump-2"] });
      expect(await stack.up()).toHaveNoChanges();
      await stack.expectNoDrift();
      const down = await stack.destroy();
      expect(down.operations.filter((o) => o.op === "delete")).toHaveLength(14);
      expect(stack.resources()).toEqual([]);
    } finally {
      await stack.close();
    }
  });
});

describe("examples/gitops", () => {
  test("a pull request that bumps a workload's version previews as one in-place update, and up applies it", async () => {
    const desired = loadDesired(path.join(__dirname, "../../examples/gitops/workloads.yaml"));
    const stack = await testing.stack(() => Promise.resolve(gitops(desired)), { ...embedded(), checkDestroy: false });
    try {
      await stack.up();
      expect(await stack.preview()).toHaveNoChanges();
      const bumped = { ...desired, workloads: desired.workloads.map((w) => (w.name === "belt-monitor-hall-2" ? { ...w, version: "2.1.0" } : w)) };
      const next = () => Promise.resolve(gitops(bumped));
      const preview = await stack.preview(next);
      expect(preview).toHaveActions({ "belt-monitor-hall-2": "update", "belt-monitor-hall-1": "same" });
      expect(preview.operations.find((o) => o.name === "belt-monitor-hall-2")?.diffs).toEqual(["appVersion"]);
      await stack.up(next);
      expect(stack.resource("belt-monitor-hall-2").outputs.appVersion).toBe("2.1.0");
      await stack.expectNoDrift();
      await stack.destroy();
      expect(stack.resources()).toEqual([]);
    } finally {
      await stack.close();
    }
  });
});
