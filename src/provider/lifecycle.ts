/**
 * Turns a kind declaration into the dynamic provider's operations. check and diff are pure (no API
 * calls), so a preview costs nothing; create, read, update and delete go through the client.
 */
import { SvcApiError } from "../client";
import { destroyEffectOf, wireArgs, wireNameOf, type Answer, type CheckFailure, type Kind, type KindContext, type WireRecord } from "./kind";
import { refuseUnknownArgs } from "./known-fields";
import { camel, containedIn, containsUnknown, convertKeys, deepEqual, describeIssue, reconcile, scrub } from "./values";
import { renderPath } from "../api/common";
import { endpoints } from "../api/endpoints";
import { isCreate } from "../client/retry";

type Props = Record<string, unknown>;

/** The user's args from the engine's props: internal keys (`__provider`) and unknown args removed. */
export function argsOf(kind: Kind, props: Props): Props {
  const out: Props = {};
  for (const name of Object.keys(kind.args)) if (props[name] !== undefined) out[name] = props[name];
  return out;
}

/** The field of the platform's records an arg maps to. */
export const wireName = (kind: Kind, arg: string) => wireNameOf(arg, kind.args[arg]);

/** The wire body for the platform: non-local args under their wire names, nested keys converted. */
export function toWire(kind: Kind, args: Props): WireRecord {
  return wireArgs(kind.args, args);
}

/** An arg's value as the platform's record states it, in the user's naming. */
function argFromWire(kind: Kind, name: string, record: WireRecord): unknown {
  const spec = kind.args[name];
  const v = record[wireName(kind, name)];
  if (v === undefined || v === null) return undefined;
  return spec.nested
    ? convertKeys(
        v,
        camel,
        (spec.freeForm ?? []).map((p) => p.split(".").map(camel).join(".")),
      )
    : v;
}

