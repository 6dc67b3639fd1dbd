#!/usr/bin/env node
/**
 * `svc-emulator serve`: the emulator as a standalone HTTP server. `svc-emulator snapshot`: a
 * platform's inventory as a fixture `serve --seed` loads. `svc-emulator parity`: a platform's answers
 * compared with those of an emulator seeded from its snapshot.
 */
import { Command, InvalidArgumentError } from "commander";
import type { SvcClientOptions } from "../client";
import type { SnapshotEvent, SnapshotProblem } from "../plant";
import { DEFAULT_PACKAGE_MS } from "./edge";
import { FaultConfigError, type FaultConfigInput } from "./faults";
import { startEmulator } from "./index";
import { isSecretKey } from "./redaction";

const integer = (min: number, max: number, what: string) => (v: string) => {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be ${what} from ${min} to ${max}`);
  return n;
};
const port = integer(0, 65535, "a port number");
const fraction = (v: string) => {
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError("must be a number from 0 to 1");
  return n;
};
const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const statuses = (v: string) =>
  list(v).map((s) => {
    if (!/^\d{3}$/.test(s)) throw new InvalidArgumentError(`'${s}' is not an HTTP status`);
    return Number(s);
  });

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

const program = new Command("svc-emulator").description("Emulator of the platform HTTP API v4");

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
    try {
      emulator = await startEmulator({
        host: opts.host,
        port: opts.port,
        admin: opts.admin,
        statePath: opts.state,
        lockTimeoutMs: opts.lockTimeoutMs,
        persistence: opts.compactEvery === undefined ? undefined : { compactRecords: opts.compactEvery },
        seed: opts.seed,
        faults: faultConfig(opts),
        packageMs: opts.packageMs,
      });
    } catch (err) {
      if (err instanceof FaultConfigError) throw new Error(`${FLAG_OF[err.field.split(".")[0]] ?? err.field}: ${err.problem}`, { cause: err });
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

// ---------------------------------------------------------------------------------------------
// snapshot and parity

interface PlatformOptions {
  clientId?: string;
  clientSecret?: string;
  username?: string;
  password?: string;
  token?: string;
  edge?: boolean;
  only?: string[];
  cluster?: string[];
  assetPath?: string;
  pageSize?: number;
}

/** The credential flags; each falls back to its SVC_* variable, as the provider's configuration does. */
function platformFlags(cmd: Command): Command {
  return cmd
    .option("--client-id <id>", "client id: a service account, or svc-cli for users (SVC_CLIENT_ID)")
    .option("--client-secret <secret>", "service account secret (SVC_CLIENT_SECRET; prefer the variable: flags show in process lists)")
    .option("--username <user>", "user e-mail for the password grant (SVC_USERNAME)")
    .option("--password <password>", "user password (SVC_PASSWORD; prefer the variable)")
    .option("--token <token>", "a bearer token instead of a login (SVC_TOKEN; prefer the variable)")
    .option("--edge", "log in at the edge token endpoint (SVC_EDGE)")
    .option("--only <areas>", "only these areas (assets, clusters, labels, data_types, apps, workloads, bridges, instance_settings) or sections", list)
    .option("--cluster <names>", "only these clusters, with their ACPs, workloads and bridges", list)
    .option("--asset-path <prefix>", "only the assets at this path (names from the root joined by '/') and below, with their parameter values, schedules and bindings")
    .option("--page-size <n>", "page size of the lists", integer(1, 1000, "a count"));
}

function clientOptions(url: string | undefined, o: PlatformOptions): SvcClientOptions {
  return { baseUrl: url, clientId: o.clientId, clientSecret: o.clientSecret, username: o.username, password: o.password, token: o.token, edge: o.edge };
}

function requireUrl(flag: string, url: string | undefined): void {
  if (!url && !process.env.SVC_BASE_URL) throw new Error(`${flag} URL is required (or set SVC_BASE_URL): the platform's base URL, e.g. https://platform.example.com`);
}

/**
 * What a snapshot is reading, on stderr: one line kept up to date on a terminal, plain lines
 * otherwise (each section when it is done, and every few seconds while a long one is read).
 * Records left out or written in part are printed as they are found.
 */
