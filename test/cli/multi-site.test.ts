/**
 * examples/multi-site under the real `pulumi` CLI: one platform (an emulator over HTTP), one local file
 * backend, and three stacks on it: the shared stack (asset class and types, the app and its versions,
 * a label) and two site stacks of one program, the site named by the stack's config. The sites read
 * the shared stack's outputs through a stack reference and look the shared objects up; destroying one
 * site leaves the other site's objects and the shared ones on the platform. A site copied with the
 * shared objects in it, the model this replaces, collides with the first on its second `up`.
 *
 * The programs run inline (the Automation API): the CLI built here has no Node.js language host.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { apps } from "../../src/api/apps";
import { assets } from "../../src/api/assets";
import { clusters } from "../../src/api/clusters";
import { datalabels } from "../../src/api/datalabels";
import { parameters } from "../../src/api/parameters";
import { workloads } from "../../src/api/workloads";
import { SvcApiError, SvcClient } from "../../src/client";
import { startEmulator, type Emulator } from "../../src/emulator";
import * as testing from "../../src/testing";
import { shared } from "../../examples/multi-site/shared/program";
import { site } from "../../examples/multi-site/site/program";
import { describeCli, pulumiDir, tempDir } from "./harness";

testing.registerMatchers();

/**
 * An inline program that throws leaves the SDK's stack promises rejected. The Automation API's server
 * watches for that on `process`, which under jest is a copy of the process whose events never fire, so
 * jest gets them and fails the file. While `expected` runs, the rejections with a lookup's error are
 * handled here (on the real process), as the server would; anything else still reaches jest.
 */
async function strayLookupErrorsHandled<T>(expected: () => Promise<T>): Promise<T> {
  // jest gives tests its copy for `require("node:process")` too; a module of Node's own loader gets the process.
  const NodeModule = require("node:module") as new (id: string) => NodeJS.Module;
  const real = new NodeModule("process").require("node:process") as NodeJS.Process;
  const handle = (reason: unknown, promise: Promise<unknown>) => {
    if ((reason as Error | undefined)?.name === "LookupNotFoundError") promise.catch(() => undefined);
  };
  real.on("unhandledRejection", handle);
  try {
    return await expected();
  } finally {
    // The stray rejections of the run are reported before its command returns; one more turn to be sure.
    await new Promise((resolve) => setImmediate(resolve));
    real.off("unhandledRejection", handle);
  }
}

/** The config of the example's site stack `stack` (its Pulumi.<stack>.yaml), as the stack's config. */
function siteConfig(stack: string): Record<string, string> {
  const file = path.join(__dirname, "..", "..", "examples", "multi-site", "site", `Pulumi.${stack}.yaml`);
  const { config } = parse(fs.readFileSync(file, "utf8")) as { config: Record<string, string | number> };
  return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, String(v)]));
}

/** The example's lookups run in this process, through the built package the example imports. */
const lookupsRuntime = () => require(path.join(__dirname, "..", "..", "dist", "provider", "runtime")) as { shutdown(): Promise<void> };

