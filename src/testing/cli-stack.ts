/**
 * A stack under test run by the real Pulumi CLI (`engine: "pulumi"`): the same program, options and
 * results as the kit's own engine, but every run is `pulumi preview`, `up`, `refresh` or `destroy`
 * through the Automation API, with the program inline (the CLI connects back to this process to run
 * it), a local file backend and passphrase secrets in a temporary folder, never Pulumi Cloud. An up is
 * `pulumi up --yes` as users run it, a preview and then the update in one command. The CLI starts a
 * fresh dynamic-provider host for each preview, update, refresh and destroy, as it does for users.
 *
 * The engine's events become the kit's operation reports (one per resource: the replace family of
 * steps is one `replace`), and `resources()` reads the state the CLI exported, so a test can run
 * either engine and compare.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as automation from "@pulumi/pulumi/automation";
import type { Emulator } from "../emulator";
import { urnName, urnQualifiedType, urnType } from "../pulumi/urn";
import { WARNING_PREFIX } from "../provider/kind";
import { assertEmptyPlan, assertNoDrift } from "./assertions";
import { EngineError } from "./engine/context";
import { destroyEffects } from "./effects";
import { compileCacheEnv } from "./engine/compile-cache";
import { pulumiFile } from "./engine/host";
import type { Program } from "./program";
import { runResult, type RenderedRunResult } from "./render";
import { reportedInputs, type OperationKind, type OperationReport, type RunKind } from "./engine/report";
import { DEFAULT_PASSPHRASE } from "./engine/secrets";
import type { ResourceView, StackOptions, UpOptions } from "./test-stack";
import { RunError } from "./test-stack";
import { changedKeys, containsSecret, isInternalKey, isObject, isSecret, type PropertyMap } from "./engine/values";
import { SvcError } from "../errors";

/** Where the CLI is: the `pulumiPath` option, else `SVC_PULUMI_DIR`, else `pulumi` on PATH. */
export function findPulumi(dir = process.env.SVC_PULUMI_DIR): string | undefined {
  const candidates = dir ? [path.join(dir, "pulumi")] : (process.env.PATH ?? "").split(path.delimiter).map((d) => path.join(d, "pulumi"));
  return candidates.find((p) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * What the Automation API needs to run `pulumi` (the executable at `pulumi`) on a local file backend in
 * the folder `backend`, with passphrase secrets: the environment of every command, the command, and
 * its root (the folder whose `bin/pulumi` it runs, for the Automation API of another language).
 * `dir` is a folder of the caller's that holds the CLI's home.
 */
export async function pulumiWorkspace(o: {
  pulumi: string;
  dir: string;
  backend: string;
  passphrase: string;
}): Promise<{ env: Record<string, string>; command: automation.PulumiCommand; root: string }> {
  const auto = (await import("@pulumi/pulumi/automation")) as typeof automation;
  // The engine finds the dynamic-provider plugin (a script in @pulumi/pulumi) on PATH, and the script
  // and the serialized providers resolve packages from the program's folder: NODE_PATH points them at
  // the node_modules this package and @pulumi/pulumi are installed in.
  const pulumiPackage = path.dirname(pulumiFile("package.json"));
  const nodeModules = path.dirname(path.basename(path.dirname(pulumiPackage)) === "@pulumi" ? path.dirname(pulumiPackage) : pulumiPackage);
  const env: Record<string, string> = {
    PATH: [path.dirname(o.pulumi), pulumiPackage, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
    NODE_PATH: [nodeModules, process.env.NODE_PATH].filter(Boolean).join(path.delimiter),
    PULUMI_CONFIG_PASSPHRASE: o.passphrase,
    // metadata=skip: the file backend writes no `.attrs` file beside each object. It writes those in
    // place (truncate, then write), so a run killed in between left an empty one, and every later
    // command failed to read the stack with "failed to load checkpoint: EOF". The objects themselves
    // (checkpoint, lock) are written to a temporary file and renamed, whole or not at all.
    PULUMI_BACKEND_URL: `file://${o.backend}?metadata=skip`,
    PULUMI_HOME: path.join(o.dir, "home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    // The engine starts a provider host per command: the cache saves it compiling @pulumi/pulumi each time.
    ...compileCacheEnv(),
  };
  const command = await pulumiCommand(auto, o.pulumi);
  return { env, command, root: path.dirname(path.dirname(command.command)) };
}

/** The process's PulumiCommand of each CLI executable (by its real path, size and time). */
const commands = new Map<string, Promise<automation.PulumiCommand>>();

/**
 * The Automation API's command for the CLI at `pulumi`, made once per process: `PulumiCommand.get`
 * runs `pulumi version` (0.2 s of CPU) to check the CLI is recent enough. It runs `<root>/bin/pulumi`:
 * a link in the temporary folder, one per CLI and shared by every process, gives any CLI that layout.
 */
async function pulumiCommand(auto: typeof automation, pulumi: string): Promise<automation.PulumiCommand> {
  const real = fs.realpathSync(pulumi);
  const { size, mtimeMs } = fs.statSync(real);
  const key = `${real}|${size}|${mtimeMs}`;
  const root = path.join(os.tmpdir(), "pulumi-svc-cli", createHash("sha256").update(key).digest("hex").slice(0, 16));
  const link = path.join(root, "bin", "pulumi");
  if (!isLinkTo(link, real)) {
    fs.mkdirSync(path.dirname(link), { recursive: true });
    // Another process may make the same link meanwhile: a link made beside it and renamed over it.
    const made = `${link}.${process.pid}`;
    fs.rmSync(made, { force: true });
    fs.symlinkSync(real, made);
    fs.renameSync(made, link);
  }
  let command = commands.get(key);
  if (!command) {
    command = auto.PulumiCommand.get({ root, skipVersionCheck: false });
    commands.set(key, command);
    command.catch(() => commands.delete(key));
  }
  return command;
}

function isLinkTo(link: string, target: string): boolean {
  try {
    return fs.readlinkSync(link) === target;
  } catch {
    return false;
  }
}

interface Settings {
  expectEmptyPlanAfterUp: boolean;
  skipPreview: boolean;
  env: Record<string, string>;
  pulumi: string;
  workDir: string;
  backend: string;
}

export class CliStack {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private lastOutputs: Record<string, unknown> = {};
  /**
   * Per resource, the JSON of each secret input's value in the state as the last command left it, when
   * known: after an up (from its events, or the export that follows it when they hold a secret), a
   * destroy (none), or a new backend (none).
   * Unknown after a failed up, a refresh or a cancel, and then read from the state before the next up.
   */
  private knownSecretInputs: Map<string, Record<string, string>> | undefined;
  /** The text of `pulumi stack export`, with secrets shown (true) or not, since the stack's last command. */
  private readonly exported = new Map<boolean, string>();

  private constructor(
    private program: Program,
    private readonly stack: automation.Stack,
    private readonly settings: Settings,
    private readonly temp: string | undefined,
    readonly emulator: Emulator | undefined,
  ) {}

  /** @internal Use `stack(program, { engine: "pulumi" })`. */
  static async start(program: Program, options: StackOptions, emulator: Emulator | undefined, config: Record<string, string>, secretKeys: string[]): Promise<CliStack> {
    const pulumi = findPulumi(options.pulumiPath);
    if (!pulumi)
      throw new SvcError(
        "SVC_PULUMI_CLI_MISSING",
        `engine "pulumi" needs the Pulumi CLI: ${options.pulumiPath ? `no executable pulumi in ${options.pulumiPath}` : "none on PATH and SVC_PULUMI_DIR is not set"} (in this repository, \`npm run --silent pulumi:path\` builds it and prints its folder)`,
      );
    const auto = (await import("@pulumi/pulumi/automation")) as typeof automation;
    const temp = fs.mkdtempSync(path.join(os.tmpdir(), "svc-cli-stack-"));
    const backend = options.statePath ? path.resolve(options.statePath) : path.join(temp, "backend");
    fs.mkdirSync(backend, { recursive: true });
    // An empty `.attrs` (left by a killed write of a backend without metadata=skip) makes the stack unreadable.
    removeEmptyAttrs(backend);
    const workDir = path.join(temp, "work");
    fs.mkdirSync(workDir);
    try {
      const { env, command } = await pulumiWorkspace({
        pulumi,
        dir: temp,
        backend,
        passphrase: options.secretsPassphrase ?? process.env.PULUMI_CONFIG_PASSPHRASE ?? DEFAULT_PASSPHRASE,
      });
      const project = options.project ?? "test";
      const stackName = options.stack ?? "test";
      // A backend of the stack's own is new: creating the stack needs no attempt to select it first.
      const created = await auto.LocalWorkspace[options.statePath ? "createOrSelectStack" : "createStack"](
        { projectName: project, stackName, program: async () => (await program()) as Record<string, unknown> | undefined },
        {
          workDir,
          pulumiHome: env.PULUMI_HOME,
          pulumiCommand: previewingUp(command, options.skipPreview ?? false),
          envVars: env,
          secretsProvider: "passphrase",
          projectSettings: { name: project, runtime: "nodejs", backend: { url: env.PULUMI_BACKEND_URL } },
        },
      );
      const all: automation.ConfigMap = {};
      for (const [key, value] of Object.entries(config)) all[key] = { value, secret: secretKeys.includes(key) };
      const stack = withoutFollowUpQueries(created);
      await stack.setAllConfig(all);
      const cliStack = new CliStack(
        program,
        stack,
        { expectEmptyPlanAfterUp: options.expectEmptyPlanAfterUp ?? true, skipPreview: options.skipPreview ?? false, env, pulumi, workDir, backend },
        // With statePath the backend is outside it: the folder holds only the CLI's home, link and work folder.
        temp,
        emulator,
      );
      // A backend of the stack's own starts empty: no secret inputs for the first up to compare with.
      if (!options.statePath) cliStack.knownSecretInputs = new Map();
      return cliStack;
    } catch (e) {
      fs.rmSync(temp, { recursive: true, force: true });
      throw e;
    }
  }

  /** The stack outputs of the last up (secrets unwrapped). */
  get outputs(): Record<string, unknown> {
    return this.lastOutputs;
  }

  /** The deployment as `pulumi stack export` writes it (secrets encrypted). */
  get state(): unknown {
    return this.export(false);
  }

  /**
   * `pulumi up` (with `program`, which becomes the stack's program), then a preview that must plan
   * nothing. `{ refresh: true }`: `pulumi up --refresh`, which reads every object back first.
   */
  up(program?: Program | UpOptions, options: UpOptions = {}): Promise<RenderedRunResult> {
    if (typeof program === "object") return this.up(undefined, program);
    return this.exclusive(async () => {
      if (program) this.program = program;
      const result = await this.run("up", { refresh: options.refresh });
      if (this.settings.expectEmptyPlanAfterUp) assertEmptyPlan(await this.run("preview"), "a preview right after up");
      return result;
    });
  }

  /** `pulumi preview` of the program (or `program`, which becomes the stack's program). */
  preview(program?: Program): Promise<RenderedRunResult> {
    return this.exclusive(async () => {
      if (program) this.program = program;
      return this.run("preview");
    });
  }

  /** `pulumi refresh`. */
  refresh(): Promise<RenderedRunResult> {
    return this.exclusive(() => this.run("refresh"));
  }

  /**
   * `pulumi cancel --yes`: removes the stack's lock, which a killed run leaves behind (the next command
   * then fails with "the stack is currently locked"). Also removes the empty `.attrs` files an older
   * file backend write can leave when killed (see `pulumiWorkspace`), which make every command fail
   * with "failed to load checkpoint: EOF". Only for a run that is gone: a running one loses its lock.
   */
  cancel(): Promise<void> {
    return this.exclusive(async () => {
      removeEmptyAttrs(this.settings.backend);
      this.knownSecretInputs = undefined;
      await this.stack.cancel();
    });
  }

  /**
   * `pulumi refresh --clear-pending-creates --yes`: refreshes, and forgets the creates a killed run
   * left pending in the state (the CLI warns about them on every later command until then). Returns
   * the URNs of the pending operations there were.
   */
  clearPendingOperations(): Promise<string[]> {
    return this.exclusive(async () => {
      const pending = this.pendingOperations().map((p) => p.urn);
      await this.run("refresh", { clearPendingCreates: true });
      return pending;
    });
  }

  /** The operations the state says were under way when its last run stopped (a killed run leaves its creates here). */
  pendingOperations(): Array<{ urn: string; type: string; op: string }> {
    const deployment = this.export(false) as { pending_operations?: Array<{ resource: { urn: string; type: string }; type: string }> };
    return (deployment.pending_operations ?? []).map((p) => ({ urn: p.resource.urn, type: p.resource.type, op: p.type }));
  }

  /** `pulumi destroy`. */
  destroy(): Promise<RenderedRunResult> {
    return this.exclusive(() => this.run("destroy"));
  }

  /** Refreshes, then previews: fails if the platform drifted from the state or the program would change anything. */
  async expectNoDrift(): Promise<void> {
    const refreshed = await this.refresh();
    const planned = await this.preview();
    assertNoDrift(refreshed, planned);
  }

  /** The resource of that name (or URN) in the state the CLI keeps. */
  resource(nameOrUrn: string): ResourceView {
    const all = this.resources();
    const matches = all.filter((r) => r.urn === nameOrUrn || r.name === nameOrUrn);
    if (matches.length === 1) return matches[0];
    if (matches.length === 0)
      throw new SvcError("SVC_RESOURCE_NOT_FOUND", `the stack has no resource named "${nameOrUrn}" (it has: ${all.map((r) => r.name).join(", ") || "none"})`);
    throw new SvcError("SVC_RESOURCE_AMBIGUOUS", `several resources are named "${nameOrUrn}"; use the URN: ${matches.map((r) => r.urn).join(", ")}`);
  }

  /** Every resource of the state (the stack and the default provider excepted), secrets revealed. */
  resources(): ResourceView[] {
    const deployment = this.export(true) as { resources?: ExportedResource[] };
    return (deployment.resources ?? []).filter((r) => !r.delete && !isEngineResource(r.type)).map(viewOf);
  }

  /** Ends the stack's runs and removes its temporary folder: the stack's configuration, the CLI's home and logs, and the backend unless `statePath` named one elsewhere. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.catch(() => undefined);
    await this.emulator?.close();
    if (this.temp) fs.rmSync(this.temp, { recursive: true, force: true });
  }

  private async run(kind: Exclude<RunKind, "adoption">, extra: { refresh?: boolean; clearPendingCreates?: boolean } = {}): Promise<RenderedRunResult> {
    const events = new Events(kind);
    const onEvent = (e: automation.EngineEvent) => events.add(e);
    const program = async () => (await this.program()) as Record<string, unknown> | undefined;
    let secretsBefore: Map<string, Record<string, string>> | undefined;
    try {
      if (kind === "up") {
        secretsBefore = this.knownSecretInputs ?? secretInputsOf(this.export(true) as ExportedDeployment);
        this.knownSecretInputs = undefined;
        // `pulumi up` previews first (previewingUp): the events are the preview's until the update's
        // prelude, and a failure before it is the preview's, which fails the up.
        const planned = this.settings.skipPreview ? undefined : new Events("preview");
        let previewing = planned !== undefined;
        let preludes = 0;
        const onUpEvent = (e: automation.EngineEvent) => {
          if (e.preludeEvent && ++preludes === 2) previewing = false;
          (previewing ? planned! : events).add(e);
        };
        try {
          await this.stack.up({ onEvent: onUpEvent, program, color: "never", ...(extra.refresh ? { refresh: true } : {}) });
        } catch (e) {
          if (previewing) throw new RunError(kind, failuresOf(planned!, e), await this.released(planned!.operations({ finishedOnly: true })));
          throw e;
        }
        // The outputs, and the secret inputs the next up compares with: from the events when they hold
        // no secret, else from one export.
        const settled = events.settledWithoutSecrets();
        const deployment = settled ? undefined : (this.export(true) as ExportedDeployment);
        this.lastOutputs = settled?.outputs ?? stackOutputs(deployment!);
        this.knownSecretInputs = deployment ? secretInputsOf(deployment) : new Map();
      } else if (kind === "preview") await this.stack.preview({ onEvent, program, color: "never" });
      else if (kind === "refresh") {
        this.knownSecretInputs = undefined;
        await this.stack.refresh({ onEvent, color: "never", ...(extra.clearPendingCreates ? { clearPendingCreates: true } : {}) });
      } else {
        this.knownSecretInputs = undefined;
        await this.stack.destroy({ onEvent, color: "never" });
        this.lastOutputs = {};
        this.knownSecretInputs = new Map();
      }
    } catch (e) {
      if (e instanceof RunError) throw e;
      throw new RunError(kind, failuresOf(events, e), await this.released(events.operations({ finishedOnly: true })));
    }
    // Without secret inputs before the up, none can have changed (one that appears shows as added).
    const secretChanges = secretsBefore?.size ? changedSecrets(secretsBefore, this.knownSecretInputs ?? new Map()) : undefined;
    return runResult(kind, await this.released(events.operations({ secretChanges })), kind === "up" ? this.lastOutputs : {}, events.warnings());
  }

  /** Deletes of objects that stay on the platform (a kind destroy only releases, such as a cluster) read as released, as in the kit. */
  private async released(operations: OperationReport[]): Promise<OperationReport[]> {
    const deletes = operations.filter((o) => o.op === "delete" && !o.released);
    if (deletes.length === 0) return operations;
    // What destroy does depends only on the kind (retainOnDelete came with the events).
    const entryOf = (o: OperationReport) => ({ urn: o.urn, type: o.type, name: o.name, custom: true, inputs: {}, outputs: {}, dependencies: [] });
    const effectOf = await destroyEffects(deletes.map(entryOf));
    for (const o of deletes) if (effectOf(entryOf(o)) === "release") o.released = true;
    return operations;
  }

  /** The deployment as `pulumi stack export` gives it, read once between two commands of the stack (its commands are what change the state). */
  private export(showSecrets: boolean): unknown {
    let text = this.exported.get(showSecrets);
    if (text === undefined) {
      const args = ["stack", "export", "--stack", this.stack.name, ...(showSecrets ? ["--show-secrets"] : [])];
      const run = spawnSync(this.settings.pulumi, args, { cwd: this.settings.workDir, env: { ...process.env, ...this.settings.env }, encoding: "utf8", maxBuffer: 1 << 30 });
      if (run.status !== 0) throw new SvcError("SVC_STACK_EXPORT_FAILED", `pulumi ${args.join(" ")} failed: ${run.stderr}`);
      text = run.stdout;
      this.exported.set(showSecrets, text);
    }
    return (JSON.parse(text) as { deployment: unknown }).deployment;
  }

  /** Runs one command at a time; the state read before or during a command is read again after it. */
  private exclusive<T>(command: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new SvcError("SVC_STACK_CLOSED", "the stack is closed"));
    const work = async () => {
      this.exported.clear();
      try {
        return await command();
      } finally {
        this.exported.clear();
      }
    };
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Removes the empty `.attrs` files under the backend's `.pulumi` folder (a killed write's leftover; see `cancel`). */
export function removeEmptyAttrs(backend: string): string[] {
  const removed: string[] = [];
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith(".attrs") && fs.statSync(p).size === 0) {
        fs.rmSync(p, { force: true });
        removed.push(p);
      }
    }
  };
  walk(path.join(backend, ".pulumi"));
  return removed;
}

interface ExportedDeployment {
  resources?: ExportedResource[];
}

/**
 * Per resource, the JSON of each secret input's value in an export with secrets shown: what an up's
 * report compares to tell which secret inputs changed (the engine's events blind every secret). Kept
 * in memory only; reports name the keys, never the values.
 */
function secretInputsOf(deployment: ExportedDeployment): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const r of deployment.resources ?? []) {
    if (r.delete || isEngineResource(r.type)) continue;
    const secrets: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.inputs ?? {})) if (isSecret(v)) secrets[k] = JSON.stringify(revealed(v, k, []));
    if (Object.keys(secrets).length) out.set(r.urn, secrets);
  }
  return out;
}

