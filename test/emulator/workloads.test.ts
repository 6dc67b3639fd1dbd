import { areas } from "../../src/api/endpoints";
import { answerOf, eventually, startTestEmulator, useEmulator, expectErrorBody, messages, pathOf } from "../helpers/emulator";

/** The emulator's clock runs ahead of the wall clock by this much; tests move it instead of waiting. */
let clockOffset = 0;
const emu = useEmulator({ options: { clock: () => Date.now() + clockOffset } });
beforeEach(async () => {
  await emu.post(pathOf(areas.clusters.create), { name: "plant-a" });
  await emu.post(pathOf(areas.clusters.create), { name: "plant-b" });
  for (const version of ["1.0.0", "1.1.0", "1.10.0"]) await createApp("sim", version);
  await createApp("exp", "2.0.0", "exporter");
});

async function createApp(name: string, version: string, type = "app") {
  const a = await emu.post(pathOf(areas.apps.create), {
    name,
    title: name.toUpperCase(),
    description: "test app",
    type,
    version,
    parameters: [{ name: "speed", data_type: "number", default: 1 }],
  });
  expect(a.status).toBe(201);
}

async function createWorkload(body: Record<string, unknown> = {}, query?: Record<string, string | boolean>) {
  const a = await emu.call("POST", pathOf(areas.workloads.create), {
    body: { name: "w1", app_name: "sim", app_version: "1.0.0", cluster_name: "plant-a", ...body },
    query,
  });
  expect(a.status).toBe(201);
  return a.body;
}

const get = async (name: string) => (await emu.get(pathOf(areas.workloads.get, { workload_name: name }))).body;
const names = (a: { body: { data: Array<{ name: string }> } }) => a.body.data.map((w) => w.name);

/** Starts the package build, checks it is still building, moves the clock past the build and downloads. */
async function downloadReady(name: string) {
  expect((await emu.get(pathOf(areas.workloads.download, { workload_name: name }))).status).toBe(202);
  expect((await emu.get(pathOf(areas.workloads.download, { workload_name: name }))).status).toBe(202);
  clockOffset += 1500;
  const a = await emu.get(pathOf(areas.workloads.download, { workload_name: name }));
  expect(a.status).toBe(200);
  return a;
}

