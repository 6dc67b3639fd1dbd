/**
 * App versions. A program's first version of an app comes with the app's App (see `App`): the App's
 * destroy deletes the app with all its versions, and the platform keeps an app whose last version was
 * deleted, so a program adds and removes an app's versions and its App together.
 */
import { apps } from "../../src/api/apps";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import { manifest as e2eManifest } from "./e2e-programs";
import fc from "fast-check";
import { some, defined, text, bool, semver, defaultsOf, schemasOf, manifest, type Scenario } from "../robustness/kind-scenarios";
import { TABLES } from "../../src/emulator/store/tables";
import type { World } from "../model/generate";
import { clone, isRef, plainArgs, ref, type Args, type Decl, type Value } from "../model/program";
import type { Rng } from "../model/rng";
import { record, type KindModel, type Rec } from "./kind-model";
import { snakeKeys } from "./platform-form";

const MANIFEST = {
  io: [{ name: "pressure", data_type: "number", unit: "bar" }],
  parameters: [
    { name: "threshold", title: "Alarm threshold", data_type: "number", default: 80 },
    { name: "mode", title: "Operating mode", data_type: "string", default: "standard" },
  ],
};

function versionArgs(r: Rng, appName: Value, n: number): Args {
  const args: Args = { appName, version: `1.${n}.0`, type: "app", manifest: clone(MANIFEST) };
  if (r.chance(0.5)) args.title = `App title ${n}`;
  if (r.chance(0.3)) args.description = `Version ${n}`;
  if (r.chance(0.6)) args.image = `registry.local/app:${n}`;
  if (r.chance(0.4)) args.defaults = { deployment: { maxResources: r.int(1, 20) } };
  if (r.chance(0.15)) args.adopt = true;
  return args;
}

/** The args of the App that comes with the first version `version` of an app. */
function appArgs(r: Rng, version: string, n: number): Args {
  const args: Args = { name: ref(version, "appName") };
  if (r.chance(0.7)) args.title = `App ${n}`;
  if (r.chance(0.4)) args.description = `The app of run ${n}`;
  if (r.chance(0.3)) args.category = r.pick(["monitoring", "analytics"]);
  return args;
}

/** The app of version `v`. */
export const appOf = (w: World, v: Decl): string => plainArgs(w.spec, v).appName as string;
/** The versions of app `app`. */
export const versionsOfApp = (w: World, app: string): Decl[] => w.of("AppVersion").filter((v) => appOf(w, v) === app);

