/**
 * Running a Pulumi program in this process with the kit as its engine. The program talks to a
 * resource monitor; `setMocks` installs the runtime's MockMonitor for unit tests, and the kit installs
 * a subclass that hands every registration, with everything the RegisterResourceRequest carries
 * (dependencies, parent, options), to the Deployment instead of a mock callback. Each run gets a
 * fresh runtime store (the runtime's per-run local storage, as the Automation API uses) and runs
 * alone in the process, since parts of the runtime state are global.
 */
import type { CustomResourceOptions, InvokeTransform, ResourceTransform } from "@pulumi/pulumi";
import * as log from "@pulumi/pulumi/log";
import * as runtime from "@pulumi/pulumi/runtime";
import { MockMonitor } from "@pulumi/pulumi/runtime/mocks";
import * as settings from "@pulumi/pulumi/runtime/settings";
import type * as callbackTypes from "@pulumi/pulumi/proto/callback_pb";
import type * as resprotoTypes from "@pulumi/pulumi/proto/resource_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import * as path from "node:path";
import { resourceUrn } from "../pulumi/urn";
import { CancelledError } from "./engine/context";
import type { Deployment } from "./engine/deployment";
import type { AliasSpec, Answer, Registration } from "./engine/registration";
import { hookBinding, type ErrorHookArgs, type HookArgs } from "./engine/hooks";
import { pulumiFile } from "./engine/host";
import { toPropertyMap, toPropertyValue, type PropertyMap } from "./engine/values";
import { SvcError } from "../errors";

/** A Pulumi program: creates resources, and may return the stack outputs. */
export type Program = () => unknown;

const resproto = require(pulumiFile("proto/resource_pb.js")) as typeof resprotoTypes;
const callbackpb = require(pulumiFile("proto/callback_pb.js")) as typeof callbackTypes;
const structpb = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [path.dirname(pulumiFile("package.json"))] })) as typeof structTypes;
const internals = {
  state: require(pulumiFile("runtime/state.js")) as {
    withLocalStorage<T>(callback: () => Promise<T>): Promise<T>;
    getStore(): Record<string, unknown>;
  },
  settings: require(pulumiFile("runtime/settings.js")) as { waitForRPCs(): Promise<void>; getCallbacks(): CallbackServer | undefined },
};

/** The runtime's server of the program's callbacks (transforms, hooks), as the engine would call it. */
interface CallbackServer {
  invoke(call: { request: callbackTypes.CallbackInvokeRequest }, callback: (err: { details?: string } | null, resp?: callbackTypes.CallbackInvokeResponse) => void): void;
}

/** gRPC status CANCELLED: the runtime treats it as the engine shutting down and stays quiet. */
const CANCELLED = 1;
/** gRPC status UNIMPLEMENTED: the runtime passes over an engine call its engine does not implement. */
const UNIMPLEMENTED = 12;

type Callback = (err: unknown, res?: unknown) => void;

const struct = (m: PropertyMap) => structpb.Struct.fromJavaScript(m);
const fromStruct = (s: structTypes.Struct | undefined) => toPropertyMap(s?.toJavaScript() ?? {});

function refusal(err: unknown) {
  // Errors are reported by the run, not by the program, as the engine does; the program just stops.
  const message = err instanceof Error ? err.message : String(err);
  return Object.assign(new Error(message), { code: CANCELLED, details: message });
}

class EngineMonitor extends MockMonitor {
  /** Transform functions by the token the runtime registered them under. */
  private readonly transformsByToken = new Map<string, ResourceTransform>();
  /** Stack transforms, in registration order: applied to every resource registered after them. */
  private readonly stackTransforms: ResourceTransform[] = [];
  /** Each resource's own transforms, which its children inherit. */
  private readonly transformsOf = new Map<string, ResourceTransform[]>();

  constructor(private readonly deployment: Deployment) {
    super({
      newResource: () => {
        throw new SvcError("SVC_KIT_INTERNAL", "unreachable: registrations go to the deployment");
      },
      call: (args) => {
        throw new SvcError("SVC_INVOKE_UNSUPPORTED", `invoke ${args.token} is not supported by the engine kit`);
      },
    });
  }

  override recordTransformCallback(token: string, transform: ResourceTransform | InvokeTransform): void {
    super.recordTransformCallback(token, transform);
    this.transformsByToken.set(token, transform as ResourceTransform);
  }

