/**
 * Program generation: a snapshot of a platform (a fixture document in the emulator's schema, as
 * `svc-emulator snapshot` writes it) becomes a readable TypeScript Pulumi program that declares every
 * object with `adopt: true`, so that its first `up` takes the objects over without changing them.
 *
 * - One file per area (assets.ts, clusters.ts, labels.ts, apps.ts, parameters.ts, workloads.ts, ...)
 *   and index.ts importing them; plus Pulumi.yaml, package.json and tsconfig.json.
 * - Logical names are the platform names (an app version `<app>-<version>`, parameter values
 *   `<app>-<version>-<asset>`); variables are their camelCase forms, a collision within a file
 *   resolved by the kind's name and then a number, in the order of the sorted platform names.
 * - References are outputs: an asset's type is `assetType.name`, its parent `parent.name`, a
 *   workload's app version the AppVersion's `version`, its cluster `cluster.name`.
 * - Sections the package has no resource for (compute nodes, which register themselves) are named in
 *   a comment of index.ts.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { kinds } from "../provider/resources";
import { camel, convertKeys } from "../provider/values";

export type Snapshot = Record<string, unknown>;
type Entry = Record<string, unknown>;

export interface GenerateOptions {
  /** Project name written in Pulumi.yaml and package.json (default "svc-plant"). */
  project?: string;
  /** Version range of pulumi-svc in package.json (default: this package's version, caret). */
  packageVersion?: string;
  /** Version range of @pulumi/pulumi in package.json (default: the range this package depends on). */
  pulumiVersion?: string;
}

/** The program's files, by relative path. */
export type GeneratedFiles = Record<string, string>;

/** Code that the emitter writes as is (a reference to another resource's output). */
class Code {
  constructor(readonly text: string) {}
}

interface Decl {
  file: string;
  variable: string;
  className: string;
  logicalName: string;
  args: Record<string, unknown>;
  comment?: string;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await pulumi svc".split(
    " ",
  ),
);

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
    throw new Error(`snapshot ${snapshotPath}: cannot be read as YAML: ${(e as Error).message}`, { cause: e });
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new Error(`snapshot ${snapshotPath}: not a YAML mapping of sections`);
  const files = generateProgram(doc as Snapshot, options);
  writeProgram(outDir, files);
  return files;
}

const entries = (doc: Snapshot, section: string): Entry[] => {
  const v = doc[section];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Error(`snapshot section ${section}: must be a list of entries, got ${JSON.stringify(v)}`);
  return v.filter((e): e is Entry => e !== null && typeof e === "object" && !Array.isArray(e));
};

const byName = (a: Entry, b: Entry) => String(a.name ?? "").localeCompare(String(b.name ?? ""));

/** The args of `kindName` from a platform record: each arg from its wire field, nested keys in camelCase. */
function argsFromRecord(kindName: string, record: Entry, skip: readonly string[] = []): Record<string, unknown> {
  const kind = kinds[kindName];
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(kind.args)) {
    if (spec.local || skip.includes(name)) continue;
    const v = record[spec.wire ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
    if (v === undefined || v === null) continue;
    out[name] = spec.nested
      ? convertKeys(
          v,
          camel,
          (spec.freeForm ?? []).map((p) => p.split(".").map(camel).join(".")),
        )
      : v;
  }
  return out;
}

