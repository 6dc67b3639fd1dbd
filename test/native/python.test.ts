/**
 * The Python SDK (pulumi_svc, generated from schema/schema.json and built into a wheel) deploying a
 * small plant to the emulator through the Python Automation API (inline program, pulumi 3.272.0 from
 * PyPI) and the real CLI, with the native provider: up, an identical preview (empty), an edit's preview,
 * refresh (empty), destroy. `bash scripts/native-python.sh` prepares the Python environment; without
 * it (or without Python) these tests say so and skip.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { SvcClient } from "../../src/client";
import { pulumiWorkspace } from "../../src/testing/cli-stack";
import { describeCli, pulumiDir } from "../cli/harness";
import { pluginBuilt, pluginDir } from "./harness";

const venv = process.env.SVC_PYTHON_SDK_VENV ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-svc", "python-sdk", "venv");
const python = path.join(venv, "bin", "python");
const ready = fs.existsSync(python) && spawnSync(python, ["-c", "import pulumi_svc"]).status === 0;
if (!ready) {
  const why = `the Python SDK's environment is not prepared in ${venv} (bash scripts/native-python.sh creates it; it needs Python 3.9+ and Go)`;
  if (process.env.CI) throw new Error(`CI runs the Python SDK's tests, but ${why}`);
  console.warn(`skipping the Python SDK's tests: ${why}`);
}
const describePython = ready && pluginBuilt ? describeCli : describe.skip;

describePython("a plant in Python, with the generated SDK and the native provider", () => {
  let emulator: Emulator;
  let client: SvcClient;
  let temp: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    emulator = await startEmulator({ log: () => undefined });
    client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
    temp = fs.mkdtempSync(path.join(os.tmpdir(), "svc-python-"));
    const backend = path.join(temp, "backend");
    const workDir = path.join(temp, "work");
    fs.mkdirSync(backend);
    fs.mkdirSync(workDir);
    const ws = await pulumiWorkspace({ pulumi: path.join(pulumiDir!, "pulumi"), dir: temp, backend, passphrase: "python-test" });
    fs.writeFileSync(
      path.join(workDir, "Pulumi.yaml"),
      ["name: svc-python", "runtime: python", "plugins:", "  providers:", "    - name: svc", `      path: ${pluginDir}`, ""].join("\n"),
    );
    env = {
      ...ws.env,
      SVC_WORK_DIR: workDir,
      SVC_PULUMI_ROOT: ws.root,
      SVC_BASE_URL: emulator.baseUrl,
      SVC_CLIENT_ID: "svc-admin",
      SVC_CLIENT_SECRET: "svc-admin-secret",
    };
  });
  afterAll(async () => {
    await client?.close();
    await emulator?.close();
    if (temp) fs.rmSync(temp, { recursive: true, force: true });
  });

  /**
   * One step of test/native/python/plant.py: its resource changes and the stack's outputs. (Not
   * spawnSync: the emulator answers from this process, whose event loop must keep running.)
   */
  async function step(...args: string[]): Promise<{ changes: Record<string, number>; outputs?: Record<string, unknown> }> {
    const child = spawn(python, [path.join(__dirname, "python", "plant.py"), ...args], { env: { ...env, HOME: os.homedir() } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (code !== 0) throw new Error(`plant.py ${args.join(" ")} failed (exit ${code}):\n${stderr}\n${stdout}`);
    return JSON.parse(stdout.trim().split("\n").pop()!) as { changes: Record<string, number>; outputs?: Record<string, unknown> };
  }

  test("up creates the plant on the platform; the identical preview after it is empty", async () => {
    const up = await step("up");
    expect(up.changes).toEqual({ create: 4 });
    expect(up.outputs).toEqual({ path: "pump-1", state: "unknown" });
    expect((await step("preview")).changes).toEqual({});
  });

  test("an edit's preview plans one update; up makes it on the platform", async () => {
    expect((await step("preview", "Pump one")).changes).toEqual({ update: 1 });
    expect((await step("up", "Pump one")).changes).toEqual({ update: 1 });
    expect((await client.assets.get({ params: { asset_name: "pump-1" } })).title).toBe("Pump one");
  });

  test("refresh finds nothing to change; destroy deletes the plant", async () => {
    expect((await step("refresh", "Pump one")).changes).toEqual({});
    expect((await step("destroy", "Pump one")).changes).toEqual({ delete: 4 });
    await expect(client.assets.get({ params: { asset_name: "pump-1" } })).rejects.toMatchObject({ status: 404 });
    await expect(client.datalabels.labelGet({ params: { label_name: "anomaly" } })).rejects.toMatchObject({ status: 404 });
  });
});
