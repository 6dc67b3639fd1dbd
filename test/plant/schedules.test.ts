/**
 * Parameter schedules brought under code: a snapshot holding pending schedules (one with a revert and
 * a comment, two of one app version at one time) generates a program that declares each with
 * `adopt: true`; its adoption plan reads each schedule the program takes over and is empty, and its
 * up takes them over without a write (the platform's audit log stays empty, the schedules keep their
 * ids); the preview and refresh after it are empty (roundtrip.ts runs the whole round trip).
 */
import { generateProgram } from "../../src/plant";
import { roundTrip } from "./roundtrip";

const at = "2031-03-01T22:00:00Z";
const SEED = {
  asset_classes: [{ name: "machine", title: "Machine" }],
  asset_types: [{ name: "pump", title: "Pump", asset_class_name: "machine" }],
  assets: [
    { name: "pump-1", title: "Pump 1", asset_type_name: "pump" },
    { name: "pump-2", title: "Pump 2", asset_type_name: "pump" },
  ],
  apps: [
    {
      name: "oee",
      title: "OEE monitor",
      description: "per line",
      type: "app",
      versions: [
        {
          version: "1.1.0",
          parameters: [
            { name: "cycle_ms", data_type: "number", default: 420 },
            { name: "mode", data_type: "string", default: "normal" },
          ],
        },
      ],
    },
  ],
  schedules: [
    {
      app_name: "oee",
      app_version: "1.1.0",
      scheduled_for: "2031-01-03T22:00:00Z",
      resources: ["krn:asset:pump-1", "krn:asset:pump-2"],
      parameters: { mode: "weekend-cleaning" },
      comment: "weekend cleaning",
      revert: {
        scheduled_for: "2031-01-05T22:00:00Z",
        resource_parameters: [
          { resource: "krn:asset:pump-1", parameters: { mode: "normal" } },
          { resource: "krn:asset:pump-2", parameters: { mode: "normal" } },
        ],
      },
    },
    { app_name: "oee", app_version: "1.1.0", scheduled_for: at, resources: ["krn:asset:pump-1"], parameters: { cycle_ms: 400 } },
    { app_name: "oee", app_version: "1.1.0", scheduled_for: at, resources: ["krn:asset:pump-2"], parameters: { cycle_ms: 380 } },
  ],
};

test("a snapshot's schedules are declared, adopted with an empty plan and no write, and stay the same objects", async () => {
  // roundTrip: the adoption plan is all `same`, the up writes no audit entry and leaves every table as it was.
  // An asset class and type, two assets, the app version, three schedules and what generate adds.
  const kinds = await roundTrip(SEED, 9);
  expect(kinds).toContain("ParameterSchedule");
}, 300_000);

test("the generated schedules: one declaration per schedule, with its revert and comment, referring to the app version", () => {
  const files = generateProgram({ ...SEED, schedules: SEED.schedules.map((s) => ({ ...s })) });
  const text = files["schedules.ts"];
  expect(text).toBeDefined();
  expect(text.match(/new svc\.ParameterSchedule\(/g)).toHaveLength(3);
  expect(text).toContain('"oee-1.1.0-at-2031-01-03T220000Z"');
  expect(text).toContain('"oee-1.1.0-at-2031-03-01T220000Z"');
  expect(text).toContain('"oee-1.1.0-at-2031-03-01T220000Z-2"');
  expect(text).toMatch(/comment: "weekend cleaning"/);
  expect(text).toMatch(/revert: \{/);
  expect(text).toMatch(/appVersion: apps\.\w+\.version/);
  expect(text.match(/adopt: true/g)).toHaveLength(3);
  expect(files["index.ts"]).not.toMatch(/schedules have platform-assigned ids/);
});