/** The stack's outputs in an export with secrets shown (the stack resource's outputs), secrets unwrapped, as `pulumi stack output --show-secrets` gives them. */
function stackOutputs(deployment: ExportedDeployment): Record<string, unknown> {
  const root = deployment.resources?.find((r) => r.type === "pulumi:pulumi:Stack" && !r.delete);
  return revealed(root?.outputs ?? {}, "", []) as Record<string, unknown>;
}

/**
 * The CLI as the Automation API runs it, but with `pulumi up` as users run it, previewing first: the
 * API's up always adds `--skip-preview`, which this takes out unless the stack skips the preview. One
 * command then previews and updates, each with its own provider host, as `pulumi up --yes` does.
 */
function previewingUp(command: automation.PulumiCommand, skipPreview: boolean): automation.PulumiCommand {
  const runner = command as automation.PulumiCommand & Partial<CommandRunner>;
  if (typeof runner.run !== "function")
    throw new SvcError("SVC_AUTOMATION_API_UNSUPPORTED", "the installed @pulumi/pulumi's PulumiCommand has no run(args, ...) to run `pulumi up` with its preview");
  const run: CommandRunner["run"] = (args, ...rest) => runner.run!(args[0] === "up" && !skipPreview ? args.filter((a) => a !== "--skip-preview") : args, ...rest);
  return Object.assign(Object.create(command) as automation.PulumiCommand, { run });
}

