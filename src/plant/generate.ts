/**
 * Program generation: a snapshot of a platform (a fixture document in the emulator's schema, as
 * `svc-emulator snapshot` writes it) becomes a readable TypeScript Pulumi program that declares every
 * object with `adopt: true`, so that its first `up` takes the objects over without changing them.
 *
 * - Each record's args come from the kind's own record mapping (`argsOfRecord`, what an import reads),
 *   so the program declares what a refresh reads back. A field no arg takes, and a record no resource
 *   can declare, is listed in index.ts with the reason: nothing of the snapshot is dropped silently.
 * - One file per area (assets.ts, clusters.ts, labels.ts, apps.ts, parameters.ts, workloads.ts, ...)
 *   and index.ts importing them; plus Pulumi.yaml, package.json and tsconfig.json.
 * - Logical names are the platform names (an app version `<app>-<version>`, parameter values
 *   `<app>-<version>-<asset>`, an asset's property or metadata `<asset>/<name>`, a schedule, whose id
 *   the platform assigns, `<app>-<version>-at-<time>`); variables are their
 *   camelCase forms, a collision within a file resolved by the kind's name and then a number, in the
 *   order of the sorted platform names.
 * - References are outputs: an asset's type is `assetType.name`, its parent `parent.name`, a
 *   workload's app version the AppVersion's `version`, its cluster `cluster.name`.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import semver from "semver";
import { parse as parseYaml } from "yaml";
import { argsOfRecord, wireName } from "../provider/lifecycle";
import { kinds, type KindName } from "../provider/kinds";
import { deepEqual } from "../pulumi/values";
import { ownPackage, vendoredSpec, vendorPackage, VENDOR_DIR } from "./package-source";
import { Code, identifier, moduleVar, packageJson, pulumiYaml, sourceFiles, tsconfig, type Decl, type UndeclaredRecord } from "./program-text";
import { SvcError } from "../errors";

export { identifier, literal, type UndeclaredRecord } from "./program-text";
export { vendorPackage } from "./package-source";

export type Snapshot = Record<string, unknown>;
type Entry = Record<string, unknown>;

export interface GenerateOptions {
  /** Project name written in Pulumi.yaml and package.json (default "svc-plant"). */
  project?: string;
  /**
   * Where the program's package.json installs pulumi-svc from: a version range once the package is
   * published, a git URL, or a tarball (`file:...`). Default: `file:vendor/pulumi-svc-<version>.tgz`,
   * a tarball of the running package that `generateFromFile` packs into the program's folder
   * (`vendorPackage` does it for files written otherwise).
   */
  packageSpec?: string;
  /** Version range of @pulumi/pulumi in package.json (default: the range this package depends on). */
  pulumiVersion?: string;
}

/** The program's files, by relative path. */
export type GeneratedFiles = Record<string, string>;

/** The program, and what of the snapshot it does not declare (index.ts lists it too). */
export interface GeneratedProgram {
  files: GeneratedFiles;
  undeclared: UndeclaredRecord[];
}

/** Writes `files` under `dir` (created when missing). */
export function writeProgram(dir: string, files: GeneratedFiles): void {
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/** Reads a snapshot (YAML or JSON) and writes the program to `outDir`; returns the files written. */
export function generateFromFile(snapshotPath: string, outDir: string, options: GenerateOptions = {}): GeneratedFiles {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(snapshotPath, "utf8"));
  } catch (e) {
    throw new SvcError("SVC_SNAPSHOT_UNREADABLE", `snapshot ${snapshotPath}: cannot be read as YAML: ${(e as Error).message}`, { cause: e });
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new SvcError("SVC_SNAPSHOT_INVALID", `snapshot ${snapshotPath}: not a YAML mapping of sections`);
  const files = generateProgram(doc as Snapshot, options);
  writeProgram(outDir, files);
  if (options.packageSpec === undefined) vendorPackage(outDir);
  return files;
}

/** The program for a snapshot: every object declared with `adopt: true` (where the kind takes an adopt). */
export function generateProgram(doc: Snapshot, options: GenerateOptions = {}): GeneratedFiles {
  return planProgram(doc, options).files;
}

