/** The data types' routes and views: records, latest versions, dependencies and JSON Schemas (rules in model.ts). */
import { datatypes as ep, dataTypeReference, PRIMITIVE_FIELD_TYPES, type DataType, type Icd } from "../../../api/datatypes";
import { inventoryList, matchesSearch } from "../../list";
import { route, type AreaModule } from "../../handler";
import { versionSortKey } from "../../version-order";
import type { Store } from "../../store/store";
import { createDataType, dataTypeKey, dependenciesOf, latestVersions, refOf, requireLatest, requireVersion, resolve, table, type StoredDataType } from "./model";

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
      const t = createDataType(ctx.store, ctx.body, ctx.now);
      ctx.auditIdentifier = refOf(t);
      return view(ctx.store, t);
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
