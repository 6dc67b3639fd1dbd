/**
 * One `up` or `preview`: the engine's side of each registration the program makes. A component is
 * recorded (created when new); a custom resource goes through its steps (steps.ts): Check, then
 * Create when it is new, or the plan (plan.ts) and then Update, replacement or nothing; a `get`
 * reads. A registration whose URN the state does not hold may take a former URN's state over
 * (aliases.ts). After the program, resources it no longer declares (and old objects of
 * replacements) are deleted in reverse dependency order (deletion.ts).
 *
 * The first failure stops the run: steps already running finish, later registrations are refused,
 * nothing is deleted, and `failure` rejects with an error naming the resource and the operation.
 */
import { resourceUrn, ROOT_STACK_TYPE, urnQualifiedType } from "../../pulumi/urn";
import { adopting } from "./adoption";
import { Aliases } from "./aliases";
import { CancelledError, EngineError, type EngineContext } from "./context";
import { deleteResources } from "./deletion";
import { HookRegistry, runHooks } from "./hooks";
import { applyIgnoreChanges } from "./ignore-changes";
import { planStep } from "./plan";
import { stateEntry, type Answer, type Registration } from "./registration";
import { reportedInputs, type OperationReport } from "./report";
import { Failures, OperationLog, Replacements, type Run, type TakeoverRules } from "./run";
import { checkStep, createStep, readStep, recreateDependent, refuseImport, replaceStep, sameStep, updateStep } from "./steps";
import type { ResourceState } from "./state";
import type { PropertyMap } from "./values";

