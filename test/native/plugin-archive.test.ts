/**
 * The plugin archive (`npm run plugin`) installed with `pulumi plugin install resource svc <version>
 * --file`, then found by the engine in the CLI's home (the project names no plugin folder) and run with
 * its own Node.js runtime: the CLI's PATH holds nothing but the CLI. Skips when the archive is not built.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { SvcClient } from "../../src/client";
import { describeCli, pulumiDir } from "../cli/harness";
import { Native, nativeStack, repoRoot, type NativeStack } from "./harness";

const { archivePath } = require("../../scripts/plugin-archive.js") as { archivePath(version: string): string };
const version = (require("../../package.json") as { version: string }).version;
const archive = archivePath(version);
const built = fs.existsSync(archive);
if (!built) {
  const why = `the plugin archive ${path.relative(repoRoot, archive)} is not built (npm run plugin builds it)`;
  if (process.env.CI) throw new Error(`CI runs the plugin archive's test, but ${why}`);
  console.warn(`skipping the plugin archive's test: ${why}`);
}

(built ? describeCli : describe.skip)("the installed plugin archive", () => {
  let emulator: Emulator;
  let client: SvcClient;
  let s: NativeStack;

  beforeAll(async () => {
    emulator = await startEmulator({ log: () => undefined });
    client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
    s = await nativeStack({
      pulumi: path.join(pulumiDir!, "pulumi"),
      installedPlugin: true,
      // Only the CLI on PATH: the plugin must bring its own runtime.
      path: pulumiDir!,
      config: { "svc:baseUrl": emulator.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" },
      secrets: ["svc:clientSecret"],
      program: async () => {
        new Native("Label", "anomaly", { name: "anomaly", title: "Anomaly" });
      },
    });
    execFileSync(path.join(pulumiDir!, "pulumi"), ["plugin", "install", "resource", "svc", version, "--file", archive], { env: { ...process.env, ...s.env }, stdio: "pipe" });
  });
  afterAll(async () => {
    await s?.close();
    await client?.close();
    await emulator?.close();
  });

  test("pulumi plugin ls lists it; up, an empty preview and destroy run with it", async () => {
    const listed = execFileSync(path.join(pulumiDir!, "pulumi"), ["plugin", "ls", "--json"], { env: { ...process.env, ...s.env }, encoding: "utf8" });
    expect(JSON.parse(listed)).toEqual(expect.arrayContaining([expect.objectContaining({ name: "svc", kind: "resource", version })]));
    await s.stack.up();
    expect((await client.datalabels.labelGet({ params: { label_name: "anomaly" } })).title).toBe("Anomaly");
    const preview = await s.stack.preview();
    expect(Object.entries(preview.changeSummary).filter(([op]) => op !== "same")).toEqual([]);
    await s.stack.destroy();
    await expect(client.datalabels.labelGet({ params: { label_name: "anomaly" } })).rejects.toMatchObject({ status: 404 });
  });
});
