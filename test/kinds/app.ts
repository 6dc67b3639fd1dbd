/** Apps: every app of a program has its App, added with the app's first version (see `AppVersion`). */
import { apps } from "../../src/api/apps";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import { appVersion } from "./e2e-programs";
import type fc from "fast-check";
import { some, text, version, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import { isRef, plainArgs, ref, type Args } from "../model/program";
import { Rng } from "../model/rng";
import { versionsOfApp } from "./app-version";
import { record, type KindModel } from "./kind-model";

const model: KindModel = {
  // A new app then, with its first version; returns its App.
  add(w, r) {
    const v = w.add("AppVersion", new Rng(r.int(1, 2 ** 31)));
    return w.of("App").find((a) => isRef(a.args.name) && a.args.name.$ref === v.name) ?? v;
  },
  adopts: false,
  updates(w, _d, c) {
    c.set("title", () => `App title ${w.number()}`);
    c.set("description", () => `Described ${w.number()}`);
    c.set("category", (r) => r.pick(["monitoring", "analytics", "quality"]));
  },
  // It goes with the last of its versions.
  goesWith: (w, d, doomed) => versionsOfApp(w, plainArgs(w.spec, d).name as string).every((v) => doomed.has(v.name)),
  records: (a) => [
    record(TABLES.apps, a.name, [
      ["title", a.title],
      ["description", a.description],
      ["category", a.category],
    ]),
  ],
  table: { name: TABLES.apps, identity: (r) => r.name },
  drift(a, _id, d) {
    if (a.title !== undefined) d.edit("title", "title", (c) => c.call(apps.patch, { params: { app_name: a.name }, body: { title: "Edited elsewhere" } }));
  },
};

const scenario: fc.Arbitrary<Scenario> = some({ title: text(60), description: text(80), category: text(30) }).map((own) => (u) => [
  ...version(u),
  { kind: "App", name: `app-${u}`, args: { name: ref(`v-${u}`, "appName"), ...(own as Args) } },
]);

export const app: KindTests = {
  model,
  scenario,
  args: { name: "a" },
  e2e: {
    actions: ["update", "update"],
    program: (v) => {
      const ver = appVersion();
      new svc.App("subject", { name: ver.appName, title: v === 0 ? "Monitor" : "Pump monitor", description: v === 2 ? "watches pumps" : undefined });
    },
  },
  inPlantProgram: false,
  secret: {
    resource: "app",
    args: ["title", "description"],
    declare: ({ c, s, before }) => new svc.App("app", { name: before.AppVersion!.appName, title: s(c("title")), description: s(c("description")) }),
  },
  allKinds: "quickstart",
};
