/** ParameterSchedule: parameter values applied to assets at a time, optionally reverted later. */
import type * as pulumi from "@pulumi/pulumi";
import { ParametersScheduleCreate, schedules, type ParameterSchedule as ScheduleRecord } from "../../api/schedules";
import { declareKind, defineOutputs, echoes, type CheckFailure, type Conflicts, type KindContext, type Unchecked, output } from "../kind";
import { registerKind } from "../registry";
import { containsUnknown, deepEqual } from "../../pulumi/values";
import { sameInstant } from "../values";
import { isAssetRef, toAssetKrn } from "./refs";
import type { Resolved } from "../input-types";
import type { Scalar } from "./contract-types";
import { type BodyOf, type CamelCasedDeep, type Same, proves } from "../wire-types";

/** The types of a {@link ParameterSchedule}'s args as programs write them (their docs are the specs' below). */
interface ParameterScheduleArgTypes {
  appName: pulumi.Input<string>;
  appVersion: pulumi.Input<string>;
  scheduledFor: pulumi.Input<string>;
  resources: pulumi.Input<pulumi.Input<string>[]>;
  parameters: pulumi.Input<Record<string, pulumi.Input<Scalar>>>;
  revert?: pulumi.Input<{
    /** When the values are restored: an RFC 3339 time after the schedule's own `scheduledFor`. */
    scheduledFor: pulumi.Input<string>;
    /** The values to restore, one entry per listed resource (at most 10000). */
    resourceParameters: pulumi.Input<
      pulumi.Input<{
        /** The resource: an asset name or KRN (`krn:asset:<name>`) among the schedule's `resources`. */
        resource: pulumi.Input<string>;
        /** The values to restore: parameter name → number, string or boolean, exactly the scheduled parameters. */
        parameters: pulumi.Input<Record<string, pulumi.Input<Scalar>>>;
      }>[]
    >;
  }>;
  comment?: pulumi.Input<string>;
  adopt?: pulumi.Input<boolean>;
}

/** The args as the provider receives them. */
type Inputs = Resolved<ParameterScheduleArgTypes>;
type Body = BodyOf<typeof schedules.create>;
proves<Same<NonNullable<Inputs["revert"]>, CamelCasedDeep<NonNullable<Body["revert"]>, "resource_parameters.*.parameters">>>();

const CLOCK_SKEW_MS = 60_000;

/** A parameter schedule's computed outputs, read from the platform's record. */
const parameterScheduleOutputs = defineOutputs(schedules.get, {
  state: output("Where the schedule is: `scheduled` (waiting), `scheduled-revert` (applied, the revert waits), `completed` or `error`.", (r) => r.state),
  // The values the scheduled parameters had before: as secret as the values that replace them.
  originalResourceParameters: output(
    "The values the listed resources had before the schedule applied its own, per resource.",
    echoes(["parameters"], (r) => r.original_resource_parameters),
  ),
  appliedAt: output("When the values were applied (RFC 3339); unset until then.", (r) => r.applied_at ?? undefined),
  appliedBy: output("Who (or what) applied the values; unset until then.", (r) => r.applied_by ?? undefined),
  revertedAt: output("When the revert restored the values (RFC 3339); unset until then, and without a revert.", (r) => r.reverted_at ?? undefined),
  revertedBy: output("Who (or what) reverted the values; unset until then.", (r) => r.reverted_by ?? undefined),
  // The platform's reason may quote the values it could not apply.
  errorMsg: output(
    "Why applying or reverting failed, when the state is `error`.",
    echoes(["parameters", "revert"], (r) => r.error_msg ?? undefined),
  ),
  createdAt: output("When the schedule was created (RFC 3339).", (r) => r.created_at),
  createdBy: output("Who created the schedule.", (r) => r.created_by),
});

/** The revert as the wire carries it (asset references as KRNs). */
const revertBody = (revert: Inputs["revert"]) =>
  revert && {
    scheduled_for: revert.scheduledFor,
    resource_parameters: revert.resourceParameters.map((rp) => ({ resource: toAssetKrn(rp.resource), parameters: rp.parameters })),
  };

function body(i: Inputs) {
  return {
    app_name: i.appName,
    app_version: i.appVersion,
    scheduled_for: i.scheduledFor,
    resources: i.resources.map(toAssetKrn),
    parameters: i.parameters,
    comment: i.comment,
    revert: revertBody(i.revert),
  } satisfies Body;
}