/** The program for a snapshot, with the list of what it does not declare. */
export function planProgram(doc: Snapshot, options: GenerateOptions = {}): GeneratedProgram {
  const b = new ProgramBuilder();
  for (const [section, build] of Object.entries(SECTIONS)) build(b, entries(doc, section));
  for (const section of Object.keys(doc).sort()) {
    if (section in SECTIONS || doc[section] === undefined || doc[section] === null) continue;
    b.leave(section, `(${entries(doc, section).length} entries)`, "the package has no resource for this section");
  }
  const own = ownPackage();
  const project = options.project ?? "svc-plant";
  const packageSpec = options.packageSpec ?? vendoredSpec(own);
  const install = packageSpec.startsWith(`file:${VENDOR_DIR}/`)
    ? `Install with \`npm install\`: package.json names pulumi-svc's tarball in ${VENDOR_DIR}/ (keep it with the program).`
    : `Install with \`npm install\` (pulumi-svc from ${packageSpec}).`;
  return {
    files: {
      ...sourceFiles(b.decls, b.undeclared, install),
      "Pulumi.yaml": pulumiYaml(project),
      "package.json": packageJson({ project, packageSpec, pulumiVersion: options.pulumiVersion ?? own.pulumi }),
      "tsconfig.json": tsconfig(b.decls),
    },
    undeclared: b.undeclared,
  };
}

const entries = (doc: Snapshot, section: string): Entry[] => {
  const v = doc[section];
  if (v === undefined || v === null) return [];
  // The instance settings may be one mapping rather than a list of one.
  if (section === "instance_settings" && typeof v === "object" && !Array.isArray(v)) return [v as Entry];
  if (!Array.isArray(v)) throw new SvcError("SVC_SNAPSHOT_INVALID", `snapshot section ${section}: must be a list of entries, got ${JSON.stringify(v)}`);
  return v.filter((e): e is Entry => e !== null && typeof e === "object" && !Array.isArray(e));
};

const byName = (a: Entry, b: Entry) => String(a.name ?? "").localeCompare(String(b.name ?? ""));

/** Semantic version order (1.0.0-rc.1 before 1.0.0); text order for what is not a semantic version. */
const byVersion = (a: string, b: string) => (semver.valid(a) && semver.valid(b) ? semver.compare(a, b) : a.localeCompare(b));

const isMapping = (v: unknown): v is Entry => v !== null && typeof v === "object" && !Array.isArray(v);

/** Reasons for fields no arg takes, by section and field; others get the default reason. */
const FIELD_REASONS: Record<string, string> = {
  "asset_types.metadata": "the package has no resource for an asset type's metadata; adopting leaves it as the platform holds it",
  "labels.metadata": "the package has no resource for a label's metadata; adopting leaves it as the platform holds it",
  "parameter_values.comment":
    "a parameter value's comment is write-only (AppParameterValues' `comment`): declaring it would write the values again at adoption; the platform keeps it",
};

/** Why whole records of a section are not declared. */
const RECORD_REASONS: Record<string, string> = {
  acps: "compute nodes register themselves",
  data_labels: "data labels have platform-assigned ids: declaring them would create new ones",
  app_resources: "the package has no resource for an app's asset bindings outside workloads; adopting leaves them as the platform holds them",
  parameter_defaults: "the package has no resource for parameter defaults; adopting leaves them as the platform holds them",
  apps: "an app's own title, description and category, where they differ from those of the version that created it: the App resource's create writes them (adopting must write nothing); declare a `svc.App` to manage them",
};

/** The declarations so far, the variables taken per file, and what is left out. */
class ProgramBuilder {
  readonly decls: Decl[] = [];
  readonly undeclared: UndeclaredRecord[] = [];
  private readonly vars = new Map<string, Set<string>>();
  /** Resources by kind and logical name, for references. */
  private readonly index = new Map<string, Decl>();

  declare(file: string, className: string, logicalName: string, args: Record<string, unknown>, comment?: string): Decl {
    const taken = this.vars.get(file) ?? new Set<string>();
    this.vars.set(file, taken);
    const base = identifier(logicalName);
    let variable = base;
    if (taken.has(variable)) variable = `${base}${className}`;
    for (let n = 2; taken.has(variable); n++) variable = `${base}${className}${n}`;
    taken.add(variable);
    const withAdopt = "adopt" in kinds[className].args ? { ...args, adopt: true } : args;
    const d: Decl = { file, variable, className, logicalName, args: withAdopt, comment };
    this.decls.push(d);
    this.index.set(`${className}:${logicalName}`, d);
    return d;
  }

  find(className: string, logicalName: string): Decl | undefined {
    return this.index.get(`${className}:${logicalName}`);
  }

  /** A reference from `file` to an output of a declared resource. */
  output(from: string, d: Decl, output: string): Code {
    return new Code(`${d.file === from ? d.variable : `${moduleVar(d.file)}.${d.variable}`}.${output}`);
  }

