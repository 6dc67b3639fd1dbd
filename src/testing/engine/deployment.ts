/**
 * One `up` or `preview`: the engine's side of each registration the program makes. For a custom
 * resource: Check (old inputs, new inputs), then Create when it is new, or Diff and then Update,
 * replacement (create-then-delete unless delete-before-replace is asked for) or nothing. The answer
 * carries the outputs dependents will see. A preview runs only Check and Diff (and Read for imports
 * and `get`s) and answers as the engine does for a provider without preview support: the checked
 * inputs, so every other output of a resource to create or update is unknown, and its id too when
 * the object is new. After the program, resources it no longer declares (and old objects of
 * replacements) are deleted in reverse dependency order.
 *
 * The first failure stops the run: steps already running finish, later registrations are refused,
 * nothing is deleted, and `failure` rejects with an error naming the resource and the operation.
 */
import { containsUnknown, deepEqual, UNKNOWN } from "../../pulumi/values";
import { resourceUrn, ROOT_STACK_TYPE, urnName, urnQualifiedType, urnType } from "../../pulumi/urn";
import { CancelledError, EngineError, providerStep, type EngineContext } from "./context";
import { deleteObject, deleteResources } from "./deletion";
import { ProviderError, type ResourceRef } from "./grpc";
import { HookRegistry, runHooks, withErrorHooks, type HookBinding } from "./hooks";
import { reportedInputs, type OperationKind, type OperationReport } from "./report";
import { dependencyOrder, type ResourceState } from "./state";
import { annotateSecrets, changedKeys, forProviderMap, isObject, isSecret, markStepSecrets, reveal, secret, unwrapSecret, type PropertyMap, type PropertyValue } from "./values";

/** A resource registration as the program sends it (RegisterResourceRequest / ReadResourceRequest). */
export interface Registration {
  type: string;
  name: string;
  custom: boolean;
  parent?: string;
  /** Inputs in the engine's JSON form (secrets marked, unknowns as the sentinel). */
  inputs: PropertyMap;
  dependencies: string[];
  /** The resource option, when the program sets it. */
  deleteBeforeReplace?: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  protect?: boolean;
  retainOnDelete?: boolean;
  deletedWith?: string;
  additionalSecretOutputs: string[];
  /** The `import` option: adopt the existing object with this id. */
  importId?: string;
  /** Set for `get` (ReadResource): the id of the object to read. */
  readId?: string;
  /** The `replacementTrigger` option: a change of this value (unknowns included) replaces the resource. */
  replacementTrigger?: PropertyValue;
  /** The `replaceWith` option: the URNs whose replacement replaces this resource too. */
  replaceWith?: string[];
  /** The `aliases` option: what the resource was called before (its state is taken over, not replaced). */
  aliases?: AliasSpec[];
  /** For each input, the URNs of the resources its value came from. */
  propertyDependencies?: Record<string, string[]>;
  /** The `hooks` option: the names of the hooks to run around its steps. */
  hooks?: HookBinding;
}

/** An alias: a former URN, or the parts of the former URN that differ (the others are the resource's own). */
export interface AliasSpec {
  urn?: string;
  name?: string;
  type?: string;
  project?: string;
  stack?: string;
  parentUrn?: string;
  noParent?: boolean;
}

export interface Answer {
  urn: string;
  /** Empty when unknown (a preview of a new object) or for components. */
  id: string;
  outputs: PropertyMap;
}

interface ReportDetail {
  diffs?: string[];
  replaces?: string[];
  adopt?: boolean;
  olds?: PropertyMap;
  news?: PropertyMap;
}

type Plan = { op: "same" } | { op: "update"; diffs: string[] } | { op: "replace"; diffs: string[]; replaces: string[]; deleteBeforeReplace: boolean };

export class Deployment {
  readonly operations: OperationReport[] = [];
  /** The resource hooks the program registered in this run. */
  readonly hooks = new HookRegistry();
  /** The warnings the program logged (`pulumi.log.warn`), in order: `pulumi` lists them under Diagnostics. */
  readonly programWarnings: string[] = [];
  /** The program's stack outputs, once it registered them. */
  stackOutputs: PropertyMap = {};
  private readonly registered = new Set<string>();
  /** Former URNs whose state a registration took over through its aliases: they are not deleted as undeclared. */
  private readonly aliased = new Set<string>();
  /** For each resource that took over a former URN's state, that URN: its children inherit aliases from it. */
  private readonly formerUrns = new Map<string, string>();
  /** Resources deleted (or, in a preview, to be deleted) because a resource they depend on is replaced delete-first: their registration replaces them. */
  private readonly dependentReplaced = new Map<string, string[]>();
  /** What this run decided for each resource it planned: replaced or not (for `replaceWith` and `deletedWith`). */
  private readonly decisions = new Map<string, Deferred<boolean>>();
  /** Old objects retired by this run's replacements: their deletion is part of the "replace" already reported. */
  private readonly replaced = new Set<string>();
  private readonly running = new Set<Promise<unknown>>();
  private readonly errors: Error[] = [];
  private closed = false;
  private signalFailure!: () => void;
  /** Resolves when the first operation fails. */
  readonly failed = new Promise<void>((resolve) => (this.signalFailure = resolve));