describeCli("examples/multi-site under `pulumi`", () => {
  let platform: Emulator;
  let client: SvcClient;
  const open: testing.CliStack[] = [];

  beforeAll(async () => {
    platform = await startEmulator({});
    client = new SvcClient({ baseUrl: platform.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  });
  afterAll(async () => {
    await Promise.all(open.map((s) => s.close()));
    await lookupsRuntime().shutdown();
    await client?.close();
    await platform?.close();
  });

  /** A stack of `project` on the platform, its state in the local file backend `backend` (which the stack references read). */
  async function stackOf(program: testing.Program, backend: string, project: string, stack: string, config: Record<string, string> = {}): Promise<testing.CliStack> {
    const s = await testing.stack(program, {
      engine: "pulumi",
      pulumiPath: pulumiDir,
      project,
      stack,
      statePath: backend,
      config: { "svc:baseUrl": platform.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret", ...config },
      secretConfig: ["svc:clientSecret"],
    });
    open.push(s);
    return s;
  }

  /** Whether the platform has the object: its record, or undefined on a 404. */
  const found = async <T>(read: Promise<T>): Promise<T | undefined> => {
    try {
      return await read;
    } catch (e) {
      if (e instanceof SvcApiError && e.status === 404) return undefined;
      throw e;
    }
  };
  const asset = (name: string) => found(client.call(assets.get, { params: { asset_name: name } }));
  const workload = (name: string) => found(client.call(workloads.get, { params: { workload_name: name } }));

  test("the shared stack and two sites go up; destroying one site leaves the other site and the shared objects", async () => {
    const backend = path.join(tempDir("svc-multi-site-"), "backend");
    const sharedStack = await stackOf(shared, backend, "svc-shared", "shared");
    expect((await sharedStack.up()).totals).toEqual({ create: 7 });

    const plantA = await stackOf(site, backend, "svc-site", "plant-a", siteConfig("plant-a"));
    const plantB = await stackOf(site, backend, "svc-site", "plant-b", siteConfig("plant-b"));
    for (const [s, name] of [
      [plantA, "plant-a"],
      [plantB, "plant-b"],
    ] as const) {
      const up = await s.up();
      // The site's own objects only (and the stack reference, which the engine reads): nothing shared.
      expect(up.operations.filter((o) => o.op === "create").map((o) => o.name)).toEqual(
        expect.arrayContaining([name, `${name}-line-1`, `${name}-pump-1`, `${name}-pump-2`, `pump-monitor-${name}`, `${name}-pump-1-threshold`, `${name}-commissioning`]),
      );
      expect(up.totals).toEqual({ create: 7, read: 1 });
      expect(s.outputs).toMatchObject({ site: name, cluster: name, pumps: [`${name}-pump-1`, `${name}-pump-2`], workloadState: "running", appVersion: "pump-monitor@1.1.0" });
      expect(s.resources().map((r) => r.name)).not.toEqual(expect.arrayContaining(["pumps", "centrifugal-pump", "pump-monitor", "pump-monitor-1.1.0", "commissioning"]));
    }
    const labelB = plantB.resource("plant-b-commissioning").id!;

    const down = await plantA.destroy();
    expect(down.operations.filter((o) => o.op === "delete").map((o) => o.name)).toEqual(
      expect.arrayContaining(["plant-a", "plant-a-line-1", "plant-a-pump-1", "plant-a-pump-2", "pump-monitor-plant-a", "plant-a-pump-1-threshold", "plant-a-commissioning"]),
    );
    expect(down.totals).toEqual({ delete: 8 });

    // Site A's objects are gone (its cluster released: API v4 cannot delete clusters) ...
    expect(await asset("plant-a-pump-1")).toBeUndefined();
    expect(await workload("pump-monitor-plant-a")).toBeUndefined();
    // ... site B's are there as they were ...
    expect(await asset("plant-b-pump-2")).toMatchObject({ asset_type_name: "centrifugal-pump", asset_parent_name: "plant-b-line-1" });
    expect(await workload("pump-monitor-plant-b")).toMatchObject({ app_version: "1.1.0", cluster_name: "plant-b", status: { state: "running" } });
    const values = (await client.call(parameters.valuesList, { body: { resources: ["krn:asset:plant-b-pump-1", "krn:asset:plant-a-pump-1"] } })).data;
    expect(values.map((v) => [v.resource, v.name, v.value])).toEqual([["krn:asset:plant-b-pump-1", "threshold", 85]]);
    expect(await client.call(datalabels.get, { params: { datalabel_id: labelB } })).toMatchObject({ label_name: "commissioning" });
    expect(await client.call(clusters.get, { params: { cluster_name: "plant-b" } })).toMatchObject({ name: "plant-b" });
    // ... and so are the shared objects.
    expect(await client.call(assets.classGet, { params: { asset_class_name: "pumps" } })).toMatchObject({ name: "pumps" });
    expect(await client.call(assets.typeGet, { params: { asset_type_name: "centrifugal-pump" } })).toMatchObject({ asset_class_name: "pumps" });
    expect(await client.call(assets.typeGet, { params: { asset_type_name: "production-line" } })).toMatchObject({ name: "production-line" });
    expect((await client.call(apps.get, { params: { app_name: "pump-monitor" } })).versions.map((v) => v.version).sort()).toEqual(["1.0.0", "1.1.0"]);
    expect(await client.call(datalabels.labelGet, { params: { label_name: "commissioning" } })).toMatchObject({ name: "commissioning" });

    // The remaining site and the shared stack still agree with the platform.
    await plantB.expectNoDrift();
    await sharedStack.expectNoDrift();

    // Teardown in the model's order: the sites, then the shared stack.
    await plantB.destroy();
    expect(await sharedStack.destroy()).toHaveActions({ pumps: "delete", "centrifugal-pump": "delete", "pump-monitor": "delete", commissioning: "delete" });
    expect(await found(client.call(assets.classGet, { params: { asset_class_name: "pumps" } }))).toBeUndefined();
  });

  test("a site looking up a shared object that is gone fails naming the object and what to do; the shared stack's refresh and up bring it back", async () => {
    const backend = path.join(tempDir("svc-multi-site-"), "backend");
    const sharedStack = await stackOf(shared, backend, "svc-shared", "shared");
    await sharedStack.up();
    // Deleted outside the stacks (the console, another tool).
    await client.call(datalabels.labelDelete, { params: { label_name: "commissioning" } });

    const plantA = await stackOf(site, backend, "svc-site", "plant-a", siteConfig("plant-a"));
    const failed = await strayLookupErrorsHandled(() => plantA.preview().catch((e: Error) => e));
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toMatch(
      /getLabel\("commissioning"\): the platform has no label "commissioning"\..*declare the label "commissioning" in the stack that owns the objects your stacks share and run that stack's `pulumi up` first/s,
    );
    expect(await asset("plant-a-pump-1")).toBeUndefined();

    await sharedStack.refresh();
    expect(await sharedStack.up()).toHaveActions({ commissioning: "create" });
    await plantA.up();
    expect(plantA.outputs).toMatchObject({ site: "plant-a", workloadState: "running" });
    await plantA.destroy();
    await sharedStack.destroy();
  });

  test("a site copied with the shared objects in it collides with the first site on up (the model the example replaces)", async () => {
    const backend = path.join(tempDir("svc-multi-site-"), "backend");
    // Every site stack declares the shared objects too, as a copy of the first site's program does.
    const copied = shared;
    const first = await stackOf(copied, backend, "svc-site-copy", "plant-a");
    await first.up();
    const second = await stackOf(copied, backend, "svc-site-copy", "plant-b");
    const failed = await second.up().catch((e: testing.RunError) => e);
    expect(failed).toBeInstanceOf(testing.RunError);
    expect((failed as testing.RunError).message).toMatch(/409/);
    await first.destroy();
  });
});
