/**
 * What the steps of one `up` or `preview` share (`Run`), each piece of the run's memory behind its
 * own small class: the operations reported (`OperationLog`), the failures (`Failures`), and what the
 * run decided about replacements (`Replacements`).
 */
import { CancelledError, type EngineContext } from "./context";
import type { ResourceRef } from "./grpc";
import type { HookRegistry } from "./hooks";
import { reportedInputs, type OperationKind, type OperationReport } from "./report";
import type { ResourceState } from "./state";
import type { PropertyMap } from "./values";

/** The rules of the provider's kinds for creates that take an existing object over (the kit's takeover.ts gives them). */
export interface TakeoverRules {
  /**
   * For an adoption plan (a preview): the platform id of the object a create would take over (with
   * `adopt: true`, say), from its type and inputs; such a create is planned against the object as read.
   */
  adoptionId?: (type: string, inputs: PropertyMap) => string | undefined;
  /** Whether a create takes the existing object over (reported as `create (adopt)`). */
  adopts: (type: string, inputs: PropertyMap) => boolean;
  /** The platform id of the object a create that adopts would take over: the create reads as `create (adopt)` only when it exists. */
  takeoverId?: (type: string, inputs: PropertyMap) => string | undefined;
}

export interface Run {
  readonly ctx: EngineContext;
  readonly preview: boolean;
  /** The resource hooks the program registered in this run. */
  readonly hooks: HookRegistry;
  readonly log: OperationLog;
  readonly failures: Failures;
  readonly replacements: Replacements;
  readonly takeovers: TakeoverRules;
  /** The URNs the program registered so far. */
  readonly registered: ReadonlySet<string>;
}

export interface ReportDetail {
  diffs?: string[];
  replaces?: string[];
  adopt?: boolean;
  olds?: PropertyMap;
  news?: PropertyMap;
}

/** The operations of the run, in the order they ended. */
export class OperationLog {
  readonly operations: OperationReport[] = [];

  report(ref: ResourceRef, op: OperationKind, detail: ReportDetail = {}): void {
    const entry: OperationReport = { ...ref, op };
    if (detail.diffs?.length) entry.diffs = detail.diffs;
    if (detail.replaces?.length) entry.replaces = detail.replaces;
    if (detail.adopt) entry.adopt = true;
    if (detail.olds) entry.oldInputs = reportedInputs(detail.olds);
    if (detail.news) entry.newInputs = reportedInputs(detail.news);
    this.operations.push(entry);
  }

  /** Adds an operation reported elsewhere (a delete). */
  push(op: OperationReport): void {
    this.operations.push(op);
  }
}

/** The run's failures: the first stops it (`failed` resolves); the later ones are kept for the record. */
export class Failures {
  private readonly errors: Error[] = [];
  private signal!: () => void;
  /** Resolves when the first operation fails. */
  readonly failed = new Promise<void>((resolve) => (this.signal = resolve));

  get first(): Error | undefined {
    return this.errors[0];
  }

  get later(): readonly Error[] {
    return this.errors.slice(1);
  }

  get any(): boolean {
    return this.errors.length > 0;
  }

  add(e: Error): void {
    this.errors.push(e);
    if (this.errors.length === 1) this.signal();
  }

  /**
   * As the engine's step executor: once a step has failed, no new step starts, even one whose
   * resource depends only on finished ones (its Check or Diff may have been under way when the
   * failure came). The registration is refused as one that arrived after the failure.
   */
  stopIfFailed(ref: ResourceRef): void {
    if (this.any) throw new CancelledError(`${ref.type} "${ref.name}"`);
  }
}

/** What the run decided about replacements, which later steps ask. */
export class Replacements {
  /** For each resource planned: whether it is replaced, known once its plan is (`replaceWith` and `deletedWith` wait for it). */
  private readonly decisions = new Map<string, Deferred<boolean>>();
  /** Resources deleted (or, in a preview, to be deleted) because one they depend on is replaced delete-first, with the keys that replace them. */
  private readonly dependents = new Map<string, string[]>();
  /** Old objects retired by create-then-delete replacements: their deletion belongs to the "replace" already reported. */
  private readonly retired = new Set<string>();

  /** Makes the decision about `urn` awaitable from its registration on (it may be asked before its plan). */
  expect(urn: string): void {
    this.decision(urn);
  }

  decide(urn: string, replaced: boolean): void {
    this.decision(urn).resolve(replaced);
  }

  /** Whether `urn` is replaced in this run; undefined for a URN this run does not plan. */
  isReplaced(urn: string): Promise<boolean> | undefined {
    return this.decisions.get(urn)?.promise;
  }

  markDependent(urn: string, keys: string[]): void {
    this.dependents.set(urn, keys);
  }

  /** The keys that replace a resource deleted for a dependent replacement, or undefined. */
  dependentKeys(urn: string): string[] | undefined {
    return this.dependents.get(urn);
  }

  retire(old: ResourceState): void {
    this.retired.add(objectKey(old));
  }

  wasRetired(entry: ResourceState): boolean {
    return this.retired.has(objectKey(entry));
  }

  private decision(urn: string): Deferred<boolean> {
    let d = this.decisions.get(urn);
    if (!d) this.decisions.set(urn, (d = deferred<boolean>()));
    return d;
  }
}

/** One object of the state: its URN and its id (a replacement's old and new objects share the URN). */
const objectKey = (e: ResourceState) => `${e.urn}#${e.id}`;

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
