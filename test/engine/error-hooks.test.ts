/**
 * Error hooks (`onError`) in the kit, as the engine runs them (step.go's withRetries, retries.go):
 * told each failed create, update or delete with the failures so far, newest first, and the
 * operation retried when one asks, up to the engine's limit; also a component's create hooks and the
 * warning of a failing `ignoreErrors` hook. The real engine's side of the same is
 * test/cli/differential-error-hooks.test.ts. Each test has a short limit: a kit that does not
 * answer a hook's registration leaves the program waiting forever, and that must fail, not hang.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { Gated } from "./fixtures/gate";
import { Record } from "./fixtures/record";
import { closeStacks, fixtureStack, tempDir } from "./fixtures/harness";

afterEach(closeStacks);

const LIMIT_MS = 60_000;

describe("error hooks", () => {
  test(
    "a failed create tells the error hook its failures, newest first, and is retried while the hook asks",
    async () => {
      const gate = path.join(tempDir("gate-"), "gate");
      const told: string[][] = [];
      const f = await fixtureStack(() => {
        const hook = new pulumi.ErrorHook("retry", (a) => {
          told.push([a.failedOperation, a.id, String(a.newInputs?.value), ...a.errors]);
          if (told.length === 2) fs.writeFileSync(gate, "open");
          return true;
        });
        new Gated("g", { gate, value: "v1" }, { hooks: { onError: [hook] } });
      });
      const result = await f.stack.up();
      const refused = "gate g: create refused, the gate is closed";
      expect(told).toEqual([
        ["create", "", "v1", refused],
        ["create", "", "v1", refused, refused],
      ]);
      expect(result.operations).toEqual([expect.objectContaining({ name: "g", op: "create" })]);
      expect(result.warnings).toEqual(["retrying create due to on-error hook request (1/100)", "retrying create due to on-error hook request (2/100)"]);
      expect(f.stack.resource("g").outputs.value).toBe("v1");
    },
    LIMIT_MS,
  );

  test(
    "an update the hook declines to retry fails with the provider's error; one whose hook fails, with the hook's",
    async () => {
      let answer: "decline" | "fail" = "decline";
      const program = (fail?: "update") => () => {
        const hook = new pulumi.ErrorHook("judge", (a) => {
          if (answer === "fail") throw new Error(`no verdict on ${a.failedOperation}`);
          return false;
        });
        new Record("r", { key: "r", value: fail ? "v2" : "v1", fail }, { hooks: { onError: [hook] } });
      };
      const f = await fixtureStack(program());
      await f.stack.up();
      await expect(f.stack.up(program("update"))).rejects.toMatchObject({ operation: "update", providerMessage: "record r: update refused by the backend (fail=update)" });
      answer = "fail";
      await expect(f.stack.up(program("update"))).rejects.toMatchObject({ providerMessage: 'error hooks execution failed: error hook "judge" failed: no verdict on update' });
      expect(f.ops("update")).toHaveLength(2);
    },
    LIMIT_MS,
  );

  test(
    "a hook that always asks gets the engine's limit: 100 attempts, then the run fails",
    async () => {
      let asked = 0;
      const f = await fixtureStack(() => {
        const hook = new pulumi.ErrorHook("forever", () => {
          asked++;
          return true;
        });
        new Record("stuck", { key: "stuck", fail: "create" }, { hooks: { onError: [hook] } });
      });
      await expect(f.stack.up()).rejects.toMatchObject({
        operation: "create",
        providerMessage: "maximum number of error hook retries reached",
        failures: [expect.objectContaining({ code: "SVC_KIT_HOOK_RETRIES_EXHAUSTED" })],
      });
      expect(f.ops("create")).toHaveLength(100);
      expect(asked).toBe(99);
    },
    LIMIT_MS,
  );

  test(
    "a removed resource's delete runs the error hooks its state names",
    async () => {
      const gate = path.join(tempDir("gate-"), "gate");
      const told: string[] = [];
      const program = (declared: boolean) => () => {
        const hook = new pulumi.ErrorHook("on-delete", (a) => {
          told.push(`${a.failedOperation} id:${a.id} old:${String(a.oldInputs?.value)} out:${String(a.oldOutputs?.value)} ${a.errors.join(" | ")}`);
          return false;
        });
        if (declared) new Gated("doomed", { gate, value: "v1" }, { hooks: { onError: [hook] } });
      };
      fs.writeFileSync(gate, "open");
      const f = await fixtureStack(program(true));
      await f.stack.up();
      fs.rmSync(gate);
      await expect(f.stack.up(program(false))).rejects.toMatchObject({ operation: "delete", providerMessage: "gate doomed: delete refused, the gate is closed" });
      expect(told).toEqual(["delete id:doomed old:v1 out:v1 gate doomed: delete refused, the gate is closed"]);
      expect(f.stack.resource("doomed").inputs.value).toBe("v1");
    },
    LIMIT_MS,
  );

  test(
    // The engine refuses the registration in these words; the SDK leaves that refusal unhandled (the
    // Node language host fails the program with it, an inline program's up goes on), so the kit fails the run.
    "an error hook sharing a resource hook's name is refused, and the run fails with the engine's words",
    async () => {
      const f = await fixtureStack(() => {
        new pulumi.ResourceHook("twin", () => undefined);
        new pulumi.ErrorHook("twin", () => false);
      });
      await expect(f.stack.up()).rejects.toThrow('resource hook already registered for name "twin"');
    },
    LIMIT_MS,
  );
});

describe("the hooks around them", () => {
  test(
    "a component's create hooks run when it is created, not when it stays; its failing before-hook fails the create",
    async () => {
      const calls: string[] = [];
      const program = (fail: boolean) => () => {
        const hook = (when: string) =>
          new pulumi.ResourceHook(`${when}-hook`, (a) => {
            calls.push(`${when} ${a.name}`);
            if (fail) throw new Error("not now");
          });
        new pulumi.ComponentResource("fixture:index:Group", fail ? "other" : "group", {}, { hooks: { beforeCreate: [hook("beforeCreate")], afterCreate: [hook("afterCreate")] } });
      };
      const f = await fixtureStack(program(false));
      await f.stack.up();
      await f.stack.up();
      expect(calls).toEqual(["beforeCreate group", "afterCreate group"]);
      await expect(f.stack.up(program(true))).rejects.toThrow('before hook "beforeCreate-hook" failed: not now');
    },
    LIMIT_MS,
  );

  test(
    "a failing ignoreErrors hook is passed over with the engine's warning",
    async () => {
      const f = await fixtureStack(() => {
        const hook = new pulumi.ResourceHook(
          "shrug",
          () => {
            throw new Error("passed over");
          },
          { ignoreErrors: true },
        );
        new Record("r", { key: "r" }, { hooks: { afterCreate: [hook] } });
      });
      const result = await f.stack.up();
      expect(result.warnings).toEqual(['AfterCreate hook "shrug" failed: passed over']);
    },
    LIMIT_MS,
  );
});
