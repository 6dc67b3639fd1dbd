/**
 * A stack under test: a program, its state, and ONE dynamic-provider host child process that every
 * operation of the stack goes through. Operations on one stack run one at a time.
 */
import { HookRegistry } from "./engine/hooks";
import type { ImportArgs, ResourceView } from "./views";

export type { ImportArgs, ResourceView } from "./views";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Emulator, EmulatorOptions } from "../emulator";
import { lockFile } from "../emulator/store/file-lock";
import { WARNING_PREFIX } from "../provider/kind";
import { assertEmptyPlan, assertNoDrift, checkDestroyed } from "./assertions";
import { resourceUrn } from "../pulumi/urn";
import { EngineError, Redactor, type EngineContext } from "./engine/context";
import { deleteResources } from "./engine/deletion";
import { destroyEffects } from "./effects";
import { Deployment } from "./engine/deployment";
import { ProviderClient } from "./engine/grpc";
import { ProviderHost } from "./engine/host";
import { runProgram, type Program } from "./program";
import { refreshResources } from "./engine/refresh";
import { runResult, type RenderedRunResult } from "./render";
import { describeFailures, reportedInputs, type OperationReport, type RunKind } from "./engine/report";
import { Semaphore } from "./engine/scheduler";
import { DEFAULT_PASSPHRASE } from "./engine/secrets";
import { StateStore, type ResourceState, type StackState } from "./engine/state";
import { takeovers } from "./takeover";
import { forProviderMap, PROVIDER_KEY, redactSecrets, reveal, secret, secretPaths, withoutInternalKeys, type PropertyMap } from "./engine/values";
import { SvcError } from "../errors";

export interface StackOptions {
  /** Project name (default "test"). */
  project?: string;
  /** Stack name (default "test"). */
  stack?: string;
  /** Stack configuration with full keys, e.g. { "svc:baseUrl": "http://..." }. */
  config?: Record<string, string>;
  /** Configuration keys whose values are secret. */
  secretConfig?: string[];
  /** Start an in-process emulator and point svc:baseUrl / svc:clientId / svc:clientSecret at it (unless set). */
  emulator?: boolean | EmulatorOptions;
  /** JSON state file kept between runs (and between TestStacks); in memory when absent. */
  statePath?: string;
  /** Working directory of the provider host, where `require("pulumi-svc/...")` resolves (default: process.cwd()). */
  cwd?: string;
  /** Most provider operations at once (default 16). */
  parallel?: number;
  /** After every up, a preview must plan no changes (default true). */
  expectEmptyPlanAfterUp?: boolean;
  /**
   * Run `up` without the preview `pulumi up` runs first (as `pulumi up --skip-preview` and the
   * Automation API do). Default false: every up previews first, with values that come from resources
   * created or replaced in the same run unknown, so the provider's Check and Diff see those unknowns
   * and a preview failure fails the up, as under `pulumi up`.
   */
  skipPreview?: boolean;
  /**
   * After destroy, Read every object the stack created and fail if one still exists (default true).
   * Objects destroy leaves by design are not checked: released ones (`retainOnDelete`; a Cluster or a
   * DataType, which API v4 cannot delete) and the InstanceSettings, whose destroy restores the defaults.
   */
  checkDestroy?: boolean;
  /** Passphrase of the state's secrets key (default: PULUMI_CONFIG_PASSPHRASE, else a fixed test passphrase). */
  secretsPassphrase?: string;
  /** Receives each line the provider host writes. */
  log?: (line: string) => void;
  /**
   * Which engine runs the program: `"kit"` (default), this kit's engine around the real
   * dynamic-provider host; or `"pulumi"`, the Pulumi CLI itself through the Automation API, with a
   * local file backend in a temporary folder (or in the folder `statePath` names). The README lists
   * what differs between the two.
   */
  engine?: "kit" | "pulumi";
  /** With `engine: "pulumi"`: the folder holding the `pulumi` executable (default: SVC_PULUMI_DIR, else PATH). */
  pulumiPath?: string;
}

/** Options of `up`. */
export interface UpOptions {
  /** Read every object back from the platform before deploying, as `pulumi up --refresh` does. */
  refresh?: boolean;
}