describe("Workloads: create (spec Part 1 Workloads; facts §3.5, §4.3)", () => {
  test("create answers 201 with the record: audit fields, app type, running status, no staged version", async () => {
    const w = await createWorkload({ title: "Simulator", runtime: { resources: [{ resource: "krn:asset:pump-1" }], configuration: { rate: 5 } } });
    expect(w).toMatchObject({
      name: "w1",
      title: "Simulator",
      app_name: "sim",
      app_version: "1.0.0",
      app_type: "app",
      cluster_name: "plant-a",
      node_name: null,
      download_status: "pending",
      enabled: true,
      staged: null,
      status: { state: "running" },
      runtime: { resources: [{ resource: "krn:asset:pump-1" }], configuration: { rate: 5 } },
      created_by: "krn:user:admin@example.com",
    });
    expect(w.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(w).not.toHaveProperty("log");
    expect(w).not.toHaveProperty("build_started_ms");
  });

  test("the app version must exist: 404 naming it", async () => {
    const a = await emu.post(pathOf(areas.workloads.create), { name: "w1", app_name: "sim", app_version: "9.9.9", cluster_name: "plant-a" });
    expectErrorBody(a, 404);
    expect(messages(a)).toMatch(/sim.*9\.9\.9/);
    const noApp = await emu.post(pathOf(areas.workloads.create), { name: "w1", app_name: "nope", app_version: "1.0.0", cluster_name: "plant-a" });
    expectErrorBody(noApp, 404);
    expect(messages(noApp)).toMatch(/nope/);
  });

  test("the cluster must exist: 404 naming it", async () => {
    const a = await emu.post(pathOf(areas.workloads.create), { name: "w1", app_name: "sim", app_version: "1.0.0", cluster_name: "mars" });
    expectErrorBody(a, 404);
    expect(messages(a)).toMatch(/cluster 'mars'/);
  });

  test("runtime resources must be asset KRNs; a duplicate name answers 409; unknown fields 400", async () => {
    const bad = await emu.post(pathOf(areas.workloads.create), {
      name: "w1",
      app_name: "sim",
      app_version: "1.0.0",
      cluster_name: "plant-a",
      runtime: { resources: [{ resource: "krn:user:x@y.z" }] },
    });
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/body\.runtime\.resources\[0\]\.resource/);
    await createWorkload();
    expectErrorBody(await emu.post(pathOf(areas.workloads.create), { name: "w1", app_name: "sim", app_version: "1.0.0", cluster_name: "plant-a" }), 409);
    const extra = await emu.post(pathOf(areas.workloads.create), { name: "w2", app_name: "sim", app_version: "1.0.0", cluster_name: "plant-a", colour: "red" });
    expectErrorBody(extra, 400);
    expect(messages(extra)).toMatch(/colour/);
  });

  test("app_type, when sent, must be the app's type", async () => {
    const a = await emu.post(pathOf(areas.workloads.create), { name: "w1", app_name: "sim", app_version: "1.0.0", app_type: "docker", cluster_name: "plant-a" });
    expectErrorBody(a, 400);
    expect(messages(a)).toMatch(/body\.app_type/);
  });

  test("query stopped=true deploys the workload stopped", async () => {
    const w = await createWorkload({}, { stopped: true });
    expect(w.status.state).toBe("stopped");
    expect(w.enabled).toBe(false);
  });

  test("enabled=false creates a pending workload (pending_deploy)", async () => {
    const w = await createWorkload({ enabled: false });
    expect(w.status.state).toBe("pending_deploy");
    expect(w.enabled).toBe(false);
  });

  test("system may be sent as null", async () => {
    const w = await createWorkload({ system: null });
    expect(w.system).toBeNull();
  });

  test("viewer may not create (403)", async () => {
    expectErrorBody(await emu.post(pathOf(areas.workloads.create), { name: "w1", app_name: "sim", app_version: "1.0.0", cluster_name: "plant-a" }, { as: "viewer" }), 403);
  });
});

