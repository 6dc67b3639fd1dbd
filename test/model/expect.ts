/**
 * What the platform should hold for a program, and the comparison with what it holds. The model is
 * written from the platform's documented behaviour, not from the provider's code: each declared
 * resource stands for records of the emulator's tables, compared field by field on what the program
 * declares (in the platform's own form: snake_case, property values as text, KRNs, instants). Besides
 * the declared objects the platform may hold only what it cannot delete (released clusters and data
 * types) and, for the instance settings when no resource declares them, the defaults.
 */
import type { Store } from "../../src/emulator/store/store";
import { TABLES } from "../../src/emulator/store/tables";
import { INSTANCE_SETTINGS_DEFAULTS } from "../../src/provider/resources/instance-settings";
import { KINDS, MODELS } from "../kinds";
import type { Compare, PlatformRecord, Rec } from "../kinds/kind-model";
import { plainArgs, type Decl, type ProgramSpec } from "./program";

/** The identity of a platform record in each table the model covers (that a kind's records go to). */
const IDENTITY: Record<string, (r: Rec) => string> = Object.fromEntries(KINDS.flatMap((k) => (MODELS[k].table ? [[MODELS[k].table.name, MODELS[k].table.identity]] : [])));

/**
 * Tables a program fills besides those of the kinds' records: the apps' parameter definitions (from a
 * version's manifest), the parameter history and the audit log (logs of what happened), and the
 * instance settings (a record the platform always holds, checked on its own below).
 */
const FILLED_BESIDES = new Set<string>([TABLES.parameters, TABLES.parameterHistory, TABLES.auditLog, TABLES.instanceSettings]);

/** Tables the model's programs never fill (no kind's records go there): they must stay empty. */
const UNUSED = Object.values(TABLES).filter((t) => !(t in IDENTITY) && !FILLED_BESIDES.has(t));

const instant = (t: unknown) => (typeof t === "string" ? Date.parse(t) : NaN);

/** One expected record, with who declares it (for messages). */
interface Expected extends PlatformRecord {
  by: string;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => deepEqual((a as Rec)[k], (b as Rec)[k]));
  }
  return false;
}

/** True when everything in `want` is in `got` (objects may hold more keys; arrays match item by item). */
export function contained(want: unknown, got: unknown): boolean {
  if (want === undefined) return true;
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => contained(w, got[i]));
  if (want && typeof want === "object") return !!got && typeof got === "object" && Object.entries(want).every(([k, w]) => contained(w, (got as Rec)[k]));
  return want === got;
}

function same(want: unknown, got: unknown, how: Compare = "exact"): boolean {
  switch (how) {
    case "contained":
      return contained(want, got);
    case "instant":
      return instant(want) === instant(got);
    case "sorted":
      return deepEqual([...(want as string[])].sort(), [...((got as string[]) ?? [])].sort());
    default:
      return deepEqual(want, got);
  }
}

const at = (r: Rec, path: string): unknown => path.split(".").reduce<unknown>((o, k) => (o == null ? undefined : (o as Rec)[k]), r);

/**
 * The records a declared resource stands for. `stateId` is the id the Pulumi state gives it (the
 * platform names schedules and data labels itself).
 */
function expectedOf(spec: ProgramSpec, d: Decl, stateId: string | undefined): Expected[] {
  const by = `${d.kind} ${d.name}`;
  return MODELS[d.kind].records(plainArgs(spec, d), stateId ?? `(no id in the state for ${d.name})`).map((r) => ({ ...r, by }));
}

export interface PlatformModel {
  /** The program the platform should hold (empty after destroy). */
  declared: ProgramSpec;
  /** The ids, by table, of records that were created once and that the platform cannot delete (clusters, data types). */
  released: Map<string, Set<string>>;
}

/** The tables of the kinds whose objects the platform cannot delete. */
const RELEASING = new Set(KINDS.flatMap((k) => (MODELS[k].released && MODELS[k].table ? [MODELS[k].table.name] : [])));

