import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf } from "../helpers/emulator";

const emu = useEmulator();
beforeEach(async () => {
  await emu.post(pathOf(areas.clusters.create), { name: "plant-a" });
  await emu.post(pathOf(areas.clusters.create), { name: "plant-b" });
  const a = await emu.post(pathOf(areas.apps.create), {
    name: "sim",
    title: "Simulator",
    description: "test app",
    type: "app",
    version: "1.2.0",
    parameters: [
      { name: "speed", data_type: "number", default: 1 },
      { name: "mode", data_type: "string", default: "auto" },
    ],
    defaults: { deployment: { target: { cluster: { name: "plant-b" } } }, app: { configuration: { rate: 10 } } },
  });
  expect(a.status).toBe(201);
});

const target = { target: { cluster: { name: "plant-a" } } };
const assets = (...ns: number[]) => ns.map((n) => ({ resource: `krn:asset:pump-${n}` }));
const deploy = (body: unknown, version = "1.2.0") => emu.post(pathOf(areas.apps.deploy, { app_name: "sim", app_version: version }), body);
const workload = async (name: string) => (await emu.get(pathOf(areas.workloads.get, { workload_name: name }))).body;
const values = async (asset: string) => {
  const w = await deploy({ runtime: { resources: [{ resource: `krn:asset:${asset}` }] }, deployment: target });
  return (await workload(w.body.workload_names[0])).runtime.resources[0].parameters;
};

describe("Deploy (spec Part 1 'Deploy request structure'; facts §3.2, §6.1 items 4-5)", () => {
  test("answers {workload_names}: workloads named <app>-<version>-<n> on the target cluster", async () => {
    const a = await deploy({ runtime: { resources: assets(1, 2) }, deployment: target });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ workload_names: ["sim-1-2-0-1"] });
    const w = await workload("sim-1-2-0-1");
    expect(w).toMatchObject({ app_name: "sim", app_version: "1.2.0", cluster_name: "plant-a", status: { state: "running" } });
    expect(w.runtime.resources.map((r: { resource: string }) => r.resource)).toEqual(["krn:asset:pump-1", "krn:asset:pump-2"]);
    const again = await deploy({ runtime: { resources: assets(3) }, deployment: target });
    expect(again.body.workload_names).toEqual(["sim-1-2-0-2"]);
  });

  test("max_resources cuts the resources into workloads of at most that many assets", async () => {
    const a = await deploy({ runtime: { resources: assets(1, 2, 3, 4, 5) }, deployment: { ...target, max_resources: 2 } });
    expect(a.body.workload_names).toEqual(["sim-1-2-0-1", "sim-1-2-0-2", "sim-1-2-0-3"]);
    expect((await workload("sim-1-2-0-3")).runtime.resources).toEqual([{ resource: "krn:asset:pump-5", parameters: {} }]);
    expectErrorBody(await deploy({ runtime: { resources: assets(1) }, deployment: { ...target, max_resources: 0 } }), 400);
  });

  test("the target cluster defaults to the app version's defaults.deployment; so does the configuration", async () => {
    const a = await deploy({ runtime: { resources: assets(1) } });
    expect(await workload(a.body.workload_names[0])).toMatchObject({ cluster_name: "plant-b", runtime: { configuration: { rate: 10 } } });
  });

  test("errors: unknown app version 404 naming it; unknown cluster 404; a resource twice or a non-asset KRN 400", async () => {
    const v = await deploy({ runtime: { resources: assets(1) }, deployment: target }, "9.0.0");
    expectErrorBody(v, 404);
    expect(messages(v)).toMatch(/9\.0\.0/);
    const c = await deploy({ deployment: { target: { cluster: { name: "mars" } } } });
    expectErrorBody(c, 404);
    expect(messages(c)).toMatch(/mars/);
    expectErrorBody(await deploy({ runtime: { resources: assets(1, 1) }, deployment: target }), 400);
    expectErrorBody(await deploy({ runtime: { resources: [{ resource: "krn:user:a@b.c" }] }, deployment: target }), 400);
    const list = await emu.get(pathOf(areas.workloads.list));
    expect(list.body.data).toEqual([]);
  });

  test("parameters given: the resource gets exactly those values; the others fall back to their default", async () => {
    await deploy({ runtime: { resources: [{ resource: "krn:asset:pump-1", parameters: { speed: 5, mode: "manual" } }] }, deployment: target });
    const a = await deploy({ runtime: { resources: [{ resource: "krn:asset:pump-1", parameters: { speed: 7 } }] }, deployment: target });
    expect((await workload(a.body.workload_names[0])).runtime.resources[0].parameters).toEqual({ speed: 7 });
    expect(await values("pump-1")).toEqual({ speed: 7 });
  });

  test("parameters {}: every parameter of the asset is reset to its default", async () => {
    await deploy({ runtime: { resources: [{ resource: "krn:asset:pump-1", parameters: { speed: 5 } }] }, deployment: target });
    await deploy({ runtime: { resources: [{ resource: "krn:asset:pump-1", parameters: {} }] }, deployment: target });
    expect(await values("pump-1")).toEqual({});
  });

  test("parameters omitted: the current values are kept and injected into the new workload", async () => {
    await deploy({ runtime: { resources: [{ resource: "krn:asset:pump-1", parameters: { speed: 5, mode: "manual" } }] }, deployment: target });
    expect(await values("pump-1")).toEqual({ speed: 5, mode: "manual" });
  });

  test("parameters are checked against the app version: unknown names and wrong types are 400, nothing deployed", async () => {
    const a = await deploy({ runtime: { resources: [{ resource: "krn:asset:pump-1", parameters: { colour: "red" } }] }, deployment: target });
    expectErrorBody(a, 400);
    expect(messages(a)).toMatch(/colour/);
    expectErrorBody(await deploy({ runtime: { resources: [{ resource: "krn:asset:pump-1", parameters: { speed: "fast" } }] }, deployment: target }), 400);
    expect((await emu.get(pathOf(areas.workloads.list))).body.data).toEqual([]);
  });

  test("deployment_type staged-only deploys workloads that wait for an explicit apply", async () => {
    const a = await deploy({ runtime: { resources: assets(1) }, deployment: { ...target, deployment_type: "staged-only" } });
    expect(await workload(a.body.workload_names[0])).toMatchObject({ status: { state: "staged" }, staged: { app_version: "1.2.0", instantly_apply: false } });
  });

  test("viewer may not deploy (403)", async () => {
    expectErrorBody(await emu.post(pathOf(areas.apps.deploy, { app_name: "sim", app_version: "1.2.0" }), { deployment: target }, { as: "viewer" }), 403);
  });
});
