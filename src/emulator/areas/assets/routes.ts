/**
 * Assets, asset types and classes (spec Part 2 "Assets, types, classes"; facts §3.8, §4.5, §6.5).
 * The rules live in model.ts and model-records.ts, model-properties.ts and model-types.ts; the routes
 * in routes-records.ts (assets, hierarchy, status, asset metadata),
 * routes-properties.ts and routes-types.ts (classes, types, type metadata).
 *
 * Design choices where the spec is silent:
 * - A body field naming a record that does not exist (asset_type_name, asset_parent_name,
 *   asset_class_name) answers 404 naming the field and the missing record.
 * - `path` is the `/`-joined names from the root down (`plant/line-1/pump-3`), recomputed for the
 *   whole subtree when a parent changes. The hierarchy is at most 64 levels deep.
 * - AssetUpdate also accepts `asset_parent_name` and `location` (uncertain in the facts); a parent
 *   that is the asset itself or lies below it is a cycle (400). As `null` means "unchanged", an
 *   asset becomes a root again through the tree update. `properties` sent on create or update
 *   are set (created or their value replaced); properties not sent stay.
 * - An asset update validates everything before changing anything, so it never answers 207: any
 *   failing property rejects the whole update with that property's error.
 * - A property value is stored as text: strings as sent, numbers and booleans as they print
 *   (`1.5`, `true`), arrays as JSON (`[1,2]`, `["a","b"]`). A property update with a `title` renames
 *   the property platform-wide (titles are platform-wide, facts §6.5 item 24).
 * - An asset's `metadata` holds all its metadata records `{name: payload}`; `metadata` on create
 *   creates those records. An asset type's `metadata` holds only the records `metadata[]` names.
 *   Metadata records have no title or value: the metadata list's `.title` sort is the name and
 *   `.value` sorts (and search matches) the payload's JSON text.
 * - New assets have status `{state: "unknown"}` without last_seen; nothing in this area changes it.
 * - Tree update: top-level entries become roots, each child's parent is the entry it sits in, assets
 *   left out keep their parent. A name inside its own subtree (a cycle) or named twice is 400.
 * - Bulk create answers a result per asset (`multiStatusBody`) with 201 when all succeed (the facts
 *   give 201 no body; callers that ignore it lose nothing) and 207 otherwise; parents named within the batch are created before their children. `dry_run=true`
 *   answers exactly what a real run would, and creates nothing.
 * - Bulk delete: 200 empty when every asset went, else 207 with a result per name; a parent can go
 *   together with its children. An asset named `bulk` or `types` is deleted through bulk delete, as
 *   `/assets/bulk/delete` and `/assets/types/delete` are routes of their own.
 * - `POST /assets/types/list` takes `names`, `search`, `asset_class_name` and `metadata_filter` in
 *   the body (the GET form's filters plus `names`); paging and `metadata[]` stay in the query.
 * - Type bulk delete: any type in use refuses the whole request (409); unknown names give 207.
 */
import type { AreaModule } from "../../handler";
import { propertyRoutes } from "./routes-properties";
import { assetRoutes } from "./routes-records";
import { typeRoutes } from "./routes-types";

export const area: AreaModule = { routes: [...assetRoutes, ...propertyRoutes, ...typeRoutes] };