  constructor(
    private readonly ctx: EngineContext,
    readonly preview: boolean,
    /**
     * For an adoption plan (a preview): the platform id of the object a create would take over (with
     * `adopt: true`, say), from its type and inputs; such a create is planned against the object as read.
     */
    private readonly adoptionId?: (type: string, inputs: PropertyMap) => string | undefined,
    /** Whether a create takes the existing object over (reported as `create (adopt)`); default: `adopt: true`. */
    private readonly adopts: (type: string, inputs: PropertyMap) => boolean = (_type, inputs) => adopting(inputs),
    /** The platform id of the object a create that adopts would take over: the create reads as `create (adopt)` only when it exists. */
    private readonly takeoverId?: (type: string, inputs: PropertyMap) => string | undefined,
  ) {}

  get failure(): Error | undefined {
    return this.errors[0];
  }

  /** Every failure after the first, for the record. */
  get laterFailures(): readonly Error[] {
    return this.errors.slice(1);
  }

  /** Handles one registration; rejects with CancelledError once the run has failed or ended. */
  register(reg: Registration): Promise<Answer> {
    if (this.closed || this.errors.length > 0) return Promise.reject(new CancelledError(`${reg.type} "${reg.name}"`));
    const urn = resourceUrn(this.ctx, reg.type, reg.name, reg.parent);
    if (this.registered.has(urn)) {
      return this.track(
        Promise.reject(new EngineError({ urn, type: reg.type, name: reg.name }, "register", `duplicate resource URN ${urn}: two resources of the same type have the same name`)),
      );
    }
    this.registered.add(urn);
    this.ctx.redactor.learn(reg.inputs);
    if (reg.type === ROOT_STACK_TYPE) return Promise.resolve({ urn, id: "", outputs: {} });
    if (!reg.custom) return this.track(this.component(urn, reg));
    // Known from the registration on, so that a later `replaceWith` or `deletedWith` naming it waits for its plan.
    this.decision(urn);
    return this.track(this.ctx.semaphore.run(() => (this.errors.length > 0 ? Promise.reject(new CancelledError(`"${reg.name}"`)) : this.custom(urn, reg))));
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
    const entries = this.ctx.state.all().filter((e) => e.delete || (!this.registered.has(e.urn) && !this.aliased.has(e.urn)));
    try {
      await deleteResources(this.ctx, { entries, preview: this.preview, hooks: this.hooks }, (op, entry) => {
        if (!(entry.delete && this.replaced.has(`${entry.urn}#${entry.id}`)))
          this.operations.push(op.oldInputs || !entry.custom ? op : { ...op, oldInputs: reportedInputs(entry.inputs) });
      });
    } catch (e) {
      this.fail(e as Error);
    }
  }

  private track<T>(p: Promise<T>): Promise<T> {
    const tracked = p.catch((e: Error) => {
      if (!(e instanceof CancelledError)) this.fail(e);
      throw e;
    });
    this.running.add(tracked);
    const forget = () => this.running.delete(tracked);
    tracked.then(forget, forget);
    return tracked;
  }

  /** Fails the run with a refusal that is no registration's (a hook's registration): the program goes on, the run stops. */
  refuse(e: Error): void {
    this.fail(e);
  }

  private fail(e: Error): void {
    this.errors.push(e);
    if (this.errors.length === 1) this.signalFailure();
  }

  private report(ref: ResourceRef, op: OperationKind, detail: ReportDetail = {}): void {
    const entry: OperationReport = { ...ref, op };
    if (detail.diffs?.length) entry.diffs = detail.diffs;
    if (detail.replaces?.length) entry.replaces = detail.replaces;
    if (detail.adopt) entry.adopt = true;
    if (detail.olds) entry.oldInputs = reportedInputs(detail.olds);
    if (detail.news) entry.newInputs = reportedInputs(detail.news);
    this.operations.push(entry);
  }

