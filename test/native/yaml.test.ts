/**
 * A YAML program in a project folder, run by the real `pulumi` CLI with Pulumi's YAML language host
 * (scripts/pulumi-yaml.js builds it) and the native provider, against the emulator: `pulumi up`, an
 * empty preview, an edit, refresh, `pulumi import` of objects that exist on the platform (asset
 * type, asset, label, app version: the generated code checked, then added to the program, after
 * which the preview is empty), destroy.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse, stringify } from "yaml";
import { startEmulator, type Emulator } from "../../src/emulator";
import { SvcClient } from "../../src/client";
import { requestIdOf } from "../../src/provider/ownership";
import { pulumiWorkspace } from "../../src/testing/cli-stack";
import { describeCli, pulumiDir } from "../cli/harness";
import { pluginBuilt, pluginDir } from "./harness";

const yamlHost = require("../../scripts/pulumi-yaml.js") as { builtHost(): string | undefined; hostDir(): string };
const hostDir = yamlHost.builtHost();
if (!hostDir) {
  const why = `pulumi-language-yaml is not built in ${yamlHost.hostDir()} (node scripts/pulumi-yaml.js builds it; it needs Go)`;
  if (process.env.CI) throw new Error(`CI runs the YAML program's tests, but ${why}`);
  console.warn(`skipping the YAML program's tests: ${why}`);
}
const describeYaml = hostDir && pluginBuilt ? describeCli : describe.skip;

describeYaml("a YAML program with the native provider", () => {
  let emulator: Emulator;
  let client: SvcClient;
  let temp: string;
  let project: string;
  let env: Record<string, string>;

  /** The program: an asset type, an asset whose title is the stack's config `title`, a label; plus `extra` resources. */
  const program = (extra: Record<string, unknown> = {}) => ({
    name: "svc-yaml",
    runtime: "yaml",
    plugins: { providers: [{ name: "svc", path: pluginDir }] },
    config: { title: { type: "string", default: "Pump 1" } },
    resources: {
      pump: { type: "svc:index:AssetType", properties: { name: "pump", title: "Pump" } },
      "pump-1": { type: "svc:index:Asset", properties: { name: "pump-1", title: "${title}", assetTypeName: "${pump.name}" } },
      anomaly: { type: "svc:index:Label", properties: { name: "anomaly", title: "Anomaly" } },
      ...extra,
    },
    outputs: { path: "${pump-1.path}", state: "${pump-1.state}" },
  });
  /** The resources the imports added to the program so far. */
  let importedBefore: Record<string, unknown> = {};
  const write = (extra?: Record<string, unknown>) => fs.writeFileSync(path.join(project, "Pulumi.yaml"), stringify(program(extra)));

  /** Runs `pulumi <args>` in the project folder (not spawnSync: the emulator answers from this process). */
  async function pulumi(...args: string[]): Promise<string> {
    const child = spawn(path.join(pulumiDir!, "pulumi"), [...args, "--non-interactive"], { cwd: project, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (exit ${code}):\n${stderr}\n${stdout}`);
    return stdout;
  }
  /** The changes a preview plans, by operation (without "same"). */
  const planned = async () => {
    const out = JSON.parse(await pulumi("preview", "--json")) as { changeSummary?: Record<string, number> };
    return Object.fromEntries(Object.entries(out.changeSummary ?? {}).filter(([op]) => op !== "same"));
  };

  beforeAll(async () => {
    emulator = await startEmulator({ log: () => undefined });
    client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
    temp = fs.mkdtempSync(path.join(os.tmpdir(), "svc-yaml-"));
    const backend = path.join(temp, "backend");
    project = path.join(temp, "project");
    fs.mkdirSync(backend);
    fs.mkdirSync(project);
    const ws = await pulumiWorkspace({ pulumi: path.join(pulumiDir!, "pulumi"), dir: temp, backend, passphrase: "yaml-test" });
    env = { ...ws.env, PATH: `${hostDir}${path.delimiter}${ws.env.PATH}` };
    write();
    await pulumi("stack", "init", "dev");
    await pulumi("config", "set", "svc:baseUrl", emulator.baseUrl);
    await pulumi("config", "set", "svc:clientId", "svc-admin");
    await pulumi("config", "set", "--secret", "svc:clientSecret", "svc-admin-secret");
  });
  afterAll(async () => {
    await client?.close();
    await emulator?.close();
    if (temp) fs.rmSync(temp, { recursive: true, force: true });
  });

  test("pulumi up creates the plant; the preview after it is empty", async () => {
    expect(await planned()).toEqual({ create: 4 });
    await pulumi("up", "--yes");
    expect((await client.assets.get({ params: { asset_name: "pump-1" } })).title).toBe("Pump 1");
    expect(JSON.parse(await pulumi("stack", "output", "--json"))).toEqual({ path: "pump-1", state: "unknown" });
    expect(await planned()).toEqual({});
    // Each create's calls carry the request id that names the stack and the resource, as the dynamic resources' do.
    const requestIds = (await client.instance.auditLogList({ query: { page_size: 1000 } })).data.map((e) => e.request_id);
    expect(requestIds).toContain(requestIdOf({ project: "svc-yaml", stack: "dev", resource: "pump-1" }, "Asset", "pump-1"));
  });

  test("an object this resource created while the state lost it (a run that stopped) is taken over, not refused", async () => {
    await pulumi("state", "delete", "urn:pulumi:dev::svc-yaml::svc:index:Label::anomaly", "--yes");
    expect(await planned()).toEqual({ create: 1 });
    const audit = await client.instance.auditLogList({ query: { page_size: 1000 } });
    // The create is answered 409; the audit log names this resource of this stack as the creator.
    await pulumi("up", "--yes");
    expect(await client.instance.auditLogList({ query: { page_size: 1000 } })).toEqual(audit);
    expect(await planned()).toEqual({});
  });

  test("an edit: the preview plans an update, up makes it; refresh finds nothing", async () => {
    await pulumi("config", "set", "title", "Pump one");
    expect(await planned()).toEqual({ update: 1 });
    await pulumi("up", "--yes");
    expect((await client.assets.get({ params: { asset_name: "pump-1" } })).title).toBe("Pump one");
    // --expect-no-changes: the command fails when the refresh changes anything.
    await pulumi("refresh", "--yes", "--skip-preview", "--expect-no-changes");
    expect(await planned()).toEqual({});
  });

  test("pulumi import brings an existing asset, asset type and label under the program; the next preview is empty", async () => {
    await client.assets.typeCreate({ body: { name: "valve", title: "Valve" } });
    await client.assets.create({ body: { name: "valve-1", title: "Valve 1", asset_type_name: "valve" } });
    await client.datalabels.labelCreate({ body: { name: "leak", title: "Leak" } });
    const imports = [
      ["svc:index:AssetType", "valve", "valve"],
      ["svc:index:Asset", "valve-1", "valve-1"],
      ["svc:index:Label", "leak", "leak"],
    ];
    const generated: Record<string, { type: string; properties: Record<string, unknown> }> = {};
    for (const [type, name, id] of imports) {
      const out = path.join(temp, `${name}.yaml`);
      await pulumi("import", type, name, id, "--yes", "--protect=false", "--out", out);
      Object.assign(generated, (parse(fs.readFileSync(out, "utf8")) as { resources: typeof generated }).resources);
    }
    expect(generated).toEqual({
      valve: { type: "svc:AssetType", properties: { name: "valve", title: "Valve" } },
      "valve-1": { type: "svc:Asset", properties: { name: "valve-1", title: "Valve 1", assetTypeName: "valve" } },
      leak: { type: "svc:Label", properties: { name: "leak", title: "Leak" } },
    });
    // The asset names its type by reference, so that destroy deletes the asset first (the same value).
    generated["valve-1"].properties.assetTypeName = "${valve.name}";
    importedBefore = generated;
    write(generated);
    expect(await planned()).toEqual({});
    // An up changes nothing on the platform; it records that the asset depends on its type.
    await pulumi("up", "--yes");
  });

  test("pulumi import brings an existing app version under the program, the rest of its manifest too; the next preview is empty", async () => {
    const manifest = {
      category: "meters",
      parameters: [{ name: "interval", title: "Interval", data_type: "number" as const, default: 5 }],
    };
    await client.apps.create({
      body: {
        name: "gauge",
        version: "1.0.0",
        type: "app",
        title: "Gauge",
        description: "Reads a gauge",
        image: { mode: "manual", uri: "registry.example/gauge:1.0.0" },
        ...manifest,
      },
    });
    const record = await client.apps.versionGet({ params: { app_name: "gauge", app_version: "1.0.0" } });
    const before = JSON.stringify(await client.instance.auditLogList({ query: { page_size: 1000 } }));
    const out = path.join(temp, "gauge.yaml");
    // The id is `<app>@<version>`.
    await pulumi("import", "svc:index:AppVersion", "gauge-v1", "gauge@1.0.0", "--yes", "--protect=false", "--out", out);
    const generated = (parse(fs.readFileSync(out, "utf8")) as { resources: Record<string, { type: string; properties: Record<string, unknown> }> }).resources;
    expect(generated).toEqual({
      "gauge-v1": {
        type: "svc:AppVersion",
        properties: {
          appName: "gauge",
          version: "1.0.0",
          type: "app",
          title: "Gauge",
          description: "Reads a gauge",
          image: "registry.example/gauge:1.0.0",
          // The fields no arg takes are the manifest, with the defaults the platform filled in: a replacement makes the same version.
          manifest: { ...manifest, flags: record.flags },
        },
      },
    });
    expect(record.flags).toEqual({ enable_runtime_update: expect.any(Object) });
    write({ ...importedBefore, ...generated });
    expect(await planned()).toEqual({});
    await pulumi("up", "--yes");
    // Refresh reads the version back as the program declares it.
    await pulumi("refresh", "--yes", "--skip-preview", "--expect-no-changes");
    expect(await client.apps.versionGet({ params: { app_name: "gauge", app_version: "1.0.0" } })).toEqual(record);
    expect(JSON.stringify(await client.instance.auditLogList({ query: { page_size: 1000 } }))).toBe(before);
  });

  test("pulumi destroy deletes every object, the imported ones too", async () => {
    await pulumi("destroy", "--yes");
    await expect(client.apps.versionGet({ params: { app_name: "gauge", app_version: "1.0.0" } })).rejects.toMatchObject({ status: 404 });
    for (const name of ["pump-1", "valve-1"]) await expect(client.assets.get({ params: { asset_name: name } })).rejects.toMatchObject({ status: 404 });
    await expect(client.datalabels.labelGet({ params: { label_name: "leak" } })).rejects.toMatchObject({ status: 404 });
  });
});