/** The method of PulumiCommand that runs each of the Automation API's commands: not in its published types, and the same from 3.249 (the peer range's floor) on. */
interface CommandRunner {
  run(args: string[], ...rest: unknown[]): Promise<unknown>;
}

/**
 * The stack without the queries the Automation API makes after a command for results this class does
 * not use: `pulumi stack output` twice after an up, and `pulumi stack history` after an up, a refresh
 * or a destroy. Each is a start of the CLI that derives the passphrase's key, about 0.4 s of CPU; an up
 * reads its outputs from its events instead, or from one export when they hold a secret (see `run`).
 */
function withoutFollowUpQueries(stack: automation.Stack): automation.Stack {
  return Object.assign(stack, { outputs: async (): Promise<automation.OutputMap> => ({}), info: async (): Promise<undefined> => undefined });
}

interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  delete?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  dependencies?: string[];
}

const isEngineResource = (type: string) => type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:");

function viewOf(r: ExportedResource): ResourceView {
  const provider = r.inputs?.__provider;
  const inputs = Object.fromEntries(Object.entries(r.inputs ?? {}).filter(([k]) => !isInternalKey(k)));
  const outputs = Object.fromEntries(Object.entries(r.outputs ?? {}).filter(([k]) => !isInternalKey(k)));
  const secretOutputs: string[] = [];
  return {
    urn: r.urn,
    type: r.type,
    name: urnName(r.urn),
    id: r.id || undefined,
    inputs: revealed(inputs, "", []) as Record<string, unknown>,
    outputs: revealed(outputs, "", secretOutputs) as Record<string, unknown>,
    secretOutputs,
    dependencies: r.dependencies ?? [],
    provider: typeof provider === "string" ? provider : undefined,
  };
}

