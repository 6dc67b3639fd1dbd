/**
 * A plan (or a run) as a reviewer reads it: per resource, old => new values by property path, the
 * inputs of a create, the properties that force a replacement, secrets masked. As text for a terminal
 * (what `pulumi preview --diff` prints) or as Markdown for a pull-request comment.
 */
import { isChange, verb, type OperationKind, type OperationReport, type RunKind, type RunResult } from "./engine/report";
import { deepEqual, UNKNOWN } from "../pulumi/values";
import { isObject, isSecret, OUTPUT_SIG, RESOURCE_SIG, SIG_KEY } from "./engine/values";

export type RenderFormat = "text" | "markdown";

export interface RenderOptions {
  /** "text" (default) for a terminal, "markdown" for a pull-request comment. */
  format?: RenderFormat;
  /** Also list the resources that do not change (default false). */
  showSame?: boolean;
  /** Heading of the Markdown comment (default from the run's kind, e.g. "Preview"). */
  title?: string;
}

/** What renderPlan needs of a run: its operations, and its kind for the tense of the summary. */
export interface RenderableRun {
  kind?: RunKind;
  operations: readonly OperationReport[];
  /** Printed after the changes, as the CLI prints its diagnostics. */
  warnings?: readonly string[];
}

export type PropertyChangeKind = "add" | "update" | "delete";

/** One changed value at a property path such as `runtime.resources[0].cpu`. */
export interface PropertyChange {
  path: string;
  kind: PropertyChangeKind;
  old?: unknown;
  new?: unknown;
  /** The change of this (top-level) property forces the replacement. */
  replaces?: boolean;
}

const TYPE_PREFIX = "pulumi-nodejs:dynamic/";

/** `svc:Workload` for the dynamic type token `pulumi-nodejs:dynamic/svc:Workload`. */
export const shortType = (type: string): string => (type.startsWith(TYPE_PREFIX) ? type.slice(TYPE_PREFIX.length) : type);

/**
 * The property changes of one operation: for an update or replace each changed leaf (nested paths
 * inside objects and arrays), for a create every input, for a delete every old input.
 */
export function propertyChanges(o: OperationReport): PropertyChange[] {
  const olds = o.oldInputs ?? {};
  const news = o.newInputs ?? {};
  const out: PropertyChange[] = [];
  if (o.op === "create" || o.op === "import") {
    for (const k of Object.keys(news).sort()) leaves(news[k], k, (path, v) => out.push({ path, kind: "add", new: v }));
    return out;
  }
  if (o.op === "delete") {
    for (const k of Object.keys(olds).sort()) leaves(olds[k], k, (path, v) => out.push({ path, kind: "delete", old: v }));
    return out;
  }
  const keys = new Set([...(o.diffs ?? []).map(topKey), ...(o.replaces ?? []).map(topKey)]);
  // Without the provider's list (a report from elsewhere), every top-level key whose value differs.
  if (keys.size === 0) for (const k of new Set([...Object.keys(olds), ...Object.keys(news)])) if (!deepEqual(olds[k], news[k])) keys.add(k);
  const forcing = new Set((o.replaces ?? []).map(topKey));
  // A refresh reports the inputs that drifted from its inputs, and what else moved from its outputs.
  const valuesOf = (k: string) => (o.oldOutputs && o.newOutputs && !(o.inputDiffs ?? []).includes(k) ? [o.oldOutputs, o.newOutputs] : [olds, news]);
  for (const k of [...keys].sort()) {
    const before = out.length;
    const [a, b] = valuesOf(k);
    compare(a[k], b[k], k, k in a, k in b, out);
    // Changed at the top level but equal here (a secret whose value the report does not hold).
    if (out.length === before && (k in a || k in b)) out.push({ path: k, kind: "update", old: a[k], new: b[k] });
    if (forcing.has(k)) for (const c of out.slice(before)) c.replaces = true;
  }
  return out;
}

