/**
 * The native provider with `svc:emulator`: the plugin's process serves the embedded emulator on the
 * state file the setting names, as the dynamic provider's process does; the objects are in that file.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../src/emulator";
import { SvcClient } from "../../src/client";
import { describeCli, pulumiDir } from "../cli/harness";
import { Native, nativeStack, pluginBuilt, type NativeStack } from "./harness";

(pluginBuilt ? describeCli : describe.skip)("the native provider with the embedded emulator", () => {
  let s: NativeStack;
  let dir: string;
  let statePath: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-native-embedded-"));
    statePath = path.join(dir, "state.json");
    s = await nativeStack({
      pulumi: path.join(pulumiDir!, "pulumi"),
      config: { "svc:emulator": statePath },
      program: async () => {
        new Native("Label", "anomaly", { name: "anomaly", title: "Anomaly" });
      },
    });
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("up creates the label in the state file's emulator; destroy deletes it", async () => {
    await s.stack.up();
    const read = async () => {
      const emulator = await startEmulator({ statePath, log: () => undefined });
      const client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
      try {
        return await client.datalabels.labelGet({ params: { label_name: "anomaly" } }).then(
          (l) => l.title,
          (e: { status?: number }) => e.status,
        );
      } finally {
        await client.close();
        await emulator.close();
      }
    };
    expect(await read()).toBe("Anomaly");
    await s.stack.destroy();
    expect(await read()).toBe(404);
  });
});
