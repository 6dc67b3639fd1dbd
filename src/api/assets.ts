/**
 * Assets, asset types and asset classes (spec Part 2 "Assets, types, classes"; bodies from facts
 * §3.8 and §3.13, records from §4.5, behaviours from §6.5). The asset get, list, bulk and status
 * operations are declared by the facts file only (`source: "facts"`).
 */
import { z } from "zod";
import { auditStamps, freeObject, inventoryListQuery, inventoryPage, location, metadataQuery, multiStatusBody, name, nameKeyedRecord, qArray, qBool, text, title } from "./common";
import { area, endpoint, pathValues } from "./endpoint";

// ---------------------------------------------------------------------------------------------
// Records

export const assetState = z.enum(["online", "offline", "partially_online", "unknown"]);
export type AssetState = z.infer<typeof assetState>;

export const AssetStatus = z.object({ last_seen: z.string().optional(), state: assetState });

export const AssetPropertyItem = z.object({ name: z.string(), title: z.string(), value: z.string() });

export const Asset = z.object({
  name: z.string(),
  title: z.string(),
  /** The `/`-joined names from the root of the hierarchy down to the asset. */
  path: z.string(),
  asset_type_name: z.string(),
  asset_type_title: z.string(),
  asset_parent_name: z.string().nullable(),
  location: location.nullable(),
  /** Every metadata record of the asset, keyed by metadata name. */
  metadata: freeObject,
  status: AssetStatus,
  properties: z.array(AssetPropertyItem),
  ...auditStamps,
});
export type Asset = z.infer<typeof Asset>;

export const AssetMetadata = z.object({ asset_name: z.string(), name: z.string(), payload: freeObject, ...auditStamps });
export type AssetMetadata = z.infer<typeof AssetMetadata>;

export const AssetProperty = z.object({
  asset_name: z.string(),
  name: z.string(),
  title: z.string(),
  value: z.string(),
  ...auditStamps,
});
export type AssetProperty = z.infer<typeof AssetProperty>;

export const AssetClass = z.object({ name: z.string(), title: z.string(), ...auditStamps });
export type AssetClass = z.infer<typeof AssetClass>;

export const AssetType = z.object({
  name: z.string(),
  title: z.string(),
  asset_class_name: z.string().nullable(),
  /** The metadata records named in `metadata[]`, keyed by name; empty unless asked for. */
  metadata: freeObject,
  ...auditStamps,
});
export type AssetType = z.infer<typeof AssetType>;

export const AssetTypeMetadata = z.object({ asset_type_name: z.string(), name: z.string(), payload: freeObject, ...auditStamps });
export type AssetTypeMetadata = z.infer<typeof AssetTypeMetadata>;

export interface AssetHierarchyNode {
  name: string;
  title: string;
  status: z.infer<typeof AssetStatus>;
  asset_type_name: string;
  children: AssetHierarchyNode[];
}
export const AssetHierarchyItem: z.ZodType<AssetHierarchyNode> = z.object({
  name: z.string(),
  title: z.string(),
  status: AssetStatus,
  asset_type_name: z.string(),
  get children() {
    return z.array(AssetHierarchyItem);
  },
});

export const AssetStatusCount = z.object({
  online: z.number().int(),
  offline: z.number().int(),
  partially_online: z.number().int(),
  unknown: z.number().int(),
  total: z.number().int(),
});

export const AssetStatusCurrent = z.object({ data: z.array(z.object({ name: z.string(), state: assetState })) });

// ---------------------------------------------------------------------------------------------
// Bodies

const MAX_ITEMS = 1000;
const nullish = <T extends z.ZodType>(s: T) => s.nullish();

/** A property value: a scalar or a homogeneous array of scalars; stored as text. */
export const propertyValue = z.union([
  z.string().max(4096, { message: "must be at most 4096 characters" }),
  z.number(),
  z.boolean(),
  z.array(z.string().max(4096)).max(MAX_ITEMS),
  z.array(z.number()).max(MAX_ITEMS),
  z.array(z.boolean()).max(MAX_ITEMS),
]);

export const AssetPropertyCreate = z.object({ name: name(64), title: nullish(title(64)), value: propertyValue }).strict();
export type AssetPropertyCreate = z.infer<typeof AssetPropertyCreate>;

export const AssetPropertyUpdate = z.object({ title: nullish(title(64)), value: propertyValue }).strict();

const propertyList = z.array(AssetPropertyCreate).max(MAX_ITEMS, { message: `at most ${MAX_ITEMS} properties` });

