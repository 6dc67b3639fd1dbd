/**
 * The real Pulumi CLI for the tests that run it: built by `npm run --silent pulumi:path` (`.ci/run`
 * builds it before the tests) into the user's cache. Without it these tests say so and skip, except
 * under CI, where a missing CLI is a failure.
 */
import * as path from "node:path";

const cli = require("../../scripts/pulumi-cli.js") as { cliDir(): string; builtCli(): string | undefined };

/** The folder holding the built `pulumi`, or undefined when it is not built. */
export const pulumiDir: string | undefined = cli.builtCli() ? path.dirname(cli.builtCli()!) : undefined;

if (!pulumiDir) {
  const why = `the Pulumi CLI is not built in ${cli.cliDir()} (npm run --silent pulumi:path builds it; it needs Go 1.26)`;
  if (process.env.CI) throw new Error(`CI runs the real-engine tests, but ${why}`);
  console.warn(`skipping the real-engine tests: ${why}`);
}

// Each CLI command starts the CLI and a fresh provider host: several seconds each, more under load.
jest.setTimeout(600_000);

/** `describe` when the CLI is built, else `describe.skip`. */
export const describeCli: jest.Describe = pulumiDir ? describe : describe.skip;

export { tempDir } from "../engine/fixtures/harness";
