/**
 * The dynamic-provider host of @pulumi/pulumi (`cmd/dynamic-provider`), run as a child process the way
 * the engine runs the `pulumi-resource-pulumi-nodejs` plugin: `node <host> <engine address>`. The host
 * binds a gRPC server on a free loopback port and prints the port as its first line of stdout. It
 * deserializes each resource's provider from the `__provider` input with require-from-string, so
 * `require("...")` in a provider resolves from the host's working directory.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { SvcError } from "../../errors";
import { compileCacheEnv } from "./compile-cache";

export interface HostOptions {
  /** Working directory of the host process (where `require("pulumi-svc/...")` resolves from). */
  cwd: string;
  project: string;
  stack: string;
  /** Receives every line the host writes (provider logs, errors); a bounded tail is kept regardless. */
  log?: (line: string) => void;
  /** Extra environment for the host process. */
  env?: Record<string, string>;
  /** How a provider starts a warning's line (`warning: `): such lines are the run's warnings. None when absent. */
  warningPrefix?: string;
}

const TAIL_LINES = 200;

/**
 * Runs the host script unchanged, and ends the process when its stdin closes, i.e. when the test
 * process is gone (a gRPC server never exits on its own; an orphaned host would live forever). With
 * `node -e`, argv is [node, <host script>, <engine address>], as the host expects after `node <script>`.
 *
 * A package the serialized provider requires by name and that is not installed where the host runs
 * fails with Node's "Cannot find module"; the host's resolver adds where it looked and what to do.
 */
const BOOTSTRAP = [
  'process.stdin.on("end", () => process.exit(0));',
  'process.stdin.on("error", () => process.exit(0));',
  "process.stdin.resume();",
  `(${hintMissingPackages.toString()})(require("node:module"));`,
  "require(process.argv[1]);",
].join(" ");

/**
 * Runs in the host process: a bare package name that a serialized provider (a module compiled from
 * the state, whose file name is empty) cannot resolve gets a message saying that the host resolves
 * packages from its working directory, the kit's `cwd` stack option, and that the package must be
 * installed there.
 */
function hintMissingPackages(Module: { _resolveFilename: (request: string, parent: { filename?: string | null } | undefined, ...rest: unknown[]) => string }): void {
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (this: unknown, request, parent, ...rest) {
    try {
      return resolve.call(this, request, parent, ...rest);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err?.code === "MODULE_NOT_FOUND" && parent && !parent.filename && !/^[./]/.test(request)) {
        const pkg = request
          .split("/")
          .slice(0, request.startsWith("@") ? 2 : 1)
          .join("/");
        const [first, ...more] = err.message.split("\n");
        err.message = [
          `${first}: the provider host resolves '${request}' from its working directory ${process.cwd()} ` +
            `(the \`cwd\` option of the test stack, default: the test process's working directory); ` +
            `${pkg} must be installed there (npm install ${pkg}), or set \`cwd\` to a directory where it is`,
          ...more,
        ].join("\n");
      }
      throw err;
    }
  };
}
const START_TIMEOUT_MS = 20_000;

/** Resolves a file of @pulumi/pulumi as installed next to this package (or the program's). */
export function pulumiFile(relative: string): string {
  return require.resolve(`@pulumi/pulumi/${relative}`);
}

export class ProviderHost {
  private readonly tail: string[] = [];
  /** Each `warning: ` line the host printed, prefix removed, once, in order. */
  private readonly warningLines = new Set<string>();
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  private constructor(
    private readonly child: ChildProcess,
    readonly address: string,
    private readonly log?: (line: string) => void,
    private readonly warningPrefix?: string,
  ) {}

  static async start(options: HostOptions): Promise<ProviderHost> {
    const script = pulumiFile("cmd/dynamic-provider/index.js");
    const child = spawn(process.execPath, ["-e", BOOTSTRAP, script, "127.0.0.1:0"], {
      cwd: options.cwd,
      env: {
        ...process.env,
        ...compileCacheEnv(),
        // The host's Config resolves keys without a namespace against the project, as in a real run.
        PULUMI_NODEJS_PROJECT: options.project,
        PULUMI_NODEJS_STACK: options.stack,
        ...options.env,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const early: string[] = [];
    const { port, rest } = await awaitPort(child, script, early);
    child.removeAllListeners("exit");
    child.removeAllListeners("error");
    child.stderr.removeAllListeners("data");
    const host = new ProviderHost(child, `127.0.0.1:${port}`, options.log, options.warningPrefix);
    for (const line of [...early, ...rest]) host.record(line);
    host.follow(child.stdout);
    host.follow(child.stderr);
    child.once("exit", (code, signal) => {
      host.exited = { code, signal };
    });
    // A failure to signal or a broken pipe must not throw in the test process; the exit is what counts.
    child.on("error", (e) => host.record(`[host process error] ${e.message}`));
    child.stdin.on("error", () => undefined);
    // The host must not keep the test process alive on its own.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
    return host;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The last lines the host wrote, for error messages. */
  recentOutput(lines = 20): string {
    return this.tail.slice(-lines).join("\n");
  }

  /** Why the host is gone, when it is. */
  exitReason(): string | undefined {
    if (!this.exited) return undefined;
    const { code, signal } = this.exited;
    return signal ? `killed by ${signal}` : `exited with code ${code}`;
  }

  async stop(): Promise<void> {
    if (this.exited || this.child.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 2_000);
    await gone;
    clearTimeout(timer);
  }

  private follow(stream: NodeJS.ReadableStream): void {
    let pending = "";
    stream.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) this.record(line);
    });
  }

  /** The warnings the host has printed, each once. */
  warnings(): string[] {
    return [...this.warningLines];
  }

  /**
   * Lets the host's output written before its last answer be read: the host writes to its pipes
   * synchronously before it answers, so the lines are waiting once this process gets the answer.
   */
  async settled(): Promise<void> {
    for (let turn = 0; turn < 2; turn++) await new Promise((r) => setImmediate(r));
  }

  private record(line: string): void {
    for (const l of line.split("\n")) {
      if (this.warningPrefix && l.startsWith(this.warningPrefix)) this.warningLines.add(l.slice(this.warningPrefix.length));
      this.tail.push(l);
      if (this.tail.length > TAIL_LINES) this.tail.shift();
      this.log?.(l);
    }
  }
}

/** Waits for the port the host prints first; `rest` holds whatever it printed after it in the same chunk. */
function awaitPort(child: ChildProcess, script: string, early: string[]): Promise<{ port: number; rest: string[] }> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => fail(`the dynamic-provider host did not report its port within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const fail = (detail: string, cause?: Error) => {
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      child.kill("SIGKILL");
      reject(new SvcError("SVC_KIT_HOST_START_FAILED", `${detail}${early.length ? `\n${early.join("\n")}` : ""}`, { cause }));
    };
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      const nl = buffer.indexOf("\n");
      if (nl < 0) return;
      const first = buffer.slice(0, nl).trim();
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      if (!/^\d+$/.test(first)) return fail(`the dynamic-provider host printed "${first}" instead of its port`);
      resolve({
        port: Number(first),
        rest: buffer
          .slice(nl + 1)
          .split("\n")
          .filter(Boolean),
      });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (c: Buffer) => early.push(c.toString("utf8").trimEnd()));
    child.once("error", (e) => fail(`cannot start the dynamic-provider host (${script}): ${e.message}`, e));
    child.once("exit", (code) => fail(`the dynamic-provider host exited with code ${code} before reporting its port`));
  });
}
