/**
 * The Workload resource through staged rollouts that take time, against the emulator's edge (its
 * package downloads take `packageMs` on the emulator's clock, which the tests move instead of
 * waiting): `up` waits for a `staged+instant-apply` version until the platform applied it, fails
 * naming the error when its download fails (and the next `up` converges), and a `staged-only` version
 * counts as declared, its runtime changes included, until and after it is applied.
 */
import * as svc from "../../src";
import * as testing from "../../src/testing";
import { asOf, type StoredWorkload } from "../../src/emulator/areas/workloads/model";
import { TABLES } from "../../src/emulator/store/tables";
import { eventually } from "../helpers/emulator";

testing.registerMatchers();

type Stack = Awaited<ReturnType<typeof testing.stack>>;
let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** One cluster, an app with versions 1.0.0 and 2.0.0, and the workload on `version` with `rate` in its configuration. */
const program = (version: "1.0.0" | "2.0.0", rate: number, deploymentType?: "staged+instant-apply" | "staged-only") => () => {
  const cluster = new svc.Cluster("cluster", { name: "plant" });
  const versions = ["1.0.0", "2.0.0"].map((v) => new svc.AppVersion(`monitor-${v}`, { appName: "monitor", version: v, type: "app", manifest: {} }));
  new svc.Workload("w", {
    name: "monitor-1",
    appName: versions[0].appName,
    appVersion: versions[version === "1.0.0" ? 0 : 1].version,
    clusterName: cluster.name,
    runtime: { resources: [{ resource: "krn:asset:pump-1" }], configuration: { rate } },
    deploymentType,
  });
};

/** The workload's record as the emulator shows it now (read from its store, to check what the requests did). */
const stored = (s: Stack, nowMs: number) => asOf(s.emulator!.store.table<StoredWorkload>(TABLES.workloads).get("monitor-1")!, nowMs);

describe("Workload: a staged+instant-apply update that takes time", () => {
  let offset = 0;
  const clock = () => Date.now() + offset;

  test("up waits while the edge downloads the staged version, and ends once the platform applied it; nothing drifts after", async () => {
    stack = await testing.stack(program("1.0.0", 1), { emulator: { clock, packageMs: 60_000 } });
    await stack.up();
    const s = stack;
    let done = false;
    const up = s.up(program("2.0.0", 2, "staged+instant-apply")).finally(() => (done = true));
    // The platform stages the version and downloads it; the workload runs 1.0.0 meanwhile, and up waits.
    const staging = await eventually(
      async () => stored(s, clock()),
      (w) => w.staged?.app_version === "2.0.0",
      "the staged version on the platform",
    );
    expect(staging).toMatchObject({ app_version: "1.0.0", download_status: "downloading", runtime: { configuration: { rate: 1 } }, staged: { instantly_apply: true } });
    expect(done).toBe(false);
    // The download is done a minute later on the emulator's clock; the platform then applies it.
    offset += 60_000;
    expect(await up).toHaveActions({ w: "update" });
    expect(stored(s, clock())).toMatchObject({ app_version: "2.0.0", staged: null, download_status: "ready", runtime: { configuration: { rate: 2 } } });
    expect(s.resource("w").outputs).toMatchObject({ appVersion: "2.0.0", staged: false, downloadStatus: "ready", state: "running" });
    await s.expectNoDrift();
  });

  test("a download that fails fails the up naming the error; the workload keeps its version, and the next up converges", async () => {
    stack = await testing.stack(program("1.0.0", 1), { emulator: { clock, packageMs: 0 } });
    await stack.up();
    stack.emulator!.faults.configure({ package_failure_rate: 1, seed: 7 });
    await expect(stack.up(program("2.0.0", 2, "staged+instant-apply"))).rejects.toThrow(
      /workload 'monitor-1': the staged version 2\.0\.0 was not applied: its package did not download \(the download of the package failed .*\); it still runs 1\.0\.0/,
    );
    expect(stored(stack, clock())).toMatchObject({ app_version: "1.0.0", download_status: "failed" });
    // A failed staged version does not stand for the declared one: refresh reads what runs.
    expect(await stack.refresh()).toHaveActions({ w: "update" });
    expect(await stack.preview(program("2.0.0", 2, "staged+instant-apply"))).toHaveActions({ w: "update" });
    stack.emulator!.faults.configure({});
    expect(await stack.up(program("2.0.0", 2, "staged+instant-apply"))).toHaveActions({ w: "update" });
    expect(stored(stack, clock())).toMatchObject({ app_version: "2.0.0", staged: null, runtime: { configuration: { rate: 2 } } });
    await stack.expectNoDrift();
  });
});

describe("Workload: a staged-only update", () => {
  test("up does not wait; the staged version (runtime included) counts as declared before and after it is applied on the platform", async () => {
    let offset = 0;
    const clock = () => Date.now() + offset;
    stack = await testing.stack(program("1.0.0", 1), { emulator: { clock, packageMs: 60_000 } });
    await stack.up();
    expect(await stack.up(program("2.0.0", 2, "staged-only"))).toHaveActions({ w: "update" });
    expect(stored(stack, clock())).toMatchObject({ app_version: "1.0.0", runtime: { configuration: { rate: 1 } }, staged: { app_version: "2.0.0", instantly_apply: false } });
    expect(stack.resource("w").outputs).toMatchObject({ staged: true, stagedAppVersion: "2.0.0" });
    // The platform still runs 1.0.0 with rate 1: refresh takes the staged version as the declared one.
    expect(await stack.refresh()).toHaveNoChanges();
    expect(await stack.preview(program("2.0.0", 2, "staged-only"))).toHaveNoChanges();

    // Downloaded (a minute on the emulator's clock), then applied on the platform: still no change.
    offset += 60_000;
    const { baseUrl } = stack.emulator!;
    const login = await fetch(`${baseUrl}/auth/realms/svc/protocol/openid-connect/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: "svc-admin", client_secret: "svc-admin-secret" }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const apply = await fetch(`${baseUrl}/api/v4/apps/workloads/apply`, {
      method: "POST",
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ workload_names: ["monitor-1"] }),
    });
    expect(apply.status).toBe(204);
    expect(stored(stack, clock())).toMatchObject({ app_version: "2.0.0", staged: null, runtime: { configuration: { rate: 2 } } });
    await stack.expectNoDrift();
  });
});
