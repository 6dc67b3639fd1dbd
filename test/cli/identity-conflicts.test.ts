/**
 * A create whose identity (its name) is taken on the platform by an object outside the stack would be
 * refused (409): the preview warns, naming the object and `adopt: true`, under the kit and under
 * `pulumi` (issue 31); with `adopt: true` the up succeeds. A replacement that keeps its identity
 * (deleted first) and an object of the stack are not warned about.
 */
import * as svc from "../../src";
import { SvcClient } from "../../src/client";
import * as testing from "../../src/testing";
import { pulumiDir } from "./harness";

testing.registerMatchers();

const TAKEN = /^AssetType 'pump': an asset type 'pump' already exists on the platform and is not this stack's, so the create will be refused \(409\): set `adopt: true`/;

const engines = [["kit", {}] as const, ...(pulumiDir ? [["pulumi", { engine: "pulumi", pulumiPath: pulumiDir }] as const] : [])];

describe.each(engines)("identity conflicts under the %s engine", (_name, engine) => {
  let stack: testing.TestStack | testing.CliStack;
  let client: SvcClient;
  beforeAll(async () => {
    stack = await testing.stack(async () => undefined, { ...engine, emulator: true });
    client = new SvcClient({ baseUrl: stack.emulator!.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
    await client.assets.typeCreate({ body: { name: "pump", title: "Pump" } });
  });
  afterAll(async () => {
    await client?.close();
    await stack?.close();
  });

  test("an object of the same name outside the stack: the preview warns, naming it and adopt: true; adopting, the up succeeds", async () => {
    const preview = await stack.preview(async () => {
      new svc.AssetType("pump", { name: "pump", title: "Pump" });
    });
    expect(preview).toHaveActions({ pump: "create" });
    expect(preview.warnings).toContainEqual(expect.stringMatching(TAKEN));
    const up = await stack.up(async () => {
      new svc.AssetType("pump", { name: "pump", title: "Pump", adopt: true });
    });
    expect(up).toHaveActions({ pump: "create" });
  });
});

// The kit's one provider host reports every warning it has printed with each later run of the stack
// (the CLI starts a host per command), so this stack is its own.
test.each(engines)("under the %s engine, an object of the stack, kept or replaced with the same identity, is not warned about", async (_name, engine) => {
  const stack = await testing.stack(async () => undefined, { ...engine, emulator: true });
  try {
    // Disabling a workload replaces it under the same name, deleting it first: the replacement's create finds no object of its name.
    const program = (enabled: boolean) => async () => {
      const cluster = new svc.Cluster("plant-a", { name: "plant-a", title: "Plant A", ready: true });
      const version = new svc.AppVersion("mon-1.0.0", { appName: "mon", version: "1.0.0", type: "app", title: "Monitor", manifest: {}, image: "registry.local/mon:1.0.0" });
      new svc.Workload("mon-line-1", { name: "mon-line-1", title: "Monitor", appName: version.appName, appVersion: version.version, clusterName: cluster.name, enabled });
    };
    expect((await stack.up(program(true))).warnings).toEqual([]);
    expect((await stack.preview(program(true))).warnings).toEqual([]);
    const replacing = await stack.preview(program(false));
    expect(replacing).toHaveActions({ "mon-line-1": "replace" });
    expect(replacing.warnings).toEqual([]);
    expect(await stack.up(program(false))).toHaveActions({ "mon-line-1": "replace" });
    expect((await stack.preview()).warnings).toEqual([]);
  } finally {
    await stack.close();
  }
});
