/**
 * Which stack created an object on the platform, as the platform itself records it.
 *
 * The record: the platform's audit log keeps, with every change, the request id the caller sent
 * (`x-request-id`; the entry's `request_id`, which the audit log list filters on). The calls of a
 * create carry a request id that names who creates what:
 *
 *     pulumi-svc.<project>.<stack>.<resource>.<object>
 *
 * `<project>` and `<stack>` are the program's (`pulumi.getProject()`, `pulumi.getStack()`),
 * `<resource>` the resource's name in the program, each escaped to the characters a request id
 * allows (`[A-Za-z0-9-]` as they are, `_` as `__`, any other byte as `_XX`; a part too long for the
 * id's 128 characters becomes `_h` and a hash); `<object>` is a hash of the kind and the object's
 * platform identity. The entry is written in the same transaction as the object, so no kill of a run
 * can leave an object without its record. The program hands the provider its identity as the hidden
 * input `__svcOwner` (`<project>/<stack>/<resource>`, see shim.ts), which only a create reads: like
 * `__provider`, the engine shows no `__` input, and a change of it alone is no change. The native
 * provider, to which the engine gives each create's URN, reads the identity from that instead
 * (native/server.ts `withOwner`).
 *
 * What a create makes of it (lifecycle.ts):
 * - a create the platform answers 409 (exists), for an object whose creating entry names this same
 *   stack and resource (a run that made it and was killed or lost the answer before the state kept
 *   it): the object is taken over and brought to the declared state, told on the provider's log;
 * - any other 409: the create fails, naming who created the object and the safe way: a lookup
 *   (`getAssetType`, `getAssetClass`, `getApp`, `getAppVersion`, `getLabel`, …) or a stack
 *   reference for an object another stack manages; `adopt: true` only for one no stack manages;
 * - `adopt: true` on an object another stack (or another resource of this stack) created is refused,
 *   naming it; where the audit log cannot tell (not readable, no creation time on the record), the
 *   adoption goes ahead with a warning.
 *
 * The API for other modules: `OWNER_KEY`, `ownerValue` (program side), `ownerOf`, `requestIdOf`,
 * `parseRequestId`, `creatorOf` and `describeCreator`.
 *
 * Limits: stacks are told apart by project and stack name (two stacks of the same names in two
 * backends are one to the record); an adoption leaves no record (only a create does), so two stacks
 * that both adopted an object no stack created are not told apart; a platform that assigns its own
 * request ids instead of keeping the caller's gives no record, and then every 409 fails as it did
 * before and an adoption warns that it could not check; kinds whose id the platform assigns
 * (DataLabel, ParameterSchedule) never collide, so a killed create of one may leave a second object.
 */
// The program side (shim.ts) loads this module too: it imports no client, table or zod at load.
import { createHash } from "node:crypto";
import type { SvcClient } from "../client";

/** The hidden input that carries the program's identity of a resource to the provider. */
export const OWNER_KEY = "__svcOwner";

/** A resource as the program names it: its project, its stack and its name. */
export interface Owner {
  project: string;
  stack: string;
  resource: string;
}

/** The `__svcOwner` input of resource `resource` in the stack `project`/`stack` (project and stack names hold no `/`). */
export function ownerValue(project: string, stack: string, resource: string): string {
  return `${project}/${stack}/${resource}`;
}

/** The owner a resource's inputs name, when they carry one. */
export function ownerOf(props: Record<string, unknown>): Owner | undefined {
  const v = props[OWNER_KEY];
  if (typeof v !== "string") return undefined;
  const [project, stack, ...rest] = v.split("/");
  const resource = rest.join("/");
  return project && stack && resource ? { project, stack, resource } : undefined;
}

/** The props without the hidden identity (what check validates as the user's args). */
export function withoutOwner(props: Record<string, unknown>): Record<string, unknown> {
  if (!(OWNER_KEY in props)) return props;
  const { [OWNER_KEY]: _owner, ...rest } = props;
  return rest;
}

const PREFIX = "pulumi-svc";
/** The longest request id the platform keeps. */
const MAX_ID = 128;
const hash = (text: string, length: number) => createHash("sha256").update(text).digest("hex").slice(0, length);

