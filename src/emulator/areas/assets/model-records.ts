/** The asset hierarchy (paths, parents, the tree), and the creation and removal of assets, one or a batch. */
import { assets as ep, MAX_HIERARCHY_DEPTH, type AssetCreate, type AssetHierarchyInputNode, type AssetHierarchyNode } from "../../../api/assets";
import { badRequest, conflict, invalidField, notFound } from "../../../api/errors";
import { attempt, failure, type ItemOutcome } from "../../bulk";
import { operationName } from "../../paths";
import type { Store } from "../../store/store";
import { deletePropertiesOf, planProperties, writeProperties } from "./model-properties";
import { assetMetadata, assetTable, byName, groupBy, missingRef, nameList, typeTable, type StoredAsset, type StoredType } from "./model";

// ---------------------------------------------------------------------------------------------
// The hierarchy

export const depthOf = (path: string): number => path.split("/").length;

/** Rewrites the paths of the subtrees under `roots` after parents changed, refusing too deep a tree. */
export function refreshPaths(store: Store, roots: string[]): void {
  const children = groupBy(assetTable(store).values(), (a) => a.asset_parent_name ?? "");
  const queue = [...roots];
  for (let i = 0; i < queue.length; i++) {
    const a = assetTable(store).get(queue[i])!;
    const parent = a.asset_parent_name ? assetTable(store).get(a.asset_parent_name) : undefined;
    const path = parent ? `${parent.path}/${a.name}` : a.name;
    if (depthOf(path) > MAX_HIERARCHY_DEPTH) {
      throw badRequest(`asset '${a.name}' would sit ${depthOf(path)} levels deep; the hierarchy allows at most ${MAX_HIERARCHY_DEPTH}`);
    }
    if (path !== a.path) assetTable(store).put(a.name, { ...a, path });
    for (const c of children.get(a.name) ?? []) queue.push(c.name);
  }
}

/** True when `candidate` is `assetName` itself or lies below it. */
export function isSelfOrDescendant(store: Store, assetName: string, candidate: string): boolean {
  for (let cur: string | null = candidate; cur; cur = assetTable(store).get(cur)?.asset_parent_name ?? null) {
    if (cur === assetName) return true;
  }
  return false;
}

export function childrenOf(store: Store, assetName: string): string[] {
  return assetTable(store)
    .filter((a) => a.asset_parent_name === assetName)
    .map((a) => a.name);
}

export function hierarchyTree(store: Store): AssetHierarchyNode[] {
  const children = groupBy(assetTable(store).values(), (a) => a.asset_parent_name ?? "");
  const node = (a: StoredAsset): AssetHierarchyNode => ({
    name: a.name,
    title: a.title,
    status: a.status,
    asset_type_name: a.asset_type_name,
    children: [...(children.get(a.name) ?? [])].sort(byName).map(node),
  });
  return [...(children.get("") ?? [])].sort(byName).map(node);
}

/** Reads the parent each asset gets from a tree update, refusing cycles and repeated names. */
export function parentsFromTree(nodes: AssetHierarchyInputNode[]): Map<string, string | null> {
  const parents = new Map<string, string | null>();
  const walk = (list: AssetHierarchyInputNode[], parent: string | null, ancestors: string[]): void => {
    for (const n of list) {
      if (ancestors.includes(n.name)) {
        throw invalidField(
          "body.data",
          `asset '${n.name}' appears inside its own subtree (${[...ancestors.slice(ancestors.indexOf(n.name)), n.name].join(" / ")}): a hierarchy cannot have cycles`,
        );
      }
      if (parents.has(n.name)) throw invalidField("body.data", `asset '${n.name}' appears twice in the tree; an asset has one parent`);
      parents.set(n.name, parent);
      walk(n.children ?? [], n.name, [...ancestors, n.name]);
    }
  };
  walk(nodes, null, []);
  return parents;
}

// ---------------------------------------------------------------------------------------------
// Create and delete

/** The type a body field names, or 404 naming the field. */
export function requireTypeOf(store: Store, typeName: string, field: string): StoredType {
  const t = typeTable(store).get(typeName);
  if (!t) throw missingRef(field, "asset type", typeName, `create it with ${operationName(ep.typeCreate)}`);
  return t;
}

