/**
 * Random programs over every kind and random edits to them. A `World` holds the program being
 * edited and a counter that keeps every platform name fresh within a run. Each edit is interpreted
 * from a seed against the current program (so a generated sequence of edits is valid whatever edits
 * shrinking removed before it): it picks its target among the declarations, adds what a new
 * resource needs (an asset needs a type, a workload an app version and a cluster), keeps references
 * valid (a removed resource takes with it what refers to it), and says in words what it did.
 */
import { byName, clone, declRefs, isRef, KINDS, plainArgs, type Args, type Decl, type KindName, type ProgramSpec, type Ref, type Value } from "./program";

/** A small seeded generator (mulberry32): the same seed gives the same choices. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
}

const ref = (name: string, out: string, prefix?: string): Ref => (prefix ? { $ref: name, out, prefix } : { $ref: name, out });

/** What an edit did, in words; undefined when it found nothing to do. */
export type Done = string | undefined;

/** The program being edited. */
export class World {
  spec: ProgramSpec = [];
  private counter = 0;

  fresh(prefix: string): string {
    return `${prefix}-${++this.counter}`;
  }
  number(): number {
    return ++this.counter;
  }
  of(kind: KindName): Decl[] {
    return this.spec.filter((d) => d.kind === kind);
  }
  get(name: string): Decl {
    return byName(this.spec, name);
  }
  snapshot(): ProgramSpec {
    return clone(this.spec);
  }
  private push(kind: KindName, args: Args, logical: string): Decl {
    const d: Decl = { kind, name: logical, args };
    this.spec.push(d);
    return d;
  }

  // -------------------------------------------------------------------------------------------
  // Prerequisites: an existing declaration of the kind, or a new one.

  private anyOf(kind: KindName, r: Rng, newChance = 0.25): Decl {
    const xs = this.of(kind);
    return xs.length === 0 || r.chance(newChance) ? this.add(kind, r) : r.pick(xs);
  }

  private appOf(v: Decl): string {
    return plainArgs(this.spec, v).appName as string;
  }
  private versionsOfApp(app: string): Decl[] {
    return this.of("AppVersion").filter((v) => this.appOf(v) === app);
  }

  // -------------------------------------------------------------------------------------------
  // Adding