describe("Workloads: get and patch", () => {
  test("get answers the record; an unknown workload answers 404", async () => {
    await createWorkload();
    expect((await emu.get(pathOf(areas.workloads.get, { workload_name: "w1" }))).body.name).toBe("w1");
    expectErrorBody(await emu.get(pathOf(areas.workloads.get, { workload_name: "nope" })), 404);
  });

  test("patch: unsent keys keep their value, sent keys replace theirs whole (runtime per sub-key)", async () => {
    await createWorkload({ title: "Old", system: { a: 1, b: 2 }, runtime: { resources: [{ resource: "krn:asset:p1" }], configuration: { x: 1, y: 2 } } });
    const a = await emu.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), { system: { c: 3 }, runtime: { configuration: { z: 9 } } });
    expect(a.status).toBe(200);
    expect(a.body.title).toBe("Old");
    expect(a.body.system).toEqual({ c: 3 });
    expect(a.body.runtime).toEqual({ resources: [{ resource: "krn:asset:p1" }], configuration: { z: 9 } });
    const b = await emu.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), { app_version: "1.1.0", cluster_name: "plant-b", title: "New" });
    expect(b.body).toMatchObject({ app_version: "1.1.0", cluster_name: "plant-b", title: "New", staged: null });
  });

  test("patch to an unknown app version or cluster answers 404 and changes nothing", async () => {
    await createWorkload();
    const a = await emu.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), { app_version: "7.0.0", title: "X" });
    expectErrorBody(a, 404);
    expect(messages(a)).toMatch(/7\.0\.0/);
    expectErrorBody(await emu.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), { cluster_name: "mars" }), 404);
    expect((await get("w1")).title).toBe("w1");
  });

  test("a staged deployment_type creates a staged version instead of changing the workload", async () => {
    await createWorkload();
    const a = await emu.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), { app_version: "1.1.0", deployment_type: "staged-only" });
    expect(a.status).toBe(200);
    expect(a.body.app_version).toBe("1.0.0");
    expect(a.body.staged).toMatchObject({ app_version: "1.1.0", payload: { app_version: "1.1.0" }, instantly_apply: false, ready: false, status: { state: "staged" } });
    const list = await emu.get(pathOf(areas.workloads.list), { staged: true });
    expect(list.body.data).toEqual([expect.objectContaining({ name: "w1", staged: { ready: false, app_version: "1.1.0", status: expect.objectContaining({ state: "staged" }) } })]);
  });

  test("staged+instant-apply stages the version: the workload runs the old one until the package is downloaded, then takes it", async () => {
    await createWorkload({ runtime: { resources: [{ resource: "krn:asset:pump-1" }], configuration: { rate: 1 } } });
    const update = { app_version: "1.1.0", runtime: { configuration: { rate: 9 } }, deployment_type: "staged+instant-apply" };
    const a = await emu.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), update);
    expect(a.status).toBe(200);
    const staging = {
      app_version: "1.0.0",
      runtime: { configuration: { rate: 1 } },
      download_status: "downloading",
      status: { state: "running" },
      staged: { app_version: "1.1.0", instantly_apply: true, ready: false, payload: { app_version: "1.1.0", runtime: { configuration: { rate: 9 } } } },
    };
    expect(a.body).toMatchObject(staging);
    // Until the download is done (1 s on the emulator's clock) nothing moves, however often it is read.
    clockOffset += 500;
    expect(await get("w1")).toMatchObject(staging);
    expect((await emu.get(pathOf(areas.workloads.list), { staged: true })).body.data.map((w: { name: string }) => w.name)).toEqual(["w1"]);
    // It is applied by the platform, not by the apply call (which is for staged-only versions).
    expect(messages(await emu.post(pathOf(areas.workloads.apply), { workload_names: ["w1"] }))).toMatch(/applied instantly/);
    clockOffset += 1000;
    const applied = await eventually(
      () => get("w1"),
      (w) => w.staged === null,
      "the staged version applied once downloaded",
    );
    expect(applied).toMatchObject({
      app_version: "1.1.0",
      runtime: { configuration: { rate: 9 }, resources: [{ resource: "krn:asset:pump-1" }] },
      download_status: "ready",
      status: { state: "running" },
    });
    expect(applied.updated_by).toBe("krn:service-account:system");
    const log = (await emu.get(pathOf(areas.workloads.logs, { workload_name: "w1" }))).body.logs["w1-0"].join("\n");
    expect(log).toMatch(/staged version 1\.1\.0 created \(applied once downloaded\)[\s\S]*staged version 1\.1\.0 applied/);
  });

  test("packageMs: 0 (on request) makes the edge download at once: a download answers the zip, a staged version is applied at the next tick", async () => {
    const instant = await startTestEmulator({ packageMs: 0 });
    try {
      await instant.post(pathOf(areas.clusters.create), { name: "plant-a" });
      for (const version of ["1.0.0", "1.1.0"]) await instant.post(pathOf(areas.apps.create), { name: "sim", title: "Sim", description: "d", type: "app", version });
      await instant.post(pathOf(areas.workloads.create), { name: "w1", app_name: "sim", app_version: "1.0.0", cluster_name: "plant-a" });
      expect((await instant.get(pathOf(areas.workloads.download, { workload_name: "w1" }))).status).toBe(200);
      await instant.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), { app_version: "1.1.0", deployment_type: "staged+instant-apply" });
      const read = async () => (await instant.get(pathOf(areas.workloads.get, { workload_name: "w1" }))).body;
      expect(await eventually(read, (w) => w.staged === null, "applied")).toMatchObject({ app_version: "1.1.0" });
    } finally {
      await instant.close();
    }
    await expect(startTestEmulator({ packageMs: -5 })).rejects.toThrow(/packageMs must be an integer from 0 to 3600000/);
  });

  test("a package download that fails (fault injection) leaves the workload on its version, the staged one failed", async () => {
    await createWorkload();
    await emu.post("/emulator/faults", { package_failure_rate: 1, seed: 1 });
    try {
      await emu.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), { app_version: "1.1.0", deployment_type: "staged+instant-apply" });
      clockOffset += 1500;
      const failed = await get("w1");
      expect(failed).toMatchObject({ app_version: "1.0.0", download_status: "failed", staged: { app_version: "1.1.0", ready: false, status: { state: "failed" } } });
      expect(failed.download_error).toMatch(/download of the package failed/);
      expect((await emu.get("/emulator/faults")).body.counters.by_kind).toEqual({ package_failure: 1 });
    } finally {
      await emu.post("/emulator/faults", {});
    }
    // A new update starts a new download, which now succeeds.
    await emu.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), { app_version: "1.1.0", deployment_type: "staged+instant-apply" });
    clockOffset += 1500;
    expect(
      await eventually(
        () => get("w1"),
        (w) => w.staged === null,
        "the second download applied",
      ),
    ).toMatchObject({ app_version: "1.1.0", download_status: "ready" });
  });
});