/** A name in the request id's alphabet: `[A-Za-z0-9-]` kept, `_` doubled, every other byte `_XX`. */
function escapePart(name: string): string {
  let out = "";
  for (const byte of Buffer.from(name, "utf8")) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9-]/.test(c)) out += c;
    else if (c === "_") out += "__";
    else out += `_${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** The name an escaped part stands for; undefined for a hashed part (`_h…`). */
function unescapePart(part: string): string | undefined {
  if (part.startsWith("_h")) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < part.length; i++) {
    const c = part[i];
    if (c !== "_") {
      bytes.push(c.charCodeAt(0));
    } else if (part[i + 1] === "_") {
      bytes.push(0x5f);
      i++;
    } else {
      bytes.push(parseInt(part.slice(i + 1, i + 3), 16));
      i += 2;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The object's part of a request id: a hash of the kind and the platform identity. */
export const objectKey = (kind: string, naturalId: string): string => hash(`${kind}\n${naturalId}`, 12);

/** The parts a request id names, escaped; too long a part is replaced by `_h` and its hash, the longest first. */
function parts(owner: Owner): [string, string, string] {
  const p: [string, string, string] = [escapePart(owner.project), escapePart(owner.stack), escapePart(owner.resource)];
  const fixed = PREFIX.length + 12 + 4;
  for (;;) {
    const length = fixed + p[0].length + p[1].length + p[2].length;
    if (length <= MAX_ID) return p;
    const longest = [2, 1, 0].reduce((a, b) => (p[b].length > p[a].length ? b : a));
    p[longest] = `_h${hash(p[longest], 16)}`;
  }
}

/** The request id the calls of a create send: who (project, stack, resource) creates which object. */
export function requestIdOf(owner: Owner, kind: string, naturalId: string): string {
  return [PREFIX, ...parts(owner), objectKey(kind, naturalId)].join(".");
}

/** A creator a request id names: its parts as the id spells them, and as names (undefined where hashed). */
export interface RecordedCreator {
  parts: [string, string, string];
  project?: string;
  stack?: string;
  resource?: string;
  objectKey: string;
}

/** The creator a request id of this provider names; undefined for any other request id. */
export function parseRequestId(id: string): RecordedCreator | undefined {
  const fields = id.split(".");
  if (fields.length !== 5 || fields[0] !== PREFIX || !/^[0-9a-f]{12}$/.test(fields[4])) return undefined;
  const p: [string, string, string] = [fields[1], fields[2], fields[3]];
  if (p.some((f) => f.length === 0 || !/^[A-Za-z0-9_-]+$/.test(f))) return undefined;
  return { parts: p, project: unescapePart(p[0]), stack: unescapePart(p[1]), resource: unescapePart(p[2]), objectKey: fields[4] };
}

/**
 * Who created an object, as far as the audit log tells:
 * - `this-resource`: this same resource of this same stack (an earlier run that did not finish);
 * - `this-stack`: another resource of this stack;
 * - `other-stack`: another stack (or, for a resource that carries no identity, a stack of this provider);
 * - `none`: no stack of this provider (made by hand, by another tool, or before this record existed);
 * - `unknown`: the audit log could not tell (`why` says why).
 */
export type Creator =
  | { by: "this-resource" }
  | { by: "this-stack"; resource?: string }
  | { by: "other-stack"; project?: string; stack?: string; resource?: string }
  | { by: "none" }
  | { by: "unknown"; why: string };

/** How far from the record's creation time its audit entry may lie: the two are written together. */
const WINDOW_MS = 60_000;

type AuditEntry = { id: number; request_id: string; created: string };

/** The creation time a record states (`created` or `created_at`), in ms. */
function createdMs(record: Record<string, unknown>): number | undefined {
  const v = record.created ?? record.created_at;
  if (typeof v !== "string") return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A time as the audit log's filters take it: RFC 3339 in UTC with six fractional digits. */
const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

async function entries(client: SvcClient, query: Record<string, unknown>): Promise<AuditEntry[]> {
  const { instance } = await import("../api/instance");
  const out: AuditEntry[] = [];
  for await (const e of client.paginate(instance.auditLogList, { query: { page_size: 1000, ...query } })) out.push(e);
  return out;
}

function classify(entry: RecordedCreator, owner: Owner | undefined): Creator {
  if (owner) {
    const mine = parts(owner);
    if (entry.parts[0] === mine[0] && entry.parts[1] === mine[1]) {
      return entry.parts[2] === mine[2] ? { by: "this-resource" } : { by: "this-stack", resource: entry.resource };
    }
  }
  return { by: "other-stack", project: entry.project, stack: entry.stack, resource: entry.resource };
}

/**
 * Who created the object `naturalId` of the kind `kind`, whose record (as the platform answers it
 * now) is `record`, for the resource `owner` (undefined when its inputs carry no identity). The
 * creating entry is the one of this provider's request ids for this object closest to the record's
 * creation time; a record without one is told only when this resource's own create is recorded.
 */
export async function creatorOf(client: SvcClient, kind: string, naturalId: string, record: Record<string, unknown>, owner: Owner | undefined): Promise<Creator> {
  const key = objectKey(kind, naturalId);
  try {
    const at = createdMs(record);
    if (at === undefined) {
      if (!owner) return { by: "unknown", why: `the platform's record of it states no creation time, by which its audit entry is found` };
      const own = await entries(client, { request_id: [requestIdOf(owner, kind, naturalId)] });
      return own.length > 0 ? { by: "this-resource" } : { by: "unknown", why: `the platform's record of it states no creation time, by which its audit entry is found` };
    }
    const near = await entries(client, { from_date_time: timestamp(at - WINDOW_MS), to_date_time: timestamp(at + WINDOW_MS) });
    let best: { entry: RecordedCreator; distance: number; id: number } | undefined;
    for (const e of near) {
      const parsed = parseRequestId(e.request_id);
      if (!parsed || parsed.objectKey !== key) continue;
      const distance = Math.abs(Date.parse(e.created) - at);
      if (!best || distance < best.distance || (distance === best.distance && e.id > best.id)) best = { entry: parsed, distance, id: e.id };
    }
    return best ? classify(best.entry, owner) : { by: "none" };
  } catch (e) {
    const detail = (e as { status?: unknown }).status === 403 ? "the provider's credentials lack the permission audit_log.read" : e instanceof Error ? e.message : String(e);
    return { by: "unknown", why: `the platform's audit log could not be read (${detail})` };
  }
}

