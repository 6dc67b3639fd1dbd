/**
 * Parameter schedules (spec Part 1 "Parameter schedules"; facts §3.4, §4.2, §6.3).
 *
 * A schedule sets `parameters` on every listed resource at `scheduled_for`; with a revert it sets the
 * revert's per-resource values at `revert.scheduled_for`. Both steps run either through the apply
 * call or by themselves when their time comes (the ticker below). Values are written in patch mode
 * through the parameters model (areas/parameters/model.ts), so each replaced value lands in the history.
 *
 * Design choices where the spec is silent:
 * - Applying a type in a state that does not match answers 400 (the code the spec lists for apply);
 *   the schedule is left as it was.
 * - A schedule needs at least one parameter. A resource listed twice is 400.
 * - Create's table lists 400, 401 and 409: a missing app or app version (a 404 elsewhere) answers
 *   400, with the same message.
 * - Creating a schedule answers 409 when another schedule still waiting to be applied sets one of the
 *   same parameters on one of the same resources of the app at the very same time.
 * - original_resource_parameters holds, per resource, the targeted parameters that have a value set
 *   at creation (a parameter at its default has no entry).
 * - Timestamps sent in any RFC 3339 form are stored and answered in UTC with six fractional digits.
 * - A step applied by the ticker is applied_by/reverted_by `krn:service-account:system`. When the step
 *   cannot be applied (the app version or a parameter is gone, a value no longer fits its type) the
 *   schedule moves to `error` with error_msg and no value is written.
 * - Any schedule can be deleted, whatever its state.
 */
import { randomUUID } from "node:crypto";
import { formatTimestamp } from "../../../api/common";
import { ApiError, badRequest, conflict, notFound } from "../../../api/errors";
import type { ParameterSchedule } from "../../../api/schedules";
import { krnOf, SYSTEM_IDENTITY } from "../auth/model";
import type { HandlerContext, Ticker } from "../../handler";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";
import { currentParameterValues, requireAppVersion, validateParameterValues, writeParameterValues, type ParameterValues, type WriteContext } from "../parameters/model";

export const table = (store: Store) => store.table<ParameterSchedule>(TABLES.schedules);

export function requireSchedule(store: Store, id: string): ParameterSchedule {
  const s = table(store).get(id);
  if (!s) throw notFound("parameter schedule", id);
  return s;
}

type ResourceParameters = Array<{ resource: string; parameters: ParameterValues }>;

// ---------------------------------------------------------------------------------------------
// Create

interface CreateBody {
  app_name: string;
  app_version: string;
  scheduled_for: string;
  resources: string[];
  parameters: ParameterValues;
  comment?: string;
  revert?: { scheduled_for: string; resource_parameters: ResourceParameters };
}

function duplicates(xs: string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(xs.filter((x) => (seen.has(x) ? true : (seen.add(x), false))))];
}

const quoted = (xs: string[]) => xs.map((x) => `'${x}'`).join(", ");

function checkTargets(ctx: HandlerContext<unknown, unknown, CreateBody>): void {
  const b = ctx.body;
  if (Date.parse(b.scheduled_for) <= ctx.nowMs) {
    throw badRequest(`body.scheduled_for: must be in the future (it is ${b.scheduled_for}, now is ${ctx.now})`);
  }
  const dup = duplicates(b.resources);
  if (dup.length) throw badRequest(`body.resources: ${quoted(dup)} listed more than once`);
  if (Object.keys(b.parameters).length === 0) throw badRequest("body.parameters: must set at least one parameter");
  validateParameterValues(ctx.store, b.app_name, b.app_version, b.parameters, "body.parameters");
}

/** The revert must lie after the schedule and cover exactly its resources × parameters. */
function checkRevert(ctx: HandlerContext<unknown, unknown, CreateBody>): void {
  const b = ctx.body;
  const revert = b.revert;
  if (!revert) return;
  if (Date.parse(revert.scheduled_for) <= Date.parse(b.scheduled_for)) {
    throw badRequest(`body.revert.scheduled_for: must be after body.scheduled_for (${revert.scheduled_for} is not after ${b.scheduled_for})`);
  }
  const problems: string[] = [];
  const given = revert.resource_parameters.map((r) => r.resource);
  const dup = duplicates(given);
  if (dup.length) problems.push(`body.revert.resource_parameters: ${quoted(dup)} given more than once`);
  const missing = b.resources.filter((r) => !given.includes(r));
  if (missing.length) problems.push(`body.revert.resource_parameters: missing resource(s) ${quoted(missing)} of the schedule`);
  const extra = given.filter((r) => !b.resources.includes(r));
  if (extra.length) problems.push(`body.revert.resource_parameters: resource(s) ${quoted(extra)} are not in the schedule's resources`);
  const names = Object.keys(b.parameters);
  revert.resource_parameters.forEach((rp, i) => {
    const where = `body.revert.resource_parameters[${i}].parameters`;
    const have = Object.keys(rp.parameters);
    const lacking = names.filter((n) => !have.includes(n));
    const surplus = have.filter((n) => !names.includes(n));
    if (lacking.length) problems.push(`${where}: missing parameter(s) ${quoted(lacking)} of the schedule`);
    if (surplus.length) problems.push(`${where}: parameter(s) ${quoted(surplus)} are not in the schedule's parameters`);
  });
  if (problems.length) throw badRequest(...problems);
  revert.resource_parameters.forEach((rp, i) => validateParameterValues(ctx.store, b.app_name, b.app_version, rp.parameters, `body.revert.resource_parameters[${i}].parameters`));
}