/** `metadata` on create: metadata records to create with the asset, keyed by metadata name. */
const metadataMap = nameKeyedRecord(name(64), freeObject).refine((m) => Object.keys(m).length <= 100, { message: "at most 100 metadata records" });

export const AssetCreate = z
  .object({
    name: name(64),
    title: title(64),
    asset_type_name: name(64),
    asset_parent_name: nullish(name(64)),
    location: nullish(location),
    metadata: nullish(metadataMap),
    properties: nullish(propertyList),
  })
  .strict();
export type AssetCreate = z.infer<typeof AssetCreate>;

/** `title` is required (resend the old one); every other omitted field stays unchanged. */
export const AssetUpdate = z
  .object({
    title: title(64),
    asset_type_name: nullish(name(64)),
    asset_parent_name: nullish(name(64)),
    location: nullish(location),
    properties: nullish(propertyList),
  })
  .strict();
export type AssetUpdate = z.infer<typeof AssetUpdate>;

export const MetadataCreate = z.object({ name: name(64), payload: freeObject }).strict();
export const MetadataUpdate = z.object({ payload: freeObject }).strict();

export const AssetClassCreate = z.object({ name: name(64), title: title(64) }).strict();
export const AssetClassUpdate = z.object({ title: title(64) }).strict();

export const AssetTypeCreate = z.object({ name: name(64), title: title(64), asset_class_name: nullish(name(64)) }).strict();
export const AssetTypeUpdate = z.object({ title: nullish(title(64)), asset_class_name: nullish(name(64)) }).strict();

/** Deepest hierarchy accepted, checked before the recursive schema runs so that nesting cannot exhaust the stack. */
export const MAX_HIERARCHY_DEPTH = 64;

export interface AssetHierarchyInputNode {
  name: string;
  children?: AssetHierarchyInputNode[] | null;
}
/** One node of a tree update; the read-only fields of the tree get are accepted (and ignored) so a tree can be sent back as read. */
const AssetHierarchyInputItem: z.ZodType<AssetHierarchyInputNode> = z
  .object({
    name: name(64),
    title: z.string().max(64).optional(),
    status: z.unknown().optional(),
    asset_type_name: z.string().max(64).optional(),
    get children() {
      return z.array(AssetHierarchyInputItem).max(MAX_ITEMS).nullish();
    },
  })
  .strict();

function nestingDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (d > max) max = d;
    if (v && typeof v === "object") for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

export const AssetHierarchyList = z.preprocess(
  (v, ctx) => {
    // Each tree level adds two JSON levels (the node object and its children array).
    if (nestingDepth(v) > 2 * MAX_HIERARCHY_DEPTH + 2) {
      ctx.addIssue({ code: "custom", message: `the tree is nested deeper than ${MAX_HIERARCHY_DEPTH} levels` });
      return z.NEVER;
    }
    return v;
  },
  z.object({ data: z.array(AssetHierarchyInputItem).max(10_000) }).strict(),
);

const namesBody = z.object({ names: z.array(name(64)).min(1, { message: "must name at least one" }).max(MAX_ITEMS) }).strict();

export const AssetBulkCreate = z.object({ assets: z.array(AssetCreate).min(1, { message: "must hold at least one asset" }).max(MAX_ITEMS) }).strict();

/** Filters of the asset list, in the query (GET) or the body (POST). */
const assetFilters = {
  search: qArray(text(256)).optional(),
  names: qArray(name(64)).optional(),
  asset_type_name: qArray(name(64)).optional(),
  status_state: qArray(assetState).optional(),
};
export const AssetListFilter = z.object(assetFilters).strict();

/** The asset type filters both list forms take (`names` on the GET form too: the vendor's previous client sends it there). */
const typeFilters = {
  search: qArray(text(256)).optional(),
  asset_class_name: qArray(name(64)).optional(),
  names: qArray(name(64)).optional(),
};
export const AssetTypeListFilter = z.object({ ...typeFilters, metadata_filter: metadataQuery.metadata_filter }).strict();

// ---------------------------------------------------------------------------------------------
// Endpoints

