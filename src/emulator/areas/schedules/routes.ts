/** The parameter schedules' routes (records, checks and the due-schedule ticker in model.ts). */
import { answeredAs, badRequest } from "../../../api/errors";
import { schedules as ep, type ParameterSchedule } from "../../../api/schedules";
import { inFilter, part1List } from "../../list";
import { route, type AreaModule } from "../../handler";
import { applyDueSchedules, applySchedule, createSchedule, requireSchedule, table } from "./model";

// ---------------------------------------------------------------------------------------------
// Routes

interface ListBody {
  apps?: Array<{ name: string; version?: string }>;
  states?: string[];
  resources?: string[];
  parameter_names?: string[];
}

function matchesList(s: ParameterSchedule, f: ListBody | undefined): boolean {
  const appOk = !f?.apps?.length || f.apps.some((a) => a.name === s.app_name && (a.version === undefined || a.version === s.app_version));
  const any = (filter: string[] | undefined, values: string[]) => !filter?.length || values.some((v) => filter.includes(v));
  return appOk && inFilter(f?.states, s.state) && any(f?.resources, s.resources) && any(f?.parameter_names, Object.keys(s.parameters));
}

export const area: AreaModule = {
  routes: [
    route(ep.create, (ctx) => answeredAs(404, badRequest, () => createSchedule(ctx))),
    route(ep.get, (ctx) => requireSchedule(ctx.store, ctx.params.schedule_id)),
    route(ep.delete, (ctx) => {
      requireSchedule(ctx.store, ctx.params.schedule_id);
      table(ctx.store).delete(ctx.params.schedule_id);
      return undefined;
    }),
    route(ep.apply, (ctx) => applySchedule(ctx)),
    route(ep.list, (ctx) =>
      part1List(
        table(ctx.store).filter((s) => matchesList(s, ctx.body)),
        ctx.query,
        {
          key: (s) => s.id,
          sort: {
            id: (s) => s.id,
            app_name: (s) => s.app_name,
            app_version: (s) => s.app_version,
            scheduled_for: (s) => s.scheduled_for,
            "revert.scheduled_for": (s) => s.revert?.scheduled_for ?? null,
            comment: (s) => s.comment,
            state: (s) => s.state,
            created_at: (s) => s.created_at,
            created_by: (s) => s.created_by,
            applied_at: (s) => s.applied_at,
            applied_by: (s) => s.applied_by,
            reverted_at: (s) => s.reverted_at,
            reverted_by: (s) => s.reverted_by,
          },
        },
      ),
    ),
  ],
  tickers: [applyDueSchedules],
};
