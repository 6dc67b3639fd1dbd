/**
 * Upgrades: a stack written by an earlier release of the package keeps working under the current
 * code. `fixtures/` holds what a user of that release has on disk after deploying the quickstart plus
 * one resource of every other kind (test/model/all-kinds.ts) to the emulator: the kit's state file
 * (`pulumi-state.json`, secrets encrypted) and the emulator's state file (`emulator-state.json`). Under
 * the current code the program must leave every recorded object as it is, of every kind that release
 * had: its preview and up plan `same` for each, and a create for each resource the program has gained
 * since (a kind added later: all-kinds.ts holds every kind, the recorded state the release's); a
 * refresh finds no drift; and the stack still goes down and up again.
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
import { allKinds } from "../model/all-kinds";

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
  test("previews and goes up leaving every recorded object of its 16 kinds as it is, and shows no drift under the current code; then goes down and up again", async () => {
    for (const f of [PULUMI_STATE, EMULATOR_STATE]) fs.copyFileSync(path.join(FIXTURES, f), path.join(dir, f));
    const emulator = await startEmulator({ statePath: path.join(dir, EMULATOR_STATE), log: () => undefined });
    const stack = await testing.stack(allKinds, { ...STACK, statePath: path.join(dir, PULUMI_STATE), config: config(emulator), secretConfig: ["svc:clientSecret"] });
    try {
      const recorded = stack.resources();
      // What release 0.1.0's program declared: 20 resources of its 16 kinds, each a kind still served.
      expect(recorded).toHaveLength(20);
      const recordedKinds = new Set(recorded.map((r) => r.type));
      expect(recordedKinds.size).toBe(16);
      for (const type of recordedKinds) expect(Object.keys(kinds).map((k) => `pulumi-nodejs:dynamic/svc:${k}`)).toContain(type);
      const kept = Object.fromEntries(recorded.map((r) => [r.name, "same"] as const));
      const recordedName = new Set(recorded.map((r) => r.name));
      const added = (result: { operations: Array<{ name: string; op: string }> }) => result.operations.filter((o) => !recordedName.has(o.name));
      // The recorded secret is still encrypted on disk, and still a secret once read.
      expect(fs.readFileSync(path.join(dir, PULUMI_STATE), "utf8")).not.toContain("opcua-line-1-password");
      expect(stack.resource("opcua-line-1").secretOutputs).toContain("payload.password");

      const preview = await stack.preview();
      expect(preview).toHaveActions(kept);
      expect(preview.operations.filter((o) => o.op === "same")).toHaveLength(recorded.length);
      expect(added(preview).filter((o) => o.op !== "create")).toEqual([]);
      const up = await stack.up();
      expect(up).toHaveActions(kept);
      expect(added(up).filter((o) => o.op !== "create")).toEqual([]);
      await stack.expectNoDrift();
      // The recorded objects are the ones the state names: nothing was made anew.
      expect(
        stack
          .resources()
          .filter((r) => recordedName.has(r.name))
          .map((r) => [r.name, r.id])
          .sort(),
      ).toEqual(recorded.map((r) => [r.name, r.id]).sort());

      await stack.destroy();
      const again = await stack.up();
      expect(again).toHaveActions(Object.fromEntries(recorded.map((r) => [r.name, "create"])));
      expect(added(again).filter((o) => o.op !== "create")).toEqual([]);
    } finally {
      await stack.close();
      await emulator.close();
    }
  });
});
