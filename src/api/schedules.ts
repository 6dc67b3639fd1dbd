/**
 * Parameter schedules: parameter values applied to assets at a future time, with an optional revert
 * (spec Part 1 "Parameter schedules"; bodies from facts §3.4, record from facts §4.2).
 */
import { z } from "zod";
import { appFilter } from "./parameters";
import { absentIfNull, parameterName } from "./apps";
import { assetKrn, cursorPage, dateTime, name, nameKeyedRecord, part1ListQuery, scalarValue, semverString, text } from "./common";
import { area, endpoint, pathValues } from "./endpoint";

export const scheduleState = z.enum(["scheduled", "scheduled-revert", "completed", "error"]);
export type ScheduleState = z.infer<typeof scheduleState>;
export const scheduleApplyType = z.enum(["schedule", "schedule-revert"]);
/** The state a schedule is in before a step of it is applied (applying the step leaves it); undefined for no step. */
const stateBefore = (step: unknown): ScheduleState | undefined => (step === "schedule" ? "scheduled" : step === "schedule-revert" ? "scheduled-revert" : undefined);

const opt = absentIfNull;
const parameterMap = nameKeyedRecord(parameterName, scalarValue);

export const resourceParameters = z.object({ resource: assetKrn, parameters: parameterMap }).strict();

export const ParametersScheduleCreate = z
  .object({
    app_name: name(64),
    app_version: semverString,
    scheduled_for: dateTime,
    resources: z.array(assetKrn).min(1, { message: "must name at least one resource" }).max(10000),
    parameters: parameterMap,
    comment: opt(text(1024)),
    revert: opt(
      z
        .object({
          scheduled_for: dateTime,
          resource_parameters: z.array(resourceParameters).max(10000),
        })
        .strict(),
    ),
  })
  .strict();

export const ParametersScheduleApply = z.object({ type: scheduleApplyType }).strict();

export const ParametersScheduleList = z
  .object({
    apps: opt(z.array(appFilter).max(1000)),
    states: opt(z.array(scheduleState).max(10)),
    resources: opt(z.array(assetKrn).max(10000)),
    parameter_names: opt(z.array(parameterName).max(10000)),
  })
  .strict();

export const ParameterSchedule = z.object({
  id: z.string(),
  app_name: z.string(),
  app_version: z.string(),
  scheduled_for: z.string(),
  resources: z.array(z.string()),
  parameters: z.record(z.string(), scalarValue),
  comment: z.string().nullable(),
  revert: z.object({ scheduled_for: z.string(), resource_parameters: z.array(z.object({ resource: z.string(), parameters: z.record(z.string(), scalarValue) })) }).nullable(),
  state: scheduleState,
  original_resource_parameters: z.array(z.object({ resource: z.string(), parameters: z.record(z.string(), scalarValue) })),
  error_msg: z.string().nullable(),
  created_at: z.string(),
  created_by: z.string(),
  applied_at: z.string().nullable(),
  applied_by: z.string().nullable(),
  reverted_at: z.string().nullable(),
  reverted_by: z.string().nullable(),
});
export type ParameterSchedule = z.infer<typeof ParameterSchedule>;

const scheduleParams = z.object({ schedule_id: z.uuid({ message: "must be a uuid" }) });

export const schedules = area("schedules", "part1", {
  create: endpoint({
    method: "POST",
    effect: "create",
    path: "/apps/parameters/schedules/create",
    permission: "parameter.update",
    summary: "Schedule parameter values for a future time, optionally with a revert",
    body: ParametersScheduleCreate,
    success: { status: 201, body: ParameterSchedule },
    errors: [400, 401, 403, 409],
  }),
  get: endpoint({
    method: "GET",
    effect: "read",
    path: "/apps/parameters/schedules/{schedule_id}/get",
    permission: "parameter.read",
    summary: "Get a parameter schedule",
    params: scheduleParams,
    success: { status: 200, body: ParameterSchedule },
  }),
  delete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/apps/parameters/schedules/{schedule_id}/delete",
    permission: "parameter.update",
    summary: "Delete a parameter schedule",
    params: scheduleParams,
    success: { status: 204 },
  }),
  apply: endpoint({
    method: "POST",
    effect: "action",
    // A step applies only to a schedule in its state, which applying it leaves: a repeat is refused.
    // What shows that the step took effect is its own trace (applied_at, reverted_at), not only that
    // the state moved on: a schedule the platform's own timed run put in state `error` meanwhile
    // shows neither, so the repeat goes out and fails naming that state.
    confirm: {
      read: "schedules.get",
      objects: (a) => {
        const at = pathValues({ schedule_id: a.params.schedule_id });
        return at && stateBefore(a.body.type) ? [at] : undefined;
      },
      took: (r, a) => {
        const record = r as Partial<Pick<ParameterSchedule, "applied_at" | "reverted_at">>;
        return (a.body.type === "schedule" ? record.applied_at : record.reverted_at) != null;
      },
    },
    path: "/apps/parameters/schedules/{schedule_id}/apply",
    permission: "parameter.update",
    summary: "Apply a schedule now: `schedule` in state scheduled, `schedule-revert` in state scheduled-revert",
    params: scheduleParams,
    body: ParametersScheduleApply,
    success: { status: 204 },
  }),
  list: endpoint({
    method: "POST",
    effect: "read",
    path: "/apps/parameters/schedules/list",
    permission: "parameter.read",
    summary: "List parameter schedules",
    query: z
      .object(
        part1ListQuery(
          [
            "id",
            "app_name",
            "app_version",
            "scheduled_for",
            "revert.scheduled_for",
            "comment",
            "state",
            "created_at",
            "created_by",
            "applied_at",
            "applied_by",
            "reverted_at",
            "reverted_by",
          ],
          ["scheduled_for"],
        ),
      )
      .strict(),
    body: ParametersScheduleList,
    bodyOptional: true,
    success: { status: 200, body: cursorPage(ParameterSchedule) },
    list: "part1",
    errors: [400, 401, 403],
  }),
});
