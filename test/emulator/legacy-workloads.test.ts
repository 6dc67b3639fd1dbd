import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf } from "../helpers/emulator";

/** The emulator's clock runs ahead of the wall clock by this much; tests move it instead of waiting. */
let clockOffset = 0;
const emu = useEmulator({ options: { clock: () => Date.now() + clockOffset } });
beforeEach(async () => {
  await emu.post(pathOf(areas.clusters.create), { name: "plant-a" });
  await emu.post(pathOf(areas.clusters.create), { name: "plant-b" });
  for (const version of ["1.0.0", "1.1.0"]) {
    expect((await emu.post(pathOf(areas.appregistry.create), { payload: { name: "reg-app", version, type: "svc" } })).status).toBe(201);
  }
  expect((await emu.post(pathOf(areas.appregistry.create), { payload: { name: "box", version: "3.0.0", type: "docker" } })).status).toBe(201);
  expect((await emu.post(pathOf(areas.apps.create), { name: "sim", title: "Sim", description: "d", type: "app", version: "2.0.0" })).status).toBe(201);
});

async function legacyDeploy(body: Record<string, unknown> = {}) {
  const a = await emu.post(pathOf(areas.legacyWorkloads.deploy), { app_name: "reg-app", name: "lw1", cluster_name: "plant-a", ...body });
  expect(a.status).toBe(201);
  return a.body;
}
const get = async (name: string) => (await emu.get(pathOf(areas.legacyWorkloads.get, { workload_name: name }))).body;
const names = (a: { body: { data: Array<{ name: string }> } }) => a.body.data.map((w) => w.name);

async function downloadReady(name: string) {
  expect((await emu.get(pathOf(areas.legacyWorkloads.download, { workload_name: name }))).status).toBe(202);
  clockOffset += 1500;
  expect((await emu.get(pathOf(areas.legacyWorkloads.download, { workload_name: name }))).status).toBe(200);
}

describe("Legacy deploy (facts §3.6, §4.4, §6.4 item 16)", () => {
  test("deploys a registry app's latest version; the record has the legacy shape (created/updated, acp_name mirrors cluster_name)", async () => {
    const w = await legacyDeploy({ title: "Legacy", payload: { spec_version: "1" } });
    expect(w).toMatchObject({
      name: "lw1",
      title: "Legacy",
      app_name: "reg-app",
      app_version: "1.1.0",
      cluster_name: "plant-a",
      acp_name: "plant-a",
      enabled: true,
      instantly_apply: true,
      pre_download: false,
      payload: { spec_version: "1" },
      networking: [],
      staged: null,
      status: { state: "running" },
      download_status: "pending",
    });
    expect(w.created).toMatch(/Z$/);
    expect(w).not.toHaveProperty("created_at");
    // The same record, seen through /apps/workloads.
    expect((await emu.get(pathOf(areas.workloads.get, { workload_name: "lw1" }))).body).toMatchObject({ app_type: "app", created_at: w.created });
  });

  test("apps of the apps area deploy too; the app must exist somewhere (404), the version too (404)", async () => {
    expect((await legacyDeploy({ app_name: "sim", name: "s1" })).app_version).toBe("2.0.0");
    const noApp = await emu.post(pathOf(areas.legacyWorkloads.deploy), { app_name: "ghost", cluster_name: "plant-a" });
    expectErrorBody(noApp, 404);
    expect(messages(noApp)).toMatch(/ghost/);
    const noVersion = await emu.post(pathOf(areas.legacyWorkloads.deploy), { app_name: "reg-app", app_version: "5.0.0", cluster_name: "plant-a" });
    expectErrorBody(noVersion, 404);
    expect(messages(noVersion)).toMatch(/5\.0\.0/);
  });

  test("cluster_name wins over acp_name; acp_name alone works; neither is 400; unknown cluster 404", async () => {
    expect((await legacyDeploy({ cluster_name: "plant-b", acp_name: "plant-a" })).cluster_name).toBe("plant-b");
    const { cluster_name: _c, ...rest } = { cluster_name: 1, app_name: "reg-app", name: "lw2", acp_name: "plant-a" };
    expect((await emu.post(pathOf(areas.legacyWorkloads.deploy), rest)).body.cluster_name).toBe("plant-a");
    const none = await emu.post(pathOf(areas.legacyWorkloads.deploy), { app_name: "reg-app", name: "lw3" });
    expectErrorBody(none, 400);
    expect(messages(none)).toMatch(/body\.cluster_name/);
    expectErrorBody(await emu.post(pathOf(areas.legacyWorkloads.deploy), { app_name: "reg-app", cluster_name: "mars" }), 404);
  });

  test("a duplicate name is 409; a name longer than 32 is 400; without a name one is generated", async () => {
    await legacyDeploy();
    expectErrorBody(await emu.post(pathOf(areas.legacyWorkloads.deploy), { app_name: "reg-app", name: "lw1", cluster_name: "plant-a" }), 409);
    expectErrorBody(await emu.post(pathOf(areas.legacyWorkloads.deploy), { app_name: "reg-app", name: "x".repeat(33), cluster_name: "plant-a" }), 400);
    expect((await emu.post(pathOf(areas.legacyWorkloads.deploy), { app_name: "reg-app", cluster_name: "plant-a" })).body.name).toBe("reg-app-1");
  });

  test("instantly_apply=false waits for an explicit apply; staged=true shows as pre_download", async () => {
    const w = await legacyDeploy({ instantly_apply: false, staged: true });
    expect(w).toMatchObject({ instantly_apply: false, pre_download: true, status: { state: "staged" }, staged: { app_version: "1.1.0", instantly_apply: false } });
  });
});