function progressDisplay(stream: NodeJS.WriteStream = process.stderr, prefix = "") {
  const tty = stream.isTTY === true;
  let shown = "";
  let lastLine = 0;
  const clear = () => {
    if (tty && shown) stream.write("\r\x1b[2K");
  };
  const show = (text: string) => {
    if (tty) {
      clear();
      shown = `${prefix}${text}`.slice(0, Math.max(20, (stream.columns ?? 100) - 1));
      stream.write(shown);
    } else {
      stream.write(`${prefix}${text}\n`);
    }
  };
  return {
    event(e: SnapshotEvent) {
      if (e.type === "problem") {
        clear();
        stream.write(`${prefix}${e.kind === "left_out" ? "left out" : "written in part"}: ${e.section} ${e.name}: ${e.reason}\n`);
        if (tty && shown) stream.write(shown);
        return;
      }
      const now = Date.now();
      if (e.type === "reading" && e.count === 0) lastLine = now;
      if (e.type === "done") {
        if (tty) show(`${e.section}: ${e.count} written`);
        else stream.write(`${prefix}${e.section}: ${e.count} written\n`);
      } else if (tty) {
        show(`reading ${e.section}: ${e.count}`);
      } else if (now - lastLine >= 2000) {
        lastLine = now;
        show(`reading ${e.section}: ${e.count} so far`);
      }
    },
    end() {
      clear();
      shown = "";
    },
  };
}

function describeProblems(problems: SnapshotProblem[]): string {
  const lines: string[] = [];
  for (const [kind, title] of [
    ["left_out", "left out (the fixture cannot hold them)"],
    ["incomplete", "written in part"],
  ] as const) {
    const list = problems.filter((p) => p.kind === kind);
    if (list.length === 0) continue;
    lines.push(`${list.length} ${title}:`);
    for (const p of list) lines.push(`  ${p.section} ${p.name}: ${p.reason}`);
  }
  return lines.map((l) => `${l}\n`).join("");
}

platformFlags(
  program
    .command("snapshot")
    .description("read a platform's inventory into a fixture that `serve --seed` loads; credentials are never written")
    .option("--from <url>", "the platform's base URL (SVC_BASE_URL)")
    .requiredOption("--out <file.yaml>", "the fixture to write (replaced only when the snapshot is complete)"),
).action(async (opts: PlatformOptions & { from?: string; out: string }) => {
  requireUrl("--from", opts.from);
  // Loaded here, so that `serve` starts without the client.
  const { snapshot, resolveOnly } = await import("../plant");
  const { SvcClient } = await import("../client");
  const { mergeOptions, optionsFromEnv } = await import("../client/config");
  resolveOnly(opts.only);
  const options = clientOptions(opts.from, opts);
  const client = SvcClient.fromEnv(process.env, { ...options, retry: { maxAttempts: 10, maxElapsedMs: 120_000 } });
  const resolved = mergeOptions(options, optionsFromEnv(process.env));
  const display = progressDisplay();
  const started = Date.now();
  try {
    const result = await snapshot(
      client,
      {
        out: opts.out,
        only: opts.only,
        clusters: opts.cluster,
        assetPath: opts.assetPath,
        pageSize: opts.pageSize,
        knownSecrets: [resolved.password, resolved.clientSecret, resolved.token],
      },
      (e) => display.event(e),
    );
    display.end();
    const entries = Object.values(result.counts).reduce((a, b) => a + b, 0);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stderr.write(
      `svc-emulator: snapshot written to ${opts.out}: ${entries} entries in ${Object.keys(result.counts).length} sections ` +
        `(${Object.entries(result.counts)
          .map(([s, n]) => `${s} ${n}`)
          .join(", ")}); ` +
        `${client.stats.requests} requests, ${client.stats.retries} repeated, ${seconds} s\n` +
        describeProblems(result.problems),
    );
  } finally {
    display.end();
    await client.close();
  }
});