const ASSET_SORT = ["asset.name", "asset.title", "asset.created", "asset.updated", "asset_type.title"] as const;
const TYPE_SORT = ["asset_type.name", "asset_type.title", "asset_type.created", "asset_type.updated", "asset_class.name", "asset_class.title"] as const;
const CLASS_SORT = ["asset_class.name", "asset_class.title", "asset_class.created", "asset_class.updated"] as const;
const ASSET_METADATA_SORT = ["asset_metadata.name", "asset_metadata.title", "asset_metadata.value", "asset_metadata.created", "asset_metadata.updated"] as const;
const PROPERTY_SORT = ["asset_property.name", "asset_property.title", "asset_property.value", "asset_property.created", "asset_property.updated"] as const;

const assetParams = z.object({ asset_name: name(64) });
const assetMetadataParams = z.object({ asset_name: name(64), asset_metadata_name: name(64) });
const assetPropertyParams = z.object({ asset_name: name(64), asset_property_name: name(64) });
const classParams = z.object({ asset_class_name: name(64) });
const typeParams = z.object({ asset_type_name: name(64) });
const typeMetadataParams = z.object({ asset_type_name: name(64), asset_type_metadata_name: name(64) });

const searchQuery = { search: qArray(text(256)).optional() };

export const assets = area("assets", "part2", {
  // Assets
  create: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "assets.get", params: (c) => pathValues({ asset_name: c.body.name }) },
    path: "/assets/create",
    permission: "asset.create",
    summary: "Create an asset (its type and parent must exist; properties and metadata are created with it)",
    body: AssetCreate,
    success: { status: 201, body: Asset },
    errors: [400, 401, 403, 404, 409],
  }),
  list: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/list",
    permission: "asset.read",
    source: "facts",
    summary: "List assets",
    query: z.object({ ...assetFilters, ...inventoryListQuery(ASSET_SORT) }).strict(),
    success: { status: 200, body: inventoryPage(Asset) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  filter: endpoint({
    method: "POST",
    effect: "read",
    path: "/assets/list",
    permission: "asset.read",
    source: "facts",
    summary: "List assets with the filters in the body (paging stays in the query)",
    query: z.object(inventoryListQuery(ASSET_SORT)).strict(),
    body: AssetListFilter,
    bodyOptional: true,
    success: { status: 200, body: inventoryPage(Asset) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  get: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/{asset_name}/get",
    permission: "asset.read",
    source: "facts",
    summary: "Get an asset",
    params: assetParams,
    success: { status: 200, body: Asset },
  }),
  update: endpoint({
    method: "POST",
    effect: "update",
    path: "/assets/{asset_name}/update",
    permission: "asset.update",
    summary: "Update an asset (title required; omitted fields stay unchanged; sent properties are set, others kept)",
    params: assetParams,
    body: AssetUpdate,
    success: { status: 200, body: Asset },
    errors: [400, 401, 403, 404, 409],
  }),
  delete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/assets/{asset_name}/delete",
    permission: "asset.delete",
    summary: "Delete an asset with its metadata and properties (refused while other assets name it as parent)",
    params: assetParams,
    success: { status: 200 },
    errors: [400, 401, 403, 404, 409],
  }),
  bulkCreate: endpoint({
    method: "POST",
    effect: "create",
    path: "/assets/bulk/create",
    permission: "asset.create",
    source: "facts",
    summary: "Create many assets; answers a result per asset, with 207 when some fail; dry_run validates and creates nothing",
    query: z.object({ dry_run: qBool.default(false) }).strict(),
    body: AssetBulkCreate,
    success: { status: 201, body: multiStatusBody },
    errors: [207, 400, 401, 403],
  }),
  bulkDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/assets/bulk/delete",
    permission: "asset.delete",
    source: "facts",
    summary: "Delete many assets; 207 with a result per asset when some fail",
    body: namesBody,
    success: { status: 200 },
    errors: [207, 400, 401, 403],
  }),

  // Hierarchy and status
  hierarchyGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/hierarchy/tree/get",
    permission: "asset.read",
    summary: "Get the asset hierarchy: the root assets with their children, recursively",
    success: { status: 200, body: z.object({ data: z.array(AssetHierarchyItem) }) },
    errors: [401, 403],
  }),
  hierarchyUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/assets/hierarchy/tree/update",
    permission: "asset.create",
    summary: "Re-parent the named assets as the tree says (top-level entries become roots)",
    body: AssetHierarchyList,
    success: { status: 200 },
  }),
  statusCount: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/status/count/get",
    permission: "asset.read",
    summary: "Count the assets per status state",
    success: { status: 200, body: AssetStatusCount },
    errors: [401, 403],
  }),
  statusCurrent: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/status/current/get",
    permission: "asset.read",
    source: "facts",
    summary: "The current status state of every asset",
    success: { status: 200, body: AssetStatusCurrent },
    errors: [401, 403],
  }),

  // Asset metadata
  metadataCreate: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "assets.metadataGet", params: (c) => pathValues({ asset_name: c.params.asset_name, asset_metadata_name: c.body.name }) },
    path: "/assets/{asset_name}/metadata/create",
    permission: "asset.create",
    summary: "Create a metadata record of an asset",
    params: assetParams,
    body: MetadataCreate,
    success: { status: 201, body: AssetMetadata },
    errors: [400, 401, 403, 404, 409],
  }),
  metadataGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/{asset_name}/metadata/{asset_metadata_name}/get",
    permission: "asset.read",
    summary: "Get a metadata record of an asset",
    params: assetMetadataParams,
    success: { status: 200, body: AssetMetadata },
  }),
  metadataList: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/{asset_name}/metadata/list",
    permission: "asset.read",
    summary: "List the metadata records of an asset",
    params: assetParams,
    query: z.object({ ...searchQuery, ...inventoryListQuery(ASSET_METADATA_SORT) }).strict(),
    success: { status: 200, body: inventoryPage(AssetMetadata) },
    list: "inventory",
  }),
  metadataUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/assets/{asset_name}/metadata/{asset_metadata_name}/update",
    permission: "asset.update",
    summary: "Replace the payload of a metadata record of an asset",
    params: assetMetadataParams,
    body: MetadataUpdate,
    success: { status: 200, body: AssetMetadata },
  }),
  metadataDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/assets/{asset_name}/metadata/{asset_metadata_name}/delete",
    permission: "asset.delete",
    summary: "Delete a metadata record of an asset",
    params: assetMetadataParams,
    success: { status: 200 },
  }),

  // Asset properties
  propertyCreate: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "assets.propertyGet", params: (c) => pathValues({ asset_name: c.params.asset_name, asset_property_name: c.body.name }) },
    path: "/assets/{asset_name}/properties/create",
    permission: "asset.create",
    summary: "Create a property of an asset (a name already defined on the platform keeps its title)",
    params: assetParams,
    body: AssetPropertyCreate,
    success: { status: 201, body: AssetProperty },
    errors: [400, 401, 403, 404, 409],
  }),
  propertyGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/{asset_name}/properties/{asset_property_name}/get",
    permission: "asset.read",
    summary: "Get a property of an asset",
    params: assetPropertyParams,
    success: { status: 200, body: AssetProperty },
  }),
  propertyList: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/{asset_name}/properties/list",
    permission: "asset.read",
    summary: "List the properties of an asset",
    params: assetParams,
    query: z.object({ ...searchQuery, ...inventoryListQuery(PROPERTY_SORT) }).strict(),
    success: { status: 200, body: inventoryPage(AssetProperty) },
    list: "inventory",
  }),
  propertyUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/assets/{asset_name}/properties/{asset_property_name}/update",
    permission: "asset.update",
    summary: "Update a property's value (a title renames the property platform-wide)",
    params: assetPropertyParams,
    body: AssetPropertyUpdate,
    success: { status: 200, body: AssetProperty },
    errors: [400, 401, 403, 404, 409],
  }),
  propertyDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/assets/{asset_name}/properties/{asset_property_name}/delete",
    permission: "asset.delete",
    summary: "Delete a property of an asset",
    params: assetPropertyParams,
    success: { status: 200 },
  }),

  // Asset classes
  classCreate: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "assets.classGet", params: (c) => pathValues({ asset_class_name: c.body.name }) },
    path: "/assets/class/create",
    permission: "asset_class.create",
    summary: "Create an asset class",
    body: AssetClassCreate,
    success: { status: 201, body: AssetClass },
    errors: [400, 401, 403, 409],
  }),
  classList: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/class/list",
    permission: "asset_class.read",
    summary: "List asset classes",
    query: z.object({ ...searchQuery, ...inventoryListQuery(CLASS_SORT) }).strict(),
    success: { status: 200, body: inventoryPage(AssetClass) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  classGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/class/{asset_class_name}/get",
    permission: "asset_class.read",
    summary: "Get an asset class",
    params: classParams,
    success: { status: 200, body: AssetClass },
  }),
  classUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/assets/class/{asset_class_name}/update",
    permission: "asset_class.update",
    summary: "Change an asset class's title",
    params: classParams,
    body: AssetClassUpdate,
    success: { status: 200, body: AssetClass },
  }),
  classDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/assets/class/{asset_class_name}/delete",
    permission: "asset_class.delete",
    summary: "Delete an asset class (refused while asset types use it)",
    params: classParams,
    success: { status: 200 },
    errors: [400, 401, 403, 404, 409],
  }),

  // Asset types
  typeCreate: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "assets.typeGet", params: (c) => pathValues({ asset_type_name: c.body.name }) },
    path: "/assets/types/create",
    permission: "asset_type.create",
    summary: "Create an asset type",
    body: AssetTypeCreate,
    success: { status: 201, body: AssetType },
    errors: [400, 401, 403, 404, 409],
  }),
  typeList: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/types/list",
    permission: "asset_type.read",
    summary: "List asset types",
    query: z.object({ ...typeFilters, ...metadataQuery, ...inventoryListQuery(TYPE_SORT) }).strict(),
    success: { status: 200, body: inventoryPage(AssetType) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  typeFilter: endpoint({
    method: "POST",
    effect: "read",
    path: "/assets/types/list",
    permission: "asset_type.read",
    source: "facts",
    summary: "List asset types with the filters in the body (paging and metadata[] stay in the query)",
    query: z.object({ metadata: metadataQuery.metadata, ...inventoryListQuery(TYPE_SORT) }).strict(),
    body: AssetTypeListFilter,
    bodyOptional: true,
    success: { status: 200, body: inventoryPage(AssetType) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  typeGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/types/{asset_type_name}/get",
    permission: "asset_type.read",
    summary: "Get an asset type",
    params: typeParams,
    query: z.object({ metadata: metadataQuery.metadata }).strict(),
    success: { status: 200, body: AssetType },
  }),
  typeUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/assets/types/{asset_type_name}/update",
    permission: "asset_type.update",
    summary: "Update an asset type (omitted fields stay unchanged)",
    params: typeParams,
    body: AssetTypeUpdate,
    success: { status: 200, body: AssetType },
    errors: [400, 401, 403, 404, 409],
  }),
  typeDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/assets/types/{asset_type_name}/delete",
    permission: "asset_type.delete",
    summary: "Delete an asset type with its metadata (refused while assets use it)",
    params: typeParams,
    success: { status: 200 },
    errors: [400, 401, 403, 404, 409],
  }),
  typeBulkDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/assets/types/delete",
    permission: "asset_type.delete",
    source: "facts",
    summary: "Delete many asset types; 409 (nothing deleted) when assets use any; 207 when some are unknown",
    body: namesBody,
    success: { status: 200 },
    errors: [207, 400, 401, 403, 409],
  }),

  // Asset type metadata
  typeMetadataCreate: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "assets.typeMetadataGet", params: (c) => pathValues({ asset_type_name: c.params.asset_type_name, asset_type_metadata_name: c.body.name }) },
    path: "/assets/types/{asset_type_name}/metadata/create",
    permission: "asset_type.create",
    summary: "Create a metadata record of an asset type",
    params: typeParams,
    body: MetadataCreate,
    success: { status: 201, body: AssetTypeMetadata },
    errors: [400, 401, 403, 404, 409],
  }),
  typeMetadataList: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/types/{asset_type_name}/metadata/list",
    permission: "asset_type.read",
    summary: "List the metadata records of an asset type",
    params: typeParams,
    query: z.object({ ...searchQuery, ...inventoryListQuery(["asset_type_metadata.name"]) }).strict(),
    success: { status: 200, body: inventoryPage(AssetTypeMetadata) },
    list: "inventory",
  }),
  typeMetadataGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/assets/types/{asset_type_name}/metadata/{asset_type_metadata_name}/get",
    permission: "asset_type.read",
    summary: "Get a metadata record of an asset type",
    params: typeMetadataParams,
    success: { status: 200, body: AssetTypeMetadata },
  }),
  typeMetadataUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/assets/types/{asset_type_name}/metadata/{asset_type_metadata_name}/update",
    permission: "asset_type.update",
    summary: "Replace the payload of a metadata record of an asset type",
    params: typeMetadataParams,
    body: MetadataUpdate,
    success: { status: 200, body: AssetTypeMetadata },
  }),
  typeMetadataDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/assets/types/{asset_type_name}/metadata/{asset_type_metadata_name}/delete",
    permission: "asset_type.delete",
    summary: "Delete a metadata record of an asset type",
    params: typeMetadataParams,
    success: { status: 200 },
  }),
});