describe("Legacy apply (same validity as /apps/workloads/apply; 406 otherwise)", () => {
  test("406 naming why when the workload cannot be applied; 200 once its package is downloaded", async () => {
    await legacyDeploy({ instantly_apply: false, staged: true });
    await legacyDeploy({ name: "plain" });
    const notDownloaded = await emu.post(pathOf(areas.legacyWorkloads.apply), { workload_names: ["lw1"] });
    expectErrorBody(notDownloaded, 406);
    expect(messages(notDownloaded)).toMatch(/not downloaded/);
    const notStaged = await emu.post(pathOf(areas.legacyWorkloads.apply), { workload_names: ["plain"] });
    expectErrorBody(notStaged, 406);
    expect(messages(notStaged)).toMatch(/no staged version/);
    await downloadReady("lw1");
    const ok = await emu.post(pathOf(areas.legacyWorkloads.apply), { workload_names: ["lw1"] });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ workload_names: ["lw1"] });
    expect(await get("lw1")).toMatchObject({ staged: null, status: { state: "running" } });
    expectErrorBody(await emu.post(pathOf(areas.legacyWorkloads.apply), { workload_names: ["ghost"] }), 404);
  });

  test("without names it applies every workload waiting for apply", async () => {
    await legacyDeploy({ instantly_apply: false });
    await legacyDeploy({ name: "plain" });
    await downloadReady("lw1");
    const a = await emu.call("POST", pathOf(areas.legacyWorkloads.apply));
    expect(a.status).toBe(200);
    expect(a.body.workload_names).toEqual(["lw1"]);
  });
});