platformFlags(
  program
    .command("parity")
    .description("compare a platform's answers with those of an emulator seeded from its snapshot (exit 1 when they differ)")
    .option("--against <url>", "the platform's base URL (SVC_BASE_URL)")
    .option("--snapshot <file.yaml>", "the snapshot to seed the emulator from (default: take one from the platform first)")
    .option("--json", "print the report as JSON"),
).action(async (opts: PlatformOptions & { against?: string; snapshot?: string; json?: boolean }) => {
  requireUrl("--against", opts.against);
  const { parity, formatParity, resolveOnly } = await import("../plant");
  resolveOnly(opts.only);
  const displays = { snapshot: progressDisplay(process.stderr, "snapshot: "), compare: progressDisplay(process.stderr, "comparing: ") };
  let report;
  try {
    report = await parity(
      clientOptions(opts.against, opts),
      { snapshot: opts.snapshot, only: opts.only, clusters: opts.cluster, assetPath: opts.assetPath, pageSize: opts.pageSize },
      (e) => {
        if (e.event.type !== "problem" || e.phase === "snapshot") displays[e.phase].event(e.event);
      },
    );
  } catch (err) {
    displays.snapshot.end();
    displays.compare.end();
    process.stderr.write(`svc-emulator: parity: ${(err as Error).message}\n`);
    process.exit(2);
  }
  displays.snapshot.end();
  displays.compare.end();
  process.stdout.write(opts.json ? JSON.stringify(report, null, 2) + "\n" : formatParity(report));
  process.exitCode = report.differing.length > 0 ? 1 : 0;
});

// ---------------------------------------------------------------------------------------------
// generate and adopt-plan

program
  .command("generate")
  .description("write a TypeScript Pulumi program that declares every object of a snapshot with adopt: true")
  .requiredOption("--from <snapshot.yaml>", "the snapshot (a fixture document, as `snapshot` writes it)")
  .requiredOption("--out <dir>", "folder to write the program to (created when missing)")
  .option("--project <name>", "project name in Pulumi.yaml and package.json", "svc-plant")
  .option(
    "--package-spec <spec>",
    "where package.json installs pulumi-svc from (a version range, a git URL, file:TARBALL); default: a tarball of this package, packed into the program's vendor/",
  )
  .action(async (opts: { from: string; out: string; project: string; packageSpec?: string }) => {
    // Loaded only for this command: serving does not load the provider's resources.
    const { generateFromFile } = await import("../plant/generate");
    const files = generateFromFile(opts.from, opts.out, { project: opts.project, packageSpec: opts.packageSpec });
    process.stdout.write(`svc-emulator generate: wrote ${Object.keys(files).sort().join(", ")} to ${opts.out}\n`);
  });

const keyValue = (v: string, previous: Record<string, string> = {}) => {
  const at = v.indexOf("=");
  if (at <= 0) throw new InvalidArgumentError(`'${v}' is not key=value (e.g. svc:baseUrl=http://127.0.0.1:4010)`);
  return { ...previous, [v.slice(0, at)]: v.slice(at + 1) };
};

program
  .command("adopt-plan")
  .description("before adopting: read each object the program adopts from the platform and print what adopting would change (exit 2 when it would change something)")
  .requiredOption("--program <dir>", "the Pulumi TypeScript program's folder (as `generate` writes it)")
  .option("--config <key=value>", "stack configuration, repeatable: svc:baseUrl, svc:clientId, svc:clientSecret, ...", keyValue, {})
  .option("--format <format>", "text or markdown", "text")
  .action(async (opts: { program: string; config: Record<string, string>; format: string }) => {
    if (opts.format !== "text" && opts.format !== "markdown") throw new InvalidArgumentError(`--format: '${opts.format}' is not text or markdown`);
    const { loadTypeScriptProgram } = await import("../plant/load-program");
    const testing = await import("../testing");
    const secretConfig = Object.keys(opts.config).filter(isSecretKey);
    const plan = await testing.adoptionPlan(loadTypeScriptProgram(opts.program), {
      cwd: opts.program,
      config: opts.config,
      secretConfig,
      checkDestroy: false,
      expectEmptyPlanAfterUp: false,
    });
    process.stdout.write(plan.render({ format: opts.format }));
    if (plan.changes > 0) process.exitCode = 2;
  });

program.parseAsync(process.argv).catch((err: Error) => {
  process.stderr.write(`svc-emulator: ${err.message}\n`);
  process.exit(1);
});