/** The exported JSON with each secret's plaintext in its place; the paths of secrets go to `paths`. */
function revealed(v: unknown, at: string, paths: string[]): unknown {
  if (Array.isArray(v)) return v.map((x, i) => revealed(x, `${at}[${i}]`, paths));
  if (!isObject(v)) return v;
  const o = v as Record<string, unknown>;
  if (isSecret(v)) {
    paths.push(at);
    return typeof o.plaintext === "string" ? revealed(JSON.parse(o.plaintext), at, []) : o.value;
  }
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, revealed(x, at ? `${at}.${k}` : k, paths)]));
}

/** The engine's steps for one resource, folded into the kit's one operation per resource. */
const OPS: Record<string, OperationKind | undefined> = {
  same: "same",
  create: "create",
  update: "update",
  delete: "delete",
  replace: "replace",
  "create-replacement": "replace",
  "delete-replaced": "replace",
  read: "read",
  "read-replacement": "read",
  import: "import",
  "import-replacement": "import",
  discard: "delete",
  "discard-replaced": "replace",
};

/**
 * The step whose end ends the resource's operation, as the kit reports it: a replacement is done once
 * its new object exists (the old one goes after it, or went before it with delete-before-replace).
 */
const finishes = (op: string): boolean => !["replace", "delete-replaced", "discard-replaced"].includes(op);