  override registerStackTransform(req: { getToken(): string }, callback: Callback): void {
    const transform = this.transformsByToken.get(req.getToken());
    if (transform) this.stackTransforms.push(transform);
    callback(null, {});
  }

  override async registerResource(req: resprotoTypes.RegisterResourceRequest, callback: Callback): Promise<void> {
    const own = req.getTransformsList().flatMap((cb) => this.transformsByToken.get(cb.getToken()) ?? []);
    const parent = req.getParent();
    this.transformsOf.set(resourceUrnOf(req), [...own, ...(parent ? (this.transformsOf.get(parent) ?? []) : [])]);
    const transforms = [...(this.transformsOf.get(resourceUrnOf(req)) ?? []), ...this.stackTransforms];
    let transformed: Transformed | undefined;
    if (transforms.length > 0) {
      try {
        transformed = await applyTransforms(transforms, req);
      } catch (e) {
        callback(refusal(e), undefined);
        return;
      }
    }
    const registration = (): Registration => ({
      type: req.getType(),
      name: req.getName(),
      custom: req.getCustom(),
      parent: req.getParent() || undefined,
      inputs: fromStruct(req.getObject()),
      dependencies: req.getDependenciesList(),
      deleteBeforeReplace: req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() : undefined,
      ignoreChanges: req.getIgnorechangesList(),
      replaceOnChanges: req.getReplaceonchangesList(),
      protect: req.hasProtect() ? req.getProtect() : undefined,
      retainOnDelete: req.hasRetainondelete() ? req.getRetainondelete() : undefined,
      deletedWith: req.getDeletedwith() || undefined,
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      importId: req.getImportid() || undefined,
      replacementTrigger: req.hasReplacementTrigger() ? toPropertyValue(req.getReplacementTrigger()?.toJavaScript()) : undefined,
      replaceWith: req.getReplaceWithList(),
      aliases: aliasesOf(req),
      propertyDependencies: propertyDependenciesOf(req),
      hooks: hooksOf(req),
      ...transformed,
    });
    await this.answer(registration, callback, (answer) => {
      const resp = new resproto.RegisterResourceResponse();
      resp.setUrn(answer.urn);
      resp.setId(answer.id);
      resp.setObject(struct(answer.outputs));
      const deps = resp.getPropertydependenciesMap();
      for (const [key, value] of req.getPropertydependenciesMap().entries()) deps.set(key, value);
      return resp;
    });
  }

  override async readResource(req: resprotoTypes.ReadResourceRequest, callback: Callback): Promise<void> {
    const registration = (): Registration => ({
      type: req.getType(),
      name: req.getName(),
      custom: true,
      parent: req.getParent() || undefined,
      inputs: fromStruct(req.getProperties()),
      dependencies: req.getDependenciesList(),
      ignoreChanges: [],
      replaceOnChanges: [],
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      readId: req.getId(),
    });
    await this.answer(registration, callback, (answer) => {
      const resp = new resproto.ReadResourceResponse();
      resp.setUrn(answer.urn);
      resp.setProperties(struct(answer.outputs));
      return resp;
    });
  }

  /** A `ResourceHook` the program made: the deployment calls it back through the run's callback server. */
  registerResourceHook(req: resprotoTypes.RegisterResourceHookRequest, callback: Callback): void {
    this.registerHook("resource hook", req, callback, (server, token) =>
      this.deployment.hooks.register({ name: req.getName(), onDryRun: req.getOnDryRun(), ignoreErrors: req.getIgnoreErrors(), call: (args) => callHook(server, token, args) }),
    );
  }

  /** An `ErrorHook` the program made: the deployment calls it back when an operation of a resource naming it fails. */
  registerErrorHook(req: resprotoTypes.RegisterErrorHookRequest, callback: Callback): void {
    this.registerHook("error hook", req, callback, (server, token) =>
      this.deployment.hooks.registerError({ name: req.getName(), call: (args) => callErrorHook(server, token, args) }),
    );
  }

  /**
   * Registers a hook under its callback's token. A refusal (no callback, a name taken) fails the run:
   * answering it to the program would leave the hook's promise rejected with no one to await it.
   */
  private registerHook(
    kind: string,
    req: { getName(): string; getCallback(): { getToken(): string } | undefined },
    callback: Callback,
    register: (server: CallbackServer, token: string) => void,
  ): void {
    const server = internals.settings.getCallbacks();
    const token = req.getCallback()?.getToken();
    try {
      if (!server || !token) throw new SvcError("SVC_HOOK_UNCALLABLE", `${kind} "${req.getName()}" has no callback to call`);
      register(server, token);
    } catch (e) {
      this.deployment.refuse(e as Error);
    }
    callback(null, {});
  }