/** A failed run: the first failure's message, and what the run did before it stopped. */
export class RunError extends Error {
  constructor(
    readonly kind: RunKind,
    readonly failures: readonly Error[],
    readonly operations: readonly OperationReport[],
  ) {
    super(describeFailures(kind, failures));
    this.name = "RunError";
  }
  /** The resource, operation and provider message of the first failure, when a provider failed. */
  get resource() {
    return this.failures[0] instanceof EngineError ? this.failures[0].resource : undefined;
  }
  get operation() {
    return this.failures[0] instanceof EngineError ? this.failures[0].operation : undefined;
  }
  get providerMessage() {
    return this.failures[0] instanceof EngineError ? this.failures[0].providerMessage : undefined;
  }
}

const DEFAULT_PROVIDER = "pulumi:providers:pulumi-nodejs";

export class TestStack {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private program: Program,
    private readonly ctx: EngineContext,
    private readonly host: ProviderHost,
    private readonly settings: Required<Pick<StackOptions, "expectEmptyPlanAfterUp" | "checkDestroy" | "skipPreview">> & { config: Record<string, string>; secretKeys: string[] },
    /** The emulator the stack started, if it did. */
    readonly emulator: Emulator | undefined,
    /** Releases the lock on the state file, when the stack keeps one. */
    private readonly releaseState?: () => Promise<void>,
  ) {}

  /** @internal Use `stack()`. */
  static async start(program: Program, options: StackOptions = {}): Promise<TestStack> {
    const project = options.project ?? "test";
    const stackName = options.stack ?? "test";
    const release = options.statePath ? await lockState(options.statePath) : undefined;
    const emulator = options.emulator
      ? await startOwnEmulator(options.emulator).catch(async (e: Error) => {
          await release?.();
          throw e;
        })
      : undefined;
    const { config, secretKeys } = stackConfig(options, emulator);
    let host: ProviderHost | undefined;
    let client: ProviderClient | undefined;
    try {
      const passphrase = options.secretsPassphrase ?? process.env.PULUMI_CONFIG_PASSPHRASE ?? DEFAULT_PASSPHRASE;
      const state = StateStore.open(options.statePath, passphrase, project, stackName);
      host = await ProviderHost.start({ cwd: options.cwd ?? process.cwd(), project, stack: stackName, log: options.log, warningPrefix: WARNING_PREFIX });
      const started = host;
      client = new ProviderClient(host.address);
      await client.ready();
      const ctx: EngineContext = {
        client,
        state,
        semaphore: new Semaphore(options.parallel ?? 16),
        project,
        stack: stackName,
        redactor: new Redactor(secretKeys.map((k) => config[k]).filter((v): v is string => typeof v === "string")),
        ledger: new Map(),
        hostProblem: () => {
          const reason = started.exitReason();
          return reason && `the provider host ${reason}; its last output:\n${started.recentOutput()}`;
        },
        destroyEffects,
      };
      await configureProvider(ctx, config, secretKeys);
      const settings = {
        expectEmptyPlanAfterUp: options.expectEmptyPlanAfterUp ?? true,
        checkDestroy: options.checkDestroy ?? true,
        skipPreview: options.skipPreview ?? false,
        config,
        secretKeys,
      };
      return new TestStack(program, ctx, host, settings, emulator, release);
    } catch (e) {
      client?.close();
      await host?.stop();
      await emulator?.close();
      await release?.();
      throw e;
    }
  }

  /** The state as JSON, secrets encrypted (what the state file holds). */
  get state(): StackState {
    return this.ctx.state.json;
  }

  /** The stack outputs of the last up (secrets unwrapped). */
  get outputs(): Record<string, unknown> {
    return reveal(this.ctx.state.outputs) as Record<string, unknown>;
  }

  /**
   * Previews then deploys the program (or `program`, which becomes the stack's program), as `pulumi
   * up` does, then checks the plan is empty. A failed preview fails the up before anything changes.
   * `{ refresh: true }` reads every object back from the platform first (`pulumi up --refresh`).
   */
  up(program?: Program | UpOptions, options: UpOptions = {}): Promise<RenderedRunResult> {
    if (typeof program === "object") return this.up(undefined, program);
    return this.exclusive(async () => {
      if (program) this.program = program;
      if (options.refresh) {
        await refreshResources(this.ctx, () => undefined).catch((e: Error) => {
          throw new RunError("up", [e], []);
        });
      }
      if (!this.settings.skipPreview) await this.deploy(true, false, "up");
      const result = await this.deploy(false);
      if (this.settings.expectEmptyPlanAfterUp) assertEmptyPlan(await this.deploy(true), "a preview right after up");
      return result;
    });
  }

  /** Plans the program (or `program`, which becomes the stack's program) without changing anything. */
  preview(program?: Program): Promise<RenderedRunResult> {
    return this.exclusive(async () => {
      if (program) this.program = program;
      return this.deploy(true);
    });
  }

  /**
   * What adopting would change, before anything is applied: a preview of the program (or `program`,
   * which becomes the stack's program) in which each resource to create that would take an existing
   * object over (`adopt: true`, or a kind whose create writes over the existing object, such as
   * parameter values) is read from the platform by its id and planned against it: `same` where the platform already states the
   * declared values, else an update or replace listing each differing property (old: the platform's
   * value, new: the declared one). A program that matches the platform has an empty plan.
   */
  adoptionPlan(program?: Program): Promise<RenderedRunResult> {
    return this.exclusive(async () => {
      if (program) this.program = program;
      return this.deploy(true, true);
    });
  }

  /** Reads every object back from the platform and records what it holds. */
  refresh(): Promise<RenderedRunResult> {
    return this.exclusive(async () => {
      const operations: OperationReport[] = [];
      await refreshResources(this.ctx, (op) => operations.push(op)).catch((e: Error) => {
        throw new RunError("refresh", [e], operations);
      });
      return await this.result("refresh", operations, redactSecrets(this.ctx.state.outputs) as Record<string, unknown>);
    });
  }

  /**
   * Deletes every resource in reverse dependency order, then checks through Read that the objects are
   * gone. An object that stays on the platform by design is reported as a delete with `released: true`.
   */
  destroy(): Promise<RenderedRunResult> {
    return this.exclusive(async () => {
      const operations: OperationReport[] = [];
      const doomed = this.ctx.state.all().filter((e) => !e.external);
      const report = (op: OperationReport, entry: ResourceState) => operations.push(op.oldInputs || !entry.custom ? op : { ...op, oldInputs: reportedInputs(entry.inputs) });
      await deleteResources(this.ctx, { entries: this.ctx.state.all(), preview: false, hooks: new HookRegistry() }, report).catch((e: Error) => {
        throw new RunError("destroy", [e], operations);
      });
      this.ctx.state.setOutputs({});
      if (this.settings.checkDestroy) await checkDestroyed(this.ctx, [...this.ctx.ledger.values(), ...doomed]);
      return await this.result("destroy", operations, {});
    });
  }

  /**
   * What `pulumi cancel` is to the CLI: under the kit's engine there is nothing to do. A killed run's
   * lock on the state file is broken by the next stack that opens it (its holder no longer runs), and
   * its state file is whole (written atomically). Kept so that a test can run either engine.
   */
  cancel(): Promise<void> {
    return this.exclusive(async () => undefined);
  }

  /** The creates the state says were under way when its last run stopped (a killed run leaves them). */
  pendingOperations(): Array<{ urn: string; type: string; op: string }> {
    return this.ctx.state.pending().map((p) => ({ ...p }));
  }

  /**
   * Forgets the pending creates a killed run left in the state, as `pulumi refresh
   * --clear-pending-creates` does; returns their URNs. The objects they may have made on the platform
   * are the provider's to recognise at the next up.
   */
  clearPendingOperations(): Promise<string[]> {
    return this.exclusive(async () => this.ctx.state.clearPending().map((p) => p.urn));
  }

  /** Refreshes, then previews: fails if the platform drifted from the state or the program would change anything. */
  async expectNoDrift(): Promise<void> {
    const refreshed = await this.refresh();
    const planned = await this.preview();
    assertNoDrift(refreshed, planned);
  }

  /**
   * Reads an existing object by id through the provider and, unless `record` is false, adds it to the
   * stack's state as a managed resource (an `up` with a program declaring it then takes it over).
   */
  importResource(args: ImportArgs, options: { record?: boolean } = {}): Promise<ResourceView> {
    return this.exclusive(async () => {
      const like = args.like !== undefined ? this.entry(args.like) : undefined;
      const type = args.type ?? like?.type;
      const provider = args.provider ?? (like?.inputs[PROVIDER_KEY] as string | undefined);
      if (!type || !provider)
        throw new SvcError(
          "SVC_IMPORT_ARGS_MISSING",
          `importResource needs the type and the serialized provider of "${args.name}": pass \`like\` or both \`type\` and \`provider\``,
        );
      const urn = resourceUrn(this.ctx, type, args.name);
      const record = options.record ?? true;
      if (record && this.ctx.state.get(urn)) throw new SvcError("SVC_RESOURCE_EXISTS", `the stack already has a resource ${urn}`);
      const ref = { urn, type, name: args.name };
      // The serialized provider goes in both the properties and the inputs: hosts before 3.268 look for it
      // only in the properties, later ones also in the inputs (as the engine's own Get sends them).
      const known = { [PROVIDER_KEY]: provider };
      const read = await this.ctx.client.read(ref, args.id, known, known).catch((e: Error) => {
        throw new EngineError(ref, "import", this.ctx.redactor.mask(e.message));
      });
      if (!read.id) throw new EngineError(ref, "import", `there is no object with id "${args.id}"`);
      const entry: ResourceState = {
        urn,
        type,
        name: args.name,
        custom: true,
        id: read.id,
        inputs: read.inputs ?? { [PROVIDER_KEY]: provider },
        outputs: this.ctx.redactor.protect(read.properties),
        dependencies: [],
      };
      if (record) {
        this.ctx.state.put(entry);
        this.ctx.ledger.set(`${urn}#${read.id}`, entry);
      }
      return view(entry);
    });
  }

  /** The resource of that name (or URN) in the state. */
  resource(nameOrUrn: string): ResourceView {
    return view(this.entry(nameOrUrn));
  }

  /** Every resource in the state (objects waiting for deletion excluded). */
  resources(): ResourceView[] {
    return this.ctx.state
      .all()
      .filter((e) => !e.delete)
      .map(view);
  }

  /** Stops the provider host (and the emulator the stack started). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.catch(() => undefined);
    this.ctx.client.close();
    await this.host.stop();
    await this.emulator?.close();
    await this.releaseState?.();
  }

  /** The provider host's recent output, for diagnosing a failure. */
  hostOutput(lines = 50): string {
    return this.host.recentOutput(lines);
  }

  private entry(nameOrUrn: string): ResourceState {
    const matches = this.ctx.state.all().filter((e) => !e.delete && (e.urn === nameOrUrn || e.name === nameOrUrn));
    if (matches.length === 1) return matches[0];
    if (matches.length === 0)
      throw new SvcError(
        "SVC_RESOURCE_NOT_FOUND",
        `the stack has no resource named "${nameOrUrn}" (it has: ${
          this.ctx.state
            .all()
            .map((e) => e.name)
            .join(", ") || "none"
        })`,
      );
    throw new SvcError("SVC_RESOURCE_AMBIGUOUS", `several resources are named "${nameOrUrn}"; use the URN: ${matches.map((e) => e.urn).join(", ")}`);
  }

  private async deploy(preview: boolean, adoptionPlan = false, as?: RunKind): Promise<RenderedRunResult> {
    const kind = as ?? (adoptionPlan ? "adoption" : preview ? "preview" : "up");
    const rules = await takeovers();
    const deployment = new Deployment(this.ctx, preview, adoptionPlan ? rules.adoptionId : undefined, rules.adopts, rules.adoptionId);
    let programError: Error | undefined;
    try {
      await runProgram(this.program, deployment, { project: this.ctx.project, stack: this.ctx.stack, preview, config: this.settings.config, secretKeys: this.settings.secretKeys });
    } catch (e) {
      programError = e as Error;
    }
    if (!deployment.failure && !programError) await deployment.deleteUndeclared();
    const failures = deployment.failure ? [deployment.failure, ...deployment.laterFailures] : programError ? [programError] : [];
    if (failures.length > 0) throw new RunError(kind, failures, deployment.operations);
    if (!preview) this.ctx.state.setOutputs(deployment.stackOutputs);
    return await this.result(kind, deployment.operations, redactSecrets(deployment.stackOutputs) as Record<string, unknown>, [
      ...deployment.programWarnings,
      ...deployment.hooks.warnings,
    ]);
  }

  /**
   * A run's result, with every warning the provider host has printed so far. The provider warns
   * about its configuration when it first loads; the CLI starts a fresh host for each command, so
   * every run shows those warnings again, and the kit's one host reports them with every run too.
   * Then this run's own warnings (`runWarnings`: the program's logged ones, and the engine's of its hooks).
   */
  private async result(kind: RunKind, operations: OperationReport[], outputs: Record<string, unknown>, runWarnings: readonly string[] = []): Promise<RenderedRunResult> {
    await this.host.settled();
    return runResult(kind, operations, outputs, [...this.host.warnings(), ...runWarnings]);
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new SvcError("SVC_STACK_CLOSED", "the stack is closed"));
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function view(e: ResourceState): ResourceView {
  const provider = e.inputs[PROVIDER_KEY];
  const inputs = withoutInternalKeys(e.inputs);
  const outputs = withoutInternalKeys(e.outputs);
  return {
    urn: e.urn,
    type: e.type,
    name: e.name,
    id: e.id,
    inputs: reveal(inputs) as Record<string, unknown>,
    outputs: reveal(outputs) as Record<string, unknown>,
    secretOutputs: secretPaths(outputs),
    dependencies: e.dependencies,
    provider: typeof provider === "string" ? provider : undefined,
  };
}

