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
import { datatypes as ep, dataTypeReference, PRIMITIVE_FIELD_TYPES, type DataType, type DataTypeReference, type Icd } from "../../../api/datatypes";
import { conflict, notFound } from "../../../api/errors";
import { inventoryList, matchesSearch } from "../../list";
import { route, type AreaModule } from "../../handler";
import { versionSortKey } from "../../version-order";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";

/** Stored without `schema`, which depends on other types and is generated when read. */
type StoredDataType = Omit<DataType, "schema">;

const table = (store: Store) => store.table<StoredDataType>(TABLES.dataTypes);
const dataTypeKey = (name: string, version: string) => `${name}\u0000${version}`;
const normalizeVersion = (v: string) => semver.valid(v) ?? v;
const refOf = (t: { name: string; version: string }) => `${t.name}:${t.version}`;

function versionsOf(store: Store, name: string): StoredDataType[] {
  return table(store).filter((t) => t.name === name);
}

const newer = (a: StoredDataType, b: StoredDataType | undefined) => !b || semver.gt(a.version, b.version);

function latestOf(store: Store, name: string): StoredDataType | undefined {
  let latest: StoredDataType | undefined;
  for (const t of versionsOf(store, name)) if (newer(t, latest)) latest = t;
  return latest;
}

/** The latest version of every name, in one pass (list with all=false). */
function latestVersions(store: Store): Set<StoredDataType> {
  const byName = new Map<string, StoredDataType>();
  for (const t of table(store).values()) if (newer(t, byName.get(t.name))) byName.set(t.name, t);
  return new Set(byName.values());
}

function requireVersion(store: Store, name: string, version: string): StoredDataType {
  const t = table(store).get(dataTypeKey(name, normalizeVersion(version)));
  if (!t) throw notFound("data type", `${name}:${version}`);
  return t;
}

function requireLatest(store: Store, name: string): StoredDataType {
  const t = latestOf(store, name);
  if (!t) throw notFound("data type", name);
  return t;
}

/** The data type a reference points at now, if it exists. */
function resolve(store: Store, ref: DataTypeReference): StoredDataType | undefined {
  return ref.version === null ? latestOf(store, ref.name) : table(store).get(dataTypeKey(ref.name, normalizeVersion(ref.version)));
}

/** Data type references among a type's fields, in field order. */
function referencesOf(t: StoredDataType): DataTypeReference[] {
  return t.icd.fields.map((f) => dataTypeReference(f.type)).filter((r): r is DataTypeReference => r !== undefined);
}

interface Dependency {
  name: string;
  version: string | null;
  reference: string;
  resolved?: StoredDataType;
}

/** Every type reachable from `root` through field references, breadth first, each once, root excluded. */
function dependenciesOf(store: Store, root: StoredDataType): Dependency[] {
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

// ---------------------------------------------------------------------------------------------
// JSON Schema

type JsonSchema = Record<string, unknown>;

/** The `$defs` key a field type refers to: the resolved `name:version`, or the reference as written. */
function defKey(store: Store, type: string): string | undefined {
  const ref = dataTypeReference(type);
  if (!ref) return undefined;
  const resolved = resolve(store, ref);
  return resolved ? refOf(resolved) : type;
}

/** A JSON Pointer to a `$defs` entry, as a URI fragment (`:` may stay as it is in a fragment). */
const defPointer = (key: string) => `#/$defs/${encodeURIComponent(key.replace(/~/g, "~0").replace(/\//g, "~1")).replace(/%3A/g, ":")}`;

function objectSchema(store: Store, icd: Icd): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const f of icd.fields) {
    const key = defKey(store, f.type);
    const item: JsonSchema = key ? { $ref: defPointer(key) } : { ...PRIMITIVE_FIELD_TYPES[f.type] };
    properties[f.name] = f.array ? { type: "array", items: item, description: f.description } : { ...item, description: f.description };
  }
  return { title: icd.class_name, description: icd.description, type: "object", properties, additionalProperties: false };
}

function schemaOf(store: Store, t: StoredDataType): JsonSchema {
  const defs: Record<string, JsonSchema> = {};
  for (const d of dependenciesOf(store, t)) {
    defs[d.reference] = d.resolved ? objectSchema(store, d.resolved.icd) : { description: `data type ${d.reference} is not defined` };
  }
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: refOf(t),
    ...objectSchema(store, t.icd),
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}

const view = (store: Store, t: StoredDataType): DataType => ({ ...t, schema: schemaOf(store, t) });

// ---------------------------------------------------------------------------------------------

export const area: AreaModule = {
  routes: [
    route(ep.create, (ctx) => {
      const icd = { ...ctx.body.icd, version: normalizeVersion(ctx.body.icd.version) };
      const key = dataTypeKey(icd.name, icd.version);
      if (table(ctx.store).has(key)) throw conflict(`data type ${icd.name}:${icd.version} already exists; versions are immutable, create a new version`);
      const t: StoredDataType = {
        name: icd.name,
        type: icd.class_name,
        version: icd.version,
        source: ctx.body.source,
        connect: ctx.body.source === "connect",
        icd,
        created: ctx.now,
        updated: ctx.now,
      };
      ctx.auditIdentifier = refOf(t);
      return view(ctx.store, table(ctx.store).put(key, t));
    }),

    route(ep.list, (ctx) => {
      const q = ctx.query;
      const latest = q.all ? undefined : latestVersions(ctx.store);
      const rows = table(ctx.store).filter((t) => matchesSearch(q.search, t.name) && (!q.connect || t.connect) && (!latest || latest.has(t)));
      return inventoryList(rows, q, {
        key: (t) => dataTypeKey(t.name, versionSortKey(t.version)),
        sort: { "data_type.name": (t) => t.name, "data_type.version": (t) => versionSortKey(t.version) },
        item: (t) => view(ctx.store, t),
      });
    }),

    route(ep.get, (ctx) => view(ctx.store, requireVersion(ctx.store, ctx.params.data_type_name, ctx.params.data_type_version))),

    route(ep.latestGet, (ctx) => view(ctx.store, requireLatest(ctx.store, ctx.params.data_type_name))),

    route(ep.dependenciesGet, (ctx) => {
      const t = requireVersion(ctx.store, ctx.params.data_type_name, ctx.params.data_type_version);
      return { data: dependenciesOf(ctx.store, t).map(({ name, version, reference }) => ({ name, version, reference })) };
    }),

    route(ep.schemaGet, (ctx) => schemaOf(ctx.store, requireVersion(ctx.store, ctx.params.data_type_name, ctx.params.data_type_version))),
  ],
};
