/** Parameter values of an app version on one asset: one platform record per parameter. */
import { parameters } from "../../src/api/parameters";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import { pumpAsset, appVersion } from "./e2e-programs";
import fc from "fast-check";
import { defined, text, bool, assetType, asset, version, parameterValues as drawnValues, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import { isRef, ref, type Args, type Ref } from "../model/program";
import type { Rng } from "../model/rng";
import type { KindModel } from "./kind-model";
import { krn } from "./platform-form";

/** Values of the parameters of the model's app versions (threshold and mode). */
export function parameterValues(r: Rng): Args {
  const out: Args = {};
  if (r.chance(0.7)) out.threshold = r.int(1, 200);
  if (r.chance(0.5) || Object.keys(out).length === 0) out.mode = r.pick(["eco", "boost", "off"]);
  return out;
}

const model: KindModel = {
  add(w, r, n) {
    const v = w.anyOf("AppVersion", r, 0.2);
    // One declaration per version and asset.
    const taken = new Set(
      w
        .of("AppParameterValues")
        .filter((p) => isRef(p.args.appVersion) && p.args.appVersion.$ref === v.name)
        .map((p) => (p.args.resource as Ref).$ref),
    );
    const free = w.of("Asset").filter((a) => !taken.has(a.name));
    const asset = free.length > 0 && r.chance(0.8) ? r.pick(free) : w.add("Asset", r);
    const args: Args = {
      appName: ref(v.name, "appName"),
      appVersion: ref(v.name, "version"),
      resource: r.chance(0.3) ? ref(asset.name, "name", "krn:asset:") : ref(asset.name, "name"),
      values: parameterValues(r),
    };
    if (r.chance(0.3)) args.comment = `set by run ${n}`;
    return w.push("AppParameterValues", args, `values-${n}`);
  },
  adopts: false,
  updates(_w, _d, c) {
    c.set("values", parameterValues);
  },
  records: (a) =>
    Object.entries(a.values as Args).map(([name, value]) => ({
      table: TABLES.parameterValues,
      id: `${a.appName}@${a.appVersion}/${krn(a.resource)}#${name}`,
      fields: [["value", value]],
    })),
  table: { name: TABLES.parameterValues, identity: (r) => `${r.app_name}@${r.app_version}/${r.resource}#${r.name}` },
  id: (a) => `${a.appName}@${a.appVersion}/${krn(a.resource)}`,
  drift(a, _id, d) {
    const [name, value] = Object.entries(a.values as Record<string, unknown>)[0];
    const other = typeof value === "number" ? value + 1 : `${String(value)}-elsewhere`;
    d.edit("values", `value of ${name}`, (c) =>
      c.call(parameters.valuesUpdate, {
        params: { app_name: a.appName, app_version: a.appVersion },
        query: { patch: true },
        body: { resource_parameters: [{ resource: krn(a.resource), parameters: [{ name, value: other }] }] },
      }),
    );
  },
};

const scenario: fc.Arbitrary<Scenario> = fc.record({ values: drawnValues, krn: bool, comment: fc.option(text(40), { nil: undefined }) }).map(({ values, krn, comment }) => (u) => [
  ...version(u),
  ...assetType(u),
  ...asset(u),
  {
    kind: "AppParameterValues",
    name: `pv-${u}`,
    args: defined({
      appName: ref(`v-${u}`, "appName"),
      appVersion: ref(`v-${u}`, "version"),
      resource: ref(`a-${u}-0`, "name", krn ? "krn:asset:" : undefined),
      values,
      comment,
    }),
  },
]);

export const appParameterValues: KindTests = {
  model,
  scenario,
  args: { appName: "a", appVersion: "1.0.0", resource: "pump", values: { x: 1 } },
  e2e: {
    actions: ["update", "replace"],
    program: (v) => {
      const ver = appVersion();
      pumpAsset();
      new svc.AppParameterValues("subject", {
        appName: ver.appName,
        appVersion: ver.version,
        resource: v === 2 ? "pump-9" : "pump-1",
        values: v === 0 ? { threshold: 70 } : { threshold: 75, mode: "eco" },
      });
    },
  },
  inPlantProgram: true,
  secret: {
    resource: "values",
    args: ["values", "comment"],
    declare: ({ c, s, before }) =>
      new svc.AppParameterValues(
        "values",
        {
          appName: before.AppVersion!.appName,
          appVersion: before.AppVersion!.version,
          resource: before.Asset!.name,
          values: s({ token: c("values") }),
          comment: s(c("comment")),
        },
        { dependsOn: [before.Workload!] },
      ),
  },
  allKinds: "quickstart",
};
