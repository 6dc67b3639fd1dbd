/**
 * Moving a stack from the dynamic resources to the native provider under the real `pulumi` CLI,
 * against the emulator, as the README tells it: a TypeScript program of dynamic resources (a
 * component's child, a secret arg, an app version with a manifest) is deployed; an alias to the
 * native types is shown to plan replacements; then `pulumi stack export`, `pulumi-resource-svc
 * import-file`, `pulumi import --file` and `pulumi state delete` move the state, after which the same
 * program with native resources previews empty, `up` and refresh change nothing, and the platform's
 * records and audit log are as they were.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as svc from "../../src";
import { SvcClient } from "../../src/client";
import { startEmulator, type Emulator } from "../../src/emulator";
import { urnName, urnQualifiedType } from "../../src/pulumi/urn";
import { describeCli, pulumiDir } from "../cli/harness";
import { Native, nativeStack, pluginBuilt, pluginDir, type NativeStack } from "./harness";

const describeNative = pluginBuilt ? describeCli : describe.skip;
const yamlHostDir = (require("../../scripts/pulumi-yaml.js") as { builtHost(): string | undefined }).builtHost();
if (!yamlHostDir) console.warn("skipping the move through pulumi import: pulumi-language-yaml is not built (node scripts/pulumi-yaml.js builds it)");

/** The dynamic resources' type of a kind. */
const dynamicType = (kind: string) => `pulumi-nodejs:dynamic/svc:${kind}`;

