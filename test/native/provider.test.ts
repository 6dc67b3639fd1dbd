/**
 * The native provider `pulumi-resource-svc` under the real `pulumi` CLI, against the emulator: up, an
 * empty preview, an update in place and a replacement with the engine's detailed diff, refresh, the
 * `import` resource option, destroy. The same lifecycle as the dynamic resources decides each step.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { SvcClient } from "../../src/client";
import { urnName } from "../../src/pulumi/urn";
import { describeCli, pulumiDir } from "../cli/harness";
import { Native, nativeStack, pluginBuilt, type NativeStack } from "./harness";

/** Every file of a file backend's folder, as one text. */
function stateFiles(dir: string): string {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), "utf8"))
    .join("\n");
}

const describeNative = pluginBuilt ? describeCli : describe.skip;
if (!pluginBuilt) console.warn("skipping the native provider's tests: dist/ is not built (npm run build)");

describeNative("the native provider under `pulumi`", () => {
  let emulator: Emulator;
  let client: SvcClient;
  let s: NativeStack;
  /** What the program declares; each test edits it. */
  const plan = { assetTitle: "Pump 1", labelName: "anomaly", importAsset: false };

  beforeAll(async () => {
    emulator = await startEmulator({ log: () => undefined });
    client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
    s = await nativeStack({
      pulumi: path.join(pulumiDir!, "pulumi"),
      config: { "svc:baseUrl": emulator.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" },
      secrets: ["svc:clientSecret"],
      program: async () => {
        const type = new Native("AssetType", "pump", { name: "pump", title: "Pump" });
        const asset = new Native("Asset", "pump-1", { name: "pump-1", title: plan.assetTitle, assetTypeName: type.out("name") }, {}, ["path", "state"]);
        new Native("Label", "label", { name: plan.labelName, title: "Anomaly" });
        if (plan.importAsset) new Native("Asset", "legacy", { name: "legacy", title: "Legacy", assetTypeName: "pump" }, { import: "legacy", dependsOn: [type] });
        return { path: asset.out("path") };
      },
    });
  });
  afterAll(async () => {
    await s?.close();
    await client?.close();
    await emulator?.close();
  });

  const changes = (summary: Record<string, number> | undefined) => Object.fromEntries(Object.entries(summary ?? {}).filter(([op]) => op !== "same"));

  test("up creates the resources on the platform, with their computed outputs; the next preview is empty", async () => {
    const up = await s.stack.up();
    expect(changes(up.summary.resourceChanges)).toEqual({ create: 4 }); // the stack and three resources (the provider is not counted)
    expect(up.outputs.path.value).toBe("pump-1");
    expect((await client.assets.get({ params: { asset_name: "pump-1" } })).title).toBe("Pump 1");
    const preview = await s.stack.preview();
    expect(changes(preview.changeSummary)).toEqual({});
  });

  test("an edit updates in place; a new name replaces; the engine's diff names the args", async () => {
    plan.assetTitle = "Pump one";
    plan.labelName = "anomalies";
    const events: Array<{ name: string; op: string; diffs?: string[]; detailedDiff?: Record<string, { diffKind: string }>; keys?: string[] }> = [];
    const preview = await s.stack.preview({
      diff: true,
      onEvent: (e) => {
        const m = e.resourcePreEvent?.metadata;
        if (m && m.op !== "same") events.push({ name: urnName(m.urn), op: m.op, diffs: m.diffs, detailedDiff: m.detailedDiff, keys: m.keys });
      },
    });
    expect(changes(preview.changeSummary)).toEqual({ update: 1, replace: 1 });
    const asset = events.find((e) => e.name === "pump-1")!;
    expect(asset).toMatchObject({ op: "update", diffs: ["title"], detailedDiff: { title: { diffKind: "update", inputDiff: true } } });
    const label = events.find((e) => e.name === "label" && e.op === "replace")!;
    expect(label).toMatchObject({ diffs: ["name"], keys: ["name"], detailedDiff: { name: { diffKind: "update-replace", inputDiff: true } } });
    const up = await s.stack.up();
    expect(changes(up.summary.resourceChanges)).toEqual({ update: 1, replace: 1 });
    expect((await client.assets.get({ params: { asset_name: "pump-1" } })).title).toBe("Pump one");
    expect((await client.datalabels.labelGet({ params: { label_name: "anomalies" } })).name).toBe("anomalies");
    await expect(client.datalabels.labelGet({ params: { label_name: "anomaly" } })).rejects.toMatchObject({ status: 404 });
  });

  test("refresh finds nothing to change; drift made on the platform is taken in, and the next up puts the declared value back", async () => {
    const refresh = await s.stack.refresh();
    expect(changes(refresh.summary.resourceChanges)).toEqual({});
    await client.assets.update({ params: { asset_name: "pump-1" }, body: { title: "Changed by hand" } });
    const drift = await s.stack.refresh();
    expect(changes(drift.summary.resourceChanges)).toEqual({ update: 1 });
    const up = await s.stack.up();
    expect(changes(up.summary.resourceChanges)).toEqual({ update: 1 });
    expect((await client.assets.get({ params: { asset_name: "pump-1" } })).title).toBe("Pump one");
  });

  test("the import option takes an existing asset under the program; the next preview is empty", async () => {
    await client.assets.create({ body: { name: "legacy", title: "Legacy", asset_type_name: "pump" } });
    plan.importAsset = true;
    const up = await s.stack.up();
    expect(changes(up.summary.resourceChanges)).toEqual({ import: 1 });
    expect(changes((await s.stack.preview()).changeSummary)).toEqual({});
  });

  test("the state holds no credential; destroy deletes every object", async () => {
    // The state as the backend stores it: the secret config is encrypted, and no resource holds it.
    const state = stateFiles(s.backend);
    expect(state).toContain("svc:index:Asset");
    expect(state).not.toContain("svc-admin-secret");
    const destroy = await s.stack.destroy();
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 5 });
    for (const name of ["pump-1", "legacy"]) await expect(client.assets.get({ params: { asset_name: name } })).rejects.toMatchObject({ status: 404 });
    expect(fs.existsSync(s.workDir)).toBe(true);
  });
});