describe("Workloads: list (every filter and sort key of the spec table)", () => {
  beforeEach(async () => {
    await createWorkload({ name: "alpha", title: "Line One", runtime: { resources: [{ resource: "krn:asset:pump-1" }] } });
    await createWorkload({ name: "beta", app_version: "1.10.0", cluster_name: "plant-b", node_name: "node-2" });
    await createWorkload({ name: "gamma", app_version: "1.1.0", enabled: false });
    await createWorkload({ name: "delta", app_name: "exp", app_version: "2.0.0", node_name: "node-1" });
  });

  test("search: case-insensitive partial match on name, title, app_name, cluster_name (OR across entries)", async () => {
    expect(names(await emu.get(pathOf(areas.workloads.list), { search: ["LINE"] }))).toEqual(["alpha"]);
    expect(names(await emu.get(pathOf(areas.workloads.list), { search: ["plant-b", "exp"] }))).toEqual(["beta", "delta"]);
  });

  test("exact filters: app_names, app_versions (semver), app_types, cluster_names, node_names, workload_names", async () => {
    expect(names(await emu.get(pathOf(areas.workloads.list), { app_names: ["exp"] }))).toEqual(["delta"]);
    expect(names(await emu.get(pathOf(areas.workloads.list), { app_versions: ["1.10.0", "1.1.0"] }))).toEqual(["beta", "gamma"]);
    expectErrorBody(await emu.get(pathOf(areas.workloads.list), { app_versions: ["one"] }), 400);
    expect(names(await emu.get(pathOf(areas.workloads.list), { app_types: ["exporter"] }))).toEqual(["delta"]);
    expectErrorBody(await emu.get(pathOf(areas.workloads.list), { app_types: ["robot"] }), 400);
    expect(names(await emu.get(pathOf(areas.workloads.list), { cluster_names: ["plant-b"] }))).toEqual(["beta"]);
    expect(names(await emu.get(pathOf(areas.workloads.list), { node_names: ["node-1", "node-2"] }))).toEqual(["beta", "delta"]);
    expect(names(await emu.get(pathOf(areas.workloads.list), { workload_names: ["alpha", "gamma"] }))).toEqual(["alpha", "gamma"]);
  });

  test("resources: a single asset KRN", async () => {
    expect(names(await emu.get(pathOf(areas.workloads.list), { resources: "krn:asset:pump-1" }))).toEqual(["alpha"]);
    expectErrorBody(await emu.get(pathOf(areas.workloads.list), { resources: "pump-1" }), 400);
  });

  test("staged=true returns only workloads with staged updates; statuses and download_statuses", async () => {
    await emu.post(pathOf(areas.workloads.patch, { workload_name: "beta" }), { app_version: "1.1.0", deployment_type: "staged-only" });
    expect(names(await emu.get(pathOf(areas.workloads.list), { staged: true }))).toEqual(["beta"]);
    expect(names(await emu.get(pathOf(areas.workloads.list), { staged: false }))).toHaveLength(4);
    expect(names(await emu.get(pathOf(areas.workloads.list), { statuses: ["pending_deploy"] }))).toEqual(["gamma"]);
    expectErrorBody(await emu.get(pathOf(areas.workloads.list), { statuses: ["sleeping"] }), 400);
    await emu.get(pathOf(areas.workloads.download, { workload_name: "alpha" }));
    expect(names(await emu.get(pathOf(areas.workloads.list), { download_statuses: ["processing"] }))).toEqual(["alpha"]);
  });

  test("sort_by: default name; app_version sorts as semver; direction desc; unknown keys are 400", async () => {
    expect(names(await emu.get(pathOf(areas.workloads.list)))).toEqual(["alpha", "beta", "delta", "gamma"]);
    expect(names(await emu.get(pathOf(areas.workloads.list), { sort_by: ["app_version"], app_names: ["sim"] }))).toEqual(["alpha", "gamma", "beta"]);
    expect(names(await emu.get(pathOf(areas.workloads.list), { sort_by: ["cluster_name", "name"], direction: "desc" }))).toEqual(["beta", "gamma", "delta", "alpha"]);
    expect(names(await emu.get(pathOf(areas.workloads.list), { sort_by: ["status_state", "name"] }))[0]).toBe("gamma");
    for (const key of ["title", "app_name", "node_name", "status_last_seen", "created_at", "created_by", "updated_at", "updated_by"]) {
      expect((await emu.get(pathOf(areas.workloads.list), { sort_by: [key] })).status).toBe(200);
    }
    expectErrorBody(await emu.get(pathOf(areas.workloads.list), { sort_by: ["colour"] }), 400);
  });

  test("Part 1 list convention: cursor pages and the limits shape", async () => {
    const p1 = await emu.get(pathOf(areas.workloads.list), { page_size: 3 });
    expect(names(p1)).toEqual(["alpha", "beta", "delta"]);
    const p2 = await emu.get(pathOf(areas.workloads.list), { page_size: 3, next: p1.body.pagination.next_page });
    expect(names(p2)).toEqual(["gamma"]);
    expect(p2.body.pagination.next_page).toBeNull();
    const limits = await emu.get(pathOf(areas.workloads.list), { pagination_type: "limits", page_size: 3, page: 2 });
    expect(limits.body).toMatchObject({ data: [expect.objectContaining({ name: "gamma" })], pagination: { page: 2, total_pages: 2, total_items: 4 } });
    expect(limits.body.data[0]).not.toHaveProperty("runtime");
  });
});