/** The revert must cover exactly the schedule's resources × parameters. */
function revertFailures(i: Inputs): CheckFailure[] {
  if (!i.revert) return [];
  const failures: CheckFailure[] = [];
  const at = Date.parse(i.scheduledFor);
  if (!(Date.parse(i.revert.scheduledFor) > at)) {
    failures.push({ property: "revert", reason: `scheduledFor: must be after the schedule's own scheduledFor (${i.scheduledFor}), got ${i.revert.scheduledFor}` });
  }
  const wanted = new Set(i.resources.map(toAssetKrn));
  const names = Object.keys(i.parameters).sort();
  const seen = new Set<string>();
  for (const rp of i.revert.resourceParameters) {
    const krn = toAssetKrn(rp.resource);
    if (!wanted.has(krn)) failures.push({ property: "revert", reason: `resourceParameters: names ${rp.resource}, which is not among the schedule's resources` });
    if (seen.has(krn)) failures.push({ property: "revert", reason: `resourceParameters: names ${rp.resource} twice` });
    seen.add(krn);
    const got = Object.keys(rp.parameters).sort();
    if (!deepEqual(got, names))
      failures.push({
        property: "revert",
        reason: `resourceParameters: the entry for ${rp.resource} sets [${got.join(", ")}]; it must set exactly the scheduled parameters [${names.join(", ")}]`,
      });
  }
  for (const krn of wanted) if (!seen.has(krn)) failures.push({ property: "revert", reason: `resourceParameters: has no entry for ${krn}` });
  return failures;
}

/** Reverts compare by instant (the platform renders times in its own form) and by values, resources as KRNs. */
function sameRevert(declared: ReturnType<typeof revertBody>, s: { scheduled_for: string; resource_parameters: unknown } | null | undefined): boolean {
  if (!declared || !s) return !declared && !s;
  return sameInstant(declared.scheduled_for, s.scheduled_for) && deepEqual(declared.resource_parameters, s.resource_parameters);
}

/** Asset references compare as KRNs: a program may name an asset where the platform answers its KRN. */
const sameResources = (declared: string[], stated: unknown) =>
  deepEqual(
    declared.map((r) => toAssetKrn(r)),
    stated,
  );

// ---------------------------------------------------------------------------------------------
// Conflicts: the platform refuses (409) a schedule while another one still waiting to be applied sets
// one of the same parameters on one of the same assets of the app, whatever its version, at the same
// instant. Check reads the platform for such a schedule; the diffs of the run say which resource of
// the program holds it and whether the run replaces it (which deletes it first).

/** What a schedule sets where: the fields the platform's clash rule compares. */
interface Slot {
  appName: string;
  scheduledFor: string;
  resources: string[];
  parameters: string[];
}

const slotOf = (i: Inputs): Slot => ({ appName: i.appName, scheduledFor: i.scheduledFor, resources: i.resources.map(toAssetKrn), parameters: Object.keys(i.parameters) });
const recordSlot = (r: ScheduleRecord): Slot => ({ appName: r.app_name, scheduledFor: r.scheduled_for, resources: r.resources, parameters: Object.keys(r.parameters) });

/** The assets and parameters two schedules both set at the same instant of the same app; undefined when they do not clash. */
function clash(a: Slot, b: Slot): { resources: string[]; parameters: string[] } | undefined {
  if (a.appName !== b.appName || !sameInstant(a.scheduledFor, b.scheduledFor)) return undefined;
  const resources = a.resources.filter((r) => b.resources.includes(r));
  const parameters = a.parameters.filter((p) => b.parameters.includes(p));
  return resources.length && parameters.length ? { resources, parameters } : undefined;
}

/** Whether the platform's record is the object these inputs made (two equal pending schedules cannot coexist). */
function isObjectOf(i: Inputs, r: ScheduleRecord): boolean {
  const wanted = body(i);
  return (
    r.app_name === wanted.app_name &&
    r.app_version === wanted.app_version &&
    sameInstant(r.scheduled_for, wanted.scheduled_for) &&
    deepEqual([...r.resources].sort(), [...wanted.resources].sort()) &&
    deepEqual(r.parameters, wanted.parameters) &&
    (r.comment ?? undefined) === wanted.comment &&
    sameRevert(wanted.revert, r.revert)
  );
}

/**
 * Schedule id → the name of the resource of the program that holds it, from the diffs seen. A name
 * stays true while the schedule exists; whether that resource is replaced is known only in its own
 * diff (the kit's host serves several runs, so a diff seen earlier may be an earlier run's).
 */
const holders = new Map<string, string | undefined>();
/** Schedule id → the schedules of the program, checked before the resource holding that schedule was seen, that clash with it. */
const waiting = new Map<string, Array<{ name: string | undefined; inputs: Inputs }>>();

