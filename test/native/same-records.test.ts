/**
 * One scenario, two providers: the dynamic resources (TypeScript classes) and the native provider each
 * take a small plant through create and an edit under the real `pulumi` CLI, each against its own
 * emulator; the platform records they leave are the same (times aside).
 */
import * as path from "node:path";
import * as svc from "../../src";
import { SvcClient } from "../../src/client";
import { startEmulator, type Emulator } from "../../src/emulator";
import * as testing from "../../src/testing";
import { describeCli, pulumiDir } from "../cli/harness";
import { Native, nativeStack, pluginBuilt, type NativeStack } from "./harness";

/** The scenario's steps: the asset's title and location at each up. */
const steps = [
  { title: "Pump 1", location: { lat: 48.1, lon: 11.6 } },
  { title: "Pump one", location: { lat: 48.2, lon: 11.5 } },
];

/** The records the scenario touches, without the times the platform stamps. */
async function records(baseUrl: string): Promise<unknown> {
  const client = new SvcClient({ baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  const timeless = (r: object) => Object.fromEntries(Object.entries(r).filter(([k]) => !["created", "updated", "created_at", "updated_at", "last_seen"].includes(k)));
  try {
    const asset = (await client.assets.get({ params: { asset_name: "pump-1" } })) as object;
    const { status: _status, ...rest } = asset as { status?: unknown };
    return {
      type: timeless(await client.assets.typeGet({ params: { asset_type_name: "pump" } })),
      asset: timeless(rest),
      label: timeless(await client.datalabels.labelGet({ params: { label_name: "anomaly" } })),
    };
  } finally {
    await client.close();
  }
}

(pluginBuilt ? describeCli : describe.skip)("the dynamic and the native provider", () => {
  let dynamic: testing.CliStack;
  let emulator: Emulator;
  let native: NativeStack;
  let step = 0;
  beforeAll(async () => {
    dynamic = await testing.stack(
      () => {
        const type = new svc.AssetType("pump", { name: "pump", title: "Pump" });
        new svc.Asset("pump-1", { name: "pump-1", assetTypeName: type.name, ...steps[step] });
        new svc.Label("anomaly", { name: "anomaly", title: "Anomaly" });
      },
      { engine: "pulumi", pulumiPath: pulumiDir, emulator: true },
    );
    emulator = await startEmulator({ log: () => undefined });
    native = await nativeStack({
      pulumi: path.join(pulumiDir!, "pulumi"),
      config: { "svc:baseUrl": emulator.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" },
      secrets: ["svc:clientSecret"],
      program: async () => {
        const type = new Native("AssetType", "pump", { name: "pump", title: "Pump" });
        new Native("Asset", "pump-1", { name: "pump-1", assetTypeName: type.out("name"), ...steps[step] });
        new Native("Label", "anomaly", { name: "anomaly", title: "Anomaly" });
      },
    });
  });
  afterAll(async () => {
    await native?.close();
    await emulator?.close();
    await dynamic?.close();
  });

  test.each(steps.map((s, i) => [i, s.title]))("step %i (%s): the same records", async (i) => {
    step = i;
    await dynamic.up();
    await native.stack.up();
    const fromDynamic = await records(dynamic.emulator!.baseUrl);
    expect(fromDynamic).toMatchObject({ asset: { title: steps[step].title, location: steps[step].location } });
    expect(await records(emulator.baseUrl)).toEqual(fromDynamic);
  });
});