  /** A reference from `file` to an output of the resource declared for `name`, or the literal when there is none. */
  ref(from: string, className: string, name: unknown, output: string): unknown {
    const d = typeof name === "string" ? this.find(className, name) : undefined;
    return d ? this.output(from, d, output) : name;
  }

  /** A record, or some of its fields, that the program does not declare. */
  leave(section: string, record: string, reason: string, fields?: string[]): void {
    this.undeclared.push({ section, record, reason, ...(fields ? { fields } : {}) });
  }

  /**
   * The args of `className` for a snapshot entry, through the kind's own record mapping (with the
   * write-only args a create body holds), and the entry's fields no arg takes (null ones dropped).
   */
  mapped(className: string, entry: Entry): { args: Record<string, unknown>; rest: Entry } {
    const kind = kinds[className];
    const taken = new Set(Object.keys(kind.args).map((a) => wireName(kind, a)));
    const rest = Object.fromEntries(Object.entries(entry).filter(([k, v]) => !taken.has(k) && v !== undefined && v !== null));
    return { args: argsOfRecord(kind, entry, { writeOnly: true }), rest };
  }

  /** `mapped`, with the fields no arg takes (but `handled`) listed as left out, by reason. */
  argsOf(section: string, record: string, className: string, entry: Entry, handled: readonly string[] = []): Record<string, unknown> {
    const { args, rest } = this.mapped(className, entry);
    const byReason = new Map<string, string[]>();
    for (const [field, value] of Object.entries(rest)) {
      if (handled.includes(field)) continue;
      const reason = FIELD_REASONS[`${section}.${field}`] ?? `no arg of ${className} takes it; adopting leaves it as the platform holds it`;
      const names = field === "metadata" && isMapping(value) ? Object.keys(value).map((m) => `metadata ${m}`) : [field];
      byReason.set(reason, [...(byReason.get(reason) ?? []), ...names]);
    }
    for (const [reason, fields] of byReason) this.leave(section, record, reason, fields);
    return args;
  }
}

type SectionBuilder = (b: ProgramBuilder, list: Entry[]) => void;

/** Leaves every record of a section, identified by `name`, with the section's reason. */
const leaveAll =
  (section: string, name: (e: Entry) => string): SectionBuilder =>
  (b, list) => {
    for (const record of list.map(name).sort()) b.leave(section, record, RECORD_REASONS[section]);
  };

