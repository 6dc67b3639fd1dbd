/**
 * Turns a kind declaration into the provider's operations. check and diff are pure (no API calls);
 * `checkWithPlatform` then reads the platform, in preview too, so that a preview tells a create the
 * platform would refuse (409). create, read, update and delete go through the client.
 */
import { SvcApiError, SvcNetworkError, SvcResponseError } from "../client";
import { isSvcError, SvcError, type ErrorCode } from "../errors";
import { ADOPT_BY_CONTENT, destroyEffectOf, WARNING_PREFIX, wireArgs, wireNameOf, type Answer, type CheckFailure, type Kind, type KindContext, type WireRecord } from "./kind";
import { refuseUnknownArgs } from "./known-fields";
import { containsUnknown, deepEqual } from "../pulumi/values";
import { camel, containedIn, convertKeys, describeIssue, reconcile, scrub } from "./values";
import { renderPath } from "../api/common";
import { endpoints } from "../api/endpoints";
import { isCreate } from "../client/retry";
import { creatorOf, describeCreator, ownerOf, readInstead, requestIdOf, withoutOwner, type Creator, type Owner } from "./ownership";

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

/**
 * One line naming the resource, the operation and the platform's message, with `err` as its cause.
 * An error of the catalog keeps its code (its detail follows the resource, its code ends the line once).
 */
export function describeFailure(kind: Kind, id: string | undefined, op: string, err: unknown): SvcError {
  const head = `${label(kind, id)}: ${op} failed`;
  if (err instanceof SvcError) return new SvcError(err.code, `${head}: ${err.detail}`, { cause: err });
  return new SvcError(failureCode(err), `${head}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}

/** The code of an operation's failure that is not of the catalog: the platform refused, did not answer, answered amiss, or else. */
function failureCode(err: unknown): ErrorCode {
  if (err instanceof SvcApiError) return "SVC_PLATFORM_REFUSED";
  if (err instanceof SvcNetworkError) return "SVC_PLATFORM_UNREACHABLE";
  if (err instanceof SvcResponseError) return "SVC_PLATFORM_ANSWER_INVALID";
  return "SVC_OPERATION_FAILED";
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
  refuseUnknownArgs(kind, withoutOwner(news), add);
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

/**
 * The resource's name in the program, from the identity every resource class passes (`__svcOwner`,
 * ownership.ts): the engine hands a provider no names, and a preview names the resource holding a clash.
 */
const resourceNameOf = (props: Props | undefined): string | undefined => (props ? ownerOf(props)?.resource : undefined);

/** A warning of the provider's, as both engines read it into the run's warnings (one line). */
export const warn = (message: string): void => console.error(`${WARNING_PREFIX}${message.replace(/\s*\n\s*/g, " ")}`);

/**
 * Check, then, when it passed, what the platform holds that would refuse the object (409), read from
 * the platform (in preview too): before a create, an object of the same identity outside the stack
 * (`warnIfTaken`); and the kind's own `conflicts` (failures where the create cannot succeed, warnings
 * where an order the program can give makes it succeed). A read that fails adds nothing: the create will tell.
 * Without a context (`svc:skipCredentialsCheck`, a preview kept off the platform) check reads nothing.
 */
export async function checkWithPlatform(
  kind: Kind,
  olds: Props | undefined,
  news: Props,
  nowMs: number,
  context: () => Promise<KindContext | undefined>,
): Promise<{ inputs: Props; failures: CheckFailure[] }> {
  const checked = check(kind, olds, news, nowMs);
  const previous = olds && Object.keys(olds).length ? olds : undefined;
  const ownRules = kind.conflicts && !Object.values(argsOf(kind, news)).some(containsUnknown);
  const taken = !previous && mayBeTaken(kind, news);
  if (checked.failures.length > 0 || (!taken && !ownRules)) return checked;
  try {
    const ctx = await context();
    if (!ctx) return checked;
    if (taken) await warnIfTaken(kind, ctx, news);
    if (!ownRules) return checked;
    const found = await kind.conflicts!(ctx, news, previous, resourceNameOf(news));
    for (const w of found.warnings) warn(w);
    return { inputs: checked.inputs, failures: found.failures };
  } catch {
    return checked;
  }
}

/**
 * The objects this provider process has diffed, by kind and id: objects of the stack. A check without
 * old inputs of one of them is its replacement's (which deletes it first), not a second object.
 */
const diffed = new Set<string>();
const diffKey = (kind: Kind, id: string) => `${kind.name}\u0000${id}`;

/** Whether a create of these inputs may find its identity taken: a kind named by its args, whose destroy deletes, not adopting, not an object of the stack. */
function mayBeTaken(kind: Kind, news: Props): boolean {
  const naturalId = safeId(kind, platformArgs(kind, news));
  if (naturalId === undefined || !("adopt" in kind.args) || argsOf(kind, news).adopt === true || destroyEffectOf(kind) !== "delete") return false;
  return !diffed.has(diffKey(kind, naturalId));
}

/**
 * Before a create (a check without old inputs) of a kind whose identity is its name and whose destroy
 * deletes: when an object of that identity already exists outside the stack, the create would be
 * refused (409). Warns, naming it and the fix (`adopt: true`, or another identity).
 */
async function warnIfTaken(kind: Kind, ctx: KindContext, news: Props): Promise<void> {
  const args = platformArgs(kind, news);
  const naturalId = safeId(kind, args)!;
  if (!(await existing(kind, ctx, naturalId, args))) return;
  warn(
    `${label(kind, naturalId)}: ${/^[aeiou]/.test(kind.platformTerm) ? "an" : "a"} ${kind.platformTerm} '${naturalId}' already exists on the platform and is not this stack's, so the create will be refused (409): ` +
      `set \`adopt: true\` on the resource to take it over, or give the resource another identity.`,
  );
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
  diffed.add(diffKey(kind, id));
  const platformChanged = changedArgs(kind, olds, news);
  if (platformChanged.length === 0) {
    for (const w of kind.noteDiff?.(id, news, resourceNameOf(news), false) ?? []) warn(w);
    return { changes: false };
  }
  const replaceAll = kind.replaceWhen?.(argsOf(kind, olds), argsOf(kind, news)) ?? false;
  const replaces = replaceAll ? platformChanged : platformChanged.filter((n) => kind.args[n].replaces);
  // A replacement that keeps the platform identity must delete first, or the create would collide.
  const newId = safeId(kind, news);
  const deleteBeforeReplace = replaces.length > 0 && (kind.deleteBeforeReplace === true || (newId !== undefined && newId === (safeId(kind, olds) ?? id)));
  for (const w of kind.noteDiff?.(id, news, resourceNameOf(news), replaces.length > 0) ?? []) warn(w);
  return { changes: true, replaces, deleteBeforeReplace };
}

