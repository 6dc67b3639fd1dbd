/**
 * The audit log: one entry per successful mutating call, written in the same transaction as the
 * change, naming the action, the object, the caller and (redacted) what changed.
 */
import type { AnyEndpoint } from "../api/endpoint";
import type { HandlerContext } from "./handler";
import { redact, type RedactLimits } from "./redaction";

/** The audit log's copy of a record: redacted, and cut short where it nests deep or lists much. */
const AUDIT_COPY: RedactLimits = { maxDepth: 8, maxItems: 50 };

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
      changes: journal.slice(0, 5).map((c) => ({ table: c.table, key: c.key, from: redact(c.prev, AUDIT_COPY) ?? null, to: redact(c.value, AUDIT_COPY) ?? null })),
      ...(journal.length > 5 ? { more_changes: journal.length - 5 } : {}),
    },
    created: ctx.now,
  });
}