describeNative("moving a stack from the dynamic resources to the native provider", () => {
  let emulator: Emulator;
  let client: SvcClient;
  let s: NativeStack;
  /** Which resources the program declares; `aliases` gives each native resource an alias to its dynamic type. */
  const plan = { native: false, aliases: false };

  const manifest = { parameters: [{ name: "interval", data_type: "number" as const, default: 5 }] };
  /** The plant, as dynamic resources or as native ones of the same names, args and parents. */
  function program(): void {
    const line = new pulumi.ComponentResource("plant:index:Line", "line-1", {});
    if (!plan.native) {
      const type = new svc.AssetType("pump", { name: "pump", title: "Pump" });
      new svc.Asset("pump-1", { name: "pump-1", title: pulumi.secret("Pump 1"), assetTypeName: type.name }, { parent: line });
      new svc.Label("anomaly", { name: "anomaly", title: "Anomaly" });
      new svc.AppVersion("gauge", { appName: "gauge", version: "1.0.0", type: "app", image: "registry.example/gauge:1.0.0", manifest });
      return;
    }
    const opts = (kind: string): pulumi.CustomResourceOptions => (plan.aliases ? { aliases: [{ type: dynamicType(kind) }] } : {});
    const type = new Native("AssetType", "pump", { name: "pump", title: "Pump" }, opts("AssetType"));
    new Native("Asset", "pump-1", { name: "pump-1", title: pulumi.secret("Pump 1"), assetTypeName: type.out("name") }, { parent: line, ...opts("Asset") });
    new Native("Label", "anomaly", { name: "anomaly", title: "Anomaly" }, opts("Label"));
    new Native("AppVersion", "gauge", { appName: "gauge", version: "1.0.0", type: "app", image: "registry.example/gauge:1.0.0", manifest }, opts("AppVersion"));
  }

  /** Runs `pulumi <args>` on the stack's project folder (not spawnSync: the emulator answers from this process). */
  const cli = (...args: string[]) => cliIn(s.workDir, s.env, args);
  async function cliIn(cwd: string, env: Record<string, string>, args: string[]): Promise<string> {
    const child = spawn(path.join(pulumiDir!, "pulumi"), [...args, "--non-interactive"], { cwd, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (exit ${code}):\n${stderr}\n${stdout}`);
    return stdout;
  }
  /** Runs the plugin's `import-file` command on an exported stack. */
  async function importFile(...args: string[]): Promise<string> {
    const child = spawn(path.join(pluginDir, "pulumi-resource-svc"), ["import-file", ...args], { cwd: s.workDir });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (code !== 0) throw new Error(`pulumi-resource-svc import-file ${args.join(" ")} failed (exit ${code})`);
    return stdout;
  }

  /** What the platform holds of the plant, and its audit log (every write leaves an entry). */
  async function platform(): Promise<unknown> {
    return {
      type: await client.assets.typeGet({ params: { asset_type_name: "pump" } }),
      asset: await client.assets.get({ params: { asset_name: "pump-1" } }),
      label: await client.datalabels.labelGet({ params: { label_name: "anomaly" } }),
      version: await client.apps.versionGet({ params: { app_name: "gauge", app_version: "1.0.0" } }),
      audit: await client.instance.auditLogList({ query: { page_size: 1000 } }),
    };
  }

  /**
   * `pulumi import <args>` on the stack. The command loads the project's language host, and the CLI
   * built here has none for Node.js (inline programs need none): it runs from a copy of the project
   * folder (its Pulumi.yaml and the stack's settings) that differs in the runtime only, YAML.
   */
  async function importCli(...args: string[]): Promise<string> {
    const dir = path.join(path.dirname(s.workDir), "import-project");
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(s.workDir, "Pulumi.dev.yaml"), path.join(dir, "Pulumi.dev.yaml"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), fs.readFileSync(path.join(s.workDir, "Pulumi.yaml"), "utf8").replace("runtime: nodejs", "runtime: yaml"));
    return cliIn(dir, { ...s.env, PATH: `${yamlHostDir}${path.delimiter}${s.env.PATH}` }, ["import", ...args]);
  }

  const changes = (summary: Record<string, number> | undefined) => Object.fromEntries(Object.entries(summary ?? {}).filter(([op]) => op !== "same"));
  /** The resources of the state, by type and name. */
  const stateTypes = async () => {
    const exported = JSON.parse(await cli("stack", "export", "--stack", "dev")) as { deployment: { resources: Array<{ urn: string; type: string }> } };
    return exported.deployment.resources.map((r) => `${r.type}::${urnName(r.urn)}`).sort();
  };

  /** The state's resources once moved and `up` has run: the native resources and their provider, the dynamic provider gone. */
  const nativeState = [
    "plant:index:Line::line-1",
    "pulumi:providers:svc::default",
    "pulumi:pulumi:Stack::svc-move-dev",
    "svc:index:AppVersion::gauge",
    "svc:index:Asset::pump-1",
    "svc:index:AssetType::pump",
    "svc:index:Label::anomaly",
  ];

  beforeAll(async () => {
    emulator = await startEmulator({ log: () => undefined });
    client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
    s = await nativeStack({
      pulumi: path.join(pulumiDir!, "pulumi"),
      project: "svc-move",
      config: { "svc:baseUrl": emulator.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" },
      secrets: ["svc:clientSecret"],
      program: async () => program(),
    });
  });
  afterAll(async () => {
    await s?.close();
    await client?.close();
    await emulator?.close();
  });

  let before: unknown;
  /** The stack as the dynamic program left it, exported. */
  let dynamicState: string;

  test("the dynamic program is deployed", async () => {
    const up = await s.stack.up();
    expect(changes(up.summary.resourceChanges)).toEqual({ create: 6 });
    before = await platform();
    expect(before).toMatchObject({ asset: { title: "Pump 1" }, version: { parameters: manifest.parameters } });
    dynamicState = path.join(s.workDir, "dynamic.json");
    await cli("stack", "export", "--stack", "dev", "--file", dynamicState);
  });

  test("an alias from each native resource to its dynamic type: one up moves the state, without a call that changes the platform", async () => {
    plan.native = true;
    plan.aliases = true;
    // The engine diffs each resource with the native provider (the provider's change alone replaces nothing): no change.
    expect(changes((await s.stack.preview()).changeSummary)).toEqual({});
    expect(changes((await s.stack.up()).summary.resourceChanges)).toEqual({});
    expect(await stateTypes()).toEqual(nativeState);
    plan.aliases = false;
    expect(changes((await s.stack.preview()).changeSummary)).toEqual({});
    await cli("refresh", "--stack", "dev", "--yes", "--skip-preview", "--expect-no-changes");
    expect(await platform()).toEqual(before);
  });

  (yamlHostDir ? test : test.skip)("import-file, pulumi import --file and pulumi state delete move the state; the native program's preview is empty", async () => {
    // Back to the dynamic resources' state (the platform is as it was).
    await cli("stack", "import", "--stack", "dev", "--file", dynamicState);
    const exported = path.join(s.workDir, "state.json");
    await cli("stack", "export", "--stack", "dev", "--file", exported);
    fs.writeFileSync(path.join(s.workDir, "import.json"), await importFile(exported));
    const urns = (await importFile(exported, "--urns")).split("\n").filter(Boolean);
    expect(urns.map((u) => `${urnQualifiedType(u)}::${urnName(u)}`).sort()).toEqual(
      [`${dynamicType("AppVersion")}::gauge`, `${dynamicType("AssetType")}::pump`, `${dynamicType("Label")}::anomaly`, `plant:index:Line$${dynamicType("Asset")}::pump-1`].sort(),
    );

    await importCli("--file", path.join(s.workDir, "import.json"), "--stack", "dev", "--yes", "--protect=false", "--generate-code=false");
    await cli("state", "delete", ...urns, "--stack", "dev", "--yes");

    const preview = await s.stack.preview();
    expect(changes(preview.changeSummary)).toEqual({});
    // up records what the program says (the asset's dependency on its type), the dynamic provider
    // no resource uses any more goes; refresh finds nothing to change.
    const up = await s.stack.up();
    expect(changes(up.summary.resourceChanges)).toEqual({});
    expect(await stateTypes()).toEqual(nativeState);
    await cli("refresh", "--stack", "dev", "--yes", "--skip-preview", "--expect-no-changes");
    expect(await platform()).toEqual(before);
  });

  test("the native provider now manages the objects: destroy deletes them", async () => {
    await cli("destroy", "--stack", "dev", "--yes", "--skip-preview");
    await expect(client.assets.get({ params: { asset_name: "pump-1" } })).rejects.toMatchObject({ status: 404 });
    await expect(client.apps.versionGet({ params: { app_name: "gauge", app_version: "1.0.0" } })).rejects.toMatchObject({ status: 404 });
  });
});