/** Each section the package knows, in the order the program declares them (later ones refer to earlier ones). */
const SECTIONS = {
  asset_classes: (b, list) => {
    for (const e of list.sort(byName)) b.declare("assets", "AssetClass", String(e.name), b.argsOf("asset_classes", String(e.name), "AssetClass", e));
  },
  asset_types: (b, list) => {
    for (const e of list.sort(byName)) {
      const args = b.argsOf("asset_types", String(e.name), "AssetType", e);
      if (args.assetClassName !== undefined) args.assetClassName = b.ref("assets", "AssetClass", args.assetClassName, "name");
      b.declare("assets", "AssetType", String(e.name), args);
    }
  },
  assets: (b, list) => {
    for (const e of parentsFirst(list.sort(byName))) {
      const name = String(e.name);
      const args = b.argsOf("assets", name, "Asset", e, ["properties", "metadata"]);
      args.assetTypeName = b.ref("assets", "AssetType", args.assetTypeName, "name");
      if (args.parentName !== undefined) args.parentName = b.ref("assets", "Asset", args.parentName, "name");
      const asset = b.declare("assets", "Asset", name, args);
      const properties = (Array.isArray(e.properties) ? (e.properties as Entry[]) : []).filter(isMapping).sort(byName);
      for (const p of properties) {
        const own = b.argsOf("assets", `${name} property ${String(p.name)}`, "AssetProperty", { ...p, asset_name: name });
        b.declare("assets", "AssetProperty", `${name}/${String(p.name)}`, { ...own, assetName: b.output("assets", asset, "name") });
      }
      const metadata = isMapping(e.metadata) ? Object.entries(e.metadata).sort(([x], [y]) => x.localeCompare(y)) : [];
      for (const [key, payload] of metadata) {
        const own = b.argsOf("assets", `${name} metadata ${key}`, "AssetMetadata", { asset_name: name, name: key, payload });
        b.declare("assets", "AssetMetadata", `${name}/${key}`, { ...own, assetName: b.output("assets", asset, "name") });
      }
    }
  },
  clusters: (b, list) => {
    for (const e of list.sort(byName)) b.declare("clusters", "Cluster", String(e.name), b.argsOf("clusters", String(e.name), "Cluster", e));
  },
  acps: leaveAll("acps", (e) => String(e.name)),
  labels: (b, list) => {
    for (const e of list.sort(byName)) b.declare("labels", "Label", String(e.name), b.argsOf("labels", String(e.name), "Label", e));
  },
  data_labels: leaveAll("data_labels", (e) => `${String(e.label_name)} from ${String(e.start_date)}`),
  data_types: (b, list) => {
    const icdName = (e: Entry) => {
      const icd = isMapping(e.icd) ? e.icd : {};
      return `${String(icd.name)}-${String(icd.version ?? "0.0.1")}`;
    };
    for (const e of list.sort((x, y) => icdName(x).localeCompare(icdName(y)))) b.declare("datatypes", "DataType", icdName(e), b.argsOf("data_types", icdName(e), "DataType", e));
  },
  apps: (b, list) => {
    for (const app of list.sort(byName)) appVersions(b, app);
  },
  parameter_defaults: leaveAll("parameter_defaults", (e) => `${String(e.app_name)} ${String(e.app_version)}`),
  parameter_values: (b, list) => {
    const key = (e: Entry) => `${String(e.app_name)}@${String(e.app_version)}`;
    for (const pv of list.sort((x, y) => key(x).localeCompare(key(y)))) parameterValues(b, pv);
  },
  schedules: (b, list) => {
    // The platform assigns a schedule's id: the logical name is its app version and time (and a
    // number when several share them), and `adopt` takes over the pending schedule stating every arg.
    const name = (e: Entry) => `${String(e.app_name)}-${String(e.app_version)}-at-${String(e.scheduled_for).replace(/[:.]/g, "")}`;
    const taken = new Map<string, number>();
    for (const e of list.sort((x, y) => name(x).localeCompare(name(y)))) {
      const n = (taken.get(name(e)) ?? 0) + 1;
      taken.set(name(e), n);
      const logical = n === 1 ? name(e) : `${name(e)}-${n}`;
      const args = b.argsOf("schedules", `${String(e.app_name)} ${String(e.app_version)} at ${String(e.scheduled_for)}`, "ParameterSchedule", e);
      refAppVersion(b, "schedules", args);
      b.declare("schedules", "ParameterSchedule", logical, args);
    }
  },
  workloads: (b, list) => {
    for (const e of list.sort(byName)) {
      const args = b.argsOf("workloads", String(e.name), "Workload", e, ["stopped"]);
      refAppVersion(b, "workloads", args);
      if (args.clusterName !== undefined) args.clusterName = b.ref("workloads", "Cluster", args.clusterName, "name");
      // The fixture's query flag: created stopped.
      if (e.stopped === true) args.running = false;
      b.declare("workloads", "Workload", String(e.name), args);
    }
  },
  bridges: (b, list) => {
    for (const e of list.sort(byName)) {
      const args = b.argsOf("bridges", String(e.name), "Bridge", e);
      if (args.clusterName !== undefined) args.clusterName = b.ref("bridges", "Cluster", args.clusterName, "name");
      refAppVersion(b, "bridges", args);
      b.declare("bridges", "Bridge", String(e.name), args);
    }
  },
  app_resources: leaveAll("app_resources", (e) => `${String(e.app_name)} (${e.enabled === false ? "disabled" : "enabled"})`),
  // The one settings record.
  instance_settings: (b, list) => {
    if (list[0]) b.declare("settings", "InstanceSettings", "instance-settings", b.argsOf("instance_settings", "settings", "InstanceSettings", list[0]));
    for (const extra of list.slice(1)) b.leave("instance_settings", JSON.stringify(extra), "a platform has one settings record: only the first entry is declared");
  },
} satisfies Record<string, SectionBuilder>;

/**
 * The snapshot section each kind's objects are declared from, or why a program declares none: keyed
 * by every kind (the public classes), so that a kind without its entry here fails the type-check.
 */
export const KIND_SECTIONS: Record<KindName, keyof typeof SECTIONS | { none: string }> = {
  AssetClass: "asset_classes",
  AssetType: "asset_types",
  Asset: "assets",
  AssetProperty: "assets",
  AssetMetadata: "assets",
  Cluster: "clusters",
  Label: "labels",
  DataLabel: { none: RECORD_REASONS.data_labels },
  DataType: "data_types",
  App: { none: "an app is made by its first version: the program declares the versions (AppVersion)" },
  AppVersion: "apps",
  AppParameterValues: "parameter_values",
  ParameterSchedule: "schedules",
  Workload: "workloads",
  Bridge: "bridges",
  InstanceSettings: "instance_settings",
};

