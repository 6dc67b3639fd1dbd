/**
 * Instance health, settings, the dependency graph and the audit log (spec Part 2 "Instance and audit
 * log"; facts §3.13 InstanceSettings and GraphDependencies, §4.10).
 */
import { z } from "zod";
import { dateTime, freeObject, inventoryListQuery, inventoryPage, qArray, text } from "./common";
import { area, endpoint } from "./endpoint";

export const Health = z.object({
  status: z.boolean(),
  components: z.array(z.object({ name: z.string(), status: z.boolean() })),
});

/** Interval in seconds, from one second to one week. */
const interval = z
  .number()
  .int({ message: "must be an integer number of seconds" })
  .min(1, { message: "must be at least 1 second" })
  .max(604800, { message: "must be at most 604800 seconds (one week)" });
const schedule = z.object({ enabled: z.boolean(), interval });
export const ACP_SETTING_KEYS = ["auto_update", "metrics", "status"] as const;

export const InstanceSettings = z.object({
  acp: z.object({ auto_update: schedule, metrics: schedule, status: schedule }),
});
export type InstanceSettings = z.infer<typeof InstanceSettings>;

/** The update body: every key optional; only the sent keys change. */
export const InstanceSettingsUpdate = z
  .object({
    acp: z
      .object({
        auto_update: schedule.partial().strict(),
        metrics: schedule.partial().strict(),
        status: schedule.partial().strict(),
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict();

/** What the dependency graph is asked about, and which records it answers per collection. */
export const GRAPH_COLLECTIONS = ["asset_types", "asset_classes", "apps", "clusters", "labels"] as const;
export const GraphDependencies = z
  .object({
    collection: z.enum(GRAPH_COLLECTIONS, { message: `must be one of ${GRAPH_COLLECTIONS.join(", ")}` }),
    name: z.string().min(1, { message: "must not be empty" }).max(256, { message: "must be at most 256 characters" }),
  })
  .strict();
export const DependencyEntry = z.object({ collection: z.string(), name: z.string(), title: z.string() });

export const AuditLogEntry = z.object({
  id: z.number().int(),
  action: z.string(),
  identifier: z.string(),
  namespace: z.string(),
  request_id: z.string(),
  request_uri: z.string(),
  user_id: z.string(),
  username: z.string(),
  meta: freeObject,
  created: z.string(),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntry>;

export const AUDIT_SORT_KEYS = ["audit_log.id", "audit_log.action", "audit_log.username", "audit_log.created", "request_uri"] as const;
const filterValues = qArray(text(256)).optional();

export const instance = area("instance", "part2", {
  statusGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/instance/status/get",
    permission: null,
    summary: "Health of the instance and its components (no token needed)",
    success: { status: 200, body: Health },
    errors: [],
  }),
  settingsGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/instance/settings/get",
    permission: "instance.read",
    summary: "Get the instance settings",
    success: { status: 200, body: InstanceSettings },
    errors: [401, 403],
  }),
  settingsUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/instance/settings/update",
    permission: "instance.update",
    summary: "Update the instance settings (only the sent keys change)",
    body: InstanceSettingsUpdate,
    success: { status: 200, body: InstanceSettings },
    errors: [400, 401, 403],
  }),
  graphDependenciesGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/instance/graph/dependencies/get",
    permission: "instance.read",
    summary: "The records that depend on a record, given as a body {collection, name} (or the same two query parameters)",
    query: GraphDependencies.partial().strict(),
    body: GraphDependencies,
    bodyOptional: true,
    success: { status: 200, body: z.object({ data: z.array(DependencyEntry) }) },
    errors: [400, 401, 403],
  }),
  auditLogGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/instance/auditlog/{audit_logger_id}/get",
    permission: "audit_log.read",
    summary: "Get an audit log entry",
    params: z.object({
      audit_logger_id: z
        .string()
        .regex(/^\d{1,15}$/, { message: "must be an audit log entry id (a positive integer)" })
        .transform((v) => Number(v)),
    }),
    success: { status: 200, body: AuditLogEntry },
  }),
  auditLogList: endpoint({
    method: "GET",
    effect: "read",
    path: "/instance/auditlog/list",
    permission: "audit_log.read",
    summary: "List audit log entries, newest first",
    query: z
      .object({
        action: filterValues,
        user_id: filterValues,
        namespace: filterValues,
        identifier: filterValues,
        username: filterValues,
        request_id: filterValues,
        search: filterValues,
        from_date_time: dateTime.optional(),
        to_date_time: dateTime.optional(),
        ...inventoryListQuery(AUDIT_SORT_KEYS, false),
      })
      .strict(),
    success: { status: 200, body: inventoryPage(AuditLogEntry) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
});