  /** Adds a resource of `kind` (and what it needs); returns it. */
  add(kind: KindName, r: Rng): Decl {
    const n = this.number();
    switch (kind) {
      case "Cluster": {
        const args: Args = { name: `cluster-${n}` };
        if (r.chance(0.7)) args.title = `Cluster ${n}`;
        if (r.chance(0.3)) args.type = r.pick(["k3s", "docker", "kubernetes"]);
        if (r.chance(0.5)) args.ready = r.chance(0.5);
        if (r.chance(0.4)) args.telemetryScrapeInterval = r.int(1, 3600);
        if (r.chance(0.3)) args.forwardLogsBufferSize = r.int(1, 20);
        if (r.chance(0.2)) args.edgeOptions = { imagePullPolicy: r.pick(["Always", "IfNotPresent"]) };
        if (r.chance(0.2)) args.adopt = true;
        return this.push(kind, args, `cluster-${n}`);
      }
      case "AssetClass":
        return this.push(kind, { name: `class-${n}`, title: `Class ${n}`, ...(r.chance(0.2) ? { adopt: true } : {}) }, `class-${n}`);
      case "AssetType": {
        const args: Args = { name: `type-${n}`, title: `Type ${n}` };
        if (r.chance(0.6)) args.assetClassName = ref(this.anyOf("AssetClass", r).name, "name");
        return this.push(kind, args, `type-${n}`);
      }
      case "Asset": {
        const args: Args = { name: `asset-${n}`, title: `Asset ${n}`, assetTypeName: ref(this.anyOf("AssetType", r, 0.2).name, "name") };
        const assets = this.of("Asset");
        if (assets.length > 0 && r.chance(0.4)) args.parentName = ref(r.pick(assets).name, "name");
        if (r.chance(0.4)) args.location = { lat: r.int(-900, 900) / 10, lon: r.int(-1800, 1800) / 10 };
        if (r.chance(0.15)) args.adopt = true;
        return this.push(kind, args, `asset-${n}`);
      }
      case "AssetProperty": {
        const asset = this.anyOf("Asset", r, 0.2);
        const args: Args = { assetName: ref(asset.name, "name"), name: `prop_${n}`, value: propertyValue(r) };
        if (r.chance(0.5)) args.title = `Property ${n}`;
        return this.push(kind, args, `prop-${n}`);
      }
      case "AssetMetadata": {
        const asset = this.anyOf("Asset", r, 0.2);
        return this.push(kind, { assetName: ref(asset.name, "name"), name: `meta-${n}`, payload: payload(r, n) }, `meta-${n}`);
      }
      case "AppVersion": {
        const existing = this.of("AppVersion");
        // A further version of an app the program has, or the first version of a new app (which
        // comes with its App: see `remove` for why an app's versions and its App go together).
        if (existing.length > 0 && r.chance(0.4)) {
          const sibling = r.pick(existing);
          return this.push(kind, versionArgs(r, ref(sibling.name, "appName"), n), `version-${n}`);
        }
        const v = this.push(kind, versionArgs(r, `app-${n}`, n), `version-${n}`);
        this.push("App", appArgs(r, v.name, n), `app-${n}`);
        return v;
      }
      case "App": {
        // Every app of the program has its App (added with its first version): a new app then.
        const v = this.add("AppVersion", new Rng(r.int(1, 2 ** 31)));
        return this.of("App").find((a) => isRef(a.args.name) && a.args.name.$ref === v.name) ?? v;
      }
      case "Workload": {
        const v = this.anyOf("AppVersion", r, 0.2);
        const c = this.anyOf("Cluster", r, 0.2);
        const args: Args = { name: `wl-${n}`, appName: ref(v.name, "appName"), appVersion: ref(v.name, "version"), clusterName: ref(c.name, "name") };
        if (r.chance(0.5)) args.title = `Workload ${n}`;
        if (r.chance(0.6)) args.runtime = this.runtime(r);
        if (r.chance(0.3)) args.running = r.chance(0.5);
        if (r.chance(0.2)) args.enabled = r.chance(0.6);
        if (r.chance(0.15)) args.adopt = true;
        return this.push(kind, args, `wl-${n}`);
      }
      case "AppParameterValues": {
        const v = this.anyOf("AppVersion", r, 0.2);
        const taken = new Set(
          this.of("AppParameterValues")
            .filter((p) => isRef(p.args.appVersion) && p.args.appVersion.$ref === v.name)
            .map((p) => (p.args.resource as Ref).$ref),
        );
        const free = this.of("Asset").filter((a) => !taken.has(a.name));
        const asset = free.length > 0 && r.chance(0.8) ? r.pick(free) : this.add("Asset", r);
        const args: Args = {
          appName: ref(v.name, "appName"),
          appVersion: ref(v.name, "version"),
          resource: r.chance(0.3) ? ref(asset.name, "name", "krn:asset:") : ref(asset.name, "name"),
          values: parameterValues(r),
        };
        if (r.chance(0.3)) args.comment = `set by run ${n}`;
        return this.push(kind, args, `values-${n}`);
      }
      case "ParameterSchedule": {
        const v = this.anyOf("AppVersion", r, 0.2);
        const first = this.anyOf("Asset", r, 0.2);
        const others = this.of("Asset").filter((a) => a.name !== first.name);
        const assets = others.length > 0 && r.chance(0.4) ? [first, r.pick(others)] : [first];
        const args: Args = { appName: ref(v.name, "appName"), appVersion: ref(v.name, "version"), resources: assets.map((a) => ref(a.name, "name")), ...scheduleTiming(r, n) };
        if (r.chance(0.4)) args.comment = `schedule ${n}`;
        return this.push(kind, args, `schedule-${n}`);
      }
      case "Label":
        return this.push(kind, { name: `label-${n}`, title: `Label ${n}`, ...(r.chance(0.2) ? { adopt: true } : {}) }, `label-${n}`);
      case "DataLabel": {
        const label = this.anyOf("Label", r, 0.2);
        const start = Date.UTC(2030, r.int(0, 11), r.int(1, 28), r.int(0, 20));
        const args: Args = { labelName: ref(label.name, "name"), startDate: micros(start), endDate: micros(start + r.int(1, 3) * 3600_000) };
        if (r.chance(0.6)) args.description = `observation ${n}`;
        if (r.chance(0.5) && this.of("Asset").length > 0) args.metrics = [{ assetName: ref(r.pick(this.of("Asset")).name, "name"), name: r.pick(["vibration", "pressure"]) }];
        if (r.chance(0.4)) args.source = { type: "user" };
        if (r.chance(0.3)) args.confidence = r.int(0, 100);
        if (r.chance(0.3)) args.validation = r.chance(0.5);
        return this.push(kind, args, `datalabel-${n}`);
      }
      case "DataType": {
        const args: Args = {
          icd: { name: `model.type_${n}`, className: `Type${n}`, version: "1.0.0", fields: [{ name: "value", type: r.pick(["number", "string", "boolean"]) }] },
        };
        if (r.chance(0.15)) args.adopt = true;
        return this.push(kind, args, `datatype-${n}`);
      }
      case "Bridge": {
        const c = this.anyOf("Cluster", r, 0.2);
        const args: Args = { name: `br-${n}`, clusterName: ref(c.name, "name"), appName: "opcua-bridge", appVersion: "2.0.0", payload: { endpoint: `opc.tcp://plc-${n}:4840` } };
        if (r.chance(0.4)) (args.payload as Record<string, Value>).password = { $secret: `bridge-password-${n}` };
        if (r.chance(0.4)) args.protocol = "opcua";
        if (r.chance(0.3)) args.title = `Bridge ${n}`;
        return this.push(kind, args, `br-${n}`);
      }
      case "InstanceSettings": {
        const existing = this.of("InstanceSettings")[0];
        if (existing) return existing;
        return this.push(kind, { acp: acpSettings(r) }, "settings");
      }
    }
  }