  /**
   * The state of the resource under the first of its aliases that the state holds and no other
   * registration claimed, as the engine takes it over: the entry moves to the new URN (in a preview,
   * only the plan sees it there) and what depended on the former URN depends on the new one.
   */
  private aliasedEntry(urn: string, reg: Registration): ResourceState | undefined {
    for (const former of this.aliasUrns(reg)) {
      if (former === urn || this.registered.has(former) || this.aliased.has(former)) continue;
      const entry = this.ctx.state.get(former);
      if (!entry || entry.external) continue;
      this.aliased.add(former);
      this.formerUrns.set(urn, former);
      const moved: ResourceState = { ...entry, urn, name: reg.name, type: reg.type };
      if (reg.parent) moved.parent = reg.parent;
      else delete moved.parent;
      if (!this.preview) {
        this.ctx.state.replace(entry, moved);
        const renamed = (u: string) => (u === former ? urn : u);
        for (const e of this.ctx.state.all()) {
          if (e === moved) continue;
          const deps = e.dependencies.map(renamed);
          const changed =
            deps.some((d, i) => d !== e.dependencies[i]) ||
            e.parent === former ||
            e.deletedWith === former ||
            Object.values(e.propertyDependencies ?? {}).some((urns) => urns.includes(former));
          if (!changed) continue;
          const next: ResourceState = { ...e, dependencies: deps };
          if (e.propertyDependencies) next.propertyDependencies = Object.fromEntries(Object.entries(e.propertyDependencies).map(([k, urns]) => [k, urns.map(renamed)]));
          if (e.parent === former) next.parent = urn;
          if (e.deletedWith === former) next.deletedWith = urn;
          this.ctx.state.replace(e, next);
        }
      }
      return moved;
    }
    return undefined;
  }

  /**
   * The former URNs a registration may have had, in the engine's order (generateAliases): its own
   * aliases, then, when its parent took over a former URN, the aliases it inherits from that (the
   * parent's former URN as its parent, and a name that began with the parent's name beginning with
   * the former one's instead), for itself and for each of its own aliases.
   */
  private aliasUrns(reg: Registration): string[] {
    const scope = (a: AliasSpec) => ({ project: a.project ?? this.ctx.project, stack: a.stack ?? this.ctx.stack });
    const own = (reg.aliases ?? []).map((a) => {
      if (a.urn) return a.urn;
      // A parent named in the alias that itself took over a former URN stands for that one.
      const parent = a.noParent ? undefined : a.parentUrn ? (this.formerUrns.get(a.parentUrn) ?? a.parentUrn) : reg.parent;
      return resourceUrn(scope(a), a.type ?? reg.type, a.name ?? reg.name, parent);
    });
    const parentFormer = reg.parent ? this.formerUrns.get(reg.parent) : undefined;
    if (!reg.parent || !parentFormer) return own;
    const parentName = urnName(reg.parent);
    const inherited = (type: string, name: string) =>
      resourceUrn(this.ctx, type, name.startsWith(parentName) ? urnName(parentFormer) + name.slice(parentName.length) : name, parentFormer);
    return [...new Set([...own, inherited(reg.type, reg.name), ...own.map((u) => inherited(urnType(u), urnName(u)))])];
  }

  /** A component: created when new (its create hooks run around it, as the engine's create step runs them), else the same. */
  private async component(urn: string, reg: Registration): Promise<Answer> {
    const old = this.ctx.state.get(urn) ?? this.aliasedEntry(urn, reg);
    const ref = { urn, type: reg.type, name: reg.name };
    const args = { id: "", newInputs: reg.inputs };
    if (!old) await runHooks(this.hooks, this.preview, ref, reg.hooks, "beforeCreate", args);
    this.report(ref, old ? "same" : "create");
    if (!this.preview) this.ctx.state.put({ ...this.entry(urn, reg, reg.inputs, old?.outputs ?? {}), custom: false, id: undefined });
    if (!old) await runHooks(this.hooks, this.preview, ref, reg.hooks, "afterCreate", { ...args, newOutputs: {} });
    return { urn, id: "", outputs: reg.inputs };
  }

  private async custom(urn: string, reg: Registration): Promise<Answer> {
    const decision = this.decision(urn);
    try {
      return await this.customResource(urn, reg, decision);
    } finally {
      decision.resolve(false);
    }
  }

  private decision(urn: string): Deferred<boolean> {
    let d = this.decisions.get(urn);
    if (!d) this.decisions.set(urn, (d = deferred<boolean>()));
    return d;
  }

