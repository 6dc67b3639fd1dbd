/**
 * The text of a generated program: TypeScript values and declarations, one file per area, the index
 * file (which lists what the program does not declare, and why), Pulumi.yaml, package.json and the
 * tsconfig.json of `pulumi new typescript`.
 */

/** Code that the emitter writes as is (a reference to another resource's output). */
export class Code {
  constructor(readonly text: string) {}
}

/** One resource the program declares. */
export interface Decl {
  /** The area's file, without `.ts`. */
  file: string;
  variable: string;
  className: string;
  logicalName: string;
  args: Record<string, unknown>;
  comment?: string;
}

/** A record of the snapshot, or part of one, that the program does not declare. */
export interface UndeclaredRecord {
  /** The snapshot's section. */
  section: string;
  /** What identifies the record in the section (its name, or its key fields when it has none). */
  record: string;
  /** The record's fields left out, when the rest of it is declared. */
  fields?: string[];
  /** Why a program cannot (or does not) declare it. */
  reason: string;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await pulumi svc".split(
    " ",
  ),
);

/** `line-1-filler` → `line1Filler`; a name starting with a digit or reserved gets a leading `_`. */
export function identifier(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  let id = words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join("");
  if (!id) id = "resource";
  if (/^[0-9]/.test(id) || RESERVED.has(id)) id = `_${id}`;
  return id;
}

/** The variable an area's module is imported as. */
export const moduleVar = (file: string) => identifier(file);

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
  assets: "Asset classes, asset types and the asset tree, with each asset's properties and metadata.",
  clusters: "Edge clusters (API v4 cannot delete a cluster: destroy releases it).",
  labels: "Labels.",
  datatypes: "Data types.",
  apps: "Apps and their versions.",
  parameters: "Parameter values per asset.",
  schedules: "Parameter schedules still to apply (each adopted as the pending schedule that states every argument).",
  workloads: "Workloads.",
  bridges: "Bridges.",
  settings: "The instance settings (destroy restores the platform's defaults).",
};
const FILE_ORDER = ["assets", "clusters", "labels", "datatypes", "apps", "parameters", "schedules", "workloads", "bridges", "settings"];

const filesUsed = (decls: readonly Decl[]) => FILE_ORDER.filter((f) => decls.some((d) => d.file === f));

/** The area files and index.ts. */
export function sourceFiles(decls: readonly Decl[], undeclared: readonly UndeclaredRecord[], install: string): Record<string, string> {
  const files: Record<string, string> = {};
  const used = filesUsed(decls);
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
  files["index.ts"] = [
    "// The platform under code: each area in a file of its own. Every resource has `adopt: true`: the",
    "// first `up` takes the existing objects over; review the `svc-emulator adopt-plan` output before applying.",
    `// ${install}`,
    ...undeclaredLines(undeclared),
    ...used.map((f) => `import "./${f}";`),
    "",
  ].join("\n");
  return files;
}

/** The index file's list of what is not declared: grouped by reason, one line per record. */
function undeclaredLines(undeclared: readonly UndeclaredRecord[]): string[] {
  if (undeclared.length === 0) return ["//", "// Every record of the snapshot is declared."];
  const lines = ["//", `// Not declared: ${undeclared.length} record(s) of the snapshot, or parts of them, by reason.`];
  const reasons = [...new Set(undeclared.map((u) => u.reason))];
  for (const reason of reasons) {
    lines.push(`// - ${reason}:`);
    for (const u of undeclared.filter((x) => x.reason === reason)) lines.push(`//     ${u.section} ${u.record}${u.fields ? `: ${u.fields.join(", ")}` : ""}`);
  }
  lines.push("");
  return lines;
}

export function pulumiYaml(project: string): string {
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

export interface PackageJsonOptions {
  project: string;
  /** What the program depends on for pulumi-svc (a version range, a git URL or a `file:` tarball). */
  packageSpec: string;
  pulumiVersion: string;
}

export function packageJson(options: PackageJsonOptions): string {
  const pkg = {
    name: options.project,
    private: true,
    main: "index.ts",
    devDependencies: { "@types/node": "^22.0.0", typescript: "^5.0.0" },
    dependencies: { "@pulumi/pulumi": options.pulumiVersion, "pulumi-svc": options.packageSpec },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** The tsconfig.json of `pulumi new typescript`, over the program's files. */
export function tsconfig(decls: readonly Decl[]): string {
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
    files: [...filesUsed(decls).map((f) => `${f}.ts`), "index.ts"],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
