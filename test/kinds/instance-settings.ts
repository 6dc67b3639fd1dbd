/** The instance settings: one declaration per program (a second add returns it), whose schedules are managed. */
import { instance } from "../../src/api/instance";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import fc from "fast-check";
import { some, bool, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import type { Args } from "../model/program";
import type { Rng } from "../model/rng";
import type { KindModel } from "./kind-model";
import { snake, snakeKeys } from "./platform-form";

function acpSettings(r: Rng): Args {
  const out: Args = {};
  for (const k of ["autoUpdate", "metrics", "status"]) if (r.chance(0.5)) out[k] = { enabled: r.chance(0.5), interval: r.int(1, 7200) };
  if (Object.keys(out).length === 0) out.metrics = { enabled: true, interval: r.int(1, 7200) };
  return out;
}

const model: KindModel = {
  add(w, r) {
    const existing = w.of("InstanceSettings")[0];
    if (existing) return existing;
    return w.push("InstanceSettings", { acp: acpSettings(r) }, "settings");
  },
  adopts: false,
  renames: false,
  updates(_w, _d, c) {
    c.set("acp", acpSettings);
  },
  // Only the declared schedules are managed; the others keep what the platform has.
  records: (a) => [{ table: TABLES.instanceSettings, id: "settings", fields: [["acp", snakeKeys(a.acp), "contained"]] }],
  id: () => "instance-settings",
  drift(a, _id, d) {
    const key = Object.keys(a.acp)[0];
    const current = a.acp[key] as { enabled: boolean; interval: number };
    d.edit("acp", `acp.${key}.interval`, (c) => c.call(instance.settingsUpdate, { body: { acp: { [snake(key)]: { ...current, interval: current.interval === 9 ? 10 : 9 } } } }));
  },
};

const schedule = some({ enabled: bool, interval: fc.integer({ min: 1, max: 604_800 }) });

const scenario: fc.Arbitrary<Scenario> = some({ autoUpdate: schedule, metrics: schedule, status: schedule }).map((acp) => () => [
  { kind: "InstanceSettings", name: "settings", args: { acp: acp as Args } },
]);

export const instanceSettings: KindTests = {
  model,
  scenario,
  args: { acp: {} },
  e2e: {
    retained: true,
    actions: ["update", "update"],
    program: (v) => void new svc.InstanceSettings("subject", { acp: { metrics: { enabled: true, interval: v === 0 ? 30 : v === 1 ? 45 : 60 } } }),
  },
  inPlantProgram: true,
  secret: {
    resource: "settings",
    args: [],
    noCanary: "its only arg, acp, holds booleans and numbers: the test makes it secret and checks that its echo `effective` is secret in the state",
    declare: ({ round, s }) => new svc.InstanceSettings("settings", { acp: s({ metrics: { enabled: true, interval: 40 + round } }) }),
  },
  allKinds: () => new svc.InstanceSettings("settings", { acp: { metrics: { enabled: true, interval: 45 }, status: { enabled: true, interval: 20 } } }),
};