describe("Workloads: apply, enable, start, stop, delete (bulk: 204, 207 per item, or the single error)", () => {
  // Their tables list 207, 400, 401, 403, 404 and 500: a workload in the wrong state is a 400 (never 409).
  test("apply is valid only for a staged version with instantly_apply=false whose package is downloaded (else 400)", async () => {
    await createWorkload();
    const notStaged = await emu.post(pathOf(areas.workloads.apply), { workload_names: ["w1"] });
    expectErrorBody(notStaged, 400);
    expect(messages(notStaged)).toMatch(/no staged version/);
    await emu.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), { app_version: "1.1.0", deployment_type: "staged-only" });
    const notDownloaded = await emu.post(pathOf(areas.workloads.apply), { workload_names: ["w1"] });
    expectErrorBody(notDownloaded, 400);
    expect(messages(notDownloaded)).toMatch(/download_status downloading/);
    await downloadReady("w1");
    expect((await get("w1")).staged.ready).toBe(true);
    expect((await emu.post(pathOf(areas.workloads.apply), { workload_names: ["w1"] })).status).toBe(204);
    expect(await get("w1")).toMatchObject({ app_version: "1.1.0", staged: null, status: { state: "running" } });
  });

  test("a workload created staged-only shows `staged` until applied, then runs", async () => {
    await createWorkload({ deployment_type: "staged-only" });
    expect((await get("w1")).status.state).toBe("staged");
    const start = await emu.post(pathOf(areas.workloads.start), { workload_names: ["w1"] });
    expectErrorBody(start, 400);
    expect(messages(start)).toMatch(/apply it before you start it/);
    await downloadReady("w1");
    expect((await emu.post(pathOf(areas.workloads.apply), { workload_names: ["w1"] })).status).toBe(204);
    expect((await get("w1")).status.state).toBe("running");
  });

  test("bulk: some fail and others succeed → 207 with a result per name; all fail → the single error", async () => {
    await createWorkload({ name: "p1", enabled: false });
    await createWorkload({ name: "r1" });
    const mixed = await emu.post(pathOf(areas.workloads.enable), { workload_names: ["p1", "r1", "ghost"] });
    expect(mixed.status).toBe(207);
    expect(mixed.body.results).toEqual([
      { name: "p1", http_status_code: 204 },
      { name: "r1", http_status_code: 400, message: [expect.stringMatching(/not pending/)] },
      { name: "ghost", http_status_code: 404, message: [expect.stringMatching(/ghost/)] },
    ]);
    expect((await get("p1")).status.state).toBe("running");
    const allFail = await emu.post(pathOf(areas.workloads.enable), { workload_names: ["ghost"] });
    expectErrorBody(allFail, 404);
    expectErrorBody(await emu.post(pathOf(areas.workloads.enable), { workload_names: [] }), 400);
  });

  test("enable moves a pending workload (enabled=false) to running", async () => {
    await createWorkload({ enabled: false });
    expect((await emu.post(pathOf(areas.workloads.enable), { workload_names: ["w1"] })).status).toBe(204);
    expect(await get("w1")).toMatchObject({ enabled: true, status: { state: "running" } });
  });

  test("start/stop: the named workloads run / stop; a pending one cannot (400)", async () => {
    await createWorkload();
    await createWorkload({ name: "w2" });
    await createWorkload({ name: "pending", enabled: false });
    expect((await emu.post(pathOf(areas.workloads.stop), { workload_names: ["w1"] })).status).toBe(204);
    expect(await get("w1")).toMatchObject({ enabled: false, status: { state: "stopped" } });
    expect((await get("w2")).status.state).toBe("running");
    expect((await emu.post(pathOf(areas.workloads.start), { workload_names: ["w1"] })).status).toBe(204);
    expect((await get("w1")).status.state).toBe("running");
    const stopPending = await emu.post(pathOf(areas.workloads.stop), { workload_names: ["pending"] });
    expectErrorBody(stopPending, 400);
    expect(messages(stopPending)).toMatch(/pending \(created with enabled=false\): enable it before you stop it/);
  });

  test("start/stop without a body select every workload that can make the move", async () => {
    await createWorkload();
    await createWorkload({ name: "w2" });
    await createWorkload({ name: "pending", enabled: false });
    expect((await emu.call("POST", pathOf(areas.workloads.stop))).status).toBe(204);
    expect([(await get("w1")).status.state, (await get("w2")).status.state, (await get("pending")).status.state]).toEqual(["stopped", "stopped", "pending_deploy"]);
    expect((await emu.post(pathOf(areas.workloads.start), {})).status).toBe(204);
    expect([(await get("w1")).status.state, (await get("w2")).status.state]).toEqual(["running", "running"]);
  });

  test("delete removes workloads; staged=true deletes only the staged version", async () => {
    await createWorkload();
    await createWorkload({ name: "w2" });
    await emu.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), { app_version: "1.1.0", deployment_type: "staged-only" });
    expect((await emu.call("POST", pathOf(areas.workloads.delete), { body: { workload_names: ["w1"] }, query: { staged: true } })).status).toBe(204);
    expect(await get("w1")).toMatchObject({ app_version: "1.0.0", staged: null });
    const noStaged = await emu.call("POST", pathOf(areas.workloads.delete), { body: { workload_names: ["w2"] }, query: { staged: true } });
    expectErrorBody(noStaged, 404);
    expect((await emu.post(pathOf(areas.workloads.delete), { workload_names: ["w1", "w2"] })).status).toBe(204);
    expectErrorBody(await emu.get(pathOf(areas.workloads.get, { workload_name: "w1" })), 404);
    expectErrorBody(await emu.post(pathOf(areas.workloads.delete), { workload_names: ["w1"] }), 404);
    expectErrorBody(await emu.post(pathOf(areas.workloads.delete), { workload_names: ["w2"] }, { as: "viewer" }), 403);
  });
});

