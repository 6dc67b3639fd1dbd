/**
 * Secrets: secret configuration and secret values never reach the state file or the reports in
 * plaintext; outputs the provider marks secret stay marked; values derived from secret inputs too.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as testing from "../../src/testing";
import { Record } from "./fixtures/record";
import { closeStacks, fixtureStack, tempDir } from "./fixtures/harness";

testing.registerMatchers();
afterEach(closeStacks);

const TOKEN = "tok-7f3a9c-very-secret";
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

const program = () => {
  const config = new pulumi.Config("fixture");
  new Record("s", { key: "s", note: config.requireSecret("token"), secretOut: true });
  // The provider echoes the configured token in an output without marking it.
  new Record("echo", { key: "echo", echoToken: true });
  return { token: config.requireSecret("token"), plain: "visible" };
};

async function secretStack(statePath: string, extra: testing.StackOptions & { storeDir?: string } = {}) {
  return fixtureStack(program, { statePath, config: { "fixture:token": TOKEN }, secretConfig: ["fixture:token"], ...extra });
}

describe("secrets", () => {
  test("secret configuration, secret inputs and provider-marked secrets are not in the state file nor in the reports", async () => {
    const statePath = path.join(tempDir("state-"), "stack.json");
    const f = await secretStack(statePath);
    const up = await f.stack.up();
    const file = fs.readFileSync(statePath, "utf8");
    expect(file).not.toContain(TOKEN);
    expect(file).not.toContain("key-of-s");
    expect(JSON.stringify(up)).not.toContain(TOKEN);
    expect(up.outputs).toEqual({ token: "[secret]", plain: "visible" });
    expect(JSON.stringify(f.stack.state)).not.toContain(TOKEN);
  });

  test("outputs stay marked secret in the state: provider-marked ones, those from secret inputs, and echoed secret configuration", async () => {
    const f = await secretStack(path.join(tempDir("state-"), "stack.json"));
    await f.stack.up();
    const s = f.stack.state.resources.find((r) => r.name === "s")!;
    expect(s.outputs.apiKey).toEqual({ [SIG]: SECRET_SIG, ciphertext: expect.stringMatching(/^v1:/) });
    expect(s.inputs.note).toEqual({ [SIG]: SECRET_SIG, ciphertext: expect.any(String) });
    expect(f.stack.resource("s").secretOutputs.sort()).toEqual(["apiKey", "note"]);
    expect(f.stack.resource("echo").secretOutputs).toEqual(["token"]);
    // The provider received the whole configuration (namespaced keys) through Configure.
    expect(f.stack.resource("echo").outputs.token).toBe(TOKEN);
    expect(f.stack.resource("s").outputs).toMatchObject({ apiKey: "key-of-s", note: TOKEN });
    expect(f.stack.outputs).toEqual({ token: TOKEN, plain: "visible" });
  });

  test("a reopened state decrypts with the same passphrase (and the plan is empty), and refuses another", async () => {
    const statePath = path.join(tempDir("state-"), "stack.json");
    const first = await secretStack(statePath);
    await first.stack.up();
    await first.stack.close();
    const again = await secretStack(statePath, { storeDir: first.storeDir });
    expect(await again.stack.preview()).toHaveNoChanges();
    // A state is one stack's at a time: the next one opens once this one is closed.
    await again.stack.close();
    await expect(secretStack(statePath, { storeDir: first.storeDir, secretsPassphrase: "another" })).rejects.toThrow(
      "cannot decrypt the secrets in the state file: the passphrase differs from the one that wrote it",
    );
  });

  test("secret values are masked in error messages", async () => {
    const f = await fixtureStack(() => void new Record("hush", { key: pulumi.secret("hush-hush-key"), fail: "create" }));
    const error = (await f.stack.up().catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      'up failed: create of pulumi-nodejs:dynamic/fixture:Record "hush" failed: record [secret]: create refused by the backend (fail=create) [SVC_KIT_PROVIDER_FAILED]',
    );
  });
});
