/** The kit run from a directory where the provider's package is not installed: the failure says why and what to do. */
import fs from "node:fs";
import * as svc from "../../src";
import { NamedRecord, PACKAGE } from "./fixtures/by-name";
import { closeStacks, fixtureStack, tempDir } from "./fixtures/harness";

afterEach(closeStacks);

describe("a provider package missing where the host runs", () => {
  test.each([
    ["pulumi-svc/provider", "pulumi-svc", () => void new svc.Label("l", { name: "anomaly", title: "Anomaly" })],
    [PACKAGE, PACKAGE, () => void new NamedRecord("n", { key: "n" })],
  ])("'%s': the message names the host's working directory, the cwd option and the package to install", async (request, pkg, program) => {
    const dir = tempDir("elsewhere-");
    const f = await fixtureStack(program, { cwd: dir, config: { "svc:emulator": "true" } });
    const err = (await f.stack.up().catch((e: Error) => e)) as Error;
    fs.rmSync(dir, { recursive: true, force: true });
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain(
      `Cannot find module '${request}': the provider host resolves '${request}' from its working directory ${dir} ` +
        "(the `cwd` option of the test stack, default: the test process's working directory); " +
        `${pkg} must be installed there (npm install ${pkg}), or set \`cwd\` to a directory where it is`,
    );
  });
});