const model: KindModel = {
  add(w, r, n) {
    const existing = w.of("AppVersion");
    // A further version of an app the program has, or the first version of a new app with its App.
    if (existing.length > 0 && r.chance(0.4)) {
      const sibling = r.pick(existing);
      return w.push("AppVersion", versionArgs(r, ref(sibling.name, "appName"), n), `version-${n}`);
    }
    const v = w.push("AppVersion", versionArgs(r, `app-${n}`, n), `version-${n}`);
    w.push("App", appArgs(r, v.name, n), `app-${n}`);
    return v;
  },
  adopts: true,
  updates(w, _d, c) {
    c.set("image", () => `registry.local/app:${w.number()}`);
    c.set("defaults", (r) => ({ deployment: { maxResources: r.int(1, 20) } }));
  },
  replaces(w, d, c) {
    // A new version: the old one goes once what ran it moved on.
    c.set("version", () => `2.${w.number()}.0`);
    // The same version with another title or manifest: deleted first, then made again. The platform
    // refuses to delete a version that workloads run, so only one that none runs.
    const runs = w.spec.some((x) => (x.kind === "Workload" || x.kind === "Bridge") && Object.values(x.args).some((v) => isRef(v) && v.$ref === d.name && v.out === "version"));
    if (runs) return;
    c.set("title", () => `Version title ${w.number()}`);
    c.set("description", () => `Described ${w.number()}`);
    c.apply("manifest (a further parameter)", (r) => {
      d.args.manifest = { ...(d.args.manifest as Args), parameters: [...MANIFEST.parameters, { name: `gain_${w.number()}`, data_type: "number", default: r.int(1, 9) }] };
    });
  },
  // The app's App goes with it.
  goesWith: (w, d, doomed) => w.spec.some((a) => a.kind === "App" && doomed.has(a.name) && appOf(w, d) === plainArgs(w.spec, a).name),
  /**
   * Before version `v` goes: what names its app through it (the App, the app's other versions, what
   * runs the app) names it through a surviving version instead, which then names the app itself.
   */
  beforeRemove(w, v) {
    const app = appOf(w, v);
    const survivor = versionsOfApp(w, app).find((x) => x.name !== v.name);
    if (!survivor) return;
    for (const d of w.spec) {
      for (const [k, x] of Object.entries(d.args)) if (isRef(x) && x.$ref === v.name && x.out === "appName") d.args[k] = ref(survivor.name, "appName");
    }
    survivor.args.appName = app;
  },
  records(a) {
    const m = (a.manifest ?? {}) as Rec;
    return [
      record(TABLES.appVersions, `${a.appName}@${a.version}`, [
        ["type", a.type],
        ["title", a.title ?? m.title ?? a.appName],
        ["description", a.description ?? m.description ?? ""],
        // The resource sends an image reference in the current form, which the platform keeps.
        ["image", a.image === undefined ? undefined : { mode: "manual", uri: a.image }],
        ["defaults", a.defaults === undefined ? undefined : snakeKeys(a.defaults), "contained"],
        ["parameters", m.parameters, "contained"],
        ["io", m.io, "contained"],
      ]),
    ];
  },
  table: { name: TABLES.appVersions, identity: (r) => `${r.name}@${r.version}` },
  id: (a) => `${a.appName}@${a.version}`,
  drift(a, _id, d) {
    if (a.image !== undefined)
      d.edit("image", "image", (c) => c.call(apps.versionPatch, { params: { app_name: a.appName, app_version: a.version }, body: { image: "registry.local/elsewhere:1" } }));
  },
};

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    version: semver,
    type: fc.constantFrom("app", "importer", "exporter", "docker"),
    manifest: fc.option(manifest, { nil: undefined }),
    // Explicit args, which win over the manifest's fields of the same name.
    own: some({
      title: text(60),
      description: text(80),
      image: fc.stringMatching(/^reg\/app:1\.[0-9]\.[0-9]$/),
      defaults: defaultsOf(true),
      schemas: schemasOf(true),
      adopt: bool,
    }),
  })
  .map(({ version: v, type, manifest: m, own }) => (u) => [{ kind: "AppVersion", name: `v-${u}`, args: defined({ appName: `app-${u}`, version: v, type, ...own, manifest: m }) }]);

export const appVersion: KindTests = {
  model,
  scenario,
  args: { appName: "a", version: "1.0.0", type: "app" },
  e2e: {
    actions: ["update", "replace"],
    program: (v) =>
      void new svc.AppVersion("subject", {
        appName: "monitor",
        version: v === 2 ? "2.0.0" : "1.0.0",
        type: "app",
        manifest: e2eManifest,
        image: v === 0 ? "registry.local/monitor:1" : "registry.local/monitor:1b",
        defaults: { deployment: { maxResources: 5 }, app: { configuration: { SampleRate: 10 } } },
      }),
  },
  inPlantProgram: true,
  secret: {
    resource: "secret-version",
    args: ["title", "description", "image", "manifest"],
    declare: ({ c, s }) => {
      const manifest = { parameters: [{ name: "token", title: "Token", data_type: "string" as const, default: "none" }] };
      const base = new svc.AppVersion("base-version", { appName: "monitor", version: "1.0.0", type: "app", title: "Monitor", manifest });
      // A version nothing depends on, so that the new canaries of round 2 (which replace it) cost little.
      new svc.AppVersion("secret-version", {
        appName: base.appName,
        version: "9.0.0",
        type: "app",
        title: s(c("title")),
        description: s(c("description")),
        image: s(`registry.local/${c("image")}:1`),
        manifest: s({ parameters: [{ name: c("manifest"), title: "Secret", data_type: "string" as const, default: "none" }] }),
      });
      // The version the app, the workload, the values and the schedule build on.
      return base;
    },
  },
  allKinds: "quickstart",
};