/** Validates the whole create (type, parent, properties) before writing anything. */
export function createAsset(store: Store, body: AssetCreate, now: string, field: string): StoredAsset {
  if (assetTable(store).has(body.name)) throw conflict(`${field}.name: asset '${body.name}' already exists`);
  const type = requireTypeOf(store, body.asset_type_name, `${field}.asset_type_name`);
  let parent: StoredAsset | undefined;
  if (body.asset_parent_name) {
    parent = assetTable(store).get(body.asset_parent_name);
    if (!parent) throw missingRef(`${field}.asset_parent_name`, "asset", body.asset_parent_name, "create the parent first");
  }
  const path = parent ? `${parent.path}/${body.name}` : body.name;
  if (depthOf(path) > MAX_HIERARCHY_DEPTH) {
    throw invalidField(`${field}.asset_parent_name`, `the asset would sit ${depthOf(path)} levels deep; the hierarchy allows at most ${MAX_HIERARCHY_DEPTH}`);
  }
  const properties = planProperties(store, body.name, body.properties ?? [], now, (i) => `${field}.properties[${i}]`);

  const asset = assetTable(store).put(body.name, {
    name: body.name,
    title: body.title,
    path,
    asset_type_name: type.name,
    asset_type_title: type.title,
    asset_parent_name: parent?.name ?? null,
    location: body.location ?? null,
    status: { state: "unknown" },
    created: now,
    updated: now,
  });
  for (const [mdName, payload] of Object.entries(body.metadata ?? {})) assetMetadata.create(store, body.name, mdName, payload, now);
  writeProperties(store, properties);
  return asset;
}

/** Removes an asset with its metadata and properties (its time series stay, facts §6.5 item 22). */
export function removeAsset(store: Store, assetName: string): void {
  assetMetadata.deleteAllOf(store, assetName);
  deletePropertiesOf(store, assetName);
  assetTable(store).delete(assetName);
}

export const parentConflict = (assetName: string, children: string[]) => conflict(`asset '${assetName}' is the parent of ${nameList(children)}; delete or re-parent them first`);

// ---------------------------------------------------------------------------------------------
// Bulk create and delete

/**
 * Creates a bulk request's assets (each answered `okStatus` when made), parents before the children
 * that name them, so that a batch may hold a whole subtree in any order. Items whose parents wait on
 * each other in a loop fail with 400.
 */
export function createAssets(store: Store, items: AssetCreate[], now: string, okStatus: number): ItemOutcome[] {
  const results = new Map<number, ItemOutcome>();
  let pending = items.map((body, i) => ({ body, i }));
  for (;;) {
    const waitingNames = new Set(pending.map((p) => p.body.name));
    const ready = pending.filter((p) => !p.body.asset_parent_name || p.body.asset_parent_name === p.body.name || !waitingNames.has(p.body.asset_parent_name));
    if (ready.length === 0) break;
    // One item per round when names repeat, so that the first of two equal names is created first.
    const batch = ready.filter((p, k) => ready.findIndex((q) => q.body.name === p.body.name) === k);
    for (const { body, i } of batch) {
      results.set(
        i,
        attempt(body.name, okStatus, () => createAsset(store, body, now, `body.assets[${i}]`)),
      );
    }
    const done = new Set(batch.map((p) => p.i));
    pending = pending.filter((p) => !done.has(p.i));
  }
  for (const { body, i } of pending) {
    results.set(i, failure(body.name, invalidField(`body.assets[${i}].asset_parent_name`, `the parents named in this batch form a loop through '${body.asset_parent_name}'`)));
  }
  return [...results.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
}

/**
 * Deletes the named assets that can go (each answered `okStatus`): an asset stays (409) while a
 * child outside the deletion remains, so a parent and its children may be deleted together.
 */
export function deleteAssets(store: Store, names: string[], okStatus: number): ItemOutcome[] {
  const unique = [...new Set(names)];
  const children = groupBy(assetTable(store).values(), (a) => a.asset_parent_name ?? "");
  const existing = new Set(unique.filter((n) => assetTable(store).has(n)));
  const deletable = new Set(existing);
  const blockers = (n: string) => (children.get(n) ?? []).map((c) => c.name).filter((c) => !deletable.has(c));
  for (let changed = true; changed;) {
    changed = false;
    for (const n of deletable) {
      if (blockers(n).length > 0) {
        deletable.delete(n);
        changed = true;
      }
    }
  }
  return unique.map((n): ItemOutcome => {
    if (!existing.has(n)) return failure(n, notFound("asset", n));
    if (!deletable.has(n)) return failure(n, parentConflict(n, blockers(n)));
    removeAsset(store, n);
    return { name: n, http_status_code: okStatus };
  });
}
