/**
 * Upgrades: a stack written by an earlier release of the package keeps working under the current
 * code. `fixtures/` holds what a user of that release has on disk after deploying the quickstart plus
 * one resource of every other kind (test/model/all-kinds.ts) to the emulator: the kit's state file
 * (`pulumi-state.json`, secrets encrypted) and the emulator's state file (`emulator-state.json`). Under
 * the current code the same program must preview with an empty plan and go up with no changes, for
 * every kind; a refresh finds no drift; and the stack still goes down and up again.
 *
 * The fixtures were recorded with release 0.1.0 of the package. To record them again (only when the
 * format of a state deliberately changes, with a migration for the old one):
 * `RECORD_UPGRADE_FIXTURES=1 npx jest test/upgrade` after `npm run build && node scripts/link-self.js`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { kinds } from "../../src/provider/kinds";
import * as testing from "../../src/testing";
import { ALL_KINDS_RESOURCES, allKinds } from "../model/all-kinds";

testing.registerMatchers();
jest.setTimeout(120_000);

const FIXTURES = path.join(__dirname, "fixtures");
const PULUMI_STATE = "pulumi-state.json";
const EMULATOR_STATE = "emulator-state.json";
/** The names the recorded state was written under, and its secrets passphrase. */
const STACK = { project: "upgrade", stack: "recorded", secretsPassphrase: "pulumi-svc-upgrade-fixture" };
const RECORD = process.env.RECORD_UPGRADE_FIXTURES === "1";

const config = (emulator: Emulator) => ({ "svc:baseUrl": emulator.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" });

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-upgrade-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

(RECORD ? test : test.skip)("records the fixtures with the current code", async () => {
  const emulator = await startEmulator({ statePath: path.join(dir, EMULATOR_STATE), log: () => undefined });
  const stack = await testing.stack(allKinds, { ...STACK, statePath: path.join(dir, PULUMI_STATE), config: config(emulator), secretConfig: ["svc:clientSecret"] });
  try {
    await stack.up();
  } finally {
    await stack.close();
    // Closing folds the emulator's log into its snapshot: one file holds the whole platform.
    await emulator.close();
  }
  fs.mkdirSync(FIXTURES, { recursive: true });
  for (const f of [PULUMI_STATE, EMULATOR_STATE]) fs.copyFileSync(path.join(dir, f), path.join(FIXTURES, f));
  expect(fs.existsSync(path.join(dir, `${EMULATOR_STATE}.log`)) ? fs.readFileSync(path.join(dir, `${EMULATOR_STATE}.log`), "utf8") : "").toBe("");
});

describe("a stack written by release 0.1.0", () => {
  test("previews with an empty plan, goes up with no changes and shows no drift under the current code, for every kind; then goes down and up again", async () => {
    for (const f of [PULUMI_STATE, EMULATOR_STATE]) fs.copyFileSync(path.join(FIXTURES, f), path.join(dir, f));
    const emulator = await startEmulator({ statePath: path.join(dir, EMULATOR_STATE), log: () => undefined });
    const stack = await testing.stack(allKinds, { ...STACK, statePath: path.join(dir, PULUMI_STATE), config: config(emulator), secretConfig: ["svc:clientSecret"] });
    try {
      const recorded = stack.resources();
      expect(recorded).toHaveLength(ALL_KINDS_RESOURCES);
      expect(new Set(recorded.map((r) => r.type))).toEqual(new Set(Object.keys(kinds).map((k) => `pulumi-nodejs:dynamic/svc:${k}`)));
      // The recorded secret is still encrypted on disk, and still a secret once read.
      expect(fs.readFileSync(path.join(dir, PULUMI_STATE), "utf8")).not.toContain("opcua-line-1-password");
      expect(stack.resource("opcua-line-1").secretOutputs).toContain("payload.password");

      const preview = await stack.preview();
      expect(preview).toHaveNoChanges();
      expect(preview.operations.filter((o) => o.op === "same")).toHaveLength(ALL_KINDS_RESOURCES);
      expect(await stack.up()).toHaveNoChanges();
      await stack.expectNoDrift();
      // The recorded objects are the ones the state names: nothing was made anew.
      expect(
        stack
          .resources()
          .map((r) => [r.name, r.id])
          .sort(),
      ).toEqual(recorded.map((r) => [r.name, r.id]).sort());

      await stack.destroy();
      expect(await stack.up()).toHaveActions(Object.fromEntries(recorded.map((r) => [r.name, "create"])));
    } finally {
      await stack.close();
      await emulator.close();
    }
  });
});