/** Maps a wire path back to the arg the user wrote: `runtime.resources[0]` → `runtime.resources[0]`, `app_name` → `appName`. */
function argPath(kind: Kind, path: string): string {
  const [head, ...rest] = path.split(/(?=[.[])/);
  const arg = Object.keys(kind.args).find((a) => wireName(kind, a) === head) ?? camel(head);
  return [arg, ...rest.map((r) => (r.startsWith(".") ? "." + camel(r.slice(1)) : r))].join("");
}

export function label(kind: Kind, id: string | undefined): string {
  return id ? `${kind.name} '${id}'` : kind.name;
}

/** One line naming the resource, the operation and the platform's message. */
export function describeFailure(kind: Kind, id: string | undefined, op: string, err: unknown): Error {
  const msg = err instanceof Error ? err.message : String(err);
  return new Error(`${label(kind, id)}: ${op} failed: ${msg}`);
}

function safeId(kind: Kind, args: Props): string | undefined {
  if (!kind.id) return undefined;
  try {
    const id = kind.id(args);
    return id && !containsUnknown(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Validates the inputs before any call: unknown args, required args, the kind's wire schema, then the kind's own
 * rules. Every failure of every field is reported at once, one entry per arg, each reason stating the
 * rule and the value given (the engine prints the arg's name in front of it, so the reason does not).
 */
export function check(kind: Kind, olds: Props | undefined, news: Props, nowMs: number): { inputs: Props; failures: CheckFailure[] } {
  const args = argsOf(kind, news);
  const found = new Map<string, string[]>();
  const add = (property: string, reason: string) => {
    const reasons = found.get(property) ?? [];
    if (!reasons.includes(reason)) reasons.push(reason);
    found.set(property, reasons);
  };
  refuseUnknownArgs(kind, news, add);
  const notKnownYet = new Set(Object.keys(args).filter((k) => containsUnknown(args[k])));
  const missing = kind.required.filter((r) => args[r] === undefined);
  for (const r of missing) add(r, "is required");
  if (kind.schema) {
    const known: Props = {};
    for (const [k, v] of Object.entries(args)) if (!notKnownYet.has(k)) known[k] = v;
    const parsed = kind.schema.safeParse(toWire(kind, known), { reportInput: true });
    if (!parsed.success) {
      const unknownWire = new Set([...notKnownYet].map((a) => wireName(kind, a)));
      for (const issue of parsed.error.issues) {
        // Unknown fields are told by the rule above, with the nearest known one.
        if (issue.path.length === 0 || issue.code === "unrecognized_keys" || unknownWire.has(String(issue.path[0]))) continue;
        const path = argPath(kind, renderPath("", issue.path).slice(1));
        const top = path.split(/[.[]/)[0];
        if (missing.includes(top)) continue;
        add(top, withinArg(top, path, describeIssue(issue)));
      }
    }
  }
  // The kind's own rules see only inputs that are complete and known; on inputs the schema already
  // refused they may stumble, which then adds nothing to the failures above.
  if (kind.check && notKnownYet.size === 0 && missing.length === 0) {
    let own: CheckFailure[] = [];
    try {
      own = kind.check(args, nowMs, olds && Object.keys(olds).length ? argsOf(kind, olds) : undefined);
    } catch (e) {
      if (found.size === 0) throw e;
    }
    for (const f of own) add(f.property, f.reason);
  }
  const failures = [...found].map(([property, reasons]) => ({ property, reason: reasons.join("; ") }));
  return { inputs: news, failures };
}

/** A reason for `top` about the value at `path` inside it: `[0].assetName: ...` for `metrics[0].assetName`. */
function withinArg(top: string, path: string, reason: string): string {
  const inner = path.slice(top.length).replace(/^\./, "");
  return inner ? `${inner}: ${reason}` : reason;
}

/**
 * The args whose change a diff counts (the native provider hands them to the engine as its detailed diff).
 * Provider-side (local) args (`adopt`) only steer a create: once the object exists, setting or
 * removing one changes nothing, so it is no change (the state keeps the value the object was created with).
 */
export function changedArgs(kind: Kind, olds: Props, news: Props): string[] {
  const platformChanged: string[] = [];
  for (const [name, spec] of Object.entries(kind.args)) {
    if (!spec.local && (containsUnknown(news[name]) || !deepEqual(olds[name], news[name]))) platformChanged.push(name);
  }
  return platformChanged;
}

export function diff(kind: Kind, id: string, olds: Props, news: Props) {
  const platformChanged = changedArgs(kind, olds, news);
  if (platformChanged.length === 0) return { changes: false };
  const replaceAll = kind.replaceWhen?.(argsOf(kind, olds), argsOf(kind, news)) ?? false;
  const replaces = replaceAll ? platformChanged : platformChanged.filter((n) => kind.args[n].replaces);
  // A replacement that keeps the platform identity must delete first, or the create would collide.
  const newId = safeId(kind, news);
  const deleteBeforeReplace = replaces.length > 0 && (kind.deleteBeforeReplace === true || (newId !== undefined && newId === (safeId(kind, olds) ?? id)));
  return { changes: true, replaces, deleteBeforeReplace };
}

function outputsOf(kind: Kind, args: Props, answer: Answer): Props {
  const computed = answer.outputs();
  for (const a of Object.keys(kind.args)) delete computed[a];
  return scrub({ ...args, ...computed });
}

async function existing(kind: Kind, ctx: KindContext, id: string, args: Props): Promise<Answer | undefined> {
  try {
    return await kind.read(ctx, id, args);
  } catch (e) {
    if (e instanceof SvcApiError && e.status === 404) return undefined;
    throw e;
  }
}

/**
 * The context a create runs in: when a create call fails without a clear answer (connection reset,
 * timeout, 502/503/504), the client asks whether the object now exists (read by its id, or found by
 * the kind's `findCreated`) and takes it as the create's result instead of repeating the create,
 * which would fail with 409 or make a second object.
 */
function settlingLostAnswers(kind: Kind, ctx: KindContext, args: Props, naturalId: string | undefined): KindContext {
  const since = Date.now();
  const check =
    naturalId !== undefined ? async () => (await existing(kind, ctx, naturalId, args))?.record : kind.findCreated ? () => kind.findCreated!(ctx, args, since) : undefined;
  return check ? { ...ctx, client: ctx.client.withDefaults({ ambiguityCheck: check }) } : ctx;
}

/** The args a kind's calls see: the user's, without the provider-side (`local`) ones, which never reach the platform. */
function platformArgs(kind: Kind, props: Props): Props {
  const args = argsOf(kind, props);
  for (const [name, spec] of Object.entries(kind.args)) if (spec.local) delete args[name];
  return args;
}

/** Each readable arg as the platform's record states it (the kind's own mapping first), in the user's naming. */
function recordArgs(kind: Kind, record: WireRecord, olds: Props): (name: string) => unknown {
  const fromRecord = kind.argsFromRecord?.(record, olds);
  return (name) => (fromRecord && name in fromRecord ? fromRecord[name] : argFromWire(kind, name, record));
}

/**
 * The args a platform record states, read as an import (a read by id alone) reads them: the kind's
 * own mapping first, then each arg from its wire field, in the user's naming. With `writeOnly`, also
 * the args the platform never answers, from their wire fields where `record` holds them (a create
 * body, as a snapshot keeps it). `svc-emulator generate` declares these.
 */
export function argsOfRecord(kind: Kind, record: WireRecord, options: { writeOnly?: boolean } = {}): Props {
  const server = recordArgs(kind, record, {});
  const out: Props = {};
  for (const [name, spec] of Object.entries(kind.args)) {
    if (spec.local || (spec.writeOnly && !options.writeOnly)) continue;
    const value = server(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** Whether the platform's value states the user's (the arg's own equivalence, else `exact` args equal, others contain it). */
function sameArg(kind: Kind, name: string, user: unknown, server: unknown): boolean {
  const spec = kind.args[name];
  if (spec.equal) return spec.equal(user, server);
  return spec.compare === "exact" ? deepEqual(user, server) : containedIn(user, server);
}

/** What refresh records for an arg: the declared value where the platform states it, else the platform's drift from it. */
function refreshedArg(kind: Kind, name: string, user: unknown, server: unknown): unknown {
  if (sameArg(kind, name, user, server)) return user;
  return kind.args[name].compare === "exact" ? server : reconcile(user, server);
}

/**
 * Takes over an object that exists with the declared identity: the args that cannot change in place
 * must already be the declared ones; the others are brought to the declared state.
 */
async function takeOver(kind: Kind, ctx: KindContext, id: string, args: Props, found: Answer): Promise<Answer> {
  const server = recordArgs(kind, found.record, args);
  const fixed = Object.keys(args).filter((name) => kind.args[name].replaces && !kind.args[name].writeOnly && !sameArg(kind, name, args[name], server(name)));
  if (fixed.length > 0) {
    const which = fixed.map((name) => `${name} ${JSON.stringify(server(name) ?? null)} where the program declares ${JSON.stringify(args[name])}`).join("; ");
    throw new Error(
      `the ${kind.platformTerm} exists on the platform with ${which}. ${fixed.join(", ")} cannot change in place, so it cannot be taken over: declare the platform's value, or give the resource another identity`,
    );
  }
  if (!kind.update || kind.skipAdoptUpdate) return found;
  // An object that already states every declared arg is taken over as it is: no call changes it.
  const differs = Object.keys(args).some((name) => !kind.args[name].writeOnly && !sameArg(kind, name, args[name], server(name)));
  if (!differs) return found;
  return kind.update(ctx, id, args, undefined, Object.keys(args));
}

export async function create(kind: Kind, ctx: KindContext, inputs: Props): Promise<{ id: string; outs: Props }> {
  const declared = argsOf(kind, inputs);
  const args = platformArgs(kind, inputs);
  const naturalId = safeId(kind, args);
  // A kind that destroy only releases takes over the object an earlier destroy left; others when asked.
  const mayTakeOver = naturalId !== undefined && (declared.adopt === true || destroyEffectOf(kind) === "release");
  try {
    if (mayTakeOver) {
      const found = await existing(kind, ctx, naturalId, args);
      if (found) return { id: naturalId, outs: outputsOf(kind, declared, await takeOver(kind, ctx, naturalId, args, found)) };
    }
    const answer = await kind.create(settlingLostAnswers(kind, ctx, args, naturalId), args);
    const id = naturalId ?? String(answer.record.id);
    return { id, outs: outputsOf(kind, declared, answer) };
  } catch (e) {
    // A 409 of the create call itself (not of a call that follows it) means the object exists.
    if (e instanceof SvcApiError && e.status === 409 && "adopt" in kind.args && createsAnObject(e.endpointId)) {
      throw new Error(
        `${label(kind, naturalId)}: create failed: ${e.message}. It already exists on the platform: set \`adopt: true\` on the resource to take it over (this provider's import route).`,
        { cause: e },
      );
    }
    throw describeFailure(kind, naturalId, "create", e);
  }
}

export async function read(kind: Kind, ctx: KindContext, id: string, props: Props): Promise<{ id: string; props: Props; inputs?: Props }> {
  const olds = argsOf(kind, props);
  let answer: Answer | undefined;
  try {
    answer = await existing(kind, ctx, id, olds);
  } catch (e) {
    throw describeFailure(kind, id, "read", e);
  }
  if (!answer) return { id: "", props: {} };
  const refreshed: Props = {};
  // A read by id alone (an import) has no prior args: every readable arg comes from the record.
  const importing = Object.keys(olds).length === 0;
  const server = recordArgs(kind, answer.record, olds);
  for (const [name, spec] of Object.entries(kind.args)) {
    const old = olds[name];
    if (spec.local || spec.writeOnly || (old === undefined && !importing)) {
      if (old !== undefined) refreshed[name] = old;
      continue;
    }
    const value = server(name);
    if (importing) {
      if (value !== undefined) refreshed[name] = value;
      continue;
    }
    refreshed[name] = refreshedArg(kind, name, old, value);
  }
  const inputs = scrub(refreshed);
  return { id, props: outputsOf(kind, inputs, answer), inputs };
}

export async function update(kind: Kind, ctx: KindContext, id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const args = platformArgs(kind, news);
  const before = platformArgs(kind, olds);
  const changed = Object.keys(kind.args).filter((n) => !kind.args[n].local && !deepEqual(before[n], args[n]));
  if (changed.length > 0 && !kind.update) throw new Error(`${label(kind, id)}: the platform cannot update a ${kind.platformTerm} in place`);
  try {
    // Only provider-side args changed: nothing to send, the object as it stands gives the outputs.
    const answer = changed.length === 0 ? await existing(kind, ctx, id, args) : await kind.update!(ctx, id, args, before, changed);
    if (!answer) throw new Error(`the ${kind.platformTerm} no longer exists on the platform; run a refresh, then up to create it again`);
    return { outs: outputsOf(kind, argsOf(kind, news), answer) };
  } catch (e) {
    throw describeFailure(kind, id, "update", e);
  }
}

/** Destroy: deletes the object, restores a singleton's defaults, or (a kind the API cannot delete) only lets it go. */
export async function remove(kind: Kind, ctx: KindContext, id: string, props: Props): Promise<void> {
  if (kind.onDestroy === "release") return;
  try {
    await kind.delete(ctx, id, platformArgs(kind, props));
  } catch (e) {
    // Deleting something already gone succeeds.
    if (e instanceof SvcApiError && e.status === 404) return;
    throw describeFailure(kind, id, "delete", e);
  }
}

/** Whether the call `endpointId` creates an object (the endpoint table's `effect`, as the client's retries read it). */
const createsAnObject = (endpointId: string | undefined): boolean => endpoints.some((e) => e.id === endpointId && isCreate(e));
