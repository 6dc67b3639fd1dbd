/** The instance routes: settings, status, the dependency graph and the audit log (rules in model.ts). */
import { ACP_SETTING_KEYS, instance as ep } from "../../../api/instance";
import { microsOf } from "../../../api/datalabels";
import { badRequest, notFound } from "../../../api/errors";
import { inFilter, inventoryList, matchesSearch } from "../../list";
import { route, type AreaModule } from "../../handler";
import { auditLog, currentSettings, dependentsOf, SETTINGS_KEY, settingsTable } from "./model";

export const area: AreaModule = {
  routes: [
    route(ep.statusGet, () => ({
      status: true,
      components: ["api", "store", "auth", "scheduler"].map((name) => ({ name, status: true })),
    })),

    route(ep.settingsGet, (ctx) => currentSettings(ctx.store)),

    route(ep.settingsUpdate, (ctx) => {
      const current = currentSettings(ctx.store);
      const sent = ctx.body.acp ?? {};
      const acp = { ...current.acp };
      for (const key of ACP_SETTING_KEYS) acp[key] = { ...current.acp[key], ...sent[key] };
      ctx.auditIdentifier = SETTINGS_KEY;
      return settingsTable(ctx.store).put(SETTINGS_KEY, { acp });
    }),

    route(ep.graphDependenciesGet, (ctx) => {
      const fromQuery = ctx.query.collection !== undefined || ctx.query.name !== undefined;
      if (ctx.body && fromQuery) throw badRequest("send collection and name either in the body or in the query, not both");
      const target = ctx.body ?? ctx.query;
      if (!target.collection) throw badRequest("collection: is required; send { collection, name } as the body");
      if (!target.name) throw badRequest("name: is required; send { collection, name } as the body");
      return { data: dependentsOf(ctx.store, target.collection, target.name) };
    }),

    route(ep.auditLogGet, (ctx) => {
      const entry = auditLog(ctx.store).get(String(ctx.params.audit_logger_id));
      if (!entry) throw notFound("audit log entry", String(ctx.params.audit_logger_id));
      return entry;
    }),

    route(ep.auditLogList, (ctx) => {
      const q = ctx.query;
      const from = q.from_date_time ? microsOf(q.from_date_time) : undefined;
      const to = q.to_date_time ? microsOf(q.to_date_time) : undefined;
      const rows = auditLog(ctx.store).filter((e) => {
        const at = microsOf(e.created);
        return (
          inFilter(q.action, e.action) &&
          inFilter(q.user_id, e.user_id) &&
          inFilter(q.namespace, e.namespace) &&
          inFilter(q.identifier, e.identifier) &&
          inFilter(q.username, e.username) &&
          inFilter(q.request_id, e.request_id) &&
          matchesSearch(q.search, e.action, e.username, e.namespace) &&
          (from === undefined || at >= from) &&
          (to === undefined || at <= to)
        );
      });
      return inventoryList(rows, q, {
        key: (e) => String(e.id).padStart(16, "0"),
        sort: {
          "audit_log.id": (e) => e.id,
          "audit_log.action": (e) => e.action,
          "audit_log.username": (e) => e.username,
          "audit_log.created": (e) => microsOf(e.created),
          request_uri: (e) => e.request_uri,
        },
      });
    }),
  ],
};