  private runtime(r: Rng): Args {
    const assets = this.of("Asset");
    const chosen = assets.length > 0 ? [...new Set([r.pick(assets), r.pick(assets)])] : [];
    return { resources: chosen.map((a) => ({ resource: ref(a.name, "name", "krn:asset:") })), configuration: { sampleRateHz: r.int(1, 50), mode: r.pick(["fast", "slow"]) } };
  }

  // -------------------------------------------------------------------------------------------
  // Removing

  /** Removes `name` and everything that refers to it; an app's versions and its App go together. */
  remove(name: string): string[] {
    const target = this.get(name);
    if (target.kind === "AppVersion") this.repointApp(target);
    const doomed = new Set<string>([name]);
    for (let grew = true; grew;) {
      grew = false;
      for (const d of this.spec) {
        if (doomed.has(d.name)) continue;
        const follows =
          declRefs(d).some((x) => doomed.has(x)) ||
          // The App's destroy deletes the app with all its versions, and the platform keeps an app whose
          // last version was deleted: a program removes an app's versions and its App together.
          (d.kind === "AppVersion" && this.spec.some((a) => a.kind === "App" && doomed.has(a.name) && this.appOf(d) === plainArgs(this.spec, a).name)) ||
          (d.kind === "App" && this.versionsOfApp(plainArgs(this.spec, d).name as string).every((v) => doomed.has(v.name)));
        if (follows) {
          doomed.add(d.name);
          grew = true;
        }
      }
    }
    this.spec = this.spec.filter((d) => !doomed.has(d.name));
    return [...doomed];
  }

  /**
   * Before version `v` goes: what names its app through it (the App, the app's other versions, what
   * runs the app) names it through a surviving version instead, which then names the app itself.
   */
  private repointApp(v: Decl): void {
    const app = this.appOf(v);
    const survivor = this.versionsOfApp(app).find((x) => x.name !== v.name);
    if (!survivor) return;
    for (const d of this.spec) {
      for (const [k, x] of Object.entries(d.args)) if (isRef(x) && x.$ref === v.name && x.out === "appName") d.args[k] = ref(survivor.name, "appName");
    }
    survivor.args.appName = app;
  }

  // -------------------------------------------------------------------------------------------
  // Edits

  /** Picks a declaration (of one of `kinds`, if given) that `ok` accepts. */
  pickDecl(r: Rng, ok: (d: Decl) => boolean = () => true): Decl | undefined {
    const xs = this.spec.filter(ok);
    return xs.length ? r.pick(xs) : undefined;
  }

  addEdit(r: Rng): Done {
    const kind = r.pick(KINDS);
    const before = new Set(this.spec.map((d) => d.name));
    const d = this.add(kind, r);
    const added = this.spec.filter((x) => !before.has(x.name)).map((x) => `${x.kind} ${x.name}`);
    return added.length ? `add ${added.join(", ")}` : `add ${kind}: the program has its ${d.name} already`;
  }