describe("Workloads: download", () => {
  test("202 while the package is built (download_status processing), then 200 with a zip", async () => {
    await createWorkload();
    const first = await emu.get(pathOf(areas.workloads.download, { workload_name: "w1" }));
    expect(first.status).toBe(202);
    expect((await get("w1")).download_status).toBe("processing");
    const done = await downloadReady("w1");
    expect(done.headers.get("content-type")).toBe("application/octet-stream");
    const zip = Buffer.from(
      await (await fetch(`${emu.baseUrl}/api/v4/apps/workloads/w1/download`, { headers: { authorization: `Bearer ${await emu.token("admin")}` } })).arrayBuffer(),
    );
    expect(zip.readUInt32LE(0)).toBe(0x04034b50);
    expect(zip.includes(Buffer.from('"app_name": "sim"'))).toBe(true);
    expect((await get("w1")).download_status).toBe("ready");
  });

  test("address=true answers {url, expires_in}: a direct link that works without a token until it expires (then 412)", async () => {
    await createWorkload();
    await downloadReady("w1");
    const a = await emu.get(pathOf(areas.workloads.download, { workload_name: "w1" }), { address: true });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ url: expect.stringMatching(/\/api\/v4\/apps\/workloads\/w1\/download\?expires=\d+&signature=[\w-]+$/), expires_in: 300 });
    const follow = await fetch(a.body.url);
    expect(follow.status).toBe(200);
    expect(Buffer.from(await follow.arrayBuffer()).readUInt32LE(0)).toBe(0x04034b50);
    // The signature covers the path and the expiry: another workload's path, or a later expiry, is refused.
    await createWorkload({ name: "w2" });
    const url = new URL(a.body.url);
    expectErrorBody(await answerOf(await fetch(a.body.url.replace("/w1/", "/w2/"))), 401);
    url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    expectErrorBody(await answerOf(await fetch(url)), 401);
    // Without a token and without a signature the operation is closed, as before.
    expectErrorBody(await answerOf(await fetch(a.body.url.replace(/\?.*$/, ""))), 401);
    expectErrorBody(await emu.get(pathOf(areas.workloads.download, { workload_name: "w1" }), { expires: 1000 }), 412);
  });

  test("a change of what the workload runs needs a new package; unknown workload 404", async () => {
    await createWorkload();
    await downloadReady("w1");
    await emu.post(pathOf(areas.workloads.patch, { workload_name: "w1" }), { app_version: "1.1.0" });
    expect((await get("w1")).download_status).toBe("pending");
    expectErrorBody(await emu.get(pathOf(areas.workloads.download, { workload_name: "nope" })), 404);
  });
});