const isPending = (s: ParameterSchedule) => s.state === "scheduled" || s.state === "scheduled-revert";

function checkNoClash(store: Store, b: CreateBody, at: string): void {
  const names = Object.keys(b.parameters);
  const clash = table(store).filter(
    (s) =>
      isPending(s) &&
      s.app_name === b.app_name &&
      s.scheduled_for === at &&
      s.resources.some((r) => b.resources.includes(r)) &&
      Object.keys(s.parameters).some((n) => names.includes(n)),
  );
  if (clash.length) {
    throw conflict(`schedule ${clash[0].id} already sets some of these parameters on some of these resources at ${at}; change the time or delete it`);
  }
}

export function createSchedule(ctx: HandlerContext<unknown, unknown, CreateBody>): ParameterSchedule {
  const b = ctx.body;
  requireAppVersion(ctx.store, b.app_name, b.app_version);
  checkTargets(ctx);
  checkRevert(ctx);
  const scheduledFor = formatTimestamp(Date.parse(b.scheduled_for));
  checkNoClash(ctx.store, b, scheduledFor);
  const names = Object.keys(b.parameters);
  const original = b.resources.map((resource) => {
    const current = currentParameterValues(ctx.store, b.app_name, b.app_version, resource);
    return { resource, parameters: Object.fromEntries(names.filter((n) => n in current).map((n) => [n, current[n]])) };
  });
  const id = randomUUID();
  return table(ctx.store).put(id, {
    id,
    app_name: b.app_name,
    app_version: b.app_version,
    scheduled_for: scheduledFor,
    resources: b.resources,
    parameters: b.parameters,
    comment: b.comment ?? null,
    revert: b.revert ? { scheduled_for: formatTimestamp(Date.parse(b.revert.scheduled_for)), resource_parameters: b.revert.resource_parameters } : null,
    state: "scheduled",
    original_resource_parameters: original,
    error_msg: null,
    created_at: ctx.now,
    created_by: ctx.actor,
    applied_at: null,
    applied_by: null,
    reverted_at: null,
    reverted_by: null,
  });
}

// ---------------------------------------------------------------------------------------------
// Apply (by request or when due)

type Step = "schedule" | "schedule-revert";
const STATE_OF_STEP: Record<Step, ParameterSchedule["state"]> = { schedule: "scheduled", "schedule-revert": "scheduled-revert" };

function valuesOfStep(s: ParameterSchedule, step: Step): ResourceParameters {
  return step === "schedule" ? s.resources.map((resource) => ({ resource, parameters: s.parameters })) : (s.revert?.resource_parameters ?? []);
}

/** Writes a step's values (validated as a whole first, so a failure writes nothing) and moves the state. */
function runStep(ctx: WriteContext, s: ParameterSchedule, step: Step): ParameterSchedule {
  const targets = valuesOfStep(s, step);
  for (const t of targets) validateParameterValues(ctx.store, s.app_name, s.app_version, t.parameters, `schedule ${s.id}`);
  for (const t of targets) writeParameterValues(ctx, s.app_name, s.app_version, t.resource, t.parameters, "patch", s.comment ?? undefined);
  const next: ParameterSchedule =
    step === "schedule"
      ? { ...s, state: s.revert ? "scheduled-revert" : "completed", applied_at: ctx.now, applied_by: ctx.actor }
      : { ...s, state: "completed", reverted_at: ctx.now, reverted_by: ctx.actor };
  return table(ctx.store).put(s.id, next);
}

export function applySchedule(ctx: HandlerContext<{ schedule_id: string }, unknown, { type: Step }>): undefined {
  const s = requireSchedule(ctx.store, ctx.params.schedule_id);
  const step = ctx.body.type;
  if (s.state !== STATE_OF_STEP[step]) {
    throw badRequest(`body.type: '${step}' applies only to a schedule in state '${STATE_OF_STEP[step]}'; schedule ${s.id} is '${s.state}'`);
  }
  runStep(ctx, s, step);
  return undefined;
}

const SYSTEM_ACTOR = krnOf(SYSTEM_IDENTITY);

/** The step of a schedule that is due at `nowMs`, if any. */
function dueStep(s: ParameterSchedule, nowMs: number): Step | undefined {
  if (s.state === "scheduled" && Date.parse(s.scheduled_for) <= nowMs) return "schedule";
  if (s.state === "scheduled-revert" && s.revert && Date.parse(s.revert.scheduled_for) <= nowMs) return "schedule-revert";
  return undefined;
}

/** Applies the schedules whose time has come; a step that fails marks its schedule `error`. */
export const applyDueSchedules: Ticker = ({ store, now, nowMs }) => {
  const ctx: WriteContext = { store, now, actor: SYSTEM_ACTOR };
  for (const s of [...table(store).values()]) {
    const step = dueStep(s, nowMs);
    if (!step) continue;
    try {
      runStep(ctx, s, step);
    } catch (err) {
      const reason = err instanceof ApiError ? err.messages.join("; ") : String(err);
      table(store).put(s.id, { ...s, state: "error", error_msg: `applying '${step}' at ${now} failed: ${reason}` });
    }
  }
};