/** A failure the engine reported as a diagnostic, with the resource it names (the stack's own are not a resource's). */
interface Failure {
  urn?: string;
  type?: string;
  message: string;
}

/**
 * The engine's events of one command, as the kit's reports: one operation per resource with the old
 * and new inputs the events carry (secrets as secret markers without their values), the keys that
 * force a replacement from whichever step of the replacement names them, and the failures the
 * engine reported as error diagnostics.
 */
class Events {
  private readonly byUrn = new Map<string, OperationReport>();
  /** The URNs whose operation finished (its step's outputs event arrived). */
  private readonly finished = new Set<string>();
  private readonly failures: Failure[] = [];
  private readonly warned = new Set<string>();
  /** The engine's errors not tied to a resource (the program's own, or the command's). */
  private readonly general: string[] = [];
  /** The stack resource's outputs, when its outputs event came. */
  private stackOutputs: PropertyMap | undefined;
  /** Whether a resource's inputs held a secret. */
  private secretInputs = false;

  constructor(private readonly kind: Exclude<RunKind, "adoption">) {}

  add(e: automation.EngineEvent): void {
    const d = e.diagnosticEvent;
    if (d?.severity === "error") this.addError(d);
    const warning = d && warningOf(d);
    if (warning) this.warned.add(warning);
    const step = e.resourcePreEvent?.metadata ?? e.resOutputsEvent?.metadata;
    if (step?.type === "pulumi:pulumi:Stack" && e.resOutputsEvent) this.stackOutputs = (step.new?.outputs ?? {}) as PropertyMap;
    if (!step || isEngineResource(step.type)) return;
    if (step.new?.inputs && containsSecret(step.new.inputs as PropertyMap)) this.secretInputs = true;
    const settled = e.resOutputsEvent !== undefined;
    const op = this.kind === "refresh" ? refreshOp(step, settled) : OPS[step.op];
    if (!op) return;
    if (settled && (this.kind === "refresh" || finishes(step.op))) this.finished.add(step.urn);
    const known = this.byUrn.get(step.urn);
    // A replacement arrives as several steps: each may add what the others lack (the new inputs after
    // a delete-replaced step, the keys forcing it); a refresh's outputs event settles its operation.
    if (known && !(this.kind === "refresh" && settled)) {
      if (op === "replace") known.op = "replace";
      if (step.keys?.length && !known.replaces?.length) known.replaces = [...step.keys];
      if (step.new?.inputs && !known.newInputs && known.op !== "delete") known.newInputs = reportedInputs(step.new.inputs);
      if (step.old?.inputs && !known.oldInputs && known.op !== "create") known.oldInputs = reportedInputs(step.old.inputs);
      return;
    }
    const report: OperationReport = { urn: step.urn, type: step.type, name: urnName(step.urn), op };
    if (step.old?.inputs && op !== "create" && op !== "same" && op !== "read") report.oldInputs = reportedInputs(step.old.inputs);
    if (step.new?.inputs && op !== "delete" && op !== "same" && op !== "read") report.newInputs = reportedInputs(step.new.inputs);
    if (op === "replace" && step.keys?.length) report.replaces = [...step.keys];
    if (op === "delete" && step.old?.retainOnDelete) report.released = true;
    if (this.kind === "refresh" && op === "update") {
      report.diffs = changedOutputs(step);
      report.oldOutputs = reportedInputs(step.old?.outputs ?? {});
      report.newOutputs = reportedInputs(step.new?.outputs ?? {});
      // What the engine found drifted in the inputs (a provider that reads them back), as the kit's inputDiffs.
      const inputDiffs = Object.entries(step.detailedDiff ?? {})
        .filter(([, d]) => d.inputDiff)
        .map(([k]) => k);
      if (inputDiffs.length) report.inputDiffs = inputDiffs;
    }
    this.byUrn.set(step.urn, report);
  }