  override registerResourceOutputs(req: resprotoTypes.RegisterResourceOutputsRequest, callback: Callback): void {
    this.deployment.registerOutputs(req.getUrn(), fromStruct(req.getOutputs()));
    callback(null, {});
  }

  /** The runtime closes the monitor when it gives up on the run. */
  close(): void {}

  /** Registers what `registration` reads from the request; any failure, reading the request included, is the registration's answer. */
  private async answer(registration: () => Registration, callback: Callback, respond: (a: Answer) => unknown): Promise<void> {
    let answer: Answer;
    try {
      answer = await this.deployment.register(registration());
    } catch (e) {
      callback(refusal(e), undefined);
      return;
    }
    // Kept so that resource references in outputs can be hydrated (the mock monitor's getResource).
    this.resources.set(answer.urn, { urn: answer.urn, id: answer.id || null, state: answer.outputs });
    callback(null, respond(answer));
  }
}

/** What transforms may change of a registration: the inputs and the options the kit's engine honours. */
type Transformed = Partial<Pick<Registration, "inputs" | "protect" | "retainOnDelete" | "ignoreChanges" | "replaceOnChanges" | "deleteBeforeReplace" | "additionalSecretOutputs">>;

/**
 * The engine's transforms: the resource's own, then its ancestors', then the stack's, each given the
 * props and options the previous one returned (a transform returning nothing leaves them as they are).
 */
async function applyTransforms(transforms: readonly ResourceTransform[], req: resprotoTypes.RegisterResourceRequest): Promise<Transformed> {
  let props = runtime.deserializeProperties(req.getObject()!, true);
  let opts: CustomResourceOptions = {
    protect: req.hasProtect() ? req.getProtect() : undefined,
    retainOnDelete: req.hasRetainondelete() ? req.getRetainondelete() : undefined,
    ignoreChanges: req.getIgnorechangesList(),
    replaceOnChanges: req.getReplaceonchangesList(),
    deleteBeforeReplace: req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() : undefined,
    additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
  };
  for (const transform of transforms) {
    const result = await transform({ custom: req.getCustom(), type: req.getType(), name: req.getName(), props, opts });
    if (result) ({ props, opts } = { props: result.props, opts: result.opts });
  }
  return {
    inputs: toPropertyMap(await runtime.serializeProperties(`transformed ${req.getName()}`, props, { keepOutputValues: false })),
    protect: opts.protect,
    retainOnDelete: opts.retainOnDelete,
    ignoreChanges: opts.ignoreChanges ?? [],
    replaceOnChanges: opts.replaceOnChanges ?? [],
    deleteBeforeReplace: opts.deleteBeforeReplace,
    additionalSecretOutputs: opts.additionalSecretOutputs ?? [],
  };
}

/** The hooks the resource names (the `hooks` option), by when they run. */
function hooksOf(req: resprotoTypes.RegisterResourceRequest) {
  const b = req.getHooks();
  if (!b) return undefined;
  return hookBinding({
    beforeCreate: b.getBeforeCreateList(),
    afterCreate: b.getAfterCreateList(),
    beforeUpdate: b.getBeforeUpdateList(),
    afterUpdate: b.getAfterUpdateList(),
    beforeDelete: b.getBeforeDeleteList(),
    afterDelete: b.getAfterDeleteList(),
    onError: b.getOnErrorList(),
  });
}

/** Calls a hook as the engine does: a ResourceHookRequest to its callback; resolves with the error it reports. */
async function callHook(server: CallbackServer, token: string, args: HookArgs): Promise<string | undefined> {
  const req = hookRequest(new resproto.ResourceHookRequest(), args);
  if (args.newOutputs) req.setNewOutputs(struct(args.newOutputs));
  const resp = await invokeCallback(server, token, req.serializeBinary());
  return resproto.ResourceHookResponse.deserializeBinary(resp).getError() || undefined;
}