/** The creator in words: `stack 'plant/site-a' (its resource 'pump-type')`. */
export function describeCreator(c: Creator): string {
  switch (c.by) {
    case "this-resource":
      return "this resource of this stack";
    case "this-stack":
      return `this stack's resource ${c.resource !== undefined ? `'${c.resource}'` : "of another name"}`;
    case "other-stack": {
      const stack = c.project !== undefined && c.stack !== undefined ? `'${c.project}/${c.stack}'` : "of a long name";
      return `stack ${stack}${c.resource !== undefined ? ` (its resource '${c.resource}')` : ""}`;
    }
    case "none":
      return "no stack of pulumi-svc";
    case "unknown":
      return "unknown";
  }
}

/** Each kind's lookup, as a program reads an object it does not manage. */
const LOOKUPS: Readonly<Record<string, string>> = {
  AssetType: "getAssetType",
  AssetClass: "getAssetClass",
  App: "getApp",
  AppVersion: "getAppVersion",
  Label: "getLabel",
  Asset: "getAsset",
  Cluster: "getCluster",
  Workload: "getWorkload",
};

/** The safe way to use an object another stack manages, for the kind `kind`. */
export function readInstead(kind: string): string {
  const lookup = LOOKUPS[kind];
  return lookup
    ? `read it with the lookup \`svc.${lookup}\` (or take its outputs from that stack with a \`pulumi.StackReference\`)`
    : "take its outputs from that stack with a `pulumi.StackReference` (lookups: getAssetType, getAssetClass, getApp, getAppVersion, getLabel)";
}