/** The program for a snapshot: every object declared with `adopt: true` (where the kind takes an adopt). */
export function generateProgram(doc: Snapshot, options: GenerateOptions = {}): GeneratedFiles {
  const decls: Decl[] = [];
  const vars = new Map<string, Set<string>>();
  /** Resources by kind and platform name, for references. */
  const index = new Map<string, Decl>();
  const declare = (file: string, className: string, logicalName: string, args: Record<string, unknown>, comment?: string): Decl => {
    const taken = vars.get(file) ?? new Set<string>();
    vars.set(file, taken);
    const base = identifier(logicalName);
    let variable = base;
    if (taken.has(variable)) variable = `${base}${className}`;
    for (let n = 2; taken.has(variable); n++) variable = `${base}${className}${n}`;
    taken.add(variable);
    const withAdopt = "adopt" in kinds[className].args ? { ...args, adopt: true } : args;
    const d: Decl = { file, variable, className, logicalName, args: withAdopt, comment };
    decls.push(d);
    index.set(`${className}:${logicalName}`, d);
    return d;
  };
  /** A reference from `file` to an output of the declared resource, or the literal when it is not declared. */
  const ref = (from: string, className: string, name: unknown, output: string): unknown => {
    const d = typeof name === "string" ? index.get(`${className}:${name}`) : undefined;
    if (!d) return name;
    const owner = d.file === from ? d.variable : `${moduleVar(d.file)}.${d.variable}`;
    return new Code(`${owner}.${output}`);
  };

  for (const e of entries(doc, "asset_classes").sort(byName)) declare("assets", "AssetClass", String(e.name), argsFromRecord("AssetClass", e));
  for (const e of entries(doc, "asset_types").sort(byName)) {
    const args = argsFromRecord("AssetType", e);
    if (args.assetClassName !== undefined) args.assetClassName = ref("assets", "AssetClass", args.assetClassName, "name");
    declare("assets", "AssetType", String(e.name), args);
  }
  for (const e of parentsFirst(entries(doc, "assets").sort(byName))) {
    const args = argsFromRecord("Asset", e);
    args.assetTypeName = ref("assets", "AssetType", args.assetTypeName, "name");
    if (args.parentName !== undefined) args.parentName = ref("assets", "Asset", args.parentName, "name");
    declare("assets", "Asset", String(e.name), args);
  }
  for (const e of entries(doc, "clusters").sort(byName)) declare("clusters", "Cluster", String(e.name), argsFromRecord("Cluster", e));
  for (const e of entries(doc, "labels").sort(byName)) declare("labels", "Label", String(e.name), argsFromRecord("Label", e));
  const icdName = (e: Entry) => {
    const icd = (e.icd ?? {}) as Entry;
    return `${icd.name}-${icd.version ?? "0.0.1"}`;
  };
  for (const e of entries(doc, "data_types").sort((a, b) => icdName(a).localeCompare(icdName(b)))) declare("datatypes", "DataType", icdName(e), argsFromRecord("DataType", e));

  // Apps: one AppVersion per version (the first version makes the app); later versions name the app through the first.
  for (const app of entries(doc, "apps").sort(byName)) {
    const { versions, ...shared } = app;
    const list = (Array.isArray(versions) ? (versions as Entry[]) : [{}]).map((v) => ({ ...shared, ...v }));
    list.sort((a, b) => compareVersions(String(a.version ?? ""), String(b.version ?? "")));
    let first: Decl | undefined;
    for (const v of list) {
      const args = argsFromRecord("AppVersion", v, ["manifest"]);
      const manifest: Entry = {};
      for (const [k, x] of Object.entries(v)) if (!APP_VERSION_OWN.has(k) && x !== undefined && x !== null) manifest[k] = x;
      if (Object.keys(manifest).length > 0) args.manifest = manifest;
      if (first) args.appName = new Code(`${first.variable}.appName`);
      const d = declare("apps", "AppVersion", `${app.name}-${v.version}`, args);
      first ??= d;
    }
  }

  for (const pv of entries(doc, "parameter_values").sort((a, b) => `${a.app_name}@${a.app_version}`.localeCompare(`${b.app_name}@${b.app_version}`))) {
    const version = index.get(`AppVersion:${pv.app_name}-${pv.app_version}`);
    const rps = (Array.isArray(pv.resource_parameters) ? (pv.resource_parameters as Entry[]) : []).slice();
    rps.sort((a, b) => String(a.resource).localeCompare(String(b.resource)));
    for (const rp of rps) {
      const resource = String(rp.resource ?? "");
      const asset = resource.startsWith("krn:asset:") ? resource.slice("krn:asset:".length) : resource;
      const values: Record<string, unknown> = {};
      const comments: string[] = [];
      for (const p of (Array.isArray(rp.parameters) ? rp.parameters : []) as Entry[]) {
        values[String(p.name)] = p.value;
        if (typeof p.comment === "string") comments.push(`${p.name}: ${p.comment}`);
      }
      const args: Record<string, unknown> = {
        appName: version ? new Code(`${moduleVar(version.file)}.${version.variable}.appName`) : pv.app_name,
        appVersion: version ? new Code(`${moduleVar(version.file)}.${version.variable}.version`) : pv.app_version,
        resource: ref("parameters", "Asset", asset, "name"),
        values,
      };
      declare("parameters", "AppParameterValues", `${pv.app_name}-${pv.app_version}-${asset}`, args, comments.length ? `On the platform: ${comments.join("; ")}` : undefined);
    }
  }

  for (const e of entries(doc, "workloads").sort(byName)) {
    const args = argsFromRecord("Workload", e);
    const version = index.get(`AppVersion:${e.app_name}-${e.app_version}`);
    if (version) {
      args.appName = new Code(`${moduleVar(version.file)}.${version.variable}.appName`);
      args.appVersion = new Code(`${moduleVar(version.file)}.${version.variable}.version`);
    }
    if (args.clusterName !== undefined) args.clusterName = ref("workloads", "Cluster", args.clusterName, "name");
    if (e.stopped === true) args.running = false;
    declare("workloads", "Workload", String(e.name), args);
  }

  for (const e of entries(doc, "bridges").sort(byName)) {
    const args = argsFromRecord("Bridge", e);
    if (args.clusterName !== undefined) args.clusterName = ref("bridges", "Cluster", args.clusterName, "name");
    const version = index.get(`AppVersion:${e.app_name}-${e.app_version}`);
    if (version) {
      args.appName = new Code(`${moduleVar(version.file)}.${version.variable}.appName`);
      args.appVersion = new Code(`${moduleVar(version.file)}.${version.variable}.version`);
    }
    declare("bridges", "Bridge", String(e.name), args);
  }
  // The one settings record: a mapping (or a list of one).
  const settings = doc.instance_settings;
  const settingsEntry = Array.isArray(settings) ? (settings[0] as Entry | undefined) : (settings as Entry | undefined);
  if (settingsEntry && typeof settingsEntry === "object") declare("settings", "InstanceSettings", "instance-settings", argsFromRecord("InstanceSettings", settingsEntry));

  const skipped = Object.keys(doc).filter((s) => !HANDLED.has(s) && doc[s] !== undefined && doc[s] !== null);
  return {
    ...sourceFiles(decls, skipped),
    "Pulumi.yaml": pulumiYaml(options.project ?? "svc-plant"),
    "package.json": packageJson(options),
    "tsconfig.json": tsconfig(decls),
  };
}