/** Calls an error hook as the engine does: an ErrorHookRequest to its callback; resolves with its answer. */
async function callErrorHook(server: CallbackServer, token: string, args: ErrorHookArgs): Promise<{ retry: boolean; error?: string }> {
  const req = hookRequest(new resproto.ErrorHookRequest(), args);
  req.setFailedOperation(args.failedOperation);
  req.setErrorsList(args.errors);
  const resp = resproto.ErrorHookResponse.deserializeBinary(await invokeCallback(server, token, req.serializeBinary()));
  return { retry: resp.getRetry(), error: resp.getError() || undefined };
}

/** What both kinds of hook request carry: the resource, and the inputs and old outputs the step has. */
function hookRequest<R extends resprotoTypes.ResourceHookRequest | resprotoTypes.ErrorHookRequest>(req: R, args: Omit<HookArgs, "newOutputs">): R {
  req.setUrn(args.urn);
  req.setId(args.id);
  req.setName(args.name);
  req.setType(args.type);
  if (args.newInputs) req.setNewInputs(struct(args.newInputs));
  if (args.oldInputs) req.setOldInputs(struct(args.oldInputs));
  if (args.oldOutputs) req.setOldOutputs(struct(args.oldOutputs));
  return req;
}

function invokeCallback(server: CallbackServer, token: string, request: Uint8Array): Promise<Uint8Array> {
  const invoke = new callbackpb.CallbackInvokeRequest();
  invoke.setToken(token);
  invoke.setRequest(request);
  return new Promise((resolve, reject) =>
    server.invoke({ request: invoke }, (err, resp) => {
      if (err || !resp) reject(new SvcError("SVC_HOOK_UNCALLABLE", `the hook could not be called: ${err?.details ?? "no answer"}`, { cause: err ?? undefined }));
      else resolve(resp.getResponse_asU8());
    }),
  );
}

function resourceUrnOf(req: resprotoTypes.RegisterResourceRequest): string {
  return resourceUrn({ stack: settings.getStack(), project: settings.getProject() }, req.getType(), req.getName(), req.getParent() || undefined);
}

/** For each input, the URNs of the resources its value came from (the request's property dependencies). */
function propertyDependenciesOf(req: resprotoTypes.RegisterResourceRequest): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  req.getPropertydependenciesMap().forEach((deps, key) => {
    out[key] = deps.getUrnsList();
  });
  return out;
}

/** The `aliases` option: earlier URNs, or specs of earlier names, types, parents (what is left out is the resource's own). */
function aliasesOf(req: resprotoTypes.RegisterResourceRequest): AliasSpec[] {
  const out: AliasSpec[] = req.getAliasurnsList().map((urn) => ({ urn }));
  for (const a of req.getAliasesList()) {
    const spec = a.getSpec();
    if (a.hasUrn()) out.push({ urn: a.getUrn() });
    else if (spec) {
      out.push({
        name: spec.getName() || undefined,
        type: spec.getType() || undefined,
        stack: spec.getStack() || undefined,
        project: spec.getProject() || undefined,
        parentUrn: spec.hasParenturn() ? spec.getParenturn() || undefined : undefined,
        noParent: spec.hasNoparent() ? spec.getNoparent() : undefined,
      });
    }
  }
  return out;
}

export interface ProgramSettings {
  project: string;
  stack: string;
  preview: boolean;
  config: Record<string, string>;
  secretKeys: string[];
}

/**
 * Waits for the registrations that wait for the run's callback server: a `ResourceHook` registers
 * once the server is listening, which may be after every other request of the program was answered
 * (a hook that only a deleted resource names is used by nothing else). They were queued on the
 * server's address before this wait, so once it resolves they have started, and waitForRPCs covers them.
 */
async function callbackRegistrations(): Promise<void> {
  const server = internals.state.getStore().callbacks as { _target?: Promise<unknown> } | undefined;
  if (!server?._target) return;
  await server._target;
  await internals.settings.waitForRPCs();
}

let exclusive: Promise<unknown> = Promise.resolve();

/** Runs `work` after every other program run in this process has finished. */
function alone<T>(work: () => Promise<T>): Promise<T> {
  const run = exclusive.then(work, work);
  exclusive = run.catch(() => undefined);
  return run;
}

/**
 * Runs the program against the deployment (see `runWithin`), alone in this process, and fails as the
 * engine fails a program: with the program's own error, or with what went uncaught while it ran.
 */