  removeEdit(r: Rng): Done {
    const d = this.pickDecl(r);
    if (!d) return undefined;
    const gone = this.remove(d.name);
    return `remove ${d.kind} ${d.name}${gone.length > 1 ? ` (and what goes with it: ${gone.filter((g) => g !== d.name).join(", ")})` : ""}`;
  }

  /** Changes an arg that updates in place. */
  updateEdit(r: Rng): Done {
    const d = this.pickDecl(r, (x) => updaters(this, x).length > 0);
    if (!d) return undefined;
    const [what, apply] = r.pick(updaters(this, d));
    apply(r);
    return `update ${d.kind} ${d.name}: ${what}`;
  }

  /** Changes an arg that replaces the object. */
  replaceEdit(r: Rng): Done {
    const d = this.pickDecl(r, (x) => replacers(this, x).length > 0);
    if (!d) return undefined;
    const [what, apply] = r.pick(replacers(this, d));
    apply(r);
    return `replace ${d.kind} ${d.name}: ${what}`;
  }

  /** Gives a resource a new logical name, with the old one as its alias (its object stays). */
  renameEdit(r: Rng): Done {
    const d = this.pickDecl(r, (x) => x.kind !== "InstanceSettings");
    if (!d) return undefined;
    const old = d.name;
    const name = `${old.replace(/-r\d+$/, "")}-r${this.number()}`;
    for (const x of this.spec) {
      for (const [k, v] of Object.entries(x.args)) x.args[k] = renameRefs(v, old, name);
    }
    d.name = name;
    d.aliases = [...(d.aliases ?? []), old];
    return `rename ${d.kind} ${old} to ${name} (alias ${old})`;
  }

  adoptEdit(r: Rng): Done {
    const d = this.pickDecl(r, (x) => ADOPTING.includes(x.kind));
    if (!d) return undefined;
    if (d.args.adopt === true) delete d.args.adopt;
    else d.args.adopt = true;
    return `${d.args.adopt ? "set" : "drop"} adopt on ${d.kind} ${d.name}`;
  }

  moveWorkloadEdit(r: Rng): Done {
    const w = this.pickDecl(r, (x) => x.kind === "Workload");
    if (!w) return undefined;
    const current = (w.args.clusterName as Ref).$ref;
    const others = this.of("Cluster").filter((c) => c.name !== current);
    const target = others.length > 0 && r.chance(0.8) ? r.pick(others) : this.add("Cluster", r);
    w.args.clusterName = ref(target.name, "name");
    return `move Workload ${w.name} from ${current} to ${target.name}`;
  }

  runningEdit(r: Rng): Done {
    const w = this.pickDecl(r, (x) => x.kind === "Workload");
    if (!w) return undefined;
    w.args.running = !(w.args.running ?? true);
    return `${w.args.running ? "start" : "stop"} Workload ${w.name} (running: ${String(w.args.running)})`;
  }

  enabledEdit(r: Rng): Done {
    const w = this.pickDecl(r, (x) => x.kind === "Workload");
    if (!w) return undefined;
    w.args.enabled = !(w.args.enabled ?? true);
    return `${w.args.enabled ? "enable" : "disable"} Workload ${w.name} (enabled: ${String(w.args.enabled)})`;
  }
}

const ADOPTING: KindName[] = ["Cluster", "AssetClass", "AssetType", "Asset", "AssetProperty", "AssetMetadata", "AppVersion", "Workload", "Label", "DataType", "Bridge"];

function renameRefs(v: Value, from: string, to: string): Value {
  if (isRef(v)) return v.$ref === from ? { ...v, $ref: to } : v;
  if (Array.isArray(v)) return v.map((x) => renameRefs(x, from, to));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renameRefs(x, from, to)]));
  return v;
}

const micros = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

function propertyValue(r: Rng): Value {
  switch (r.int(0, 4)) {
    case 0:
      return r.int(-1000, 1000) / 4;
    case 1:
      return `text ${r.int(1, 99)}`;
    case 2:
      return r.chance(0.5);
    case 3:
      return [r.int(1, 9), r.int(1, 9)];
    default:
      return r.int(0, 500);
  }
}

function payload(r: Rng, n: number): Args {
  const p: Args = { make: r.pick(["ACME", "Globex", "Initech"]), nested: { serial: `S-${n}`, sizes: [r.int(1, 9), r.int(1, 9)] } };
  if (r.chance(0.3)) p.apiKey = { $secret: `metadata-key-${n}-${r.int(1000, 9999)}` };
  if (r.chance(0.3)) p.Mixed_Case = { keep: true };
  return p;
}

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

