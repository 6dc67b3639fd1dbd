/**
 * Moving a stack from the dynamic resources (`pulumi-nodejs:dynamic/svc:<Kind>`) to the native
 * provider (`svc:index:<Kind>`) without a call to the platform, for a stack whose program does not
 * move in the same step (else an alias to the dynamic type on each native resource does it: README,
 * "Moving a stack from the dynamic resources"). Removing the dynamic resources from the program would
 * delete their objects; instead, the state moves:
 *
 * 1. `pulumi import --file` of the file `importFile` writes takes each object under its native type,
 *    with its id, its parent, and the inputs and outputs the dynamic resource holds in the state
 *    (the engine then trusts them and reads nothing: the program's declarations diff as they did);
 * 2. `pulumi state delete` of the URNs `dynamicUrns` lists drops the dynamic resources from the state,
 *    which calls no provider.
 *
 * Both read the stack as `pulumi stack export` writes it; secret values stay encrypted as the export
 * holds them, and `pulumi import` decrypts them with the stack's own secrets provider.
 * `pulumi-resource-svc import-file <exported stack> [--urns]` prints either (main.ts).
 */
import * as fs from "node:fs";
import { TYPE_TOKEN_PREFIX } from "../kind";
import { kinds } from "../kinds";
import { PACKAGE } from "./server";
import { urnName } from "../../pulumi/urn";

type Props = Record<string, unknown>;

/** A resource of an exported stack, as far as the move reads it. */
interface StateResource {
  urn: string;
  type: string;
  id?: string;
  parent?: string;
  /** Set on a resource a replacement left to be deleted. */
  delete?: boolean;
  inputs?: Props;
  outputs?: Props;
}

/** The stack as `pulumi stack export` writes it. */
export interface ExportedStack {
  deployment?: { resources?: StateResource[]; pending_operations?: unknown[] };
}

/** One resource of an import file (`pulumi import --file`). */
export interface ImportSpec {
  type: string;
  /** The name references in the file use (the parent of another); unique in the file. */
  name: string;
  /** The resource's name, where it is not `name`. */
  logicalName?: string;
  id: string;
  /** The parent, by its name in `nameTable` or in `resources`; none for the stack. */
  parent?: string;
  inputs: Props;
  outputs: Props;
}

/** The import file: parents outside the file by name, and the resources to import. */
export interface ImportFile {
  nameTable: Record<string, string>;
  resources: ImportSpec[];
}

/** The kind a dynamic svc resource's type names (`pulumi-nodejs:dynamic/svc:Asset`), if it is one. */
function dynamicKind(type: string): string | undefined {
  const kind = type.startsWith(TYPE_TOKEN_PREFIX) ? type.slice(TYPE_TOKEN_PREFIX.length) : undefined;
  return kind !== undefined && kinds[kind] ? kind : undefined;
}

/** The props without the dynamic provider's own (`__provider`, the hidden `__svcOwner`), which no native resource has. */
const userProps = (props: Props | undefined): Props => Object.fromEntries(Object.entries(props ?? {}).filter(([k]) => !k.startsWith("__")));

/** The dynamic svc resources of the stack, in the state's order (a parent before its children). */
function dynamicResources(stack: ExportedStack): StateResource[] {
  return (stack.deployment?.resources ?? []).filter((r) => dynamicKind(r.type) !== undefined);
}

/**
 * Why the stack cannot move as it stands: an operation the engine did not finish, or a dynamic
 * resource a replacement left to be deleted. Empty when it can.
 */
export function moveProblems(stack: ExportedStack): string[] {
  const problems: string[] = [];
  if (!stack.deployment) problems.push("the file holds no deployment: give it the output of `pulumi stack export`");
  if ((stack.deployment?.pending_operations ?? []).length > 0) {
    problems.push("the stack has operations the engine did not finish: run `pulumi refresh` (or `pulumi cancel`) first, then export it again");
  }
  for (const r of dynamicResources(stack).filter((r) => r.delete)) {
    problems.push(`${r.urn} is left to be deleted by a replacement: run \`pulumi up\` with the dynamic program first, then export the stack again`);
  }
  return problems;
}

/**
 * The import file that takes every dynamic svc resource of the stack under its native type: the same
 * name, parent, id, inputs and outputs. A parent outside the file (the program's components) is named
 * in `nameTable`; the stack itself is no parent to name.
 */
export function importFile(stack: ExportedStack): ImportFile {
  const resources = dynamicResources(stack);
  const root = (stack.deployment?.resources ?? []).find((r) => r.type === "pulumi:pulumi:Stack")?.urn;
  const names = new Map<string, string>();
  const taken = new Set<string>();
  /** A name not used yet in the file: the resource's own, else with the first free `#<n>` after it. */
  const unique = (name: string) => {
    let out = name;
    for (let n = 2; taken.has(out); n++) out = `${name}#${n}`;
    taken.add(out);
    return out;
  };
  for (const r of resources) names.set(r.urn, unique(urnName(r.urn)));
  const nameTable: Record<string, string> = {};
  const parentName = (urn: string | undefined): string | undefined => {
    if (urn === undefined || urn === root) return undefined;
    const known = names.get(urn);
    if (known !== undefined) return known;
    const name = unique(urnName(urn));
    names.set(urn, name);
    nameTable[name] = urn;
    return name;
  };
  const specs = resources.map((r): ImportSpec => {
    const name = names.get(r.urn)!;
    const logical = urnName(r.urn);
    const parent = parentName(r.parent);
    return {
      type: `${PACKAGE}:index:${dynamicKind(r.type)!}`,
      name,
      ...(logical !== name ? { logicalName: logical } : {}),
      id: r.id ?? "",
      ...(parent !== undefined ? { parent } : {}),
      inputs: userProps(r.inputs),
      outputs: userProps(r.outputs),
    };
  });
  return { nameTable, resources: specs };
}

/** The URNs of the stack's dynamic svc resources, for `pulumi state delete` once their native twins are imported. */
export function dynamicUrns(stack: ExportedStack): string[] {
  return dynamicResources(stack).map((r) => r.urn);
}

/**
 * `import-file <exported stack> [--urns]`: prints the import file (or, with `--urns`, the URNs of the
 * dynamic resources, one a line). Answers the exit code; a problem is told on stderr.
 */
export function importFileCommand(args: readonly string[]): number {
  const file = args.find((a) => !a.startsWith("--"));
  const unknown = args.filter((a) => a.startsWith("--") && a !== "--urns");
  if (file === undefined || unknown.length > 0) {
    process.stderr.write(`usage: pulumi-resource-svc import-file <file of \`pulumi stack export\`> [--urns]${unknown.length ? ` (unknown option ${unknown.join(", ")})` : ""}\n`);
    return 2;
  }
  let stack: ExportedStack;
  try {
    stack = JSON.parse(fs.readFileSync(file, "utf8")) as ExportedStack;
  } catch (e) {
    process.stderr.write(`pulumi-resource-svc import-file: cannot read ${file} as an exported stack: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const problems = moveProblems(stack);
  if (problems.length > 0) {
    process.stderr.write(problems.map((p) => `pulumi-resource-svc import-file: ${p}\n`).join(""));
    return 1;
  }
  process.stdout.write(
    args.includes("--urns")
      ? dynamicUrns(stack)
          .map((u) => `${u}\n`)
          .join("")
      : `${JSON.stringify(importFile(stack), null, 2)}\n`,
  );
  return 0;
}
