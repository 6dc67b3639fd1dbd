/**
 * Assets themselves: create, read, list, update, delete (singly and in bulk), the hierarchy tree, the
 * status counts, and each asset's metadata records.
 */
import { assets as ep, type Asset, type AssetState } from "../../../api/assets";
import type { InventoryListQuery } from "../../../api/common";
import { errors, invalidField } from "../../../api/errors";
import { multiStatus, type MultiStatusOptions } from "../../bulk";
import { RolledBack, route, type Route } from "../../handler";
import { inFilter, indexedRows, inventoryList, matchesSearch } from "../../list";
import type { Store } from "../../store/store";
import {
  childrenOf,
  createAsset,
  createAssets,
  deleteAssets,
  hierarchyTree,
  isSelfOrDescendant,
  parentConflict,
  parentsFromTree,
  refreshPaths,
  removeAsset,
  requireTypeOf,
} from "./model-records";
import { planProperties, writeProperties } from "./model-properties";
import { ASSET_SORT, assetMetadata, assetTable, byName, missingRef, nameList, propertiesOf, requireAsset, type StoredAsset } from "./model";

// ---------------------------------------------------------------------------------------------
// Views

/** Shapes stored assets into API records; each asset's metadata and properties are looked up by index. */
function assetViewer(store: Store): (a: StoredAsset) => Asset {
  return (a) => ({
    name: a.name,
    title: a.title,
    path: a.path,
    asset_type_name: a.asset_type_name,
    asset_type_title: a.asset_type_title,
    asset_parent_name: a.asset_parent_name,
    location: a.location,
    metadata: assetMetadata.object(assetMetadata.of(store, a.name)),
    status: a.status,
    properties: propertiesOf(store, a.name)
      .sort(byName)
      .map((p) => ({ name: p.name, title: p.title, value: p.value })),
    created: a.created,
    updated: a.updated,
  });
}
const viewAsset = (store: Store, a: StoredAsset): Asset => assetViewer(store)(a);

/** Bulk create answers a result per asset even when all succeed; bulk delete only when some fail. */
const BULK_CREATE: MultiStatusOptions = { okStatus: 201, allFailed: "report", resultsOnSuccess: true };
const BULK_DELETE: MultiStatusOptions = { okStatus: 200, allFailed: "report" };

// ---------------------------------------------------------------------------------------------
// Lists

interface AssetFilters {
  search?: string[];
  names?: string[];
  asset_type_name?: string[];
  status_state?: AssetState[];
}

/** Every sort value is a stored field, so the list walks an index of the table (see list.ts). */
function listAssets(store: Store, f: AssetFilters, q: InventoryListQuery) {
  const accepts = (a: StoredAsset) =>
    matchesSearch(f.search, a.name, a.title) && inFilter(f.names, a.name) && inFilter(f.asset_type_name, a.asset_type_name) && inFilter(f.status_state, a.status.state);
  const rows = indexedRows(assetTable(store), "assets", (a) => (accepts(a) ? a : undefined), { only: { "asset.name": f.names } });
  return inventoryList(rows, q, {
    key: (a) => a.name,
    sort: ASSET_SORT,
    item: assetViewer(store),
  });
}

const COUNTED_STATES: ReadonlySet<string> = new Set<AssetState>(["online", "offline", "partially_online", "unknown"]);

// ---------------------------------------------------------------------------------------------
// Routes