function appArgs(r: Rng, version: string, n: number): Args {
  const args: Args = { name: ref(version, "appName") };
  if (r.chance(0.7)) args.title = `App ${n}`;
  if (r.chance(0.4)) args.description = `The app of run ${n}`;
  if (r.chance(0.3)) args.category = r.pick(["monitoring", "analytics"]);
  return args;
}

function parameterValues(r: Rng): Args {
  const out: Args = {};
  if (r.chance(0.7)) out.threshold = r.int(1, 200);
  if (r.chance(0.5) || Object.keys(out).length === 0) out.mode = r.pick(["eco", "boost", "off"]);
  return out;
}

function scheduleTiming(r: Rng, n: number): Args {
  // A day of its own for each schedule: the platform refuses two that set a parameter at one time.
  const at = Date.UTC(2031, 0, 1) + n * 86_400_000 + r.int(0, 20) * 3600_000;
  const which = r.chance(0.5) ? "mode" : "threshold";
  const parameters: Args = which === "mode" ? { mode: r.pick(["eco", "boost"]) } : { threshold: r.int(1, 200) };
  const out: Args = { scheduledFor: new Date(at).toISOString().replace(".000Z", "Z"), parameters };
  return out;
}

function acpSettings(r: Rng): Args {
  const out: Args = {};
  for (const k of ["autoUpdate", "metrics", "status"]) if (r.chance(0.5)) out[k] = { enabled: r.chance(0.5), interval: r.int(1, 7200) };
  if (Object.keys(out).length === 0) out.metrics = { enabled: true, interval: r.int(1, 7200) };
  return out;
}

type Mutator = [string, (r: Rng) => void];

const set = (args: Args, key: string, value: Value): string => {
  const before = args[key];
  args[key] = value;
  return `${key} ${JSON.stringify(before ?? null)} -> ${JSON.stringify(value)}`;
};

/** Changes of `d` that the platform makes in place. */
function updaters(w: World, d: Decl): Mutator[] {
  const a = d.args;
  const out: Mutator[] = [];
  const m = (what: string, f: (r: Rng) => Value, key = what) => out.push([what, (r) => void set(a, key, f(r))]);
  const n = () => w.number();
  switch (d.kind) {
    case "Cluster":
      m("title", () => `Cluster ${n()}`);
      m("ready", () => !(a.ready ?? false));
      m("telemetryScrapeInterval", (r) => r.int(1, 3600));
      m("forwardLogsBufferSize", (r) => r.int(1, 20));
      m("edgeOptions", (r) => ({ imagePullPolicy: r.pick(["Always", "IfNotPresent"]) }));
      break;
    case "AssetClass":
    case "Label":
      m("title", () => `${d.kind} title ${n()}`);
      break;
    case "AssetType":
      m("title", () => `Type title ${n()}`);
      if (w.of("AssetClass").length > 0) m("assetClassName", (r) => ref(r.pick(w.of("AssetClass")).name, "name"));
      break;
    case "Asset": {
      m("title", () => `Asset title ${n()}`);
      m("assetTypeName", (r) => ref(r.pick(w.of("AssetType")).name, "name"));
      m("location", (r) => ({ lat: r.int(-900, 900) / 10, lon: r.int(-1800, 1800) / 10 }));
      const below = new Set<string>([d.name]);
      for (let grew = true; grew;) {
        grew = false;
        for (const x of w.of("Asset"))
          if (isRef(x.args.parentName) && below.has(x.args.parentName.$ref) && !below.has(x.name)) {
            below.add(x.name);
            grew = true;
          }
      }
      const parents = w.of("Asset").filter((x) => !below.has(x.name));
      if (parents.length > 0) m("parentName", (r) => ref(r.pick(parents).name, "name"));
      break;
    }
    case "AssetProperty":
      m("value", (r) => propertyValue(r));
      break;
    case "AssetMetadata":
      m("payload", (r) => payload(r, n()));
      break;
    case "AppVersion":
      m("image", () => `registry.local/app:${n()}`);
      m("defaults", (r) => ({ deployment: { maxResources: r.int(1, 20) } }));
      break;
    case "App":
      m("title", () => `App title ${n()}`);
      m("description", () => `Described ${n()}`);
      m("category", (r) => r.pick(["monitoring", "analytics", "quality"]));
      break;
    case "Workload": {
      m("title", () => `Workload title ${n()}`);
      m("runtime", (r) => ({ resources: [], configuration: { sampleRateHz: r.int(1, 50), mode: r.pick(["fast", "slow"]) } }));
      const app = (a.appName as Ref).$ref;
      const appName = plainArgs(w.spec, w.get(app)).appName;
      const siblings = w.of("AppVersion").filter((v) => plainArgs(w.spec, v).appName === appName && v.name !== (a.appVersion as Ref).$ref);
      if (siblings.length > 0) m("appVersion", (r) => ref(r.pick(siblings).name, "version"));
      if (a.enabled === false) m("enabled", () => true);
      break;
    }
    case "AppParameterValues":
      m("values", (r) => parameterValues(r));
      break;
    case "DataLabel":
      m("description", () => `observation ${n()}`);
      m("confidence", (r) => r.int(0, 100));
      m("validation", () => !(a.validation ?? false));
      m("endDate", (r) => micros(Date.parse(a.startDate as string) + r.int(1, 5) * 1800_000));
      if (w.of("Label").length > 1) m("labelName", (r) => ref(r.pick(w.of("Label")).name, "name"));
      break;
    case "InstanceSettings":
      m("acp", (r) => acpSettings(r));
      break;
    default:
      break;
  }
  return out;
}

