/**
 * The `import` resource option of an inline program on an app version that exists on the platform,
 * under the real `pulumi` CLI with the native provider: the program declares the version as an
 * import reads it (the args, and the rest of the record as the manifest); the import writes nothing,
 * and the next preview is empty. A declaration whose manifest leaves out what the platform filled in
 * (the flags' defaults) differs from the record in an arg that replaces: the engine refuses that
 * replacement of an imported resource, naming the manifest, and nothing is written.
 */
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { SvcClient } from "../../src/client";
import { describeCli, pulumiDir } from "../cli/harness";
import { Native, nativeStack, pluginBuilt, type NativeStack } from "./harness";

(pluginBuilt ? describeCli : describe.skip)("the import option on an app version (native provider)", () => {
  let emulator: Emulator;
  let client: SvcClient;
  let s: NativeStack;
  const parameters = [{ name: "interval", data_type: "number" as const, default: 5 }];
  /** The manifest the program declares. */
  let manifest: Record<string, unknown> = {};

  beforeAll(async () => {
    emulator = await startEmulator({ log: () => undefined });
    client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
    await client.apps.create({ body: { name: "gauge", version: "1.0.0", type: "app", title: "Gauge", description: "", image: "registry.example/gauge:1.0.0", parameters } });
    s = await nativeStack({
      pulumi: path.join(pulumiDir!, "pulumi"),
      project: "svc-import-option",
      config: { "svc:baseUrl": emulator.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" },
      secrets: ["svc:clientSecret"],
      program: async () => {
        new Native(
          "AppVersion",
          "gauge",
          { appName: "gauge", version: "1.0.0", type: "app", title: "Gauge", description: "", image: "registry.example/gauge:1.0.0", manifest },
          { import: "gauge@1.0.0" },
        );
      },
    });
  });
  afterAll(async () => {
    await s?.close();
    await client?.close();
    await emulator?.close();
  });

  const changes = (summary: Record<string, number> | undefined) => Object.fromEntries(Object.entries(summary ?? {}).filter(([op]) => op !== "same"));
  const version = () => client.apps.versionGet({ params: { app_name: "gauge", app_version: "1.0.0" } });
  const audit = () => client.instance.auditLogList({ query: { page_size: 1000 } });

  test("declared as the record states it, the version is imported without a write; the next preview is empty", async () => {
    manifest = { parameters, flags: (await version()).flags };
    const before = await audit();
    const up = await s.stack.up();
    expect(changes(up.summary.resourceChanges)).toEqual({ create: 1, import: 1 }); // the stack, and the version
    expect(changes((await s.stack.preview()).changeSummary)).toEqual({});
    expect(await audit()).toEqual(before);
  });

  test("a manifest without what the platform filled in differs from the record: the engine refuses the replacement it would need, and nothing is written", async () => {
    // The state without the version again, as before the import.
    const state = await s.stack.exportStack();
    state.deployment.resources = state.deployment.resources.filter((r: { type: string }) => r.type !== "svc:index:AppVersion");
    await s.stack.importStack(state);
    manifest = { parameters };
    const record = await version();
    const before = await audit();
    await expect(s.stack.up()).rejects.toThrow(/previously-imported resources that still specify an ID may not be replaced[\s\S]*manifest/);
    expect(await audit()).toEqual(before);
    expect(await version()).toEqual(record);
  });
});