const HANDLED = new Set(["asset_classes", "asset_types", "assets", "clusters", "labels", "data_types", "apps", "parameter_values", "workloads", "bridges", "instance_settings"]);

/** Why a section is not declared: objects whose platform-assigned id a program cannot name, so a create would make new ones. */
const NOT_DECLARED: Record<string, string> = {
  acps: "compute nodes register themselves",
  data_labels: "data labels have platform-assigned ids: declaring them would create new ones",
  schedules: "parameter schedules have platform-assigned ids: declaring them would schedule again",
};

/** Fields of an app version entry that are AppVersion args of their own (the rest is the manifest). */
const APP_VERSION_OWN = new Set(["name", "version", "type", "title", "description", "image", "defaults", "schemas", "category", "versions"]);

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? "";
    const y = pb[i] ?? "";
    const nx = Number(x);
    const ny = Number(y);
    const c = x !== "" && y !== "" && Number.isFinite(nx) && Number.isFinite(ny) ? nx - ny : x.localeCompare(y);
    if (c !== 0) return c;
  }
  return 0;
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

/** `line-1-filler` → `line1Filler`; a name starting with a digit or reserved gets a leading `_`. */
export function identifier(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  let id = words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join("");
  if (!id) id = "resource";
  if (/^[0-9]/.test(id) || RESERVED.has(id)) id = `_${id}`;
  return id;
}

const moduleVar = (file: string) => identifier(file);