  private async customResource(urn: string, reg: Registration, decision: Deferred<boolean>): Promise<Answer> {
    const ref = { urn, type: reg.type, name: reg.name };
    if (reg.readId !== undefined) return this.readExternal(ref, reg);
    const existing = this.ctx.state.get(urn) ?? this.aliasedEntry(urn, reg);
    const old = existing && !existing.external ? existing : undefined;
    const news = applyIgnoreChanges(reg.inputs, old?.inputs, reg.ignoreChanges);
    const inputs = await this.check(ref, old?.inputs ?? {}, news);
    this.stopIfFailed(ref);
    const dependentKeys = this.dependentReplaced.get(urn);
    if (dependentKeys) return this.recreateDependent(ref, reg, inputs, dependentKeys, old);
    if (!old) return reg.importId ? this.refuseImport(ref) : this.create(ref, reg, inputs);

    const plan = await this.plan(ref, reg, old, inputs);
    decision.resolve(plan.op === "replace");
    this.stopIfFailed(ref);
    if (plan.op === "same") {
      this.report(ref, "same");
      // Outputs the program now asks to keep secret (`additionalSecretOutputs` added later) become secret without an update.
      const outputs = markStepSecrets(old.outputs, inputs, reg.additionalSecretOutputs);
      if (!this.preview) this.ctx.state.put(this.entry(urn, reg, inputs, outputs, old.id));
      return { urn, id: old.id ?? "", outputs };
    }
    if (plan.op === "update") return this.update(ref, reg, old, inputs, plan.diffs);
    // As the engine does before a replacement: check again without the old inputs, so that values the
    // provider derives from them (generated names) are generated afresh for the new object. It checks
    // the program's inputs, not those `ignoreChanges` kept: the new object gets what the program says.
    return this.replace(ref, reg, old, await this.check(ref, {}, reg.inputs), plan);
  }

  /**
   * As the engine's step executor: once a step has failed, no new step starts, even one whose
   * resource depends only on finished ones (its Check or Diff may have been under way when the
   * failure came). The registration is refused as one that arrived after the failure.
   */
  private stopIfFailed(ref: ResourceRef): void {
    if (this.errors.length > 0) throw new CancelledError(`${ref.type} "${ref.name}"`);
  }