/**
 * A state file is one stack's at a time, as a Pulumi backend locks a stack for an update: a second
 * stack on the same file fails at once, naming the process that holds it, until the first closes.
 */
function lockState(statePath: string): Promise<() => Promise<void>> {
  const file = path.resolve(statePath);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return lockFile(file, {
    timeoutMs: 0,
    staleMs: 10_000,
    failed: (err) => new SvcError("SVC_STATE_LOCK_FAILED", `cannot lock the state file ${file}: ${(err as Error).message}`, { cause: err }),
    locked: (lockPath, holder) =>
      new SvcError(
        "SVC_STATE_LOCKED",
        `the state file ${file} is locked by ${holder ? `process ${holder.pid} on ${holder.host}${holder.since ? ` since ${holder.since}` : ""}` : "another process"}: ` +
          `another stack is open on it (a state is one stack's at a time). Close that stack (stack.close()) and try again; if that process is gone, remove ${lockPath}.`,
      ),
  });
}

/** The stack configuration; with an emulator, its address and the built-in service account unless given. */
export function stackConfig(options: StackOptions, emulator: Emulator | undefined): { config: Record<string, string>; secretKeys: string[] } {
  const config = { ...options.config };
  const secretKeys = [...(options.secretConfig ?? [])];
  if (emulator) {
    config["svc:baseUrl"] ??= emulator.baseUrl;
    config["svc:clientId"] ??= "svc-admin";
    if (config["svc:clientSecret"] === undefined) {
      config["svc:clientSecret"] = "svc-admin-secret";
      secretKeys.push("svc:clientSecret");
    }
  }
  return { config, secretKeys };
}

export async function startOwnEmulator(options: true | EmulatorOptions): Promise<Emulator> {
  // Loaded only when asked for, so that stacks without an emulator do not load it.
  const { startEmulator } = await import("../emulator");
  return startEmulator(options === true ? {} : options);
}

/** CheckConfig then Configure the default dynamic provider with the whole stack configuration, keys as written. */
async function configureProvider(ctx: EngineContext, config: Record<string, string>, secretKeys: readonly string[]): Promise<void> {
  const ref = { urn: resourceUrn(ctx, DEFAULT_PROVIDER, "default"), type: DEFAULT_PROVIDER, name: "default" };
  const args: PropertyMap = {};
  for (const [k, v] of Object.entries(config)) args[k] = secretKeys.includes(k) ? secret(v) : v;
  const checked = await ctx.client.checkConfig(ref, forProviderMap(args));
  if (checked.failures.length > 0) throw new EngineError(ref, "configure", checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; "));
  await ctx.client.configure(ref, args, config);
}
