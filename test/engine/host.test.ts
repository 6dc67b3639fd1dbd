/** The provider host process: where it resolves packages from, and the configuration it is given. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as testing from "../../src/testing";
import { NamedRecord, PACKAGE } from "./fixtures/by-name";
import { BACKEND, Record } from "./fixtures/record";
import { closeStacks, fixtureStack, tempDir } from "./fixtures/harness";

testing.registerMatchers();
afterEach(closeStacks);

/** A directory where `require("engine-kit-fixture-backend")` finds the record backend. */
function projectDir(): string {
  const dir = tempDir("project-");
  const pkg = path.join(dir, "node_modules", PACKAGE);
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, "index.js"), `module.exports = require(${JSON.stringify(BACKEND)});\n`);
  return dir;
}

describe("the provider host", () => {
  test("a provider that requires a package by name finds it from the host's working directory (cwd)", async () => {
    const program = () => void new NamedRecord("n", { key: "n" });
    const f = await fixtureStack(program, { cwd: projectDir() });
    // No diff method: the engine compares the inputs itself.
    expect(await f.stack.up()).toHaveActions({ n: "create" });
    await f.stack.destroy();

    const elsewhere = await fixtureStack(program, { cwd: tempDir("empty-") });
    await expect(elsewhere.stack.up()).rejects.toThrow(`Cannot find module '${PACKAGE}'`);
  });

  test("emulator: true starts an emulator and configures svc:baseUrl, svc:clientId and the secret svc:clientSecret", async () => {
    const keys = ["svc:baseUrl", "svc:clientId", "svc:clientSecret"];
    const f = await fixtureStack(() => void new Record("c", { key: "c", echoConfig: keys }), { emulator: true });
    const baseUrl = f.stack.emulator!.baseUrl;
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await f.stack.up();
    const echo = f.stack.resource("c");
    expect(echo.outputs.configEcho).toEqual({ "svc:baseUrl": baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" });
    expect(JSON.stringify(f.stack.state)).not.toContain("svc-admin-secret");
    expect(echo.secretOutputs).toEqual(["configEcho.svc:clientSecret"]);
    const answer = await fetch(`${baseUrl}/api/v4/orchestration/clusters/list`);
    expect(answer.status).toBe(401);
    await f.stack.destroy();
    await f.stack.close();
    await expect(fetch(`${baseUrl}/api/v4/orchestration/clusters/list`)).rejects.toThrow();
  });
});

describe("the provider host's compile cache", () => {
  /** A resource whose provider reports the compile cache its host was started with. */
  class Probe extends pulumi.dynamic.Resource {
    constructor(name: string) {
      const provider: pulumi.dynamic.ResourceProvider = {
        async create() {
          return { id: "probe", outs: { cache: process.env.NODE_COMPILE_CACHE ?? "" } };
        },
      };
      super(provider, name, { cache: undefined });
    }
  }
  const probe = () => void new Probe("probe");

  test("starts in Node's default place (the one the package's own call uses), unless the caller names another or turns it off", async () => {
    const cacheOf = async () => {
      const f = await fixtureStack(probe, { cwd: projectDir() });
      await f.stack.up();
      return f.stack.resource("probe").outputs.cache;
    };
    const saved = { ...process.env };
    try {
      delete process.env.NODE_COMPILE_CACHE;
      delete process.env.NODE_DISABLE_COMPILE_CACHE;
      expect(await cacheOf()).toBe(path.join(os.tmpdir(), "node-compile-cache"));
      process.env.NODE_COMPILE_CACHE = tempDir("cache-");
      expect(await cacheOf()).toBe(process.env.NODE_COMPILE_CACHE);
      delete process.env.NODE_COMPILE_CACHE;
      process.env.NODE_DISABLE_COMPILE_CACHE = "1";
      expect(await cacheOf()).toBe("");
    } finally {
      process.env = saved;
    }
  });
});