export class Deployment {
  /** The warnings the program logged (`pulumi.log.warn`), in order: `pulumi` lists them under Diagnostics. */
  readonly programWarnings: string[] = [];
  /** The program's stack outputs, once it registered them. */
  stackOutputs: PropertyMap = {};
  private readonly run: Run;
  private readonly registered = new Set<string>();
  private readonly aliases: Aliases;
  /** The steps under way. */
  private readonly running = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly ctx: EngineContext,
    readonly preview: boolean,
    adoptionId?: TakeoverRules["adoptionId"],
    adopts: TakeoverRules["adopts"] = adopting,
    takeoverId?: TakeoverRules["takeoverId"],
  ) {
    this.aliases = new Aliases(ctx);
    this.run = {
      ctx,
      preview,
      hooks: new HookRegistry(),
      log: new OperationLog(),
      failures: new Failures(),
      replacements: new Replacements(),
      takeovers: { adoptionId, adopts, takeoverId },
      registered: this.registered,
    };
  }

  /** What the run did, in the order the operations ended. */
  get operations(): OperationReport[] {
    return this.run.log.operations;
  }

  /** The resource hooks the program registered in this run. */
  get hooks(): HookRegistry {
    return this.run.hooks;
  }

  /** Resolves when the first operation fails. */
  get failed(): Promise<void> {
    return this.run.failures.failed;
  }

  get failure(): Error | undefined {
    return this.run.failures.first;
  }

  /** Every failure after the first, for the record. */
  get laterFailures(): readonly Error[] {
    return this.run.failures.later;
  }

  /** Handles one registration; rejects with CancelledError once the run has failed or ended. */
  register(reg: Registration): Promise<Answer> {
    if (this.closed || this.run.failures.any) return Promise.reject(new CancelledError(`${reg.type} "${reg.name}"`));
    const urn = resourceUrn(this.ctx, reg.type, reg.name, reg.parent);
    if (this.registered.has(urn)) {
      return this.track(
        Promise.reject(
          new EngineError(
            { urn, type: reg.type, name: reg.name },
            "register",
            `duplicate resource URN ${urn}: two resources of the same type have the same name`,
            "SVC_KIT_DUPLICATE_URN",
          ),
        ),
      );
    }
    this.registered.add(urn);
    this.ctx.redactor.learn(reg.inputs);
    if (reg.type === ROOT_STACK_TYPE) return Promise.resolve({ urn, id: "", outputs: {} });
    if (!reg.custom) return this.track(this.component(urn, reg));
    // Known from the registration on, so that a later `replaceWith` or `deletedWith` naming it waits for its plan.
    this.run.replacements.expect(urn);
    return this.track(this.ctx.semaphore.run(() => (this.run.failures.any ? Promise.reject(new CancelledError(`"${reg.name}"`)) : this.custom(urn, reg))));
  }

  /** Outputs a component (or the stack) registers after its children. */
  registerOutputs(urn: string, outputs: PropertyMap): void {
    this.ctx.redactor.learn(outputs);
    if (urnQualifiedType(urn) === ROOT_STACK_TYPE) {
      this.stackOutputs = outputs;
      return;
    }
    const entry = this.ctx.state.get(urn);
    if (entry && !entry.custom && !this.preview) this.ctx.state.put({ ...entry, outputs });
  }

  /** Waits for every step started so far. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Refuses all further registrations (the program's run is over). */
  close(): void {
    this.closed = true;
  }

  /** After a successful program: delete what it no longer declares, and the old objects of replacements. */
  async deleteUndeclared(): Promise<void> {
    const entries = this.ctx.state.all().filter((e) => e.delete || (!this.registered.has(e.urn) && !this.aliases.claims(e.urn)));
    try {
      await deleteResources(this.ctx, { entries, preview: this.preview, hooks: this.hooks }, (op, entry) => {
        // The deletion of a replaced object belongs to the "replace" already reported.
        if (entry.delete && this.run.replacements.wasRetired(entry)) return;
        this.run.log.push(op.oldInputs || !entry.custom ? op : { ...op, oldInputs: reportedInputs(entry.inputs) });
      });
    } catch (e) {
      this.run.failures.add(e as Error);
    }
  }

  /** Fails the run with a refusal that is no registration's (a hook's registration): the program goes on, the run stops. */
  refuse(e: Error): void {
    this.run.failures.add(e);
  }

  private track<T>(p: Promise<T>): Promise<T> {
    const tracked = p.catch((e: Error) => {
      if (!(e instanceof CancelledError)) this.run.failures.add(e);
      throw e;
    });
    this.running.add(tracked);
    const forget = () => this.running.delete(tracked);
    tracked.then(forget, forget);
    return tracked;
  }

  /** The state of `urn`, or the state a former URN of the registration leaves to it. */
  private previous(urn: string, reg: Registration): ResourceState | undefined {
    return this.ctx.state.get(urn) ?? this.aliases.takeOver(urn, reg, this.ctx.state, this.preview, this.registered);
  }

  /** A component: created when new (its create hooks run around it, as the engine's create step runs them), else the same. */
  private async component(urn: string, reg: Registration): Promise<Answer> {
    const old = this.previous(urn, reg);
    const ref = { urn, type: reg.type, name: reg.name };
    const args = { id: "", newInputs: reg.inputs };
    if (!old) await runHooks(this.hooks, this.preview, ref, reg.hooks, "beforeCreate", args);
    this.run.log.report(ref, old ? "same" : "create");
    if (!this.preview) this.ctx.state.put({ ...stateEntry(urn, reg, reg.inputs, old?.outputs ?? {}), custom: false, id: undefined });
    if (!old) await runHooks(this.hooks, this.preview, ref, reg.hooks, "afterCreate", { ...args, newOutputs: {} });
    return { urn, id: "", outputs: reg.inputs };
  }

  /** A custom resource's steps; whatever happens, its replacement decision is then known (not replaced, unless its plan said so). */
  private async custom(urn: string, reg: Registration): Promise<Answer> {
    try {
      return await this.customSteps(urn, reg);
    } finally {
      this.run.replacements.decide(urn, false);
    }
  }

  private async customSteps(urn: string, reg: Registration): Promise<Answer> {
    const { run } = this;
    const ref = { urn, type: reg.type, name: reg.name };
    if (reg.readId !== undefined) return readStep(run, ref, reg);
    const existing = this.previous(urn, reg);
    const old = existing && !existing.external ? existing : undefined;
    const inputs = await checkStep(run, ref, old?.inputs ?? {}, applyIgnoreChanges(reg.inputs, old?.inputs, reg.ignoreChanges));
    run.failures.stopIfFailed(ref);
    const dependentKeys = run.replacements.dependentKeys(urn);
    if (dependentKeys) return recreateDependent(run, ref, reg, inputs, dependentKeys, old);
    if (!old) return reg.importId ? refuseImport(ref) : createStep(run, ref, reg, inputs);
    const plan = await planStep(run, ref, reg, old, inputs);
    run.replacements.decide(urn, plan.op === "replace");
    run.failures.stopIfFailed(ref);
    if (plan.op === "same") return sameStep(run, ref, reg, old, inputs);
    if (plan.op === "update") return updateStep(run, ref, reg, old, inputs, plan.diffs);
    // As the engine does before a replacement: check again without the old inputs, so that values the
    // provider derives from them (generated names) are generated afresh for the new object. It checks
    // the program's inputs, not those `ignoreChanges` kept: the new object gets what the program says.
    return replaceStep(run, ref, reg, old, await checkStep(run, ref, {}, reg.inputs), plan);
  }
}