const listed = (xs: string[]) => xs.join(", ");
const named = (name: string | undefined) => (name ? `'${name}'` : "this schedule");
const overlapText = (o: { resources: string[]; parameters: string[] }, at: string) => `sets ${listed(o.parameters)} on ${listed(o.resources)} at ${at}`;

/** The advice when the holder's replacement frees the slot: the only order the engine keeps is a dependency. */
const dependOn = (creator: string | undefined, holder: string) =>
  `make ${named(creator)} depend on ${holder} (the resource option dependsOn) so that its replacement, which deletes the old schedule first, runs before this create`;
const separate = "change scheduledFor of one of them, or leave the shared assets or parameters out of one of them";

async function scheduleConflicts({ client }: KindContext, i: Inputs, olds: Inputs | undefined, name: string | undefined): Promise<Conflicts> {
  const mine = slotOf(i);
  const found: Conflicts = { failures: [], warnings: [] };
  const pending = client.paginate(schedules.list, {
    query: { page_size: 100 },
    body: { apps: [{ name: i.appName }], states: ["scheduled", "scheduled-revert"], resources: mine.resources, parameter_names: mine.parameters },
  });
  for await (const r of pending) {
    const overlap = clash(mine, recordSlot(r));
    if (!overlap) continue;
    const holder = holders.get(r.id);
    // The object these inputs made (an unchanged resource, or the one its own replacement deletes first).
    if ((olds && isObjectOf(olds, r)) || (name !== undefined && holder === name)) continue;
    const what = `ParameterSchedule ${named(name)}: schedule ${r.id} (app ${r.app_name} ${r.app_version}${holder ? `, resource '${holder}'` : ""}) already ${overlapText(overlap, r.scheduled_for)}, and the platform refuses a second schedule that does (409) while it waits`;
    if (holder) {
      found.warnings.push(
        `${what}. If this run replaces '${holder}' so that it no longer does, ${dependOn(name, `'${holder}'`)}; if '${holder}' keeps it, the up will fail: ${separate}.`,
      );
      continue;
    }
    const list = waiting.get(r.id) ?? [];
    waiting.set(r.id, [...list.filter((w) => w.name !== name), { name, inputs: i }]);
    found.warnings.push(
      `${what}. If a resource of this program holds that schedule and this run replaces it, ${dependOn(name, "that resource")}; ` +
        `if it belongs to a resource removed from the program, run up once without ${named(name)} first (removed resources are deleted last); otherwise delete that schedule or change scheduledFor.`,
    );
  }
  return found;
}

/** Whether a diff's new inputs are known whole (in preview, some may wait for other resources). */
const known = (news: Unchecked<Inputs>): news is Inputs =>
  !containsUnknown(news) && typeof news.appName === "string" && typeof news.scheduledFor === "string" && Array.isArray(news.resources) && typeof news.parameters === "object";

function noteScheduleDiff(id: string, news: Unchecked<Inputs>, name: string | undefined, replaced: boolean): string[] {
  const inputs = known(news) ? news : undefined;
  holders.set(id, name);
  const clashing = waiting.get(id) ?? [];
  waiting.delete(id);
  return clashing
    .filter((w) => w.name === undefined || w.name !== name)
    .map((w) => {
      const head = `ParameterSchedule ${named(w.name)}: schedule ${id} of '${name}' already sets a parameter it sets on the same asset at the same time, and the platform refuses it (409) while that schedule waits`;
      const stillClashes = inputs && clash(slotOf(w.inputs), slotOf(inputs));
      if (replaced && !stillClashes) return `${head}; this run replaces '${name}', so ${dependOn(w.name, `'${name}'`)}.`;
      return `${head}; ${replaced ? `the replacement of '${name}' sets it too` : `'${name}' keeps it in this run`}, so the up will fail: ${separate}.`;
    });
}

