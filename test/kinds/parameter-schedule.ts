/** Parameter schedules: parameters set on assets at a time; the platform names them (their id is the state's). */
import { schedules } from "../../src/api/schedules";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import { appVersion } from "./e2e-programs";
import fc from "fast-check";
import { text, bool, time, rfc3339, assetType, asset, version, parameterValues, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import { ref, type Args } from "../model/program";
import type { Rng } from "../model/rng";
import { record, type Field, type KindModel, type Rec } from "./kind-model";
import { krn } from "./platform-form";

function scheduleTiming(r: Rng, n: number): Args {
  // A day of its own for each schedule: the platform refuses two that set a parameter at one time.
  const at = Date.UTC(2031, 0, 1) + n * 86_400_000 + r.int(0, 20) * 3600_000;
  const which = r.chance(0.5) ? "mode" : "threshold";
  const parameters: Args = which === "mode" ? { mode: r.pick(["eco", "boost"]) } : { threshold: r.int(1, 200) };
  return { scheduledFor: new Date(at).toISOString().replace(".000Z", "Z"), parameters };
}

const model: KindModel = {
  add(w, r, n) {
    const v = w.anyOf("AppVersion", r, 0.2);
    const first = w.anyOf("Asset", r, 0.2);
    const others = w.of("Asset").filter((a) => a.name !== first.name);
    const assets = others.length > 0 && r.chance(0.4) ? [first, r.pick(others)] : [first];
    const args: Args = { appName: ref(v.name, "appName"), appVersion: ref(v.name, "version"), resources: assets.map((a) => ref(a.name, "name")), ...scheduleTiming(r, n) };
    if (r.chance(0.4)) args.comment = `schedule ${n}`;
    return w.push("ParameterSchedule", args, `schedule-${n}`);
  },
  adopts: false,
  replaces(w, d, c) {
    c.apply("time and parameters", (r) => Object.assign(d.args, scheduleTiming(r, w.number())));
    c.set("comment", () => `schedule comment ${w.number()}`);
  },
  records(a, stateId) {
    const revert: Field[] = a.revert
      ? [
          ["revert.scheduled_for", a.revert.scheduledFor, "instant"],
          ["revert.resource_parameters", a.revert.resourceParameters.map((rp: Rec) => ({ resource: krn(rp.resource), parameters: rp.parameters }))],
        ]
      : [];
    return [
      record(TABLES.schedules, stateId, [
        ["app_name", a.appName],
        ["app_version", a.appVersion],
        ["scheduled_for", a.scheduledFor, "instant"],
        ["resources", (a.resources as string[]).map(krn), "sorted"],
        ["parameters", a.parameters],
        ["comment", a.comment],
        ["state", "scheduled"],
        ...revert,
      ]),
    ];
  },
  // Only pending schedules: one that ran stays as history.
  table: { name: TABLES.schedules, identity: (r) => r.id, counts: (r) => r.state === "scheduled" || r.state === "scheduled-revert" },
  id: () => undefined,
  drift(_a, id, d) {
    if (id) d.del((c) => c.call(schedules.delete, { params: { schedule_id: id } }));
  },
};

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    at: time(),
    resources: fc.array(bool, { minLength: 1, maxLength: 2 }),
    parameters: parameterValues,
    revert: fc.option(fc.record({ after: fc.integer({ min: 60, max: 86_400 }), form: fc.constantFrom("Z", "ms", "us", "+02:00"), values: fc.array(parameterValues) }), {
      nil: undefined,
    }),
    comment: fc.option(text(60), { nil: undefined }),
  })
  .map(({ at, resources, parameters, revert, comment }) => (u) => {
    const refs = resources.map((krn, i) => ref(`a-${u}-${i}`, "name", krn ? "krn:asset:" : undefined));
    const args: Args = { appName: ref(`v-${u}`, "appName"), appVersion: ref(`v-${u}`, "version"), scheduledFor: rfc3339(at), resources: refs, parameters };
    if (comment !== undefined) args.comment = comment;
    if (revert) {
      // A revert sets exactly the scheduled parameters on every listed resource.
      const restore = (i: number): Args => Object.fromEntries(Object.keys(parameters).map((k) => [k, (revert.values[i] ?? parameters)[k] ?? parameters[k]]));
      args.revert = {
        scheduledFor: rfc3339({ ms: at.ms + revert.after * 1000, form: revert.form }),
        resourceParameters: refs.map((resource, i) => ({ resource, parameters: restore(i) })),
      };
    }
    return [...version(u), ...assetType(u), ...asset(u, resources.length), { kind: "ParameterSchedule", name: `s-${u}`, args }];
  });

export const parameterSchedule: KindTests = {
  model,
  scenario,
  args: { appName: "a", appVersion: "1.0.0", scheduledFor: "2030-01-01T00:00:00Z", resources: ["pump"], parameters: { x: 1 } },
  e2e: {
    actions: ["replace", "replace"],
    program: (v) => {
      const ver = appVersion();
      new svc.ParameterSchedule("subject", {
        appName: ver.appName,
        appVersion: ver.version,
        scheduledFor: "2031-01-01T22:00:00Z",
        resources: ["pump-1"],
        parameters: { mode: v === 2 ? "off" : "eco" },
        comment: v === 0 ? "night" : "night shift",
        revert: { scheduledFor: "2031-01-02T06:00:00Z", resourceParameters: [{ resource: "krn:asset:pump-1", parameters: { mode: "std" } }] },
      });
    },
  },
  inPlantProgram: true,
  secret: {
    resource: "schedule",
    args: ["parameters", "revert", "comment"],
    declare: ({ c, s, before }) =>
      new svc.ParameterSchedule(
        "schedule",
        {
          appName: before.AppVersion!.appName,
          appVersion: before.AppVersion!.version,
          scheduledFor: "2031-01-01T22:00:00Z",
          resources: ["pump-1"],
          parameters: s({ token: c("parameters") }),
          revert: s({ scheduledFor: "2031-01-02T06:00:00Z", resourceParameters: [{ resource: "pump-1", parameters: { token: c("revert") } }] }),
          comment: s(c("comment")),
        },
        { dependsOn: [before.AppParameterValues!] },
      ),
  },
  allKinds: "quickstart",
};