/** An app's appName and appVersion args as references to its declared AppVersion, when there is one. */
function refAppVersion(b: ProgramBuilder, from: string, args: Record<string, unknown>): void {
  const version = b.find("AppVersion", `${String(args.appName)}-${String(args.appVersion)}`);
  if (!version) return;
  args.appName = b.output(from, version, "appName");
  args.appVersion = b.output(from, version, "version");
}

/** App-level fields a version takes from its app unless it has its own. */
const APP_LEVEL = ["title", "description", "category"];

/**
 * One AppVersion per version, in semantic version order: the first creates the app, later ones name
 * it through the first. A version's fields that are no AppVersion arg are its manifest.
 */
function appVersions(b: ProgramBuilder, app: Entry): void {
  const { versions, ...shared } = app;
  const list = (Array.isArray(versions) ? (versions as unknown[]).filter(isMapping) : [{}]).map((v) => ({ ...shared, ...v }));
  list.sort((x, y) => byVersion(String(x.version ?? ""), String(y.version ?? "")));
  let first: Decl | undefined;
  for (const v of list) {
    const { args, rest } = b.mapped("AppVersion", v);
    if (Object.keys(rest).length > 0) args.manifest ??= rest;
    if (first) args.appName = b.output("apps", first, "appName");
    const d = b.declare("apps", "AppVersion", `${String(app.name)}-${String(v.version)}`, args);
    first ??= d;
  }
  // The app took its fields from the version that created it; the platform may hold others since.
  const differing = list.length > 0 ? APP_LEVEL.filter((k) => shared[k] !== undefined && !deepEqual(shared[k], list[0][k])) : [];
  if (differing.length > 0) b.leave("apps", String(app.name), RECORD_REASONS.apps, differing);
}

/** One AppParameterValues per app version and asset, through the kind's mapping of a values record. */
function parameterValues(b: ProgramBuilder, pv: Entry): void {
  const { app_name, app_version, resource_parameters, ...others } = pv;
  const which = `${String(app_name)} ${String(app_version)}`;
  for (const [field] of Object.entries(others).filter(([, v]) => v !== undefined && v !== null)) {
    b.leave("parameter_values", which, "no arg of AppParameterValues takes it; adopting leaves it as the platform holds it", [field]);
  }
  const version = b.find("AppVersion", `${String(app_name)}-${String(app_version)}`);
  const rps = (Array.isArray(resource_parameters) ? (resource_parameters as unknown[]).filter(isMapping) : []).slice();
  rps.sort((x, y) => String(x.resource).localeCompare(String(y.resource)));
  for (const rp of rps) {
    const params = (Array.isArray(rp.parameters) ? rp.parameters : []).filter(isMapping);
    const values = Object.fromEntries(params.map((p) => [String(p.name), p.value]));
    const commented = params.filter((p) => typeof p.comment === "string");
    const comments = commented.map((p) => `${String(p.name)}: ${String(p.comment)}`);
    const { args } = b.mapped("AppParameterValues", { app_name, app_version, resource: rp.resource, values });
    const asset = String(args.resource);
    if (commented.length > 0)
      b.leave(
        "parameter_values",
        `${which} ${asset}`,
        FIELD_REASONS["parameter_values.comment"],
        commented.map((p) => `comment of ${String(p.name)}`),
      );
    if (version) {
      args.appName = b.output("parameters", version, "appName");
      args.appVersion = b.output("parameters", version, "version");
    }
    args.resource = b.ref("parameters", "Asset", asset, "name");
    b.declare(
      "parameters",
      "AppParameterValues",
      `${String(app_name)}-${String(app_version)}-${asset}`,
      args,
      comments.length ? `On the platform: ${comments.join("; ")}` : undefined,
    );
  }
}

/** Assets with every parent before its children, otherwise in the given order. */
function parentsFirst(list: Entry[]): Entry[] {
  const named = new Map(list.map((e) => [e.name, e]));
  const out: Entry[] = [];
  const seen = new Set<Entry>();
  const visit = (e: Entry) => {
    if (seen.has(e)) return;
    seen.add(e);
    const parent = named.get(e.asset_parent_name);
    if (parent) visit(parent);
    out.push(e);
  };
  list.forEach(visit);
  return out;
}
