/**
 * The stack's state: one entry per resource (URN, type, name, id, inputs, outputs, dependencies, the
 * serialized `__provider` kept inside inputs and outputs as Pulumi's checkpoint keeps it), the stack
 * outputs, and the salt of the secrets key. In memory secrets are live markings; on disk (and in
 * `TestStack.state`) they are encrypted. The file is rewritten after every operation, atomically, so a
 * run that fails half-way leaves the state of what succeeded: written whole to a temporary file,
 * flushed to the disk, then renamed over the state (a killed run, or a crash of the machine, leaves the
 * old state or the new one, never an empty or partial file). A create under way is recorded as a
 * pending operation until it ends, as Pulumi's checkpoint records it, so a killed run's creates can be
 * listed (and cleared) by the next one.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SvcError } from "../../errors";
import { SecretsCipher } from "./secrets";
import type { PropertyMap, PropertyValue } from "./values";

/** When a resource hook runs (the hooks themselves are in hooks.ts). */
export const HOOK_TYPES = ["beforeCreate", "afterCreate", "beforeUpdate", "afterUpdate", "beforeDelete", "afterDelete"] as const;
export type HookType = (typeof HOOK_TYPES)[number];

/** The hooks a resource names, by when they run; `onError` names its error hooks. Kept in its state. */
export type HookBinding = Partial<Record<HookType | "onError", string[]>>;

export const STATE_VERSION = 1;

export interface ResourceState {
  urn: string;
  type: string;
  name: string;
  /** False for components (no provider, no id). */
  custom: boolean;
  id?: string;
  parent?: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
  /** URNs this resource depends on (explicit and through its inputs). */
  dependencies: string[];
  /** For each input, the URNs its value came from (what a delete-before-replace of one of them may replace). */
  propertyDependencies?: Record<string, string[]>;
  /** Read with `get`: not managed by the stack, never deleted, only forgotten. */
  external?: boolean;
  /** An object replaced by a newer one (create-before-delete), waiting for its deletion. */
  delete?: boolean;
  protect?: boolean;
  retainOnDelete?: boolean;
  deletedWith?: string;
  additionalSecretOutputs?: string[];
  /** The `replacementTrigger` option's last value. */
  replacementTrigger?: PropertyValue;
  /** The `replaceWith` option: URNs whose replacement replaces this resource. */
  replaceWith?: string[];
  /** The `hooks` option: the names of the hooks its steps run (its delete's, once the program no longer declares it). */
  hooks?: HookBinding;
}

/** An operation under way: recorded before the provider is called, removed once it answered. */
export interface PendingOperation {
  urn: string;
  type: string;
  op: "creating";
}

export interface StackState {
  version: number;
  project: string;
  stack: string;
  secrets: { salt: string };
  outputs: PropertyMap;
  resources: ResourceState[];
  /** Operations that were under way when the state was written (a killed run leaves its creates here). */
  pending?: PendingOperation[];
}

export class StateStore {
  private entries: ResourceState[] = [];
  private pendingOps: PendingOperation[] = [];
  outputs: PropertyMap = {};
  private cipher: SecretsCipher;
  /** The state as last rendered; undefined once a change made it stale (rendered again on demand). */
  private snapshot: StackState | undefined;
  /** Each entry's sealed form (secrets encrypted), made once: entries are replaced, never changed in place. */
  private sealed = new WeakMap<ResourceState, ResourceState>();

  private constructor(
    private readonly file: string | undefined,
    private readonly passphrase: string,
    readonly project: string,
    readonly stack: string,
  ) {
    this.cipher = new SecretsCipher(passphrase, SecretsCipher.newSalt());
  }

  /** Opens the state at `file` (created on first save) or an in-memory one. */
  static open(file: string | undefined, passphrase: string, project: string, stack: string): StateStore {
    const store = new StateStore(file, passphrase, project, stack);
    if (file && fs.existsSync(file)) store.load(JSON.parse(fs.readFileSync(file, "utf8")) as StackState, file);
    return store;
  }

  private load(saved: StackState, file: string): void {
    if (saved.version !== STATE_VERSION) throw new SvcError("SVC_KIT_STATE_UNREADABLE", `${file}: state version ${saved.version} is not supported (expected ${STATE_VERSION})`);
    if (saved.project !== this.project || saved.stack !== this.stack) {
      throw new SvcError("SVC_KIT_STATE_UNREADABLE", `${file} holds the state of ${saved.project}/${saved.stack}, not of ${this.project}/${this.stack}`);
    }
    this.cipher = new SecretsCipher(this.passphrase, saved.secrets.salt);
    this.sealed = new WeakMap();
    this.entries = saved.resources.map((r) => {
      const entry = { ...r, inputs: this.cipher.open(r.inputs), outputs: this.cipher.open(r.outputs) };
      this.sealed.set(entry, r);
      return entry;
    });
    this.outputs = this.cipher.open(saved.outputs);
    this.pendingOps = [...(saved.pending ?? [])];
    this.snapshot = saved;
  }

  /** Every entry, including objects waiting for deletion. */
  all(): readonly ResourceState[] {
    return this.entries;
  }

  /** The live (not pending deletion) entry for a URN. */
  get(urn: string): ResourceState | undefined {
    return this.entries.find((e) => e.urn === urn && !e.delete);
  }