describe("Legacy list, get (spec query of GET /workloads/list)", () => {
  beforeEach(async () => {
    // A few milliseconds apart, so that the sort on `created` has no ties (ties fall back to the name).
    const tick = () => new Promise((r) => setTimeout(r, 3));
    await legacyDeploy({ name: "one", title: "Boiler", node_name: "n1" });
    await tick();
    await legacyDeploy({ name: "two", app_version: "1.0.0", cluster_name: "plant-b" });
    await tick();
    await legacyDeploy({ name: "three", app_name: "sim" });
    await tick();
    await emu.post(pathOf(areas.workloads.create), {
      name: "four",
      app_name: "sim",
      app_version: "2.0.0",
      cluster_name: "plant-b",
      runtime: { resources: [{ resource: "krn:asset:pump-7" }] },
    });
    await emu.call("GET", pathOf(areas.legacyWorkloads.stop, { workload_name: "three" }));
  });

  test("items have the legacy list shape and include workloads created through /apps/workloads", async () => {
    const a = await emu.get(pathOf(areas.legacyWorkloads.list));
    expect(names(a)).toEqual(["four", "one", "three", "two"]);
    expect(a.body.data[1]).toEqual(
      expect.objectContaining({
        name: "one",
        acp_name: "plant-a",
        instantly_apply: true,
        pre_download: false,
        staged: null,
        created: expect.any(String),
        updated: expect.any(String),
      }),
    );
    expect(a.body.data[1]).not.toHaveProperty("payload");
  });

  test("filters: search (also node_name), exact app_name/app_version/cluster_name/node_name/workload_name, enabled, asset_name", async () => {
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { search: ["BOIL", "n1"] }))).toEqual(["one"]);
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { app_name: ["sim"] }))).toEqual(["four", "three"]);
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { app_version: ["1.0.0"] }))).toEqual(["two"]);
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { cluster_name: ["plant-b"] }))).toEqual(["four", "two"]);
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { node_name: ["n1"] }))).toEqual(["one"]);
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { workload_name: ["two", "one"] }))).toEqual(["one", "two"]);
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { enabled: false }))).toEqual(["three"]);
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { asset_name: "pump-7" }))).toEqual(["four"]);
  });

  test("acp_name is deprecated: cluster_name overrides it when both are set", async () => {
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { acp_name: ["plant-b"] }))).toEqual(["four", "two"]);
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { acp_name: ["plant-b"], cluster_name: ["plant-a"] }))).toEqual(["one", "three"]);
  });

  test("staged=true shows only staged workloads, false shows all; download_statuses; sort and paging", async () => {
    await emu.post(pathOf(areas.workloads.patch, { workload_name: "two" }), { app_version: "1.1.0", deployment_type: "staged-only" });
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { staged: true }))).toEqual(["two"]);
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { staged: false }))).toHaveLength(4);
    await emu.get(pathOf(areas.legacyWorkloads.download, { workload_name: "one" }));
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { download_statuses: ["processing"] }))).toEqual(["one"]);
    expect(names(await emu.get(pathOf(areas.legacyWorkloads.list), { sort_by: ["created"], direction: "desc", page_size: 2 }))).toEqual(["four", "three"]);
    expectErrorBody(await emu.get(pathOf(areas.legacyWorkloads.list), { sort_by: ["colour"] }), 400);
    expectErrorBody(await emu.get(pathOf(areas.legacyWorkloads.list), { colour: "red" }), 400);
  });

  test("get answers the legacy record; unknown is 404", async () => {
    expect(await get("one")).toMatchObject({ name: "one", acp_name: "plant-a", node_name: "n1", payload: {} });
    expectErrorBody(await emu.get(pathOf(areas.legacyWorkloads.get, { workload_name: "ghost" })), 404);
  });
});

describe("Legacy configurations", () => {
  test("update replaces the configuration; {} removes all of it; get answers {configuration}", async () => {
    await legacyDeploy();
    const a = await emu.post(pathOf(areas.legacyWorkloads.configurationsUpdate, { workload_name: "lw1" }), { configuration: { rate: 5, unit: "s" } });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ configuration: { rate: 5, unit: "s" } });
    expect((await emu.get(pathOf(areas.legacyWorkloads.configurationsGet, { workload_name: "lw1" }))).body).toEqual({ configuration: { rate: 5, unit: "s" } });
    expect((await emu.get(pathOf(areas.workloads.get, { workload_name: "lw1" }))).body.runtime.configuration).toEqual({ rate: 5, unit: "s" });
    await emu.post(pathOf(areas.legacyWorkloads.configurationsUpdate, { workload_name: "lw1" }), { configuration: {} });
    expect((await emu.get(pathOf(areas.legacyWorkloads.configurationsGet, { workload_name: "lw1" }))).body).toEqual({ configuration: {} });
    await emu.post(pathOf(areas.legacyWorkloads.configurationsUpdate, { workload_name: "lw1" }), { configuration: { a: 1 } });
    await emu.post(pathOf(areas.legacyWorkloads.configurationsUpdate, { workload_name: "lw1" }), {});
    expect((await emu.get(pathOf(areas.legacyWorkloads.configurationsGet, { workload_name: "lw1" }))).body).toEqual({ configuration: {} });
  });

  test("409 while a staged version waits for apply; 501 for a docker app; 404 for an unknown workload", async () => {
    await legacyDeploy({ instantly_apply: false });
    expectErrorBody(await emu.post(pathOf(areas.legacyWorkloads.configurationsUpdate, { workload_name: "lw1" }), { configuration: { a: 1 } }), 409);
    await legacyDeploy({ name: "boxed", app_name: "box" });
    const docker = await emu.get(pathOf(areas.legacyWorkloads.configurationsGet, { workload_name: "boxed" }));
    expectErrorBody(docker, 501);
    expect(messages(docker)).toMatch(/docker/);
    expectErrorBody(await emu.post(pathOf(areas.legacyWorkloads.configurationsUpdate, { workload_name: "boxed" }), { configuration: {} }), 501);
    expectErrorBody(await emu.get(pathOf(areas.legacyWorkloads.configurationsGet, { workload_name: "ghost" })), 404);
  });
});