const addTo = (m: Map<string, Set<string>>, table: string, id: string) => (m.get(table) ?? m.set(table, new Set()).get(table)!).add(id);

/** Every way the platform differs from the model (empty when it holds exactly what the program declares). */
export function platformProblems(store: Store, model: PlatformModel, stateIds: Map<string, string>): string[] {
  const snap = store.snapshot();
  const rows = (table: string) => (snap[table] ?? []).map(([, v]) => v as Rec);
  const problems: string[] = [];
  const expected = model.declared.flatMap((d) => expectedOf(model.declared, d, stateIds.get(d.name)));

  // Every declared record is there with the declared values.
  for (const e of expected) {
    if (e.table === TABLES.instanceSettings) {
      const got = rows(e.table)[0] ?? {};
      for (const [path, want, how] of e.fields)
        if (!same(want, at(got, path), how)) problems.push(`${e.by}: instance settings ${path} is ${JSON.stringify(at(got, path))}, declared ${JSON.stringify(want)}`);
      continue;
    }
    const found = rows(e.table).filter((r) => IDENTITY[e.table](r) === e.id);
    if (found.length === 0) {
      problems.push(`${e.by}: ${e.table} '${e.id}' is missing on the platform`);
      continue;
    }
    for (const [path, want, how] of e.fields) {
      const got = at(found[0], path);
      if (!same(want, got, how)) problems.push(`${e.by}: ${e.table} '${e.id}' ${path} is ${JSON.stringify(got)}, declared ${JSON.stringify(want)}`);
    }
  }

  // Nothing else is there (of the records a kind's table counts: a schedule that ran stays as history).
  const wanted = new Map<string, Set<string>>();
  for (const e of expected) addTo(wanted, e.table, e.id);
  for (const [table, ids] of model.released) for (const id of ids) addTo(wanted, table, id);
  for (const kind of KINDS) {
    const { table } = MODELS[kind];
    if (!table) continue;
    const ids = rows(table.name)
      .filter((r) => table.counts?.(r) ?? true)
      .map(table.identity);
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) problems.push(`${table.name} '${id}' exists twice on the platform`);
      seen.add(id);
      if (!wanted.get(table.name)?.has(id))
        problems.push(`${table.name} '${id}' is on the platform but the program does not declare it${RELEASING.has(table.name) ? " (nor did an earlier one)" : ""}`);
    }
  }
  for (const table of UNUSED) if (rows(table).length > 0) problems.push(`${table} holds ${rows(table).length} record(s); the program makes none`);
  if (!model.declared.some((d) => d.kind === "InstanceSettings")) {
    const got = rows(TABLES.instanceSettings)[0];
    if (got && !deepEqual(got.acp, INSTANCE_SETTINGS_DEFAULTS.acp)) problems.push(`instance settings are ${JSON.stringify(got.acp)}, not the defaults (no resource declares them)`);
  }
  for (const [table, ids] of model.released)
    for (const id of ids) if (!rows(table).some((r) => IDENTITY[table](r) === id)) problems.push(`released ${table} '${id}' is gone from the platform`);
  return problems;
}

/** The records a program creates that the platform cannot delete, as [table, id]. */
export function releasedBy(spec: ProgramSpec): Array<[string, string]> {
  return spec.flatMap((d) => {
    const { released, table } = MODELS[d.kind];
    return released && table ? [[table.name, naturalId(spec, d)!]] : [];
  });
}

/** Adds the records `spec` creates that the platform cannot delete to `model`. */
export const release = (model: PlatformModel, spec: ProgramSpec) => releasedBy(spec).forEach(([table, id]) => addTo(model.released, table, id));

/** The id the provider gives a declared resource whose identity the program fixes (undefined where the platform assigns it). */
export function naturalId(spec: ProgramSpec, d: Decl): string | undefined {
  const a = plainArgs(spec, d);
  const { id } = MODELS[d.kind];
  return id ? id(a) : a.name;
}
