/**
 * The audit log: one entry per successful mutating call, written in the same transaction as the
 * change, naming the action, the object, the caller and (redacted) what changed.
 */
import type { AnyEndpoint } from "../api/endpoint";
import type { HandlerContext } from "./handler";

/**
 * The audit log's copy of a record: fields named like secrets become "[redacted]" at any depth, and
 * so does each of their values where another field repeats it (a script embedding a token); nesting
 * past the depth limit is cut, never copied raw. Keys are copied as data (`__proto__` included).
 */
const REDACT = /password|secret|token|credential/i;
const AUDIT_DEPTH = 8;
/** Secret values shorter than this are not searched for in other fields (too likely to match by chance). */
const MIN_REPEATED_SECRET = 8;

function secretValues(v: unknown, out = new Set<string>(), underSecret = false): Set<string> {
  if (typeof v === "string") {
    if (underSecret && v.length >= MIN_REPEATED_SECRET) out.add(v);
  } else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) secretValues(x, out, underSecret || (!Array.isArray(v) && REDACT.test(k)));
  }
  return out;
}

function redact(record: unknown): unknown {
  const secrets = [...secretValues(record)];
  const copy = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return secrets.reduce((s, secret) => s.split(secret).join("[redacted]"), v);
    if (v === null || typeof v !== "object") return v;
    if (depth >= AUDIT_DEPTH) return "[truncated]";
    if (Array.isArray(v)) return v.slice(0, 50).map((x) => copy(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, REDACT.test(k) ? "[redacted]" : copy(x, depth + 1)]));
  };
  return copy(record, 0);
}

/** The action an operation is logged as: `clusters.create` → `CREATE-CLUSTERS`. */
function auditAction(ep: AnyEndpoint): string {
  const [area, op] = ep.id.split(".");
  const words = (s: string) =>
    s
      .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
      .replace(/[_.]/g, "-")
      .toUpperCase();
  return `${words(op)}-${words(area)}`;
}

/** Appends the entry of the call `ctx` made to `ep`; runs inside the request's transaction. */
export function appendAudit(ep: AnyEndpoint, ctx: HandlerContext): void {
  const { store } = ctx;
  const journal = store.pendingChanges().filter((c) => !c.table.startsWith("_") && c.table !== "audit_log");
  const params = ctx.params as Record<string, unknown>;
  const firstParam = Object.values(params ?? {}).find((v): v is string => typeof v === "string");
  const bodyName = (ctx.body as { name?: unknown } | undefined)?.name;
  const identifier = ctx.auditIdentifier ?? firstParam ?? (typeof bodyName === "string" ? bodyName : undefined) ?? journal[0]?.key ?? "";
  const id = store.nextSeq("audit_log");
  store.table("audit_log").put(String(id), {
    id,
    action: auditAction(ep),
    identifier,
    namespace: `svc-${ep.tags[0]}`,
    request_id: ctx.requestId,
    request_uri: `${ep.method} ${ep.path}`,
    user_id: ctx.identity.userId,
    username: ctx.identity.username,
    meta: {
      changes: journal.slice(0, 5).map((c) => ({ table: c.table, key: c.key, from: redact(c.prev) ?? null, to: redact(c.value) ?? null })),
      ...(journal.length > 5 ? { more_changes: journal.length - 5 } : {}),
    },
    created: ctx.now,
  });
}