  /**
   * One operation per resource. The inputs that differ are the update's or replacement's `diffs`
   * (the Node dynamic-provider host answers Diff without them, and the CLI shows the inputs that
   * differ too); `secretChanges` names the secret inputs whose values changed, which the events
   * cannot show (they carry every secret as the same blinded text). With `finishedOnly`, the
   * operations that ended, as a failed run of the kit reports them.
   */
  operations(options: { finishedOnly?: boolean; secretChanges?: ReadonlyMap<string, readonly string[]> } = {}): OperationReport[] {
    const out: OperationReport[] = [];
    // A failed run's operations come in the order they finished, as the kit reports them.
    const reports = options.finishedOnly ? [...this.finished].map((urn) => this.byUrn.get(urn)!).filter(Boolean) : [...this.byUrn.values()];
    for (const r of reports) {
      if (this.kind !== "refresh" && (r.op === "update" || r.op === "replace")) {
        const secrets = options.secretChanges?.get(r.urn) ?? [];
        const diffs = [...new Set([...changedKeysOf(r.oldInputs, r.newInputs), ...secrets])].sort();
        if (diffs.length) r.diffs = diffs;
      }
      out.push(r);
    }
    return out;
  }

  private addError(d: automation.DiagnosticEvent): void {
    const text = d.message.trim();
    const onStack = !d.urn || isEngineResource(urnQualifiedType(d.urn));
    if (!onStack) {
      this.failures.push({ urn: d.urn, type: urnType(d.urn!), message: text.replace(/^(preview|update|refresh|destroy) failed: /i, "") });
      return;
    }
    // The engine's closing line repeats that the command failed; the failures themselves came before.
    if (/^(preview|update|refresh|destroy) failed$/.test(text)) return;
    this.general.push(text);
  }