  /** Adds or replaces the live entry for its URN. */
  put(entry: ResourceState): void {
    const i = this.entries.findIndex((e) => e.urn === entry.urn && !e.delete);
    if (i >= 0) this.entries[i] = entry;
    else this.entries.push(entry);
    this.save();
  }

  /** Keeps `entry` (the old object of a replacement) as pending deletion. */
  retire(entry: ResourceState, changes: Partial<ResourceState> = {}): void {
    const i = this.entries.indexOf(entry);
    const retired = { ...entry, ...changes, delete: true };
    if (i >= 0) this.entries[i] = retired;
    else this.entries.push(retired);
    this.save();
  }

  /** Undoes `retire` for the entry of that object (same URN and id). */
  reinstate(entry: ResourceState): void {
    const i = this.entries.findIndex((e) => e.delete && e.urn === entry.urn && e.id === entry.id);
    if (i < 0) return;
    const { delete: _retired, ...live } = this.entries[i];
    this.entries[i] = live;
    this.save();
  }

  /** Swaps an entry for its new version, in place. */
  replace(entry: ResourceState, next: ResourceState): void {
    const i = this.entries.indexOf(entry);
    if (i >= 0) this.entries[i] = next;
    else this.entries.push(next);
    this.save();
  }

  remove(entry: ResourceState): void {
    this.entries = this.entries.filter((e) => e !== entry);
    this.save();
  }

  /** Records an operation as under way (saved before it starts); the function returned ends it. */
  begin(op: PendingOperation): () => void {
    const entry = { ...op };
    this.pendingOps.push(entry);
    this.save();
    return () => {
      const i = this.pendingOps.indexOf(entry);
      if (i < 0) return;
      this.pendingOps.splice(i, 1);
      this.save();
    };
  }

  /** The operations under way, or left under way by a run that was killed. */
  pending(): readonly PendingOperation[] {
    return this.pendingOps;
  }

  /** Forgets the pending operations (those a killed run left); returns them. */
  clearPending(): PendingOperation[] {
    const cleared = this.pendingOps;
    this.pendingOps = [];
    if (cleared.length) this.save();
    return cleared;
  }

  setOutputs(outputs: PropertyMap): void {
    this.outputs = outputs;
    this.save();
  }

  /** The state as JSON (secrets encrypted), as the state file holds it. */
  get json(): StackState {
    this.snapshot ??= this.render();
    return this.snapshot;
  }

  private render(): StackState {
    return {
      version: STATE_VERSION,
      project: this.project,
      stack: this.stack,
      secrets: { salt: this.cipher.salt },
      outputs: this.cipher.seal(this.outputs),
      resources: dependencyOrder(this.entries).map((e) => this.sealedEntry(e)),
      ...(this.pendingOps.length ? { pending: this.pendingOps.map((p) => ({ ...p })) } : {}),
    };
  }

  private sealedEntry(e: ResourceState): ResourceState {
    let sealed = this.sealed.get(e);
    if (!sealed) {
      sealed = { ...e, inputs: this.cipher.seal(e.inputs), outputs: this.cipher.seal(e.outputs) };
      this.sealed.set(e, sealed);
    }
    return sealed;
  }

  /** Records a change; with a file, writes the state (synchronously, so concurrent operations never interleave a write). */
  save(): void {
    this.snapshot = undefined;
    if (!this.file) return;
    this.snapshot = this.render();
    writeAtomically(this.file, JSON.stringify(this.snapshot, null, 2));
  }
}

/**
 * Replaces `file` with `text`, whole or not at all: the text goes to a temporary file beside it, is
 * flushed to the disk (fsync), and the temporary file is renamed over `file`; then the folder is
 * flushed, so that the rename itself survives a crash. A writer killed at any moment leaves the old
 * content or the new one, and at worst a stray `FILE.<pid>.tmp`, which the next write replaces.
 */
export function writeAtomically(file: string, text: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, "w");
  try {
    const bytes = Buffer.from(text, "utf8");
    for (let at = 0; at < bytes.length;) at += fs.writeSync(fd, bytes, at, bytes.length - at);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  let dirFd: number | undefined;
  try {
    dirFd = fs.openSync(dir, "r");
    fs.fsyncSync(dirFd);
  } catch {
    // Some systems cannot open or flush a folder (Windows): the rename is as durable as they make it.
  } finally {
    if (dirFd !== undefined) fs.closeSync(dirFd);
  }
}

/** Orders entries so each follows its parent and dependencies (stable otherwise), as a checkpoint is ordered. */
export function dependencyOrder(entries: readonly ResourceState[]): ResourceState[] {
  const placed = new Set<ResourceState>();
  const out: ResourceState[] = [];
  const byUrn = new Map<string, ResourceState[]>();
  for (const e of entries) byUrn.set(e.urn, [...(byUrn.get(e.urn) ?? []), e]);
  const visiting = new Set<ResourceState>();
  const visit = (e: ResourceState) => {
    if (placed.has(e) || visiting.has(e)) return;
    visiting.add(e);
    for (const urn of prerequisites(e)) for (const d of byUrn.get(urn) ?? []) if (d !== e) visit(d);
    visiting.delete(e);
    placed.add(e);
    out.push(e);
  };
  entries.forEach(visit);
  return out;
}

/** URNs that must exist before `e` (and be deleted after it). */
export function prerequisites(e: ResourceState): string[] {
  return e.parent ? [e.parent, ...e.dependencies] : e.dependencies;
}
