/** Asset classes, asset types and the types' metadata records. */
import { assets as ep, type AssetType } from "../../../api/assets";
import type { InventoryListQuery } from "../../../api/common";
import { conflict, notFound } from "../../../api/errors";
import { failure, multiStatus, type ItemOutcome } from "../../bulk";
import { route, type Route } from "../../handler";
import { inFilter, inventoryList, matchesMetadataFilter, matchesSearch } from "../../list";
import type { Store } from "../../store/store";
import { removeType, requireClassOf, typeInUse, usersOfType } from "./model-types";
import { assetTable, classTable, groupBy, nameList, requireClass, requireType, typeMetadata, typeTable, type StoredMetadata, type StoredType } from "./model";

/** A type's record; its `metadata` holds only the records `metadata[]` asks for. */
function typeViewer(store: Store, metadataNames: string[] | undefined): (t: StoredType) => AssetType {
  let metadata: Map<string, StoredMetadata<"asset_type_name">[]> | undefined;
  return (t) => {
    metadata ??= groupBy(typeMetadata.all(store), (r) => typeMetadata.ownerOf(r));
    return {
      name: t.name,
      title: t.title,
      asset_class_name: t.asset_class_name,
      metadata: typeMetadata.object(metadata.get(t.name), metadataNames ?? []),
      created: t.created,
      updated: t.updated,
    };
  };
}

interface TypeFilters {
  search?: string[];
  names?: string[];
  asset_class_name?: string[];
  metadata_filter?: string[];
}

function listTypes(store: Store, f: TypeFilters, q: InventoryListQuery & { metadata?: string[] }) {
  const metadata = groupBy(typeMetadata.all(store), (r) => typeMetadata.ownerOf(r));
  const payloadOf = (typeName: string, mdName: string) => metadata.get(typeName)?.find((r) => r.name === mdName)?.payload;
  const rows = typeTable(store).filter(
    (t) =>
      matchesSearch(f.search, t.name, t.title) &&
      inFilter(f.names, t.name) &&
      inFilter(f.asset_class_name, t.asset_class_name ?? "") &&
      matchesMetadataFilter(f.metadata_filter, (mdName) => payloadOf(t.name, mdName)),
  );
  const classTitle = (t: StoredType) => (t.asset_class_name ? classTable(store).get(t.asset_class_name)?.title : null);
  return inventoryList(rows, q, {
    key: (t) => t.name,
    sort: {
      "asset_type.name": (t) => t.name,
      "asset_type.title": (t) => t.title,
      "asset_type.created": (t) => t.created,
      "asset_type.updated": (t) => t.updated,
      "asset_class.name": (t) => t.asset_class_name,
      "asset_class.title": classTitle,
    },
    item: typeViewer(store, q.metadata),
  });
}