describe("Legacy download, logs, start/stop, undeploy", () => {
  test("download: 202 while built, then the zip; address=true answers the URL as a string, a direct link", async () => {
    await legacyDeploy();
    await downloadReady("lw1");
    const a = await emu.get(pathOf(areas.legacyWorkloads.download, { workload_name: "lw1" }), { address: true });
    expect(a.status).toBe(200);
    expect(a.body).toMatch(/\/api\/v4\/workloads\/lw1\/download\?expires=\d+&signature=[\w-]+$/);
    expect((await fetch(a.body)).status).toBe(200);
    expectErrorBody(await emu.get(pathOf(areas.legacyWorkloads.download, { workload_name: "ghost" })), 404);
  });

  test("start/stop (GET): stopped keeps the workload (enabled=false), start runs it (enabled=true)", async () => {
    await legacyDeploy();
    const stopped = await emu.get(pathOf(areas.legacyWorkloads.stop, { workload_name: "lw1" }));
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ enabled: false, status: { state: "stopped" } });
    expect((await emu.get(pathOf(areas.legacyWorkloads.start, { workload_name: "lw1" }))).body).toMatchObject({ enabled: true, status: { state: "running" } });
    expectErrorBody(await emu.get(pathOf(areas.legacyWorkloads.stop, { workload_name: "lw1" }), undefined, { as: "viewer" }), 403);
    expectErrorBody(await emu.get(pathOf(areas.legacyWorkloads.start, { workload_name: "ghost" })), 404);
  });

  test("start, stop and logs of a pending workload are 409", async () => {
    await emu.post(pathOf(areas.workloads.create), { name: "pend", app_name: "sim", app_version: "2.0.0", cluster_name: "plant-a", enabled: false });
    expectErrorBody(await emu.get(pathOf(areas.legacyWorkloads.start, { workload_name: "pend" })), 409);
    expectErrorBody(await emu.get(pathOf(areas.legacyWorkloads.logs, { workload_name: "pend" })), 409);
  });

  test("logs answer {logs: {<pod>: lines}} with tail_lines", async () => {
    await legacyDeploy();
    await emu.get(pathOf(areas.legacyWorkloads.stop, { workload_name: "lw1" }));
    const a = await emu.get(pathOf(areas.legacyWorkloads.logs, { workload_name: "lw1" }), { tail_lines: 1 });
    expect(a.body).toEqual({ logs: { "lw1-0": [expect.stringMatching(/stopped$/)] } });
  });

  test("undeploy removes the workload (200); staged=true removes only its staged version", async () => {
    await legacyDeploy({ instantly_apply: true });
    await emu.post(pathOf(areas.workloads.patch, { workload_name: "lw1" }), { app_version: "1.0.0", deployment_type: "staged-only" });
    const a = await emu.call("POST", pathOf(areas.legacyWorkloads.undeploy, { workload_name: "lw1" }), { query: { staged: true } });
    expect(a.status).toBe(200);
    expect(await get("lw1")).toMatchObject({ app_version: "1.1.0", staged: null });
    expectErrorBody(await emu.call("POST", pathOf(areas.legacyWorkloads.undeploy, { workload_name: "lw1" }), { query: { staged: true } }), 404);
    expect((await emu.post(pathOf(areas.legacyWorkloads.undeploy, { workload_name: "lw1" }))).status).toBe(200);
    expectErrorBody(await emu.get(pathOf(areas.legacyWorkloads.get, { workload_name: "lw1" })), 404);
    expectErrorBody(await emu.post(pathOf(areas.legacyWorkloads.undeploy, { workload_name: "lw1" })), 404);
  });
});