/** Changes of `d` that replace its object. */
function replacers(w: World, d: Decl): Mutator[] {
  const a = d.args;
  const out: Mutator[] = [];
  const m = (what: string, f: (r: Rng) => Value, key = what) => out.push([what, (r) => void set(a, key, f(r))]);
  const n = () => w.number();
  const named = (prefix: string) => m("name", () => `${prefix}-${n()}`);
  switch (d.kind) {
    case "Cluster":
      named("cluster");
      // A cluster keeps its type for good (check refuses a new one): another type comes with another name.
      out.push([
        "name and type",
        () => {
          set(a, "name", `cluster-${n()}`);
          set(a, "type", a.type === "docker" ? "kubernetes" : "docker");
        },
      ]);
      break;
    case "AssetClass":
      named("class");
      break;
    case "AssetType":
      named("type");
      break;
    case "Asset":
      named("asset");
      break;
    case "Label":
      named("label");
      break;
    case "AssetProperty":
    case "AssetMetadata":
      m("name", () => `${d.kind === "AssetProperty" ? "prop" : "meta"}_${n()}`.replace("meta_", "meta-"));
      if (w.of("Asset").length > 1) m("assetName", (r) => ref(r.pick(w.of("Asset").filter((x) => x.name !== (a.assetName as Ref).$ref)).name, "name"));
      break;
    case "AppVersion": {
      // A new version: the old one goes once what ran it moved on.
      m("version", () => `2.${n()}.0`);
      // The same version with another title or manifest: deleted first, then made again. The platform
      // refuses to delete a version that workloads run, so only one that none runs.
      const runs = w.spec.some((x) => (x.kind === "Workload" || x.kind === "Bridge") && Object.values(x.args).some((v) => isRef(v) && v.$ref === d.name && v.out === "version"));
      if (!runs) {
        m("title", () => `Version title ${n()}`);
        m("description", () => `Described ${n()}`);
        out.push([
          "manifest (a further parameter)",
          (r) => void set(a, "manifest", { ...(a.manifest as Args), parameters: [...MANIFEST.parameters, { name: `gain_${n()}`, data_type: "number", default: r.int(1, 9) }] }),
        ]);
      }
      break;
    }
    case "Workload":
      m("name", () => `wl-${n()}`);
      if (a.enabled !== false) m("enabled", () => false);
      break;
    case "ParameterSchedule":
      out.push(["time and parameters", (r) => Object.assign(a, scheduleTiming(r, n()))]);
      m("comment", () => `schedule comment ${n()}`);
      break;
    case "DataType":
      out.push([
        "icd (a new version)",
        (r) => {
          const icd = a.icd as Args;
          a.icd = { ...icd, version: `1.${n()}.0`, fields: [{ name: "value", type: r.pick(["number", "string", "boolean"]) }] };
        },
      ]);
      break;
    case "Bridge":
      m("payload", (r) => ({ endpoint: `opc.tcp://plc-${n()}:4840`, ...(r.chance(0.3) ? { password: { $secret: `bridge-password-${n()}` } } : {}) }));
      m("title", () => `Bridge ${n()}`);
      break;
    default:
      break;
  }
  return out;
}
