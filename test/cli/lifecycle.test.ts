/**
 * The quickstart's whole life under the real `pulumi` CLI (a local file backend, passphrase secrets):
 * preview, up, an identical re-run, an edit and its preview, refresh, refresh then up, destroy, up
 * after destroy, and taking an object over with `adopt: true`. Each command starts its own
 * dynamic-provider host, as it does for users.
 */
import * as svc from "../../src";
import { SvcClient } from "../../src/client";
import * as testing from "../../src/testing";
import { quickstart } from "../../examples/quickstart/program";
import { describeCli, pulumiDir } from "./harness";

testing.registerMatchers();

describeCli("the quickstart under `pulumi`", () => {
  let stack: testing.CliStack;
  let client: SvcClient;
  beforeAll(async () => {
    stack = await testing.stack(quickstart, { engine: "pulumi", pulumiPath: pulumiDir, emulator: true, project: "svc-quickstart", stack: "dev" });
    client = new SvcClient({ baseUrl: stack.emulator!.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  });
  afterAll(async () => {
    await client?.close();
    await stack?.close();
  });

  const withLabel = (title: string) => () => {
    const outputs = quickstart();
    new svc.Label("anomaly", { name: "anomaly", title });
    return outputs;
  };

  test("preview plans every create; up creates them and the preview after it is empty", async () => {
    const planned = await stack.preview();
    expect(planned.totals).toEqual({ create: 14 });
    const up = await stack.up();
    expect(up.totals).toEqual({ create: 14 });
    expect(stack.outputs).toMatchObject({ cluster: "plant-a", latestVersion: "1.1.0", workloadState: "running", scheduleState: "scheduled" });
    expect(stack.resource("pump-monitor-line-1").outputs).toMatchObject({ name: "pump-monitor-line-1", appVersion: "1.1.0", clusterName: "plant-a" });
  });

  test("an identical re-run changes nothing; refresh right after finds nothing", async () => {
    expect(await stack.up()).toHaveNoChanges();
    const refreshed = await stack.refresh();
    expect(refreshed.operations.filter((o) => o.op !== "same")).toEqual([]);
    expect(await stack.preview()).toHaveNoChanges();
  });

  test("an edit: the preview names the change, the up makes it, the next preview is empty", async () => {
    const added = await stack.preview(withLabel("Anomaly"));
    expect(added).toHaveActions({ anomaly: "create" });
    await stack.up();
    const edited = await stack.preview(withLabel("Anomalies"));
    expect(edited).toHaveActions({ anomaly: "update" });
    expect(edited.operations.find((o) => o.name === "anomaly")?.diffs).toEqual(["title"]);
    await stack.up();
    expect((await client.datalabels.labelGet({ params: { label_name: "anomaly" } })).title).toBe("Anomalies");
  });

  test("drift made by hand: refresh takes it in, the next up puts the declared value back", async () => {
    await client.datalabels.labelUpdate({ params: { label_name: "anomaly" }, body: { title: "Changed by hand" } });
    const refreshed = await stack.refresh();
    expect(refreshed.operations.filter((o) => o.op !== "same").map((o) => o.name)).toEqual(["anomaly"]);
    const up = await stack.up();
    expect(up).toHaveActions({ anomaly: "update" });
    expect((await client.datalabels.labelGet({ params: { label_name: "anomaly" } })).title).toBe("Anomalies");
  });

  test("destroy deletes everything but the released cluster; up after destroy takes the cluster over", async () => {
    const down = await stack.destroy();
    expect(down.totals.delete).toBe(15);
    expect(stack.resources()).toEqual([]);
    expect((await client.clusters.list()).data.map((c) => c.name)).toEqual(["plant-a"]);
    expect((await client.apps.list()).data).toEqual([]);
    const again = await stack.up(quickstart);
    expect(again.totals).toEqual({ create: 14 });
  });

  test("adopt: true takes an existing object over, without writing to it", async () => {
    await client.assets.classCreate({ body: { name: "valves", title: "Valves" } });
    const before = await client.assets.classGet({ params: { asset_class_name: "valves" } });
    const adopting = () => {
      const outputs = quickstart();
      new svc.AssetClass("valves", { name: "valves", title: "Valves", adopt: true });
      return outputs;
    };
    expect(await stack.up(adopting)).toHaveActions({ valves: "create" });
    expect(await client.assets.classGet({ params: { asset_class_name: "valves" } })).toEqual(before);
    await stack.destroy();
  });
});
