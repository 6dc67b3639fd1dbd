/**
 * Data types: versioned ICD definitions, their dependencies and JSON Schemas.
 *
 * Design choices where the spec is silent:
 * - `name` and `version` come from the icd; versions are normalized by semver (`v1.2.0` is stored as
 *   `1.2.0`) and kept side by side; an existing name and version answers 409.
 * - `type` is the icd's class_name.
 * - A data type is a connect type when its `source` is `connect`; `connect=true` lists only those,
 *   `connect=false` (the default) does not filter. An absent source is `user`.
 * - "Latest" is the highest version by semver precedence; list with `all=false` shows that version
 *   of each name. Sorting by data_type.version follows semver precedence too.
 * - A field whose type is not a primitive names another data type, as `name:version` or as `name`
 *   (its latest version, resolved at read time). Dependencies are answered as
 *   `{ data: [{ name, version, reference }] }`, breadth first, each once; a reference to a type that
 *   does not exist is listed as written (version null for a bare name).
 * - `schema` (on the record and from schema/get) is generated at read time: a draft 2020-12 object
 *   schema with one property per icd field (arrays for `array: true`), and every referenced data
 *   type under `$defs` keyed `name:version`. ICD fields carry no optionality, so none is required.
 */
import semver from "semver";
import type { z } from "zod";
import { type datatypes as ep, dataTypeReference, type DataType, type DataTypeReference } from "../../../api/datatypes";
import { conflict, notFound } from "../../../api/errors";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";

/** Stored without `schema`, which depends on other types and is generated when read. */
export type StoredDataType = Omit<DataType, "schema">;

export const table = (store: Store) => store.table<StoredDataType>(TABLES.dataTypes);
export const dataTypeKey = (name: string, version: string) => `${name}\u0000${version}`;
export const normalizeVersion = (v: string) => semver.valid(v) ?? v;
export const refOf = (t: { name: string; version: string }) => `${t.name}:${t.version}`;

export function versionsOf(store: Store, name: string): StoredDataType[] {
  return table(store).filter((t) => t.name === name);
}

const newer = (a: StoredDataType, b: StoredDataType | undefined) => !b || semver.gt(a.version, b.version);

export function latestOf(store: Store, name: string): StoredDataType | undefined {
  let latest: StoredDataType | undefined;
  for (const t of versionsOf(store, name)) if (newer(t, latest)) latest = t;
  return latest;
}

/** The latest version of every name, in one pass (list with all=false). */
export function latestVersions(store: Store): Set<StoredDataType> {
  const byName = new Map<string, StoredDataType>();
  for (const t of table(store).values()) if (newer(t, byName.get(t.name))) byName.set(t.name, t);
  return new Set(byName.values());
}

export function requireVersion(store: Store, name: string, version: string): StoredDataType {
  const t = table(store).get(dataTypeKey(name, normalizeVersion(version)));
  if (!t) throw notFound("data type", `${name}:${version}`);
  return t;
}

export function requireLatest(store: Store, name: string): StoredDataType {
  const t = latestOf(store, name);
  if (!t) throw notFound("data type", name);
  return t;
}

/** The data type a reference points at now, if it exists. */
export function resolve(store: Store, ref: DataTypeReference): StoredDataType | undefined {
  return ref.version === null ? latestOf(store, ref.name) : table(store).get(dataTypeKey(ref.name, normalizeVersion(ref.version)));
}

/** Data type references among a type's fields, in field order. */
export function referencesOf(t: StoredDataType): DataTypeReference[] {
  return t.icd.fields.map((f) => dataTypeReference(f.type)).filter((r): r is DataTypeReference => r !== undefined);
}

export interface Dependency {
  name: string;
  version: string | null;
  reference: string;
  resolved?: StoredDataType;
}

/** Every type reachable from `root` through field references, breadth first, each once, root excluded. */
export function dependenciesOf(store: Store, root: StoredDataType): Dependency[] {
  const seen = new Set<string>([refOf(root)]);
  const out: Dependency[] = [];
  const queue: StoredDataType[] = [root];
  for (let t = queue.shift(); t; t = queue.shift()) {
    for (const ref of referencesOf(t)) {
      const resolved = resolve(store, ref);
      const reference = resolved ? refOf(resolved) : ref.version === null ? ref.name : `${ref.name}:${ref.version}`;
      if (seen.has(reference)) continue;
      seen.add(reference);
      out.push({ name: ref.name, version: resolved?.version ?? ref.version, reference, resolved });
      if (resolved) queue.push(resolved);
    }
  }
  return out;
}

/** Stores a new data type version (versions are immutable: an existing one answers 409). */
export function createDataType(store: Store, body: z.output<NonNullable<typeof ep.create.body>>, now: string): StoredDataType {
  const icd = { ...body.icd, version: normalizeVersion(body.icd.version) };
  const key = dataTypeKey(icd.name, icd.version);
  if (table(store).has(key)) throw conflict(`data type ${icd.name}:${icd.version} already exists; versions are immutable, create a new version`);
  return table(store).put(key, {
    name: icd.name,
    type: icd.class_name,
    version: icd.version,
    source: body.source,
    connect: body.source === "connect",
    icd,
    created: now,
    updated: now,
  });
}