function outputsOf(kind: Kind, args: Props, answer: Answer): Props {
  const computed = answer.outputs();
  for (const a of Object.keys(kind.args)) delete computed[a];
  return scrub({ ...args, ...computed });
}

async function existing(kind: Kind, ctx: KindContext, id: string, args: Props): Promise<Answer | undefined> {
  if (id === ADOPT_BY_CONTENT) {
    const record = kind.findCreated && (await kind.findCreated(ctx, args, Number.NEGATIVE_INFINITY));
    if (!record) return undefined;
    id = String(record.id);
  }
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
    throw new SvcError(
      "SVC_TAKEOVER_CONFLICT",
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
  const owner = ownerOf(inputs);
  const adopt = declared.adopt === true;
  // A kind that destroy only releases takes over the object an earlier destroy left; others when asked.
  const mayTakeOver = naturalId !== undefined && (adopt || destroyEffectOf(kind) === "release");
  try {
    if (mayTakeOver) {
      const found = await existing(kind, ctx, naturalId, args);
      if (found) {
        await mayAdopt(kind, ctx, naturalId, found, owner, adopt);
        return { id: naturalId, outs: outputsOf(kind, declared, await takeOver(kind, ctx, naturalId, args, found)) };
      }
    }
    // A kind whose platform assigns the ids takes over, when asked, the object that states every declared arg.
    if (naturalId === undefined && adopt && kind.findCreated) {
      const found = await existing(kind, ctx, ADOPT_BY_CONTENT, args);
      if (found) return { id: String(found.record.id), outs: outputsOf(kind, declared, found) };
    }
    const answer = await kind.create(recordingCreator(kind, settlingLostAnswers(kind, ctx, args, naturalId), owner, naturalId), args);
    const id = naturalId ?? String(answer.record.id);
    return { id, outs: outputsOf(kind, declared, answer) };
  } catch (e) {
    // A 409 of the create call itself (not of a call that follows it) means the object exists.
    if (e instanceof SvcApiError && e.status === 409 && naturalId !== undefined && createsAnObject(e.endpointId)) {
      return await existsAlready(kind, ctx, naturalId, args, declared, owner, e);
    }
    if (isSvcError(e, "SVC_ADOPT_REFUSED")) throw e;
    throw describeFailure(kind, naturalId, "create", e);
  }
}

/** The create's context: its calls carry the request id that records who creates the object (ownership.ts). */
function recordingCreator(kind: Kind, ctx: KindContext, owner: Owner | undefined, naturalId: string | undefined): KindContext {
  if (!owner || naturalId === undefined) return ctx;
  return { ...ctx, client: ctx.client.withDefaults({ requestId: requestIdOf(owner, kind.name, naturalId) }) };
}

/**
 * The create was answered 409: the object exists. One that this same resource of this same stack
 * created (a run that made it and stopped before the state kept it) is taken over and brought to the
 * declared state; any other fails the create, naming who created it and the safe way on.
 */
async function existsAlready(
  kind: Kind,
  ctx: KindContext,
  id: string,
  args: Props,
  declared: Props,
  owner: Owner | undefined,
  conflict: SvcApiError,
): Promise<{ id: string; outs: Props }> {
  let found: Answer | undefined;
  let creator: Creator | undefined;
  try {
    found = await existing(kind, ctx, id, args);
    if (found && owner) creator = await creatorOf(ctx.client, kind.name, id, found.record, owner);
  } catch {
    // The read that would tell fails: the create's own failure is the one to report.
  }
  if (found && creator?.by === "this-resource") {
    console.error(
      `${label(kind, id)}: the platform already holds it, created by this resource of this stack in an earlier run that did not finish (its answer never reached the state); taking it over and bringing it to the declared state`,
    );
    try {
      return { id, outs: outputsOf(kind, declared, await takeOver(kind, ctx, id, args, found)) };
    } catch (e) {
      throw describeFailure(kind, id, "create", e);
    }
  }
  const head = `${label(kind, id)}: create failed: ${conflict.message}.`;
  const advice = "adopt" in kind.args ? conflictAdvice(kind, creator) : creator ? createdBy(kind, creator) : "It already exists on the platform.";
  throw new SvcError("SVC_ALREADY_EXISTS", `${head} ${advice}`, { cause: conflict });
}

/** Who created an existing object, in a sentence. */
function createdBy(kind: Kind, creator: Creator): string {
  if (creator.by === "unknown") return `It already exists on the platform; who created it is not known: ${creator.why}.`;
  return `It already exists on the platform, created by ${describeCreator(creator)}.`;
}

/** What to do when another resource of this stack created the object (`resource`): an alias for a renamed resource. */
function renamed(resource: string | undefined, instead = ""): string {
  return `if the resource was renamed, give it \`aliases: [{ name: ${JSON.stringify(resource ?? "<old name>")} }]\`${instead}; else remove one of the two`;
}

/** What to do about a create answered 409, by who created the object. */
function conflictAdvice(kind: Kind, creator: Creator | undefined): string {
  const managed = `Do not set \`adopt: true\` on it: two stacks would own one object, and destroying either would delete it for both. Instead, ${readInstead(kind.name)}.`;
  if (creator?.by === "other-stack") return `It already exists on the platform, created by ${describeCreator(creator)}, which manages it. ${managed}`;
  if (creator?.by === "this-stack")
    return `It already exists on the platform, created by ${describeCreator(creator)}: one object cannot be two resources. ${renamed(creator.resource).replace(/^if/, "If")}.`;
  const who = creator?.by === "unknown" ? `Who created it is not known (${creator.why}). ` : creator?.by === "none" ? "No stack of pulumi-svc created it. " : "";
  return (
    `It already exists on the platform. ${who}If no stack manages it, set \`adopt: true\` on the resource to take it over (this provider's import route). ` +
    `If another stack manages it, do not adopt it: ${readInstead(kind.name)}.`
  );
}

/**
 * Before taking over an existing object: an adoption (`adopt: true`) of an object another stack, or
 * another resource of this stack, created is refused; a kind whose destroy only releases its objects
 * takes one over with a warning. Where the audit log cannot tell, an adoption warns and goes ahead.
 */
async function mayAdopt(kind: Kind, ctx: KindContext, id: string, found: Answer, owner: Owner | undefined, adopt: boolean): Promise<void> {
  const creator = await creatorOf(ctx.client, kind.name, id, found.record, owner);
  if (creator.by === "other-stack" || creator.by === "this-stack") {
    const whose = `${label(kind, id)}: ${adopt ? "adopt: true" : "taking over the existing object"}: it was created by ${describeCreator(creator)}`;
    const instead =
      creator.by === "this-stack"
        ? `one object cannot be two resources of one stack: ${renamed(creator.resource, " instead of adopting")}`
        : `two stacks would own one object, and destroying either would delete it for both. Remove \`adopt\` and ${readInstead(kind.name)}; adopt only an object no stack manages`;
    // Already names the resource and says what to do: create passes it on as it is.
    if (adopt) throw new SvcError("SVC_ADOPT_REFUSED", `${whose}, which manages it, so it is not adopted: ${instead}.`);
    warn(
      `${whose}, which may still manage it: changes from both stacks would overwrite each other. ${readInstead(kind.name)[0].toUpperCase()}${readInstead(kind.name).slice(1)} instead of declaring it here.`,
    );
    return;
  }
  if (creator.by === "unknown" && adopt) {
    warn(
      `${label(kind, id)}: adopt: true: could not check whether another stack manages it (${creator.why}). Adopt only an object no stack manages: if another stack does, destroying either would delete it for both.`,
    );
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
  if (changed.length > 0 && !kind.update) throw new SvcError("SVC_UPDATE_UNSUPPORTED", `${label(kind, id)}: the platform cannot update a ${kind.platformTerm} in place`);
  try {
    // Only provider-side args changed: nothing to send, the object as it stands gives the outputs.
    const answer = changed.length === 0 ? await existing(kind, ctx, id, args) : await kind.update!(ctx, id, args, before, changed);
    if (!answer) throw new SvcError("SVC_OBJECT_GONE", `the ${kind.platformTerm} no longer exists on the platform; run a refresh, then up to create it again`);
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