/** A value as TypeScript: short values on one line, longer ones one entry per line, 2-space indents. */
export function literal(v: unknown, indent = 0): string {
  if (v instanceof Code) return v.text;
  if (v === undefined) return "undefined";
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  const pad = "  ".repeat(indent + 1);
  const end = "  ".repeat(indent);
  const items = Array.isArray(v)
    ? v.map((x) => literal(x, indent + 1))
    : Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => `${IDENT.test(k) ? k : JSON.stringify(k)}: ${literal(x, indent + 1)}`);
  const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
  if (items.length === 0) return `${open}${close}`;
  const oneLine = Array.isArray(v) ? `[${items.join(", ")}]` : `{ ${items.join(", ")} }`;
  if (!oneLine.includes("\n") && oneLine.length + indent * 2 <= 96) return oneLine;
  return `${open}\n${items.map((i) => `${pad}${i},`).join("\n")}\n${end}${close}`;
}

const FILE_TITLES: Record<string, string> = {
  assets: "Asset classes, asset types and the asset tree.",
  clusters: "Edge clusters (API v4 cannot delete a cluster: destroy releases it).",
  labels: "Labels.",
  datatypes: "Data types.",
  apps: "Apps and their versions.",
  parameters: "Parameter values per asset.",
  workloads: "Workloads.",
  bridges: "Bridges.",
  settings: "The instance settings (destroy restores the platform's defaults).",
};
const FILE_ORDER = ["assets", "clusters", "labels", "datatypes", "apps", "parameters", "workloads", "bridges", "settings"];

function sourceFiles(decls: Decl[], skipped: string[]): GeneratedFiles {
  const files: GeneratedFiles = {};
  const used = FILE_ORDER.filter((f) => decls.some((d) => d.file === f));
  for (const file of used) {
    const mine = decls.filter((d) => d.file === file);
    const body = mine
      .map((d) => `${d.comment ? `// ${d.comment}\n` : ""}export const ${d.variable} = new svc.${d.className}(${JSON.stringify(d.logicalName)}, ${literal(d.args)});`)
      .join("\n\n");
    const imports = used.filter((other) => other !== file && new RegExp(`\\b${moduleVar(other)}\\.`).test(body));
    const head = [
      `// ${FILE_TITLES[file]} Generated from a snapshot of the platform; every object is adopted.`,
      `import * as svc from "pulumi-svc";`,
      ...imports.map((o) => `import * as ${moduleVar(o)} from "./${o}";`),
    ];
    files[`${file}.ts`] = `${head.join("\n")}\n\n${body}\n`;
  }
  const notes = skipped.map((section) => `// Not declared: the snapshot's ${section}${NOT_DECLARED[section] ? ` (${NOT_DECLARED[section]})` : ""}.`);
  files["index.ts"] = [
    "// The platform under code: each area in a file of its own. Every resource has `adopt: true`: the",
    "// first `up` takes the existing objects over; review `adoption plan` output before applying.",
    ...notes,
    ...used.map((f) => `import "./${f}";`),
    "",
  ].join("\n");
  return files;
}

function pulumiYaml(project: string): string {
  return [
    `name: ${project}`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    typescript: true",
    "description: The platform's objects, generated from a snapshot and adopted",
    "",
  ].join("\n");
}

function ownPackage(): { version: string; pulumi: string } {
  try {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as {
      version?: string;
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    return { version: pkg.version ?? "*", pulumi: pkg.peerDependencies?.["@pulumi/pulumi"] ?? pkg.dependencies?.["@pulumi/pulumi"] ?? "^3.0.0" };
  } catch {
    return { version: "*", pulumi: "^3.0.0" };
  }
}

function packageJson(options: GenerateOptions): string {
  const own = ownPackage();
  const pkg = {
    name: options.project ?? "svc-plant",
    private: true,
    main: "index.ts",
    devDependencies: { "@types/node": "^22.0.0", typescript: "^5.0.0" },
    dependencies: { "@pulumi/pulumi": options.pulumiVersion ?? own.pulumi, "pulumi-svc": options.packageVersion ?? `^${own.version}` },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function tsconfig(decls: Decl[]): string {
  const files = [...FILE_ORDER.filter((f) => decls.some((d) => d.file === f)).map((f) => `${f}.ts`), "index.ts"];
  const config = {
    compilerOptions: {
      strict: true,
      outDir: "bin",
      target: "es2020",
      module: "commonjs",
      moduleResolution: "node",
      sourceMap: true,
      experimentalDecorators: true,
      pretty: true,
      noFallthroughCasesInSwitch: true,
      noImplicitReturns: true,
      forceConsistentCasingInFileNames: true,
    },
    files,
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
