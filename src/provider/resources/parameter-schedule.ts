/**
 * ParameterSchedule: parameter values applied to assets at a time, optionally reverted later. The API
 * has no update, so every input change replaces the schedule. A schedule whose time has passed (applied
 * or completed) is left as it is by later runs until its inputs change.
 */
import type * as pulumi from "@pulumi/pulumi";
import { schedules } from "../../api/schedules";
import { defineKind, type CheckFailure, type WireRecord } from "../kind";
import { SvcResource } from "../shim";
import { camel, convertKeys, deepEqual } from "../values";
import { isAssetRef, toAssetKrn } from "./refs";

type Scalar = string | number | boolean;

export interface ParameterScheduleArgs {
  appName: pulumi.Input<string>;
  appVersion: pulumi.Input<string>;
  /** RFC 3339 time, in the future when the schedule is created. */
  scheduledFor: pulumi.Input<string>;
  /** Asset names or KRNs (`krn:asset:<name>`). */
  resources: pulumi.Input<pulumi.Input<string>[]>;
  /** Parameter values applied to every listed resource. */
  parameters: pulumi.Input<Record<string, pulumi.Input<Scalar>>>;
  revert?: pulumi.Input<{
    scheduledFor: pulumi.Input<string>;
    resourceParameters: pulumi.Input<pulumi.Input<{ resource: pulumi.Input<string>; parameters: pulumi.Input<Record<string, pulumi.Input<Scalar>>> }>[]>;
  }>;
  comment?: pulumi.Input<string>;
}

interface Inputs {
  appName: string;
  appVersion: string;
  scheduledFor: string;
  resources: string[];
  parameters: Record<string, Scalar>;
  revert?: { scheduledFor: string; resourceParameters: Array<{ resource: string; parameters: Record<string, Scalar> }> };
  comment?: string;
  [k: string]: unknown;
}

const CLOCK_SKEW_MS = 60_000;

const OUTPUTS = ["state", "originalResourceParameters", "appliedAt", "appliedBy", "revertedAt", "revertedBy", "errorMsg", "createdAt", "createdBy"] as const;

function body(i: Inputs) {
  return {
    app_name: i.appName,
    app_version: i.appVersion,
    scheduled_for: i.scheduledFor,
    resources: i.resources.map(toAssetKrn),
    parameters: i.parameters,
    comment: i.comment,
    revert: i.revert && {
      scheduled_for: i.revert.scheduledFor,
      resource_parameters: i.revert.resourceParameters.map((rp) => ({ resource: toAssetKrn(rp.resource), parameters: rp.parameters })),
    },
  };
}

/** The revert must cover exactly the schedule's resources × parameters. */
function revertFailures(i: Inputs): CheckFailure[] {
  if (!i.revert) return [];
  const failures: CheckFailure[] = [];
  const at = Date.parse(i.scheduledFor);
  if (!(Date.parse(i.revert.scheduledFor) > at)) {
    failures.push({ property: "revert", reason: `revert.scheduledFor (${i.revert.scheduledFor}) must be after scheduledFor (${i.scheduledFor})` });
  }
  const wanted = new Set(i.resources.map(toAssetKrn));
  const names = Object.keys(i.parameters).sort();
  const seen = new Set<string>();
  for (const rp of i.revert.resourceParameters) {
    const krn = toAssetKrn(rp.resource);
    if (!wanted.has(krn)) failures.push({ property: "revert", reason: `revert.resourceParameters names ${rp.resource}, which is not among the schedule's resources` });
    if (seen.has(krn)) failures.push({ property: "revert", reason: `revert.resourceParameters names ${rp.resource} twice` });
    seen.add(krn);
    const got = Object.keys(rp.parameters).sort();
    if (!deepEqual(got, names)) failures.push({ property: "revert", reason: `revert for ${rp.resource} sets [${got.join(", ")}]; it must set exactly the scheduled parameters [${names.join(", ")}]` });
  }
  for (const krn of wanted) if (!seen.has(krn)) failures.push({ property: "revert", reason: `revert.resourceParameters has no entry for ${krn}` });
  return failures;
}

/** Reverts compare by instant (the platform renders times in its own form) and by values. */
function sameRevert(declared: ReturnType<typeof body>["revert"], stored: unknown): boolean {
  const s = stored as { scheduled_for?: string; resource_parameters?: unknown } | null;
  if (!declared || !s) return !declared && !s;
  return Date.parse(declared.scheduled_for) === Date.parse(s.scheduled_for ?? "") && deepEqual(declared.resource_parameters, s.resource_parameters);
}