function topKey(path: string): string {
  return path.split(/[.[]/)[0];
}

const joinPath = (prefix: string, k: string | number) =>
  typeof k === "number" ? `${prefix}[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `${prefix}.${k}` : `${prefix}[${JSON.stringify(k)}]`;

const isPlainContainer = (v: unknown): v is Record<string, unknown> | unknown[] => Array.isArray(v) || (isObject(v) && !(SIG_KEY in v));

/** Calls `f` for each leaf of a value (an empty object or array is a leaf). */
function leaves(v: unknown, path: string, f: (path: string, v: unknown) => void): void {
  if (Array.isArray(v) && v.length > 0) v.forEach((x, i) => leaves(x, joinPath(path, i), f));
  else if (isPlainContainer(v) && !Array.isArray(v) && Object.keys(v).length > 0) for (const k of Object.keys(v).sort()) leaves(v[k], joinPath(path, k), f);
  else f(path, v);
}

function compare(a: unknown, b: unknown, path: string, hasA: boolean, hasB: boolean, out: PropertyChange[]): void {
  if (!hasA && !hasB) return;
  if (!hasA) return leaves(b, path, (p, v) => out.push({ path: p, kind: "add", new: v }));
  if (!hasB) return leaves(a, path, (p, v) => out.push({ path: p, kind: "delete", old: v }));
  if (deepEqual(a, b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) compare(a[i], b[i], joinPath(path, i), i < a.length, i < b.length, out);
    return;
  }
  if (isPlainContainer(a) && isPlainContainer(b) && !Array.isArray(a) && !Array.isArray(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) compare(a[k], b[k], joinPath(path, k), k in a, k in b, out);
    return;
  }
  out.push({ path, kind: "update", old: a, new: b });
}

/** How a value not known until the run applies shows, as `pulumi preview` shows it. */
const UNKNOWN_TEXT = "output<string>";

/** A value for people: JSON, except secrets (`[secret]`), unknowns (`output<string>`) and resource references. */
export function formatValue(v: unknown): string {
  if (v === undefined) return "undefined";
  if (v === UNKNOWN) return UNKNOWN_TEXT;
  if (isSecret(v)) return "[secret]";
  if (isObject(v) && v[SIG_KEY] === RESOURCE_SIG) return `[resource ${String(v.urn ?? v.id ?? "")}]`;
  if (isObject(v) && v[SIG_KEY] === OUTPUT_SIG) return "value" in v ? formatValue(v.value) : UNKNOWN_TEXT;
  if (Array.isArray(v)) return `[${v.map(formatValue).join(", ")}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .map((k) => `${JSON.stringify(k)}: ${formatValue(v[k])}`)
      .join(", ")}}`;
  return JSON.stringify(v);
}

const SYMBOL: Record<string, string> = { create: "+", "create (adopt)": "=", import: "=", update: "~", replace: "+-", delete: "-", release: "-", same: " ", read: ">" };
const LINE_SYMBOL: Record<PropertyChangeKind, string> = { add: "+", update: "~", delete: "-" };

/** The lines of one operation, text form: a heading, then one line per changed property. */
export function operationLines(o: OperationReport): string[] {
  const v = verb(o);
  const forcing = o.op === "replace" && o.replaces?.length ? ` (${o.replaces.join(", ")} forces replacement)` : "";
  // A release leaves the object on the platform as it is (a cluster stays ready and online): the line says so.
  const released = o.released ? " (stays on the platform as it is; only leaves the stack)" : "";
  const lines = [`${SYMBOL[v] ?? "~"} ${shortType(o.type)} ${o.name} ${v}${forcing}${released}`];
  if (o.op === "same" || o.op === "read") return lines;
  for (const c of propertyChanges(o)) {
    const value = c.kind === "add" ? formatValue(c.new) : c.kind === "delete" ? formatValue(c.old) : `${formatValue(c.old)} => ${formatValue(c.new)}`;
    lines.push(`    ${LINE_SYMBOL[c.kind]} ${c.path}: ${value}${c.replaces ? " (forces replacement)" : ""}`);
  }
  return lines;
}

const ORDER: Array<{ key: string; future: string; past: string }> = [
  { key: "create", future: "to create", past: "created" },
  { key: "create (adopt)", future: "to adopt", past: "adopted" },
  { key: "import", future: "to import", past: "imported" },
  { key: "update", future: "to update", past: "updated" },
  { key: "replace", future: "to replace", past: "replaced" },
  { key: "delete", future: "to delete", past: "deleted" },
  { key: "release", future: "to release", past: "released" },
  { key: "read", future: "to read", past: "read" },
  { key: "same", future: "unchanged", past: "unchanged" },
];

/** The counts line, as pulumi/actions writes it: `3 to create, 1 to update, 1 to replace, 12 unchanged`. */
export function summaryLine(run: RenderableRun): string {
  const counts = new Map<string, number>();
  for (const o of run.operations) counts.set(verb(o), (counts.get(verb(o)) ?? 0) + 1);
  const future = run.kind === undefined || run.kind === "preview" || run.kind === "adoption";
  const parts = ORDER.filter((e) => counts.has(e.key)).map((e) => `${counts.get(e.key)} ${future ? e.future : e.past}`);
  if (!run.operations.some((o) => isChangeOp(o.op))) return parts.length ? `no changes (${parts.join(", ")})` : "no changes";
  return parts.join(", ");
}

const isChangeOp = (op: OperationKind) => op !== "same" && op !== "read";

const TITLES: Record<string, string> = { preview: "Preview", up: "Update", refresh: "Refresh", destroy: "Destroy", adoption: "Adoption plan" };

/** The whole plan: one block per operation that changes something (all with `showSame`), then the counts. */
export function renderPlan(run: RenderableRun, options: RenderOptions = {}): string {
  const shown = run.operations.filter((o) => options.showSame || isChangeOp(o.op));
  const body = shown.flatMap(operationLines);
  const summary = summaryLine(run);
  const warnings = run.warnings ?? [];
  if ((options.format ?? "text") === "text") {
    const diagnostics = warnings.length ? [...warnings.map((w) => `warning: ${w}`), ""] : [];
    return [...body, ...(body.length ? [""] : []), ...diagnostics, summary].join("\n") + "\n";
  }
  const title = options.title ?? TITLES[run.kind ?? "preview"];
  const md = [`### ${title}`, "", `**${summary}**`];
  // A `diff` block: GitHub colours the + and - lines; a value cannot end the fence.
  // Property lines put their sign first, so that GitHub colours them too.
  if (body.length) md.push("", "```diff", ...body.map((l) => l.replace(/^(\s+)([+~-]) /, "$2$1 ").replace(/```/g, "`\u200b``")), "```");
  if (warnings.length) md.push("", "**Warnings**", "", ...warnings.map((w) => `- ${w.replace(/\n/g, " ")}`));
  return md.join("\n") + "\n";
}

/** What the stack's runs return: a RunResult that renders itself for a reviewer (see renderPlan). */
export interface RenderedRunResult extends RunResult {
  /** Old => new values per property, the inputs of creates, what forces replacements: text or Markdown. */
  render(options?: RenderOptions): string;
}

export function runResult(kind: RunKind, operations: OperationReport[], outputs: Record<string, unknown>, warnings: readonly string[] = []): RenderedRunResult {
  const totals: Partial<Record<OperationKind, number>> = {};
  for (const o of operations) totals[o.op] = (totals[o.op] ?? 0) + 1;
  const result = { kind, operations, totals, changes: operations.filter((o) => isChange(o.op)).length, outputs, warnings: [...warnings] } as RenderedRunResult;
  // Not enumerable: results stay plain data for comparisons and JSON.
  Object.defineProperty(result, "render", { value: (options?: RenderOptions) => renderPlan(result, options), enumerable: false });
  return result;
}
