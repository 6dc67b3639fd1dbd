/** `svc-emulator serve`: the emulator as a standalone HTTP server, until interrupted. */
import type { Command } from "commander";
import { startEmulator } from "../emulator";
import { DEFAULT_PACKAGE_MS } from "../emulator/edge";
import { FaultConfigError, type FaultConfigInput } from "../emulator/faults";
import { fraction, integer, list, port, statuses } from "./flags";
import { SvcError } from "../errors";

interface ServeOptions {
  host: string;
  port: number;
  /** Undefined unless --admin or --no-admin: then served only when bound to loopback. */
  admin?: boolean;
  state?: string;
  lockTimeoutMs: number;
  compactEvery?: number;
  seed?: string;
  faultRate?: number;
  faultStatuses?: number[];
  faultSeed?: number;
  faultLatencyMs?: number;
  faultResetRate?: number;
  faultMethods?: string[];
  faultPaths?: string[];
  faultMode?: string;
  faultAfterApply?: string;
  faultIncludeAuth?: boolean;
  faultPackageMs?: number;
  faultPackageFailureRate?: number;
  packageMs?: number;
}

/** The fault flags as a configuration (validated by startEmulator); undefined when none is given. */
function faultConfig(o: ServeOptions): FaultConfigInput | undefined {
  const c: Record<string, unknown> = {
    rate: o.faultRate,
    statuses: o.faultStatuses,
    seed: o.faultSeed,
    latency_ms: o.faultLatencyMs,
    reset_rate: o.faultResetRate,
    methods: o.faultMethods,
    paths: o.faultPaths,
    mode: o.faultMode,
    after_apply_action: o.faultAfterApply,
    include_auth: o.faultIncludeAuth,
    package_ms: o.faultPackageMs,
    package_failure_rate: o.faultPackageFailureRate,
  };
  const set = Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined));
  return Object.keys(set).length > 0 ? set : undefined;
}

const FLAG_OF: Record<string, string> = {
  rate: "--fault-rate",
  statuses: "--fault-statuses",
  seed: "--fault-seed",
  latency_ms: "--fault-latency-ms",
  reset_rate: "--fault-reset-rate",
  methods: "--fault-methods",
  paths: "--fault-paths",
  mode: "--fault-mode",
  after_apply_action: "--fault-after-apply",
  include_auth: "--fault-include-auth",
  package_ms: "--fault-package-ms",
  package_failure_rate: "--fault-package-failure-rate",
};

/** A fault setting the injector refused, named by its flag and the value given. */
function faultFlagError(err: FaultConfigError, faults: FaultConfigInput | undefined): SvcError {
  const key = err.field.split(".")[0];
  const given = (faults as Record<string, unknown> | undefined)?.[key];
  return new SvcError("SVC_FAULT_FLAG_INVALID", `${FLAG_OF[key] ?? err.field} ${JSON.stringify(given)}: ${err.problem}`, { cause: err });
}

export function serveCommand(program: Command): void {
  program
    .command("serve")
    .description("serve the API over HTTP until interrupted")
    .option("--host <host>", "interface to bind", "127.0.0.1")
    .option("--port <port>", "port to listen on (0 picks a free port)", port, 4010)
    .option("--admin", "serve the admin endpoints /emulator/* (unauthenticated) and the console /emulator/ui on any --host; by default only on loopback")
    .option("--no-admin", "do not serve the admin endpoints /emulator/* nor the console /emulator/ui")
    .option("--state <file>", "keep the state in this file (and FILE.log) across restarts; locked while running")
    .option("--lock-timeout-ms <ms>", "how long to wait for another emulator to release the state file", integer(0, 3_600_000, "milliseconds"), 10_000)
    .option(
      "--compact-every <n>",
      "fold the state log into the snapshot after this many commits (default: once the log is as large as the snapshot, at least 16 MiB)",
      integer(1, 100_000_000, "a count"),
    )
    .option(
      "--package-ms <ms>",
      "how long the emulated edge takes to download a workload package (a staged update is applied once downloaded); 0: at once",
      integer(0, 3_600_000, "milliseconds"),
      DEFAULT_PACKAGE_MS,
    )
    .option("--seed <file.yaml>", "load these fixtures into the empty emulator at start; skipped when the state file was seeded with the same content")
    .option("--fault-rate <r>", "share of requests answered with a fault status (0..1)", fraction)
    .option("--fault-statuses <list>", "statuses to inject, out of 429,500,502,503,504 (default 503)", statuses)
    .option("--fault-seed <n>", "seed of the fault PRNG, to reproduce a run", integer(0, 0xffffffff, "an integer"))
    .option("--fault-latency-ms <ms>", "latency added to every matched request", integer(0, 60_000, "milliseconds"))
    .option("--fault-reset-rate <r>", "share of requests whose connection is reset (0..1)", fraction)
    .option("--fault-methods <list>", "only these methods (GET,POST)", list)
    .option("--fault-paths <list>", "only these path patterns, '*' matches anything (e.g. /api/v4/assets/*)", list)
    .option("--fault-mode <mode>", "before (no effect) or after_apply (applied, answer lost)")
    .option("--fault-after-apply <action>", "with --fault-mode after_apply: reset or 502")
    .option("--fault-include-auth", "also inject faults on the token endpoints")
    .option("--fault-package-ms <ms>", "while faults are configured: how long package downloads take (a slow edge)", integer(0, 3_600_000, "milliseconds"))
    .option("--fault-package-failure-rate <r>", "share of package downloads that fail (0..1)", fraction)
    .action(async (opts: ServeOptions) => {
      let emulator;
      const faults = faultConfig(opts);
      try {
        emulator = await startEmulator({
          host: opts.host,
          port: opts.port,
          admin: opts.admin,
          statePath: opts.state,
          lockTimeoutMs: opts.lockTimeoutMs,
          persistence: opts.compactEvery === undefined ? undefined : { compactRecords: opts.compactEvery },
          seed: opts.seed,
          faults,
          packageMs: opts.packageMs,
        });
      } catch (err) {
        if (err instanceof FaultConfigError) throw faultFlagError(err, faults);
        throw err;
      }
      const extras = [opts.state ? `state ${opts.state}` : "state in memory", opts.seed ? `seeded from ${opts.seed}` : ""].filter(Boolean);
      process.stdout.write(`svc-emulator listening on ${emulator.baseUrl} (API at ${emulator.baseUrl}/api/v4; ${extras.join("; ")})\n`);
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        process.stdout.write(`svc-emulator: ${signal}, stopping\n`);
        emulator.close().then(
          () => process.exit(0),
          (err: Error) => {
            process.stderr.write(`svc-emulator: stopping failed: ${err.message}\n`);
            process.exit(1);
          },
        );
      };
      process.on("SIGINT", () => stop("SIGINT"));
      process.on("SIGTERM", () => stop("SIGTERM"));
    });
}