  /** Check, with the answer's properties re-marked secret where the program's were. */
  private async check(ref: ResourceRef, olds: PropertyMap, news: PropertyMap): Promise<PropertyMap> {
    const checked = await providerStep(this.ctx, ref, "check", () => this.ctx.client.check(ref, forProviderMap(olds), forProviderMap(news)));
    if (checked.failures.length > 0) {
      throw new EngineError(ref, "check", this.ctx.redactor.mask(checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")));
    }
    return this.ctx.redactor.protect(annotateSecrets(checked.inputs, news));
  }

  /**
   * The engine's step decision (step_generator.go): a changed `replacementTrigger` replaces without
   * asking the provider; a resource named in `replaceWith`, or the `deletedWith` target, being
   * replaced replaces this one; otherwise the provider's Diff decides, with `replaceOnChanges`
   * applied to the keys the provider names as changed. The Node dynamic-provider host names none, so
   * there `replaceOnChanges` has no effect, as under `pulumi up`; only a provider without an opinion
   * (no diff method) gets the engine's own comparison of inputs, whose keys it does apply to.
   */
  private async plan(ref: ResourceRef, reg: Registration, old: ResourceState, inputs: PropertyMap): Promise<Plan> {
    const inputDiffs = changedKeys(old.inputs, inputs, { provider: true });
    const dbr = (d?: boolean) => reg.deleteBeforeReplace ?? d ?? false;
    if (triggerChanged(old.replacementTrigger, reg.replacementTrigger)) return { op: "replace", diffs: inputDiffs, replaces: [], deleteBeforeReplace: dbr() };
    for (const [key, urns] of [
      ["replaceWith", reg.replaceWith ?? []],
      ["deletedWith", reg.deletedWith ? [reg.deletedWith] : []],
    ] as const) {
      for (const urn of urns) if (await this.decisions.get(urn)?.promise) return { op: "replace", diffs: inputDiffs, replaces: [key], deleteBeforeReplace: dbr() };
    }
    const diff = await providerStep(this.ctx, ref, "diff", () =>
      this.ctx.client.diff(ref, old.id ?? "", forProviderMap(old.inputs), forProviderMap(old.outputs), forProviderMap(inputs), reg.ignoreChanges),
    );
    const changes = diff.changes === "unknown" ? inputDiffs.length > 0 : diff.changes === "some";
    if (!changes) return { op: "same" };
    const changed = diff.changes === "unknown" ? inputDiffs : diff.diffs;
    const diffs = changed.length > 0 ? changed : inputDiffs;
    const replaces = [...new Set([...diff.replaces, ...changed.filter((k) => matchesAnyPath(k, reg.replaceOnChanges))])];
    if (replaces.length === 0) return { op: "update", diffs };
    return { op: "replace", diffs, replaces, deleteBeforeReplace: dbr(diff.deleteBeforeReplace) };
  }

  private async create(ref: ResourceRef, reg: Registration, inputs: PropertyMap): Promise<Answer> {
    if (this.preview && this.adoptionId) {
      const planned = await this.planAdoption(ref, reg, inputs);
      if (planned) return planned;
    }
    const detail = { news: inputs, adopt: this.adopts(reg.type, inputs) && (await this.exists(ref, reg.type, inputs)) };
    this.stopIfFailed(ref);
    if (this.preview) {
      await runHooks(this.hooks, true, ref, reg.hooks, "beforeCreate", { id: "", newInputs: inputs });
      await runHooks(this.hooks, true, ref, reg.hooks, "afterCreate", { id: "", newInputs: inputs, newOutputs: inputs });
      this.report(ref, "create", detail);
      return { urn: ref.urn, id: "", outputs: inputs };
    }
    const created = await this.createObject(ref, reg, inputs);
    this.report(ref, "create", detail);
    return created;
  }

  /**
   * Whether the object a create that adopts would take over exists (a Read by its id): only then does
   * the create take anything over. Unknown (no id, or one not known until the run applies) is no.
   */
  private async exists(ref: ResourceRef, type: string, inputs: PropertyMap): Promise<boolean> {
    const id = this.takeoverId?.(type, inputs);
    if (!id) return false;
    const declared = forProviderMap(inputs);
    const read = await providerStep(this.ctx, ref, "read", () => this.ctx.client.read(ref, id, declared, declared));
    return Boolean(read.id);
  }

  /**
   * Adoption plan: reads the object the create would take over (with the declared inputs as the old
   * ones, as a refresh does) and plans the declared inputs against what the platform states.
   * Undefined when there is no such object: adopting creates it.
   */
  private async planAdoption(ref: ResourceRef, reg: Registration, inputs: PropertyMap): Promise<Answer | undefined> {
    const id = this.adoptionId?.(reg.type, inputs);
    if (!id) return undefined;
    const declared = forProviderMap(inputs);
    const read = await providerStep(this.ctx, ref, "read", () => this.ctx.client.read(ref, id, declared, declared));
    if (!read.id) return undefined;
    const platform = this.ctx.redactor.protect(annotateSecrets(read.inputs ?? read.properties, inputs));
    const outputs = this.ctx.redactor.protect(annotateSecrets(read.properties, inputs, reg.additionalSecretOutputs));
    const plan = await this.plan(ref, reg, { urn: ref.urn, type: reg.type, name: reg.name, custom: true, id: read.id, inputs: platform, outputs, dependencies: [] }, inputs);
    const adopt = this.adopts(reg.type, inputs);
    // The report's old values: the platform's, as far as the program declares them (adopting leaves the rest as it is).
    const olds = declaredPart(platform, inputs) as PropertyMap;
    const detail = { diffs: plan.op === "same" ? [] : plan.diffs, replaces: plan.op === "replace" ? plan.replaces : [], olds, news: inputs, adopt };
    this.report(ref, plan.op, plan.op === "same" ? { adopt } : detail);
    return { urn: ref.urn, id: read.id, outputs: plan.op === "same" ? outputs : inputs };
  }

  /** Creates the object and records it; an object that failed to initialize is recorded too, then the error stands. */
  private async createObject(ref: ResourceRef, reg: Registration, inputs: PropertyMap): Promise<Answer> {
    await runHooks(this.hooks, false, ref, reg.hooks, "beforeCreate", { id: "", newInputs: inputs });
    const res = await withErrorHooks(this.hooks, ref, reg.hooks, "create", { id: "", newInputs: inputs }, () =>
      providerStep(this.ctx, ref, "create", async () => {
        // Pending until the provider answers: a run killed meanwhile leaves it in the state.
        const done = this.ctx.state.begin({ urn: ref.urn, type: reg.type, op: "creating" });
        try {
          return await this.ctx.client.create(ref, forProviderMap(inputs), false);
        } catch (e) {
          if (e instanceof ProviderError && e.initFailure?.id) this.record(ref.urn, reg, inputs, e.initFailure.properties, e.initFailure.id);
          throw e;
        } finally {
          done();
        }
      }),
    );
    const outputs = this.record(ref.urn, reg, inputs, res.properties, res.id);
    await runHooks(this.hooks, false, ref, reg.hooks, "afterCreate", { id: res.id, newInputs: inputs, newOutputs: outputs });
    return { urn: ref.urn, id: res.id, outputs };
  }

  /** Stores a created or adopted object, with its outputs marked secret where the engine would. */
  private record(urn: string, reg: Registration, inputs: PropertyMap, properties: PropertyMap, id: string): PropertyMap {
    const outputs = this.ctx.redactor.protect(annotateSecrets(properties, inputs, reg.additionalSecretOutputs));
    this.ctx.redactor.learn(outputs);
    const entry = this.entry(urn, reg, inputs, outputs, id);
    this.ctx.state.put(entry);
    this.ctx.ledger.set(`${urn}#${id}`, entry);
    return outputs;
  }

  private async update(ref: ResourceRef, reg: Registration, old: ResourceState, inputs: PropertyMap, diffs: string[]): Promise<Answer> {
    const args = { id: old.id ?? "", newInputs: inputs, oldInputs: old.inputs, oldOutputs: old.outputs };
    await runHooks(this.hooks, this.preview, ref, reg.hooks, "beforeUpdate", args);
    if (this.preview) {
      await runHooks(this.hooks, true, ref, reg.hooks, "afterUpdate", { ...args, newOutputs: inputs });
      this.report(ref, "update", { diffs, olds: old.inputs, news: inputs });
      return { urn: ref.urn, id: old.id ?? "", outputs: inputs };
    }
    const properties = await withErrorHooks(this.hooks, ref, reg.hooks, "update", args, () =>
      providerStep(this.ctx, ref, "update", () =>
        this.ctx.client.update(ref, old.id ?? "", forProviderMap(old.inputs), forProviderMap(old.outputs), forProviderMap(inputs), reg.ignoreChanges, false),
      ),
    );
    const outputs = this.record(ref.urn, reg, inputs, properties, old.id ?? "");
    await runHooks(this.hooks, false, ref, reg.hooks, "afterUpdate", { ...args, newOutputs: outputs });
    this.report(ref, "update", { diffs, olds: old.inputs, news: inputs });
    return { urn: ref.urn, id: old.id ?? "", outputs };
  }

  private async replace(ref: ResourceRef, reg: Registration, old: ResourceState, inputs: PropertyMap, plan: Extract<Plan, { op: "replace" }>): Promise<Answer> {
    // Unprotecting and replacing in one run is allowed: only a resource protected before and after is refused.
    if (old.protect && reg.protect) {
      throw new EngineError(
        ref,
        "replace",
        `unable to replace resource "${ref.urn}"\nas it is currently marked for protection. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\``,
      );
    }
    const detail = { diffs: plan.diffs, replaces: plan.replaces, olds: old.inputs, news: inputs };
    const dependents = plan.deleteBeforeReplace ? await this.dependentReplacements(old) : [];
    const guarded = dependents.find((d) => d.entry.protect);
    if (guarded) {
      throw new EngineError(
        ref,
        "replace",
        `unable to replace resource "${guarded.entry.urn}" as part of replacing "${ref.urn}" as it is currently marked for protection. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\`, or use the command:\n\`pulumi state unprotect '${guarded.entry.urn}'\``,
      );
    }
    for (const d of dependents) this.dependentReplaced.set(d.entry.urn, d.keys);
    if (this.preview) {
      this.report(ref, "replace", detail);
      return { urn: ref.urn, id: "", outputs: inputs };
    }
    if (plan.deleteBeforeReplace) {
      // What depends on the old object and would be replaced by its replacement goes first, dependents first.
      // The engine's DeleteStep leaves a `retainOnDelete` object on the platform, here too.
      for (const d of [...dependents].reverse()) await this.deleteReplaced(d.entry);
      await this.deleteReplaced(old);
      const created = await this.createObject(ref, reg, inputs);
      this.report(ref, "replace", detail);
      return created;
    }
    // Create-then-delete: the old object waits, marked for deletion, until the end of the run.
    // A program that drops `protect` in the same run as the replacement lets the old object go (as the engine does).
    this.ctx.state.retire(old, reg.protect ? {} : { protect: undefined });
    this.replaced.add(`${old.urn}#${old.id}`);
    const created = await this.createObject(ref, reg, inputs).catch((e: Error) => {
      // Nothing replaced the old object (unless the new one exists but failed to initialize): it stays.
      if (!this.ctx.state.get(ref.urn)) this.ctx.state.reinstate(old);
      throw e;
    });
    this.report(ref, "replace", detail);
    return created;
  }

  /** Deletes the old object of a delete-before-replace (unless it is retained) and forgets it. */
  private async deleteReplaced(old: ResourceState): Promise<void> {
    const ref = { urn: old.urn, type: old.type, name: old.name };
    const args = { id: old.id ?? "", oldInputs: old.inputs, oldOutputs: old.outputs };
    await runHooks(this.hooks, false, ref, old.hooks, "beforeDelete", args);
    if (!old.retainOnDelete) await deleteObject(this.ctx, this.hooks, old);
    this.ctx.state.remove(old);
    await runHooks(this.hooks, false, ref, old.hooks, "afterDelete", args);
  }

  /**
   * The engine's dependent replacements (`calculateDependentReplacements`): before a resource is
   * replaced delete-first, each resource that depends on it through an input, directly or through
   * another such resource, is asked (Diff with those inputs unknown) whether the new object would
   * replace it; those that would are deleted before it and created again when they register.
   * Returned in dependency order.
   */
  private async dependentReplacements(root: ResourceState): Promise<Array<{ entry: ResourceState; keys: string[] }>> {
    const replacing = new Set([root.urn]);
    const out: Array<{ entry: ResourceState; keys: string[] }> = [];
    for (const e of dependencyOrder(this.ctx.state.all())) {
      if (!e.custom || e.external || e.delete || e.urn === root.urn || this.registered.has(e.urn) || this.dependentReplaced.has(e.urn)) continue;
      const unknown = Object.entries(e.propertyDependencies ?? {})
        .filter(([, urns]) => urns.some((u) => replacing.has(u)))
        .map(([k]) => k);
      if (unknown.length === 0) continue;
      const news: PropertyMap = { ...e.inputs };
      for (const k of unknown) news[k] = UNKNOWN;
      const ref = { urn: e.urn, type: e.type, name: e.name };
      const diff = await providerStep(this.ctx, ref, "diff", () =>
        this.ctx.client.diff(ref, e.id ?? "", forProviderMap(e.inputs), forProviderMap(e.outputs), forProviderMap(news), []),
      );
      if (diff.replaces.length === 0) continue;
      replacing.add(e.urn);
      out.push({ entry: e, keys: diff.replaces });
    }
    return out;
  }

  /** A resource deleted for a dependent replacement registers again: it is created anew (reported as replaced). */
  private async recreateDependent(ref: ResourceRef, reg: Registration, inputs: PropertyMap, keys: string[], old: ResourceState | undefined): Promise<Answer> {
    const detail = { diffs: keys, replaces: keys, olds: old?.inputs, news: inputs };
    if (this.preview) {
      // Until the run applies, the inputs that come from the replaced resource are not known.
      this.report(ref, "replace", { ...detail, news: { ...inputs, ...Object.fromEntries(keys.map((k) => [k, UNKNOWN])) } });
      return { urn: ref.urn, id: "", outputs: inputs };
    }
    const created = await this.createObject(ref, reg, inputs);
    this.report(ref, "replace", detail);
    return created;
  }

  /**
   * The `import` option. The engine imports with a Read that carries neither inputs nor state, so the
   * Node dynamic-provider host, which finds the provider in them, fails with the words below
   * (pulumi/pulumi#3550, #16175): a dynamic resource cannot be imported by the engine, and the kit
   * refuses it the same way, before touching anything.
   */
  private refuseImport(ref: ResourceRef): Promise<Answer> {
    return Promise.reject(
      new EngineError(
        ref,
        "import",
        "code must be a string, not undefined (the engine imports with a Read that carries no inputs, and the dynamic-provider host needs the serialized provider among them: dynamic resources cannot be imported with the `import` option; pulumi-svc kinds take an existing object over with `adopt: true`)",
      ),
    );
  }

  /** `get`: read an object the stack does not manage. */
  private async readExternal(ref: ResourceRef, reg: Registration): Promise<Answer> {
    const props = forProviderMap(reg.inputs);
    const read = await providerStep(this.ctx, ref, "read", () => this.ctx.client.read(ref, reg.readId ?? "", props, props));
    if (!read.id) throw new EngineError(ref, "read", `there is no object with id "${reg.readId}"`);
    const outputs = annotateSecrets(read.properties, reg.inputs, reg.additionalSecretOutputs);
    this.ctx.redactor.learn(outputs);
    if (!this.preview) this.ctx.state.put({ ...this.entry(ref.urn, reg, reg.inputs, outputs, read.id), external: true });
    this.report(ref, "read");
    return { urn: ref.urn, id: read.id, outputs };
  }

  private entry(urn: string, reg: Registration, inputs: PropertyMap, outputs: PropertyMap, id?: string): ResourceState {
    const e: ResourceState = { urn, type: reg.type, name: reg.name, custom: reg.custom, id, inputs, outputs, dependencies: reg.dependencies };
    if (reg.parent) e.parent = reg.parent;
    if (reg.protect) e.protect = true;
    if (reg.retainOnDelete) e.retainOnDelete = true;
    if (reg.deletedWith) e.deletedWith = reg.deletedWith;
    if (reg.replacementTrigger !== undefined && reg.replacementTrigger !== null) e.replacementTrigger = reg.replacementTrigger;
    if (reg.replaceWith?.length) e.replaceWith = reg.replaceWith;
    if (reg.hooks) e.hooks = reg.hooks;
    if (reg.additionalSecretOutputs.length) e.additionalSecretOutputs = reg.additionalSecretOutputs;
    const propertyDependencies = Object.entries(reg.propertyDependencies ?? {}).filter(([, urns]) => urns.length > 0);
    if (propertyDependencies.length) e.propertyDependencies = Object.fromEntries(propertyDependencies);
    return e;
  }
}

/**
 * `ignoreChanges`, as the engine's processIgnoreChanges applies it: each property path
 * (`runtime.configuration`, `tags["a.b"]`, `items[0].name`, `*` for any key or element) keeps the old
 * inputs' value there, or stays absent where the old inputs have none.
 */
function applyIgnoreChanges(news: PropertyMap, olds: PropertyMap | undefined, ignore: readonly string[]): PropertyMap {
  if (!olds || ignore.length === 0) return news;
  if (ignore.includes("*")) return { ...olds };
  let out: PropertyValue = news;
  for (const path of ignore) out = resetPath(out, olds, parsePath(path));
  return out as PropertyMap;
}

/** `dest` with the value at `path` taken from `source` (removed where `source` has none); secrets stay secret. */
function resetPath(dest: PropertyValue, source: PropertyValue | undefined, path: ReadonlyArray<string | number>): PropertyValue {
  if (path.length === 0) return source === undefined ? dest : source;
  if (isSecret(dest)) return secret(resetPath(unwrapSecret(dest), source === undefined ? undefined : unwrapSecret(source), path));
  const [head, ...rest] = path;
  const src = source === undefined ? undefined : unwrapSecret(source);
  if (Array.isArray(dest)) {
    const indexes = head === "*" ? dest.map((_, i) => i) : typeof head === "number" ? [head] : [];
    const copy = [...dest];
    for (const i of indexes) {
      if (i >= copy.length) continue;
      const from = Array.isArray(src) ? src[i] : undefined;
      if (rest.length === 0 && from === undefined) continue; // an element cannot be removed from the middle
      copy[i] = resetPath(copy[i], from, rest);
    }
    return copy;
  }
  if (!isObject(dest)) return dest;
  const keys = head === "*" ? Object.keys(dest) : [String(head)];
  const copy: PropertyMap = { ...(dest as PropertyMap) };
  for (const k of keys) {
    const from = isObject(src) ? src[k] : undefined;
    if (rest.length === 0) {
      if (from === undefined) delete copy[k];
      else copy[k] = from;
    } else if (k in copy) copy[k] = resetPath(copy[k], from, rest);
    else if (from !== undefined) copy[k] = from;
  }
  return copy;
}

/** A property path's segments: `a.b[0]["c.d"]` → ["a", "b", 0, "c.d"]. */
function parsePath(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  const re = /\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[(\d+|\*)\]|([^.[\]]+)/g;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    if (m[1] !== undefined) out.push(JSON.parse(`"${m[1]}"`) as string);
    else if (m[2] !== undefined) out.push(m[2] === "*" ? "*" : Number(m[2]));
    else out.push(m[3]);
  }
  return out;
}

/** The parts of `platform` that `declared` states: objects cut to the declared keys, at any depth. */
function declaredPart(platform: PropertyValue, declared: PropertyValue): PropertyValue {
  const p = unwrapSecret(platform);
  const d = unwrapSecret(declared);
  let part: PropertyValue = p;
  if (isObject(p) && isObject(d)) {
    part = {};
    for (const k of Object.keys(d)) if (k in p) part[k] = declaredPart(p[k], d[k]);
  } else if (Array.isArray(p) && Array.isArray(d)) part = p.map((x, i) => (i < d.length ? declaredPart(x, d[i]) : x));
  return isSecret(platform) ? secret(part) : part;
}

/** Whether the inputs ask the provider to take over the existing object (`adopt: true`). */
const adopting = (inputs: PropertyMap): boolean => unwrapSecret(inputs.adopt ?? null) === true;

const topLevel = (path: string) => path.split(/[.[]/)[0];

function matchesAnyPath(key: string, paths: readonly string[]): boolean {
  return paths.some((p) => p === "*" || topLevel(p) === key);
}

/** The engine's shouldTriggerReplace: unknowns always count as a change; a null on either side is no trigger. */
function triggerChanged(old: PropertyValue | undefined, now: PropertyValue | undefined): boolean {
  if (containsUnknown(old) || containsUnknown(now)) return true;
  if (old === undefined || old === null || now === undefined || now === null) return false;
  return !deepEqual(reveal(old), reveal(now));
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