export const parameterScheduleKind = defineKind<Inputs>({
  name: "ParameterSchedule",
  noun: "parameter schedule",
  args: {
    appName: {},
    appVersion: {},
    scheduledFor: {},
    resources: {},
    parameters: { compare: "exact" },
    revert: {},
    comment: {},
  },
  required: ["appName", "appVersion", "scheduledFor", "resources", "parameters"],
  replaceWhen: () => true,
  // The replacement would set the same parameters at the same time as the old schedule: delete first.
  deleteBeforeReplace: true,
  check(i, nowMs, olds) {
    const failures: CheckFailure[] = [];
    for (const r of i.resources) if (!isAssetRef(r)) failures.push({ property: "resources", reason: `resources: '${r}' is neither an asset name nor a KRN 'krn:asset:<name>'` });
    // A schedule the stack already holds keeps its (now past) time until its inputs change.
    const unchanged = olds !== undefined && deepEqual(olds, i);
    const at = Date.parse(i.scheduledFor);
    if (Number.isNaN(at)) failures.push({ property: "scheduledFor", reason: `scheduledFor: '${i.scheduledFor}' is not an RFC 3339 time` });
    else if (!unchanged && at <= nowMs) failures.push({ property: "scheduledFor", reason: `scheduledFor (${i.scheduledFor}) must be in the future` });
    if (Object.keys(i.parameters).length === 0) failures.push({ property: "parameters", reason: "parameters must set at least one parameter" });
    return [...failures, ...revertFailures(i)];
  },
  create: async ({ client }, i) => (await client.call(schedules.create, { body: body(i) as never })) as WireRecord,
  async findCreated({ client }, i, sinceMs) {
    // A schedule has no name: the one a lost create made is the newest schedule of the app version,
    // created since the create was sent (a minute of clock skew allowed), that matches every input.
    const wanted = body(i);
    const krns = [...wanted.resources].sort();
    for await (const s of client.paginate(schedules.list, { query: { sort_by: ["created_at"], direction: "desc", page_size: 100 }, body: { apps: [{ name: i.appName, version: i.appVersion }], states: ["scheduled"] } })) {
      const r = s as WireRecord;
      if (Date.parse(r.created_at as string) < sinceMs - CLOCK_SKEW_MS) break;
      const same =
        Date.parse(r.scheduled_for as string) === Date.parse(wanted.scheduled_for) &&
        deepEqual([...(r.resources as string[])].sort(), krns) &&
        deepEqual(r.parameters, wanted.parameters) &&
        (r.comment ?? undefined) === wanted.comment &&
        sameRevert(wanted.revert, r.revert);
      if (same) return r;
    }
    return undefined;
  },
  read: async ({ client }, id) => (await client.call(schedules.get, { params: { schedule_id: id } })) as WireRecord,
  async delete({ client }, id) {
    await client.call(schedules.delete, { params: { schedule_id: id } });
  },
  argsFromRecord(r, olds) {
    const sameResources = olds.resources !== undefined && deepEqual(olds.resources.map(toAssetKrn), r.resources);
    return {
      appName: r.app_name as string,
      appVersion: r.app_version as string,
      scheduledFor: olds.scheduledFor !== undefined && Date.parse(olds.scheduledFor) === Date.parse(r.scheduled_for as string) ? olds.scheduledFor : (r.scheduled_for as string),
      resources: sameResources ? olds.resources : (r.resources as string[]),
      parameters: r.parameters as Record<string, Scalar>,
      comment: (r.comment as string | undefined) ?? undefined,
      revert: olds.revert && sameRevert(body(olds).revert, r.revert) ? olds.revert : r.revert ? (convertKeys(r.revert, camel) as Inputs["revert"]) : undefined,
    };
  },
  outputs: (r) => ({
    state: r.state,
    originalResourceParameters: r.original_resource_parameters,
    appliedAt: r.applied_at,
    appliedBy: r.applied_by,
    revertedAt: r.reverted_at,
    revertedBy: r.reverted_by,
    errorMsg: r.error_msg,
    createdAt: r.created_at,
    createdBy: r.created_by,
  }),
});

export class ParameterSchedule extends SvcResource {
  declare readonly state: pulumi.Output<string>;
  declare readonly originalResourceParameters: pulumi.Output<Array<{ resource: string; parameters: Record<string, Scalar> }>>;
  declare readonly appliedAt: pulumi.Output<string | undefined>;
  declare readonly revertedAt: pulumi.Output<string | undefined>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: ParameterScheduleArgs, opts?: pulumi.CustomResourceOptions) {
    super("ParameterSchedule", name, args, OUTPUTS, opts);
  }
}