export const assetRoutes: Route[] = [
  route(ep.create, (ctx) => viewAsset(ctx.store, createAsset(ctx.store, ctx.body, ctx.now, "body"))),

  route(ep.get, (ctx) => viewAsset(ctx.store, requireAsset(ctx.store, ctx.params.asset_name))),

  route(ep.list, (ctx) => listAssets(ctx.store, ctx.query, ctx.query)),

  route(ep.filter, (ctx) => listAssets(ctx.store, ctx.body ?? {}, ctx.query)),

  route(ep.update, (ctx) => {
    // Every check comes before the first write, so an update never half-applies (and never answers 207).
    const current = requireAsset(ctx.store, ctx.params.asset_name);
    const body = ctx.body;
    const type = body.asset_type_name ? requireTypeOf(ctx.store, body.asset_type_name, "body.asset_type_name") : undefined;
    const newParent = body.asset_parent_name ?? current.asset_parent_name;
    const reparented = newParent !== current.asset_parent_name;
    if (reparented && newParent) {
      if (!assetTable(ctx.store).has(newParent)) throw missingRef("body.asset_parent_name", "asset", newParent, "create the parent first");
      if (isSelfOrDescendant(ctx.store, current.name, newParent)) {
        throw invalidField("body.asset_parent_name", `'${newParent}' is '${current.name}' itself or lies below it; a hierarchy cannot have cycles`);
      }
    }
    const properties = planProperties(ctx.store, current.name, body.properties ?? [], ctx.now, (i) => `body.properties[${i}]`);

    assetTable(ctx.store).put(current.name, {
      ...current,
      title: body.title,
      asset_type_name: type?.name ?? current.asset_type_name,
      asset_type_title: type?.title ?? current.asset_type_title,
      asset_parent_name: newParent,
      location: body.location ?? current.location,
      updated: ctx.now,
    });
    if (reparented) refreshPaths(ctx.store, [current.name]);
    writeProperties(ctx.store, properties);
    return viewAsset(ctx.store, requireAsset(ctx.store, current.name));
  }),

  route(ep.delete, (ctx) => {
    const asset = requireAsset(ctx.store, ctx.params.asset_name);
    const children = childrenOf(ctx.store, asset.name);
    if (children.length > 0) throw parentConflict(asset.name, children);
    removeAsset(ctx.store, asset.name);
    return undefined;
  }),

  route(ep.bulkCreate, (ctx) => {
    const reply = multiStatus(createAssets(ctx.store, ctx.body.assets, ctx.now, BULK_CREATE.okStatus), BULK_CREATE);
    // A dry run did the work inside the request's transaction, to validate it exactly as a real run
    // would; it answers what that run would answer and keeps none of it.
    if (ctx.query.dry_run) throw new RolledBack(reply);
    return reply;
  }),

  route(ep.bulkDelete, (ctx) => multiStatus(deleteAssets(ctx.store, ctx.body.names, BULK_DELETE.okStatus), BULK_DELETE)),

  route(ep.hierarchyGet, (ctx) => ({ data: hierarchyTree(ctx.store) })),

  route(ep.hierarchyUpdate, (ctx) => {
    const parents = parentsFromTree(ctx.body.data);
    const unknown = [...parents.keys()].filter((n) => !assetTable(ctx.store).has(n));
    if (unknown.length > 0) throw errors.NOT_FOUND(`body.data: no asset named ${nameList(unknown)}`);
    const moved: string[] = [];
    for (const [name, parent] of parents) {
      const a = assetTable(ctx.store).get(name)!;
      if (a.asset_parent_name === parent) continue;
      assetTable(ctx.store).put(name, { ...a, asset_parent_name: parent, updated: ctx.now });
      moved.push(name);
    }
    refreshPaths(ctx.store, moved);
    return undefined;
  }),

  route(ep.statusCount, (ctx) => {
    const count = { online: 0, offline: 0, partially_online: 0, unknown: 0, total: 0 };
    for (const a of assetTable(ctx.store).values()) {
      // A state outside the known four (written by another area) counts as unknown.
      const state = COUNTED_STATES.has(a.status.state) ? a.status.state : "unknown";
      count[state] += 1;
      count.total += 1;
    }
    return count;
  }),

  route(ep.statusCurrent, (ctx) => ({
    data: [...assetTable(ctx.store).values()].sort(byName).map((a) => ({ name: a.name, state: a.status.state })),
  })),

  // Metadata of an asset
  route(ep.metadataCreate, (ctx) => {
    const asset = requireAsset(ctx.store, ctx.params.asset_name);
    return assetMetadata.create(ctx.store, asset.name, ctx.body.name, ctx.body.payload, ctx.now);
  }),

  route(ep.metadataGet, (ctx) => {
    requireAsset(ctx.store, ctx.params.asset_name);
    return assetMetadata.get(ctx.store, ctx.params.asset_name, ctx.params.asset_metadata_name);
  }),

  route(ep.metadataList, (ctx) => {
    const asset = requireAsset(ctx.store, ctx.params.asset_name);
    // Metadata records have no title or value of their own: the title sort is the name, the value the payload's JSON text.
    const payloadText = (r: { payload: unknown }) => JSON.stringify(r.payload);
    const rows = assetMetadata.of(ctx.store, asset.name).filter((r) => matchesSearch(ctx.query.search, r.name, payloadText(r)));
    return inventoryList(rows, ctx.query, {
      key: (r) => r.name,
      sort: {
        "asset_metadata.name": (r) => r.name,
        "asset_metadata.title": (r) => r.name,
        "asset_metadata.value": payloadText,
        "asset_metadata.created": (r) => r.created,
        "asset_metadata.updated": (r) => r.updated,
      },
    });
  }),

  route(ep.metadataUpdate, (ctx) => {
    requireAsset(ctx.store, ctx.params.asset_name);
    return assetMetadata.update(ctx.store, ctx.params.asset_name, ctx.params.asset_metadata_name, ctx.body.payload, ctx.now);
  }),

  route(ep.metadataDelete, (ctx) => {
    requireAsset(ctx.store, ctx.params.asset_name);
    assetMetadata.delete(ctx.store, ctx.params.asset_name, ctx.params.asset_metadata_name);
    return undefined;
  }),
];