export function runProgram(program: Program, deployment: Deployment, s: ProgramSettings): Promise<void> {
  return alone(() =>
    internals.state.withLocalStorage(async () => {
      const monitor = new EngineMonitor(deployment);
      await runtime.setMocks(monitor.mocks, s.project, s.stack, s.preview);
      // setMocks enabled the monitor features; keep them while installing the kit's monitor instead.
      const store = internals.state.getStore();
      const features = Object.fromEntries(Object.entries(store).filter(([k]) => k.startsWith("supports")));
      settings.setMockOptions(monitor, s.project, s.stack, s.preview);
      Object.assign(store, features);
      runtime.setAllConfig(s.config, s.secretKeys);
      // The SDK sends the program's log to the engine when it has one, and prints it otherwise.
      (store.settings as { engine?: unknown }).engine = programLog(deployment);

      // As the language host does (and the Automation API's server for an inline program): an
      // exception no one caught or a promise rejected with no one waiting, while the program runs,
      // fails the run, as does an error the program logged (pulumi.log.error).
      const uncaught = new Set<unknown>();
      const onUncaught = (error: unknown) => void uncaught.add(error);
      process.on("uncaughtException", onUncaught);
      process.on("unhandledRejection", onUncaught);
      try {
        await runWithin(program, deployment);
      } finally {
        process.off("uncaughtException", onUncaught);
        process.off("unhandledRejection", onUncaught);
      }
      if (deployment.failure || (uncaught.size === 0 && !log.hasErrors())) return;
      // The engine's words: the messages of what went uncaught, else a pointer to the logged errors.
      const messages = [...uncaught].map((e) => (e instanceof Error ? e.message : String(e)));
      throw new SvcError(
        "SVC_PROGRAM_FAILED",
        `the program failed: One or more errors occurred${messages.length > 0 ? `: ${messages.join(", ")}` : ". Check logs for more details"}`,
        { cause: [...uncaught][0] },
      );
    }),
  );
}

/** The engine's severities of a log entry (engine.proto's LogSeverity). */
const LOG_SEVERITY = { DEBUG: 0, INFO: 1, WARNING: 2, ERROR: 3 } as const;

/**
 * The engine the SDK logs the program's messages to (`pulumi.log.*`, and the SDK's own warnings such
 * as an undefined stack output): a warning joins the run's warnings, as `pulumi` lists it under
 * Diagnostics; each is printed as the SDK prints it without an engine. Errors fail the run through
 * the SDK's count of them (see runProgram). The root resource's URN is left to the SDK (it passes
 * over an engine that does not keep it), and a required Pulumi version is granted, as it was with no
 * engine: the kit has no CLI version to hold it against.
 */
function programLog(deployment: Deployment) {
  return {
    log(req: { getSeverity(): number; getMessage(): string }, callback: () => void): void {
      const message = req.getMessage();
      const severity = req.getSeverity();
      if (severity === LOG_SEVERITY.INFO) console.log(`info: [runtime] ${message}`);
      else if (severity === LOG_SEVERITY.WARNING) {
        deployment.programWarnings.push(message);
        console.warn(`warning: [runtime] ${message}`);
      } else if (severity === LOG_SEVERITY.ERROR) console.error(`error: [runtime] ${message}`);
      callback();
    },
    setRootResource: (_req: unknown, callback: (err: { code: number }) => void) => callback({ code: UNIMPLEMENTED }),
    requirePulumiVersion: (_req: unknown, callback: (err: null) => void) => callback(null),
  };
}

/**
 * Runs the program until it has finished and every registration has been answered, or until the
 * deployment fails (then the program is abandoned: what it still waits for will never come, as when
 * the engine stops a failed update). Rejects with the program's own error.
 */
async function runWithin(program: Program, deployment: Deployment): Promise<void> {
  // The program's own error is caught here rather than left to the stack resource, whose promises
  // would each reject with it (unhandled); the stack then completes and the run reports the error.
  let programError: { error: unknown } | undefined;
  const finished = (async () => {
    await runtime.runInPulumiStack(async () => {
      try {
        return await program();
      } catch (error) {
        programError = { error };
        return undefined;
      }
    });
    await internals.settings.waitForRPCs();
    await callbackRegistrations();
    if (programError) throw programError.error;
  })();
  const outcome = await Promise.race([
    finished.then(
      () => ({ ok: true as const }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    deployment.failed.then(() => ({ ok: true as const })),
  ]);
  deployment.close();
  await deployment.drain();
  if (!outcome.ok && !deployment.failure && !(outcome.error instanceof CancelledError)) {
    const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    throw new SvcError("SVC_PROGRAM_FAILED", `the program failed: ${message}`, { cause: outcome.error });
  }
}
