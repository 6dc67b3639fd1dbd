/**
 * Issue 25 under the real `pulumi` CLI as under the kit: the refresh right after an up is empty and
 * changes nothing the next up does, for an app version whose manifest an explicit arg overrides (the
 * platform fills the manifest's defaults in), and removing `adopt: true` after an adoption is quiet;
 * a computed output that moved (a workload stopped by hand, its `running` not declared) is an update
 * of the refresh under both, which the next up leaves alone. Each engine runs the same steps against
 * an emulator of its own; their operations must agree.
 */
import * as svc from "../../src";
import { SvcClient } from "../../src/client";
import * as testing from "../../src/testing";
import { describeCli, pulumiDir } from "./harness";

testing.registerMatchers();

const program = (adopt: boolean | undefined) => () => {
  new svc.AppVersion("monitor", {
    appName: "monitor",
    version: "1.0.0",
    type: "app",
    image: "reg/app:1.1.0",
    manifest: { image: "reg/app:1.0.0", io: [{ name: "pressure", data_type: "number" }] },
  });
  new svc.Label("anomaly", { name: "anomaly", title: "Anomaly", adopt });
};

/** The operation per resource of each run, the runs being: up (adopting), refresh, preview, up without adopt, refresh, preview. */
async function play(engine: "kit" | "pulumi"): Promise<Array<Record<string, string>>> {
  const options = { emulator: true, expectEmptyPlanAfterUp: false };
  const stack = engine === "pulumi" ? await testing.stack(program(true), { ...options, engine: "pulumi", pulumiPath: pulumiDir }) : await testing.stack(program(true), options);
  try {
    const client = new SvcClient({ baseUrl: stack.emulator!.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
    await client.datalabels.labelCreate({ body: { name: "anomaly", title: "Anomaly" } });
    await client.close();
    const runs = [
      await stack.up(),
      await stack.refresh(),
      await stack.preview(),
      await stack.up(program(undefined)),
      await stack.refresh(),
      await stack.preview(program(undefined)),
    ];
    return runs.map((r) => Object.fromEntries(r.operations.map((o) => [o.name, o.op])));
  } finally {
    await stack.close();
  }
}

/** A workload stopped by hand, then refresh and preview: the operations of both runs, and what the refresh says changed. */
async function stoppedByHand(engine: "kit" | "pulumi"): Promise<unknown> {
  const workload = () => {
    const v = new svc.AppVersion("v", { appName: "app", version: "1.0.0", type: "app" });
    const c = new svc.Cluster("c", { name: "c1" });
    new svc.Workload("w", { name: "w1", appName: v.appName, appVersion: v.version, clusterName: c.name });
  };
  const stack =
    engine === "pulumi" ? await testing.stack(workload, { emulator: true, engine: "pulumi", pulumiPath: pulumiDir }) : await testing.stack(workload, { emulator: true });
  try {
    await stack.up();
    const client = new SvcClient({ baseUrl: stack.emulator!.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
    await client.workloads.stop({ body: { workload_names: ["w1"] } });
    await client.close();
    const refreshed = await stack.refresh();
    const planned = await stack.preview();
    const ops = (r: testing.RunResult) => Object.fromEntries(r.operations.map((o) => [o.name, o.op]));
    return { refresh: ops(refreshed), diffs: refreshed.operations.find((o) => o.name === "w")?.diffs, preview: ops(planned), state: stack.resource("w").outputs.state };
  } finally {
    await stack.close();
  }
}

describeCli("refresh and adoption under `pulumi` as under the kit (issue 25)", () => {
  test("the refresh after each up is empty, the plans after it are empty, and removing adopt is quiet", async () => {
    const [kit, cli] = [await play("kit"), await play("pulumi")];
    const same = { monitor: "same", anomaly: "same" };
    expect(cli).toEqual([{ monitor: "create", anomaly: "create" }, same, same, same, same, same]);
    expect(kit).toEqual(cli);
  }, 600_000);

  test("a computed output moved by hand: an update of the refresh under both, and nothing for the next up to do", async () => {
    const [kit, cli] = [await stoppedByHand("kit"), await stoppedByHand("pulumi")];
    expect(cli).toEqual({ refresh: { v: "same", c: "same", w: "update" }, diffs: ["state", "updatedAt"], preview: { v: "same", c: "same", w: "same" }, state: "stopped" });
    expect(kit).toEqual(cli);
  }, 600_000);
});
