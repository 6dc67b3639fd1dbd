/**
 * A run killed at any moment converges on the next run, with at most one documented command before
 * it (`cancel`, i.e. `pulumi cancel --yes` under `pulumi`; nothing under the kit's engine).
 *
 * Each run is a process of its own (killed-run.js) in a process group of its own; under `pulumi` it
 * starts the CLI, which starts the dynamic-provider host. The emulator runs in the test process and
 * counts the writes that reach the platform's records: when the Nth one is applied (durable, its
 * answer not yet sent), the test kills the whole group with SIGKILL, as a CI runner's cancel does. So
 * the kill points are the same on every run, whatever the machine's speed. Then every process of the
 * killed run must be gone (the provider host included), and `cancel` and the same command again must
 * leave the platform holding exactly what the program declares, the state holding exactly the
 * platform's objects, and an object the stack never created untouched. The creates the kill
 * interrupted stay listed as pending operations (Pulumi keeps pending creates until `pulumi refresh
 * --clear-pending-creates`; the kit's engine does the same) and `clearPendingOperations` clears them.
 *
 * `npm test` runs a few kill points per engine; `SOAK=1` runs every write of an up (9), of an update
 * (4) and of a destroy (9). This file runs them under `pulumi`, killed-kit.test.ts under the kit's
 * engine; the scenarios are in killed-harness.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../../src/emulator";
import { describeCli, tempDir } from "./harness";
import { commandLine, DECLARED, ended, killAll, run, scenarios, stateRecords, succeeded, upWithRefresh, WriteCounter } from "./killed-harness";

describeCli("a killed run under `pulumi`", () => {
  scenarios("pulumi");
  test("up({ refresh: true }) reads the platform first (pulumi up --refresh)", () => upWithRefresh("pulumi"));

  test("the provider host leaves when the CLI alone is killed (kill -9 of its pid)", async () => {
    const emulator = await startEmulator({});
    const writes = new WriteCounter(emulator);
    const statePath = path.join(tempDir("svc-killed-"), "backend");
    let host: number[] = [];
    let tree: number[] = [];
    try {
      const cliOnly = (t: number[]) => {
        tree = t;
        host = t.filter((pid) => commandLine(pid).includes("dynamic-provider"));
        return t.filter((pid) => /(^|\/)pulumi /.test(commandLine(pid)));
      };
      const killed = await run(writes, { engine: "pulumi", statePath, baseUrl: emulator.baseUrl, program: "v1", command: "up" }, { at: 2, only: cliOnly });
      expect(killed.output?.ok).toBe(false);
      // The host ran (it made the writes), and it ends soon after its engine.
      expect(host).toHaveLength(1);
      expect(await ended(host, 10_000)).toEqual([]);
    } finally {
      killAll(tree);
      await emulator.close();
    }
  });

  test("a backend left with an empty .attrs file (a killed in-place write): the stack opens again", async () => {
    const emulator = await startEmulator({});
    const writes = new WriteCounter(emulator);
    const backend = path.join(tempDir("svc-killed-"), "backend");
    const base = { engine: "pulumi" as const, statePath: backend, baseUrl: emulator.baseUrl, program: "v1" as const };
    try {
      succeeded(await run(writes, { ...base, command: "up" }), "up");
      const stackFile = path.join(backend, ".pulumi", "stacks", "killed", "dev.json");
      expect(fs.existsSync(stackFile)).toBe(true);
      // The kit's backend writes no .attrs files; one written by a killed run of another setup is empty.
      expect(fs.readdirSync(path.dirname(stackFile)).filter((f) => f.endsWith(".attrs"))).toEqual([]);
      fs.writeFileSync(`${stackFile}.attrs`, "");
      const again = succeeded(await run(writes, { ...base, command: "state" }), "opening the stack");
      expect(Object.keys(stateRecords(again)).sort()).toEqual(Object.keys(DECLARED.v1).sort());
      expect(fs.existsSync(`${stackFile}.attrs`)).toBe(false);
    } finally {
      await emulator.close();
    }
  });
});