export const typeRoutes: Route[] = [
  // Classes
  route(ep.classCreate, (ctx) => {
    const { name, title } = ctx.body;
    if (classTable(ctx.store).has(name)) throw conflict(`body.name: asset class '${name}' already exists`);
    return classTable(ctx.store).put(name, { name, title, created: ctx.now, updated: ctx.now });
  }),

  route(ep.classList, (ctx) =>
    inventoryList(
      classTable(ctx.store).filter((c) => matchesSearch(ctx.query.search, c.name, c.title)),
      ctx.query,
      {
        key: (c) => c.name,
        sort: {
          "asset_class.name": (c) => c.name,
          "asset_class.title": (c) => c.title,
          "asset_class.created": (c) => c.created,
          "asset_class.updated": (c) => c.updated,
        },
      },
    ),
  ),

  route(ep.classGet, (ctx) => requireClass(ctx.store, ctx.params.asset_class_name)),

  route(ep.classUpdate, (ctx) => {
    const current = requireClass(ctx.store, ctx.params.asset_class_name);
    return classTable(ctx.store).put(current.name, { ...current, title: ctx.body.title, updated: ctx.now });
  }),

  route(ep.classDelete, (ctx) => {
    const c = requireClass(ctx.store, ctx.params.asset_class_name);
    const users = typeTable(ctx.store)
      .filter((t) => t.asset_class_name === c.name)
      .map((t) => t.name);
    if (users.length > 0) {
      throw conflict(`asset class '${c.name}' is used by the asset type(s) ${nameList(users)}; delete them or change their class first`);
    }
    classTable(ctx.store).delete(c.name);
    return undefined;
  }),

  // Types
  route(ep.typeCreate, (ctx) => {
    const { name, title, asset_class_name } = ctx.body;
    if (typeTable(ctx.store).has(name)) throw conflict(`body.name: asset type '${name}' already exists`);
    const className = asset_class_name ? requireClassOf(ctx.store, asset_class_name, "body.asset_class_name") : null;
    const t = typeTable(ctx.store).put(name, { name, title, asset_class_name: className, created: ctx.now, updated: ctx.now });
    return typeViewer(ctx.store, [])(t);
  }),

  route(ep.typeList, (ctx) => listTypes(ctx.store, ctx.query, ctx.query)),

  route(ep.typeFilter, (ctx) => listTypes(ctx.store, ctx.body ?? {}, ctx.query)),

  route(ep.typeGet, (ctx) => typeViewer(ctx.store, ctx.query.metadata)(requireType(ctx.store, ctx.params.asset_type_name))),

  route(ep.typeUpdate, (ctx) => {
    const current = requireType(ctx.store, ctx.params.asset_type_name);
    const { title, asset_class_name } = ctx.body;
    const className = asset_class_name ? requireClassOf(ctx.store, asset_class_name, "body.asset_class_name") : current.asset_class_name;
    const next = typeTable(ctx.store).put(current.name, {
      ...current,
      title: title ?? current.title,
      asset_class_name: className,
      updated: ctx.now,
    });
    // Assets carry their type's title; keep it current.
    if (next.title !== current.title) {
      for (const a of assetTable(ctx.store).filter((x) => x.asset_type_name === current.name)) {
        assetTable(ctx.store).put(a.name, { ...a, asset_type_title: next.title });
      }
    }
    return typeViewer(ctx.store, [])(next);
  }),

  route(ep.typeDelete, (ctx) => {
    const t = requireType(ctx.store, ctx.params.asset_type_name);
    const users = usersOfType(ctx.store, t.name);
    if (users.length > 0) throw typeInUse(t.name, users);
    removeType(ctx.store, t.name);
    return undefined;
  }),

  route(ep.typeBulkDelete, (ctx) => {
    const names = [...new Set(ctx.body.names)];
    // A type in use refuses the whole request (facts §6.5 item 23); unknown names fail one by one.
    for (const n of names) {
      const users = usersOfType(ctx.store, n);
      if (users.length > 0) throw typeInUse(n, users);
    }
    const results = names.map((n): ItemOutcome => {
      if (!typeTable(ctx.store).has(n)) return failure(n, notFound("asset type", n));
      removeType(ctx.store, n);
      return { name: n, http_status_code: 200 };
    });
    return multiStatus(results, { okStatus: 200, allFailed: "report" });
  }),

  // Metadata of a type
  route(ep.typeMetadataCreate, (ctx) => {
    const t = requireType(ctx.store, ctx.params.asset_type_name);
    return typeMetadata.create(ctx.store, t.name, ctx.body.name, ctx.body.payload, ctx.now);
  }),

  route(ep.typeMetadataList, (ctx) => {
    const t = requireType(ctx.store, ctx.params.asset_type_name);
    const rows = typeMetadata.of(ctx.store, t.name).filter((r) => matchesSearch(ctx.query.search, r.name));
    return inventoryList(rows, ctx.query, { key: (r) => r.name, sort: { "asset_type_metadata.name": (r) => r.name } });
  }),

  route(ep.typeMetadataGet, (ctx) => {
    requireType(ctx.store, ctx.params.asset_type_name);
    return typeMetadata.get(ctx.store, ctx.params.asset_type_name, ctx.params.asset_type_metadata_name);
  }),

  route(ep.typeMetadataUpdate, (ctx) => {
    requireType(ctx.store, ctx.params.asset_type_name);
    return typeMetadata.update(ctx.store, ctx.params.asset_type_name, ctx.params.asset_type_metadata_name, ctx.body.payload, ctx.now);
  }),

  route(ep.typeMetadataDelete, (ctx) => {
    requireType(ctx.store, ctx.params.asset_type_name);
    typeMetadata.delete(ctx.store, ctx.params.asset_type_name, ctx.params.asset_type_metadata_name);
    return undefined;
  }),
];