export const parameterScheduleKind = registerKind(
  declareKind<Inputs>()({
    name: "ParameterSchedule",
    platformTerm: "parameter schedule",
    doc: "Parameter values applied to assets at a time (`scheduledFor`), optionally reverted later. The platform assigns the schedule's id. The API has no update, so every argument change replaces the schedule, deleting the old one first. A schedule whose time has passed (applied or completed) is left as it is by later runs until its arguments change. Destroying it deletes the schedule. The preview warns when another waiting schedule already sets one of its parameters on one of its assets at the same time (the platform would refuse it), naming that schedule and what to do.",
    argsDoc: "The arguments of a {@link ParameterSchedule}. The API has no update: a change of any of them replaces the schedule (the old one is deleted first).",
    args: {
      appName: { rule: ParametersScheduleCreate.shape.app_name, doc: "The app whose parameters are set ({rule}). Changing it replaces the schedule.", required: true },
      appVersion: { doc: "The app version that declares the parameters, a semantic version such as `1.2.0`. Changing it replaces the schedule.", required: true },
      // The platform answers times in its own form (UTC, six fraction digits) and assets as KRNs.
      scheduledFor: {
        doc: "When the values are applied: an RFC 3339 time, in the future when the schedule is created (a schedule whose time has passed is left as it is until its arguments change). Changing it replaces the schedule.",
        required: true,
        equal: sameInstant,
      },
      resources: {
        doc: "The assets the values are applied to, 1–10000: asset names or KRNs (`krn:asset:<name>`). Changing it replaces the schedule.",
        required: true,
        equal: sameResources,
      },
      parameters: {
        doc: "The parameter values applied to every listed resource: parameter name → number, string or boolean; at least one. Changing it replaces the schedule.",
        required: true,
        compare: "exact",
        schema: ParametersScheduleCreate.shape.parameters,
      },
      revert: {
        doc: "Values to restore later: `scheduledFor` (after the schedule's own time) and `resourceParameters`, one entry per listed resource that sets exactly the scheduled parameters. Default: no revert. Changing it replaces the schedule.",
        nested: true,
        freeForm: ["resource_parameters.*.parameters"],
        schema: ParametersScheduleCreate.shape.revert,
        equal: (declared, stated) => {
          const s = stated as Inputs["revert"];
          return sameRevert(revertBody(declared), s && { scheduled_for: s.scheduledFor, resource_parameters: s.resourceParameters });
        },
      },
      comment: { rule: ParametersScheduleCreate.shape.comment, doc: "A comment stored with the schedule, {rule}; default: none. Changing it replaces the schedule." },
      adopt: {
        doc: "Take over a pending schedule (state `scheduled`) of the app version that states every declared argument instead of creating one: the platform assigns a schedule's id, so it is found by what it states (`generate` declares a snapshot's schedules so). Provider-side only (never sent); default `false`.",
        local: true,
      },
    },
    replaceWhen: () => true,
    // The replacement would set the same parameters at the same time as the old schedule: delete first.
    deleteBeforeReplace: true,
    check(i, nowMs, olds) {
      const failures: CheckFailure[] = [];
      for (const r of i.resources) if (!isAssetRef(r)) failures.push({ property: "resources", reason: `'${r}' is neither an asset name nor a KRN 'krn:asset:<name>'` });
      // A schedule the stack already holds keeps its (now past) time until its inputs change.
      const unchanged = olds !== undefined && deepEqual(olds, i);
      const at = Date.parse(i.scheduledFor);
      if (Number.isNaN(at)) failures.push({ property: "scheduledFor", reason: `must be an RFC 3339 time such as 2031-01-01T22:00:00Z, got '${i.scheduledFor}'` });
      else if (!unchanged && at <= nowMs)
        failures.push({ property: "scheduledFor", reason: `must be in the future, got '${i.scheduledFor}' (now is ${new Date(nowMs).toISOString()})` });
      if (Object.keys(i.parameters).length === 0) failures.push({ property: "parameters", reason: "must set at least one parameter, got {}" });
      return [...failures, ...revertFailures(i)];
    },
    create: async ({ client }, i) => await client.call(schedules.create, { body: body(i) }),
    async findCreated({ client }, i, sinceMs) {
      // A schedule has no name: the one a lost create made is the newest schedule of the app version,
      // created since the create was sent (a minute of clock skew allowed), that matches every input.
      const wanted = body(i);
      const krns = [...wanted.resources].sort();
      for await (const r of client.paginate(schedules.list, {
        query: { sort_by: ["created_at"], direction: "desc", page_size: 100 },
        body: { apps: [{ name: i.appName, version: i.appVersion }], states: ["scheduled"] },
      })) {
        if (Date.parse(r.created_at) < sinceMs - CLOCK_SKEW_MS) break;
        const same =
          sameInstant(r.scheduled_for, wanted.scheduled_for) &&
          deepEqual([...r.resources].sort(), krns) &&
          deepEqual(r.parameters, wanted.parameters) &&
          (r.comment ?? undefined) === wanted.comment &&
          sameRevert(wanted.revert, r.revert);
        if (same) return r;
      }
      return undefined;
    },
    conflicts: scheduleConflicts,
    noteDiff: noteScheduleDiff,
    endpoints: { read: schedules.get, delete: schedules.delete },
    outputs: parameterScheduleOutputs,
  }),
);
