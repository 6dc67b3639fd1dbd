/**
 * More of the differential suite (differential.test.ts): `ignoreChanges` during a replacement,
 * aliases that children inherit from their parent, outputs that repeat secret configuration,
 * `additionalSecretOutputs` added to an unchanged resource, and resource hooks; each through the
 * kit's engine and through `pulumi`, compared as there. The engine's side follows its source
 * (pulumi/pulumi v3.274.1, pkg/resource/deploy): step_generator.go (generateStepsFromDiff's second
 * Check, generateAliases and inheritedChildAlias), step_executor.go (the secrets a step marks) and
 * deployment.go with step.go (RunHooks).
 */
import * as pulumi from "@pulumi/pulumi";
import { Record as RecordResource } from "../engine/fixtures/record";
import { bothEngines, comparable, play, type Step } from "./differential-harness";
import { describeCli } from "./harness";

describeCli("the kit and `pulumi` agree on more options", () => {
  test("ignoreChanges during a replacement: the new object gets the program's values, not the ignored old ones", async () => {
    const program = (key: string, note: string) => () => void new RecordResource("r", { key, note }, { ignoreChanges: ["note"] });
    const { kit, cli } = await bothEngines([
      { run: "up", program: program("a", "n1") },
      { run: "up", program: program("a", "n2") },
      { run: "up", program: program("b", "n3") },
    ]);
    expect(cli.runs.slice(1)).toEqual([{ ops: { r: "same" } }, { ops: { r: "replace" } }]);
    expect(cli.records).toEqual([expect.objectContaining({ key: "b", note: "n3" })]);
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("a child inherits its parent's alias: a renamed component keeps its child, whose name follows the parent's", async () => {
    const program = (name: string) => () => {
      const comp = new pulumi.ComponentResource("fixture:index:Group", name, {}, name === "app" ? {} : { aliases: [{ name: "app" }] });
      new RecordResource(`${name}-kid`, { key: "kid" }, { parent: comp });
      new RecordResource("plain", { key: "plain" }, { parent: comp });
    };
    const { kit, cli } = await bothEngines([
      { run: "up", program: program("app") },
      { run: "up", program: program("newapp") },
    ]);
    expect(cli.runs[1]).toEqual({ ops: { newapp: "same", "newapp-kid": "same", plain: "same" } });
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("additionalSecretOutputs added to an unchanged resource: the same step marks the output secret in the state", async () => {
    const program = (secretOutputs: string[]) => () => void new RecordResource("r", { key: "r", value: "v" }, { additionalSecretOutputs: secretOutputs });
    const { kit, cli } = await bothEngines([
      { run: "up", program: program([]) },
      { run: "up", program: program(["value"]) },
    ]);
    expect(cli.runs[1]).toEqual({ ops: { r: "same" } });
    expect(cli.secretOutputs.r).toEqual(["value"]);
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("outputs that repeat a secret config value: the engine stores them as they come, the kit as secrets (a documented difference)", async () => {
    const password = "hunter2-for-the-test";
    const options = { config: { "fixture:password": password }, secretConfig: ["fixture:password"] };
    const program = () => void new RecordResource("echo", { key: "echo", echoConfig: ["fixture:password"] });
    const { kit, cli } = await bothEngines([{ run: "up", program }], options);
    expect(cli.extras.outputs.echo.configEcho).toEqual({ "fixture:password": password });
    // The engine marks outputs secret from secret inputs and `additionalSecretOutputs` only: the
    // provider's echo of secret configuration is kept in plaintext in its state.
    expect(cli.secretOutputs.echo).toEqual([]);
    expect(cli.extras.stateText).toContain(password);
    // The kit keeps every string holding a secret config value secret, so its state never holds the text.
    expect(kit.secretOutputs.echo).toEqual(["configEcho.fixture:password"]);
    expect(kit.extras.stateText).not.toContain(password);
    expect(kit.extras.outputs.echo.configEcho).toEqual({ "fixture:password": password });
    // In all else they agree.
    expect(comparable({ ...kit, secretOutputs: cli.secretOutputs })).toEqual(comparable(cli));
  });

  test("resource hooks run around creates, updates and deletes (a deleted resource's from its state), and a failing before-hook fails the step", async () => {
    /** The program at each stage, with hooks that write what they were told to `calls`; the hooks are registered even when the resource is gone. */
    const steps = (calls: string[]): Step[] => {
      const program =
        (value: string | undefined, fail = false) =>
        () => {
          const hook = (when: string) =>
            new pulumi.ResourceHook(`${when}-hook`, (args) => {
              const shown = (m?: Record<string, unknown>) => (m ? String(m.value) : "-");
              calls.push(
                `${when} ${args.name} id:${args.id ? "yes" : "no"} new:${shown(args.newInputs)} old:${shown(args.oldInputs)} out:${args.newOutputs ? String(args.newOutputs.revision) : "-"}`,
              );
              if (fail && when === "beforeUpdate") throw new Error("refused by the hook");
            });
          const hooks = Object.fromEntries(["beforeCreate", "afterCreate", "beforeUpdate", "afterUpdate", "beforeDelete", "afterDelete"].map((w) => [w, [hook(w)]]));
          if (value !== undefined) new RecordResource("hooked", { key: "hooked", value }, { hooks });
        };
      return [
        { run: "up", program: program("v1") },
        { run: "up", program: program("v1") },
        { run: "up", program: program("v2") },
        { run: "up", program: program("v3", true) },
        { run: "up", program: program(undefined) },
      ];
    };
    const kitCalls: string[] = [];
    const kit = await play("kit", steps(kitCalls));
    const cliCalls: string[] = [];
    const cli = await play("pulumi", steps(cliCalls));
    expect(cliCalls).toEqual([
      "beforeCreate hooked id:no new:v1 old:- out:-",
      "afterCreate hooked id:yes new:v1 old:- out:1",
      "beforeUpdate hooked id:yes new:v2 old:v1 out:-",
      "afterUpdate hooked id:yes new:v2 old:v1 out:2",
      "beforeUpdate hooked id:yes new:v3 old:v2 out:-",
      "beforeDelete hooked id:yes new:- old:v2 out:-",
      "afterDelete hooked id:yes new:- old:v2 out:-",
    ]);
    expect(cli.runs[3]).toEqual({ failed: expect.stringContaining('before hook "beforeUpdate-hook" failed') });
    expect(kit.runs[3]).toEqual({ failed: expect.stringContaining('before hook "beforeUpdate-hook" failed') });
    expect(kitCalls).toEqual(cliCalls);
    expect(comparable(kit)).toEqual(comparable(cli));
  });
});
