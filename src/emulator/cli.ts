#!/usr/bin/env node
/** `svc-emulator serve`: the emulator as a standalone HTTP server. */
import { Command, InvalidArgumentError } from "commander";
import { startEmulator } from "./index";

const port = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError("must be a port number from 0 to 65535");
  return n;
};

const program = new Command("svc-emulator").description("Emulator of the platform HTTP API v4");

program
  .command("serve")
  .description("serve the API over HTTP until interrupted")
  .option("--host <host>", "interface to bind", "127.0.0.1")
  .option("--port <port>", "port to listen on (0 picks a free port)", port, 4010)
  .option("--no-admin", "do not serve /emulator/state and /emulator/reset")
  .action(async (opts: { host: string; port: number; admin: boolean }) => {
    const emulator = await startEmulator({ host: opts.host, port: opts.port, admin: opts.admin });
    process.stdout.write(`svc-emulator listening on ${emulator.baseUrl} (API at ${emulator.baseUrl}/api/v4)\n`);
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      process.stdout.write(`svc-emulator: ${signal}, stopping\n`);
      emulator.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.on("SIGINT", () => stop("SIGINT"));
    process.on("SIGTERM", () => stop("SIGTERM"));
  });

program.parseAsync(process.argv).catch((err: Error) => {
  process.stderr.write(`svc-emulator: ${err.message}\n`);
  process.exit(1);
});
