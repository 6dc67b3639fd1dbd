/**
 * The shipped examples go up, re-run with no changes, update, refresh and destroy through the engine
 * kit and the real dynamic-provider host, against the provider's embedded emulator (svc:emulator),
 * as `npm run quickstart` and `pulumi up` run the quickstart. (The GitOps example as its CI runs it,
 * against a platform: gitops-ci.test.ts.)
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
  test("goes up against the embedded emulator, refreshes clean right after, re-runs clean and is destroyed", async () => {
    const stack = await testing.stack(quickstart, embedded());
    try {
      const up = await stack.up();
      expect(up.operations.filter((o) => o.op === "create")).toHaveLength(14);
      expect(stack.outputs).toMatchObject({
        cluster: "plant-a",
        clusterStatus: "online",
        latestVersion: "1.1.0",
        workloadState: "running",
        scheduleState: "scheduled",
        assetPaths: ["line-1/pump-1", "line-1/pump-2"],
      });
      expect(await stack.refresh()).toHaveNoChanges();
      expect(await stack.up()).toHaveNoChanges();
      await stack.expectNoDrift();
      // The kit checks through the API that everything but the released cluster (API v4 has no cluster delete) is gone.
      const down = await stack.destroy();
      expect(down.operations.filter((o) => o.op === "delete")).toHaveLength(14);
      expect(down.operations.filter((o) => o.released).map((o) => o.name)).toEqual(["plant-a"]);
      expect(stack.resources()).toEqual([]);
    } finally {
      await stack.close();
    }
  });

  test("runs as `npm run quickstart`, `-- --destroy`, then again: the second up takes the released cluster over", async () => {
    // The options scripts/quickstart.js uses; each run is a process of its own with its own provider host.
    const options = {
      project: "svc-quickstart",
      stack: "dev",
      config: { "svc:emulator": path.join(dir, "quickstart-emulator.json") },
      statePath: path.join(dir, "quickstart-stack.json"),
      cwd: path.join(__dirname, "../.."),
    };
    const run = async <T>(step: (stack: testing.TestStack) => Promise<T>): Promise<T> => {
      const stack = await testing.stack(quickstart, options);
      try {
        return await step(stack);
      } finally {
        await stack.close();
      }
    };
    const first = await run(async (s) => (await s.up(), s.resource("plant-a").outputs));
    const down = await run((s) => s.destroy());
    expect(down.operations.find((o) => o.name === "plant-a")).toMatchObject({ op: "delete", released: true });
    const second = await run(async (s) => {
      const up = await s.up();
      expect(up.operations.filter((o) => o.op === "create")).toHaveLength(14);
      expect(s.outputs).toMatchObject({ cluster: "plant-a", latestVersion: "1.1.0", workloadState: "running" });
      return s.resource("plant-a").outputs;
    });
    // The same cluster, taken over rather than created again.
    expect(second.created).toBe(first.created);
  });
});

describe("examples/gitops", () => {
  test("a pull request that bumps a workload's version previews as one in-place update, and up applies it", async () => {
    const desired = loadDesired(path.join(__dirname, "../../examples/gitops/workloads.yaml"));
    const stack = await testing.stack(() => Promise.resolve(gitops(desired)), embedded());
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