  /** The failures the engine reported, the resource's first: each an EngineError when it names a resource. */
  errors(): Error[] {
    const byResource = this.failures.map((f) => {
      const ref = { urn: f.urn!, type: f.type ?? "", name: urnName(f.urn!) };
      return new EngineError(ref, this.stepOf(f.urn!), oneLine(f.message));
    });
    return [...byResource, ...this.general.map((m) => new SvcError("SVC_ENGINE_FAILED", oneLine(m)))];
  }

  private stepOf(urn: string): string {
    const op = this.byUrn.get(urn)?.op;
    // A failure before any step of the resource: its Check (or the provider's configuration) failed.
    return op ?? (this.kind === "destroy" ? "delete" : this.kind === "refresh" ? "read" : "check");
  }

  warnings(): string[] {
    return [...this.warned];
  }

  /**
   * What a successful up's events tell of the state it left, when they tell it all: the stack's
   * outputs (none of them secret, which the events blind) and that no resource's inputs hold a secret.
   * Every resource of the state after a successful up had a step in it.
   */
  settledWithoutSecrets(): { outputs: Record<string, unknown> } | undefined {
    if (this.secretInputs || !this.stackOutputs || containsSecret(this.stackOutputs)) return undefined;
    return { outputs: this.stackOutputs };
  }
}