describe("Workloads: logs", () => {
  test("{logs: {<pod>: lines}} with tail_lines and since_time", async () => {
    await createWorkload();
    await emu.post(pathOf(areas.workloads.stop), { workload_names: ["w1"] });
    await emu.post(pathOf(areas.workloads.start), { workload_names: ["w1"] });
    const all = await emu.get(pathOf(areas.workloads.logs, { workload_name: "w1" }));
    expect(all.status).toBe(200);
    expect(Object.keys(all.body.logs)).toEqual(["w1-0"]);
    expect(all.body.logs["w1-0"]).toHaveLength(3);
    expect(all.body.logs["w1-0"][2]).toMatch(/started$/);
    const tail = await emu.get(pathOf(areas.workloads.logs, { workload_name: "w1" }), { tail_lines: 1 });
    expect(tail.body.logs["w1-0"]).toEqual([all.body.logs["w1-0"][2]]);
    const future = await emu.get(pathOf(areas.workloads.logs, { workload_name: "w1" }), { since_time: "2999-01-01T00:00:00Z" });
    expect(future.body.logs["w1-0"]).toEqual([]);
    expectErrorBody(await emu.get(pathOf(areas.workloads.logs, { workload_name: "w1" }), { since_time: "yesterday" }), 400);
  });

  test("a pending workload has no pod: 424", async () => {
    await createWorkload({ enabled: false });
    expectErrorBody(await emu.get(pathOf(areas.workloads.logs, { workload_name: "w1" })), 424);
  });
});

