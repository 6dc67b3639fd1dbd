/**
 * Bringing the example plant under code, the whole round trip (roundtrip.ts); the soak runs it on a
 * generated plant of 500 assets (test/robustness/plant-roundtrip.test.ts). And InstanceSettings taken over.
 */
import * as path from "node:path";
import * as testing from "../../src/testing";
import { startTestEmulator } from "../helpers/emulator";
import { SERVICE, tables } from "./helpers";
import { auditActions, root, roundTrip } from "./roundtrip";

const PLANT = path.join(root, "examples", "fixtures", "plant.yaml");

describe("Round trip of examples/fixtures/plant.yaml: snapshot, generate, compile, adopt", () => {
  test("the up adopts every object and changes no record; preview, refresh and dropping adopt are empty", async () => {
    await roundTrip(PLANT, 80);
  }, 420_000);
});

describe("InstanceSettings taken over", () => {
  test("a create that declares the values the platform holds writes nothing; one that differs writes them", async () => {
    const emu = await startTestEmulator({ seed: { instance_settings: [{ acp: { metrics: { enabled: true, interval: 120 } } }] } as never });
    const config = { "svc:baseUrl": emu.baseUrl, "svc:clientId": SERVICE.clientId, "svc:clientSecret": SERVICE.clientSecret };
    const declare =
      (interval: number): testing.Program =>
      () => {
        const svc = require("pulumi-svc");
        new svc.InstanceSettings("settings", { acp: { metrics: { enabled: true, interval } } });
      };
    try {
      const same = await testing.stack(declare(120), { cwd: root, config, checkDestroy: false });
      try {
        const before = await tables(emu);
        await same.up();
        expect(await auditActions(emu)).toEqual([]);
        expect(await tables(emu)).toEqual(before);
      } finally {
        await same.close();
      }
      const other = await testing.stack(declare(90), { cwd: root, config, checkDestroy: false });
      try {
        await other.up();
        expect(await auditActions(emu)).toEqual(["SETTINGS-UPDATE-INSTANCE "]);
        const state = (await (await fetch(`${emu.baseUrl}/emulator/state`)).json()) as { instance_settings: Array<{ acp: { metrics: unknown } }> };
        expect(state.instance_settings[0].acp.metrics).toEqual({ enabled: true, interval: 90 });
      } finally {
        await other.close();
      }
    } finally {
      await emu.close();
    }
  }, 60_000);
});