/** A diagnostic's text as one message: its lines joined, the engine's wrapping undone. */
const oneLine = (text: string): string =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" ");

/**
 * The text of a warning the CLI would list under Diagnostics: the engine's and the program's
 * (`severity: warning`), and the provider's, which reach the engine as lines of its standard error.
 * The engine's note that it took the dynamic-provider plugin from PATH is left out: it comes from how
 * this class runs the CLI without a language host, which would otherwise name the plugin itself.
 */
function warningOf(d: automation.DiagnosticEvent): string | undefined {
  const text = d.message.trim();
  if (d.severity === "warning") return /^using pulumi-resource-[\w-]+ from \$PATH/.test(text) ? undefined : text;
  if (d.severity === "info#err" && text.startsWith(WARNING_PREFIX)) return text.slice(WARNING_PREFIX.length);
  return undefined;
}

function refreshOp(step: automation.StepEventMetadata, settled: boolean): OperationKind | undefined {
  if (!settled) return undefined;
  if (!step.new) return "delete";
  return changedOutputs(step).length ? "update" : "same";
}

const changedOutputs = (step: automation.StepEventMetadata): string[] => changedKeysOf(step.old?.outputs, step.new?.outputs);

/** The top-level keys whose values differ; the engine's JSON marks secrets as the kit's values do. */
const changedKeysOf = (before: Record<string, unknown> = {}, after: Record<string, unknown> = {}): string[] => changedKeys(before as PropertyMap, after as PropertyMap);

/** The secret inputs whose values differ between two `secretInputs()` of the state, per resource. */
function changedSecrets(before: Map<string, Record<string, string>>, after: Map<string, Record<string, string>>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const urn of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(urn) ?? {};
    const b = after.get(urn) ?? {};
    if (!before.has(urn) || !after.has(urn)) continue;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]);
    if (keys.length) out.set(urn, keys);
  }
  return out;
}

/** The failures of a command: the engine's error diagnostics, else the error lines of the CLI's output. */
function failuresOf(events: Events, e: unknown): Error[] {
  const reported = events.errors();
  return reported.length ? reported : [new SvcError("SVC_ENGINE_FAILED", cliMessage(e), { cause: e })];
}

/**
 * The CLI's own words when its events named no failure (it could not start, say): its `error:` lines,
 * each once, or else its last line. The Automation API's message repeats the whole output.
 */
export function cliMessage(e: unknown): string {
  const err = e as { stderr?: string; stdout?: string; message?: string };
  const text = [err.stderr, err.stdout].filter(Boolean).join("\n") || err.message || String(e);
  const lines = text.split("\n").map((l) => l.trim());
  const errors = [...new Set(lines.filter((l) => l.startsWith("error: ")).map((l) => l.slice("error: ".length)))].filter(
    (l) => !/^(preview|update|refresh|destroy) failed$/.test(l),
  );
  if (errors.length) return errors.join("; ");
  return lines.filter(Boolean).pop() ?? "the command failed";
}