describe("Workloads: resources add / remove", () => {
  test("add appends resources (current parameter values injected); a resource already present is 409", async () => {
    await createWorkload({ runtime: { resources: [{ resource: "krn:asset:p1" }] } });
    await emu.post(pathOf(areas.apps.deploy, { app_name: "sim", app_version: "1.0.0" }), {
      runtime: { resources: [{ resource: "krn:asset:p2", parameters: { speed: 4 } }] },
      deployment: { target: { cluster: { name: "plant-a" } } },
    });
    const a = await emu.post(pathOf(areas.workloads.resourcesAdd, { workload_name: "w1" }), { resources: [{ resource: "krn:asset:p2" }] });
    expect(a.status).toBe(200);
    expect(a.body.runtime.resources).toEqual([{ resource: "krn:asset:p1" }, { resource: "krn:asset:p2", parameters: { speed: 4 } }]);
    const dup = await emu.post(pathOf(areas.workloads.resourcesAdd, { workload_name: "w1" }), { resources: [{ resource: "krn:asset:p1" }] });
    expectErrorBody(dup, 409);
    expect(messages(dup)).toMatch(/krn:asset:p1/);
  });

  test("remove drops resources (204); one the workload does not serve is 404", async () => {
    await createWorkload({ runtime: { resources: [{ resource: "krn:asset:p1" }, { resource: "krn:asset:p2" }] } });
    expect((await emu.post(pathOf(areas.workloads.resourcesRemove, { workload_name: "w1" }), { resources: ["krn:asset:p1"] })).status).toBe(204);
    expect((await get("w1")).runtime.resources).toEqual([{ resource: "krn:asset:p2" }]);
    const missing = await emu.post(pathOf(areas.workloads.resourcesRemove, { workload_name: "w1" }), { resources: ["krn:asset:p9"] });
    expectErrorBody(missing, 404);
    expect(messages(missing)).toMatch(/p9/);
  });
});

describe("Workloads: bulk update", () => {
  test("updates the named workloads, or every workload of app_name", async () => {
    await createWorkload();
    await createWorkload({ name: "w2" });
    await createWorkload({ name: "other", app_name: "exp", app_version: "2.0.0" });
    expect((await emu.post(pathOf(areas.workloads.bulkUpdate), { workload_names: ["w1"], system: { k: 1 } })).status).toBe(204);
    expect((await get("w1")).system).toEqual({ k: 1 });
    expect((await get("w2")).system).toBeNull();
    expect((await emu.post(pathOf(areas.workloads.bulkUpdate), { app_name: "sim", app_version: "1.1.0" })).status).toBe(204);
    expect([(await get("w1")).app_version, (await get("w2")).app_version, (await get("other")).app_version]).toEqual(["1.1.0", "1.1.0", "2.0.0"]);
  });

  test("is all-or-nothing: an unknown version or workload changes nothing; a selection is required", async () => {
    await createWorkload();
    await createWorkload({ name: "other", app_name: "exp", app_version: "2.0.0" });
    expectErrorBody(await emu.post(pathOf(areas.workloads.bulkUpdate), { workload_names: ["w1", "other"], app_version: "1.1.0" }), 404);
    expect((await get("w1")).app_version).toBe("1.0.0");
    expectErrorBody(await emu.post(pathOf(areas.workloads.bulkUpdate), { workload_names: ["w1", "ghost"], system: {} }), 404);
    expectErrorBody(await emu.post(pathOf(areas.workloads.bulkUpdate), { system: {} }), 400);
    expectErrorBody(await emu.post(pathOf(areas.workloads.bulkUpdate), { workload_names: ["other"], app_name: "sim" }), 400);
  });
});
