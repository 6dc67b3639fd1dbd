/**
 * The differential suite (differential.test.ts) on error hooks (`onError`) and the hooks the kit
 * added with them: a failed create, update and delete of a custom resource tell the error hook their
 * failures and are retried when it asks, a failing error hook fails the step, a component's create
 * runs its hooks, and a failing `ignoreErrors` hook is a warning. The engine's side follows its
 * source (pulumi/pulumi, pkg/resource/deploy: step.go's withRetries in the create, update and delete
 * steps, retries.go, and Deployment.RunErrorHooks and RunHooks in deployment.go).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { Gated } from "../engine/fixtures/gate";
import { comparable, play, type Step } from "./differential-harness";
import { describeCli, tempDir } from "./harness";

/** How the error hook answers in a run: retry until the second failure, then open the gate; no retry; fail; open the gate at once. */
type Answer = "second" | "never" | "throw" | "open";

/** The program at each stage, with hooks that write what they were told to `calls`; each run starts with the gate closed. */
function steps(calls: string[]): Step[] {
  const gate = path.join(tempDir("svc-gate-"), "gate");
  const program = (value: string | undefined, answer: Answer) => () => {
    fs.rmSync(gate, { force: true });
    let asked = 0;
    const onError = new pulumi.ErrorHook("on-error", (a) => {
      calls.push(
        `${a.failedOperation} ${a.name} id:${a.id || "-"} errors:${a.errors.join(" | ")} new:${a.newInputs?.value ?? "-"} old:${a.oldInputs?.value ?? "-"} out:${a.oldOutputs?.value ?? "-"}`,
      );
      asked++;
      if (answer === "throw") throw new Error("the hook broke");
      if (answer === "never") return false;
      if (answer === "open" || asked === 2) fs.writeFileSync(gate, "open");
      return true;
    });
    const ignored = new pulumi.ResourceHook(
      "ignored",
      () => {
        throw new Error("passed over");
      },
      { ignoreErrors: true },
    );
    const seen = (when: string) =>
      new pulumi.ResourceHook(`${when}-seen`, (a) => void calls.push(`${when} ${a.name} id:${a.id || "-"} new:${JSON.stringify(a.newInputs)} out:${JSON.stringify(a.newOutputs)}`));
    new pulumi.ComponentResource("fixture:index:Group", "group", {}, { hooks: { beforeCreate: [seen("beforeCreate")], afterCreate: [seen("afterCreate")] } });
    if (value !== undefined) new Gated("gated", { gate, value }, { hooks: { onError: [onError], beforeCreate: [ignored] } });
  };
  return [
    { run: "up", program: program("v1", "second") },
    { run: "up", program: program("v2", "never") },
    { run: "up", program: program("v3", "throw") },
    { run: "up", program: program(undefined, "open") },
  ];
}

describeCli("the kit and `pulumi` agree on error hooks", () => {
  test("a failed create, update and delete tell the error hook their failures and are retried when it asks; a failing error hook fails the step", async () => {
    const kitCalls: string[] = [];
    const kit = await play("kit", steps(kitCalls));
    const cliCalls: string[] = [];
    const cli = await play("pulumi", steps(cliCalls));
    const refused = (op: string) => `gate gated: ${op} refused, the gate is closed`;
    expect(cliCalls).toEqual([
      "beforeCreate group id:- new:{} out:undefined",
      "afterCreate group id:- new:{} out:{}",
      `create gated id:- errors:${refused("create")} new:v1 old:- out:-`,
      `create gated id:- errors:${refused("create")} | ${refused("create")} new:v1 old:- out:-`,
      `update gated id:gated errors:${refused("update")} new:v2 old:v1 out:v1`,
      `update gated id:gated errors:${refused("update")} new:v3 old:v1 out:v1`,
      `delete gated id:gated errors:${refused("delete")} new:- old:v1 out:v1`,
    ]);
    expect(cli.runs).toEqual([
      { ops: { group: "create", gated: "create" } },
      { failed: expect.stringContaining(refused("update")) },
      { failed: expect.stringContaining('error hooks execution failed: error hook "on-error" failed: the hook broke') },
      { ops: { group: "same", gated: "delete" } },
    ]);
    expect(cli.extras.warnings).toEqual([
      ['BeforeCreate hook "ignored" failed: passed over', "retrying create due to on-error hook request (1/100)", "retrying create due to on-error hook request (2/100)"],
      [],
      [],
      ["retrying delete due to on-error hook request (1/100)"],
    ]);
    expect(kitCalls).toEqual(cliCalls);
    expect(kit.extras.warnings).toEqual(cli.extras.warnings);
    // The same words; the code at the end may differ: the CLI stack reads only the engine's words, so its
    // failures are the provider's (SVC_KIT_PROVIDER_FAILED), where the kit knows a hook's for what it is.
    const words = (failed: string) => failed.replace(/^up failed: /, "").replace(/ \[SVC_[A-Z0-9_]+\]$/, "");
    expect(kit.runs).toEqual(cli.runs.map((r) => ("failed" in r ? { failed: expect.stringContaining(words(r.failed)) } : r)));
    expect(comparable(kit)).toEqual(comparable(cli));
  });
});
