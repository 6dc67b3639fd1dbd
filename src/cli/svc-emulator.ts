#!/usr/bin/env node
/**
 * The `svc-emulator` program: `serve` runs the emulator; `snapshot`, `parity`, `generate` and
 * `adopt-plan` bring an existing platform under code (src/plant). One file per command; the commands
 * that do not serve load what they need when they run, so that `serve` starts without the client.
 */
import { Command } from "commander";
import { adoptPlanCommand } from "./adopt-plan";
import { generateCommand } from "./generate";
import { parityCommand } from "./parity";
import { serveCommand } from "./serve";
import { snapshotCommand } from "./snapshot";

const program = new Command("svc-emulator").description("Emulator of the platform HTTP API v4");
serveCommand(program);
snapshotCommand(program);
parityCommand(program);
generateCommand(program);
adoptPlanCommand(program);

program.parseAsync(process.argv).catch((err: Error) => {
  process.stderr.write(`svc-emulator: ${err.message}\n`);
  process.exit(1);
});
