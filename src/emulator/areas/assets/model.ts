/**
 * What the asset handlers share: the stored records, their tables and keys, lookups that answer 404,
 * and the metadata records that assets and asset types both carry.
 */
import type { AssetState } from "../../../api/assets";
import { conflict, errors, notFound } from "../../../api/errors";
import type { Sortable } from "../../list";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";

export interface StoredAsset {
  name: string;
  title: string;
  path: string;
  asset_type_name: string;
  /** Copied from the type so that other areas read it without a join; kept current by type updates. */
  asset_type_title: string;
  asset_parent_name: string | null;
  location: { lat: number; lon: number } | null;
  status: { last_seen?: string; state: AssetState };
  created: string;
  updated: string;
}

export interface StoredProperty {
  asset_name: string;
  name: string;
  title: string;
  value: string;
  created: string;
  updated: string;
}

export interface StoredClass {
  name: string;
  title: string;
  created: string;
  updated: string;
}

export interface StoredType {
  name: string;
  title: string;
  asset_class_name: string | null;
  created: string;
  updated: string;
}

/** The field that names a metadata record's owner: its asset, or its asset type. */
type OwnerField = "asset_name" | "asset_type_name";

/** A metadata record as stored, naming its owner under `F`. */
export type StoredMetadata<F extends OwnerField> = Record<F, string> & { name: string; payload: Record<string, unknown>; created: string; updated: string };

/** Key of a record that belongs to an owner (an asset's property or metadata, a type's metadata). */
/**
 * The sort keys of asset lists (the asset list and the assets a bridge serves), over the fields both
 * hold.
 */
export const ASSET_SORT: Record<string, (a: { name: string; title: string; created?: string; updated?: string; asset_type_title?: string }) => Sortable> = {
  "asset.name": (a) => a.name,
  "asset.title": (a) => a.title,
  "asset.created": (a) => a.created,
  "asset.updated": (a) => a.updated,
  "asset_type.title": (a) => a.asset_type_title,
};

export const ownedKey = (owner: string, name: string): string => `${owner}\u0000${name}`;

export const assetTable = (store: Store) => store.table<StoredAsset>(TABLES.assets);
export const propertyTable = (store: Store) => store.table<StoredProperty>(TABLES.assetProperties);
/** The asset's properties, by name; looked up in an index of the table, not by a scan of it. */
export const propertiesOf = (store: Store, assetName: string): StoredProperty[] => propertyTable(store).lookup("asset_name", (p) => [p.asset_name], [assetName]);
export const classTable = (store: Store) => store.table<StoredClass>(TABLES.assetClasses);
export const typeTable = (store: Store) => store.table<StoredType>(TABLES.assetTypes);

/** Names a few records in a message, so that a person knows what stands in the way. */
export function nameList(names: string[], max = 10): string {
  const sorted = [...names].sort();
  const shown = sorted
    .slice(0, max)
    .map((n) => `'${n}'`)
    .join(", ");
  return sorted.length > max ? `${shown} and ${sorted.length - max} more` : shown;
}

/** A record that belongs to another one (a property of an asset, a metadata record of a type). */
export const notFoundOf = (kind: string, name: string, ownerKind: string, owner: string) => errors.NOT_FOUND(`${kind} '${name}' of ${ownerKind} '${owner}' not found`);

/** A body field that names a record which does not exist. */
export const missingRef = (field: string, kind: string, id: string, hint: string) => errors.NOT_FOUND(`${field}: ${kind} '${id}' not found; ${hint}`);

export function requireAsset(store: Store, assetName: string): StoredAsset {
  const a = assetTable(store).get(assetName);
  if (!a) throw notFound("asset", assetName);
  return a;
}
export function requireType(store: Store, typeName: string): StoredType {
  const t = typeTable(store).get(typeName);
  if (!t) throw notFound("asset type", typeName);
  return t;
}
export function requireClass(store: Store, className: string): StoredClass {
  const c = classTable(store).get(className);
  if (!c) throw notFound("asset class", className);
  return c;
}
export function requireProperty(store: Store, assetName: string, propertyName: string): StoredProperty {
  requireAsset(store, assetName);
  const p = propertyTable(store).get(ownedKey(assetName, propertyName));
  if (!p) throw notFoundOf("property", propertyName, "asset", assetName);
  return p;
}

/** Groups records by an owner field once, for list answers that would otherwise scan per item. */
export function groupBy<T>(rows: Iterable<T>, ownerOf: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = ownerOf(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

export const byName = <T extends { name: string }>(a: T, b: T): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

// ---------------------------------------------------------------------------------------------
// Metadata records: the same rules for assets and asset types, stored in one table per owner kind.

export class MetadataRecords<F extends OwnerField> {
  constructor(
    private readonly tableName: string,
    private readonly ownerField: F,
    private readonly ownerKind: string,
  ) {}

  private table(store: Store) {
    return store.table<StoredMetadata<F>>(this.tableName);
  }

  ownerOf(r: StoredMetadata<F>): string {
    return r[this.ownerField];
  }

  /** The owner's records (looked up in an index of the table, not by a scan of it). */
  of(store: Store, owner: string): StoredMetadata<F>[] {
    return this.table(store).lookup(this.ownerField, (r) => [this.ownerOf(r)], [owner]);
  }

  all(store: Store): IterableIterator<StoredMetadata<F>> {
    return this.table(store).values();
  }

  get(store: Store, owner: string, name: string): StoredMetadata<F> {
    const r = this.table(store).get(ownedKey(owner, name));
    if (!r) throw notFoundOf("metadata", name, this.ownerKind, owner);
    return r;
  }

  /** Refuses a name the owner already uses; call before writing anything else. */
  checkFree(store: Store, owner: string, name: string): void {
    if (this.table(store).has(ownedKey(owner, name))) {
      throw conflict(`metadata '${name}' of ${this.ownerKind} '${owner}' already exists; update it instead`);
    }
  }

  create(store: Store, owner: string, name: string, payload: Record<string, unknown>, now: string): StoredMetadata<F> {
    this.checkFree(store, owner, name);
    const owned = { [this.ownerField]: owner } as Record<F, string>;
    return this.table(store).put(ownedKey(owner, name), { ...owned, name, payload, created: now, updated: now });
  }

  update(store: Store, owner: string, name: string, payload: Record<string, unknown>, now: string): StoredMetadata<F> {
    const current = this.get(store, owner, name);
    return this.table(store).put(ownedKey(owner, name), { ...current, payload, updated: now });
  }

  delete(store: Store, owner: string, name: string): void {
    this.get(store, owner, name);
    this.table(store).delete(ownedKey(owner, name));
  }

  deleteAllOf(store: Store, owner: string): void {
    for (const r of this.of(store, owner)) this.table(store).delete(ownedKey(owner, r.name));
  }

  /** `{name: payload}` of the owner's records, limited to `names` when given. */
  object(records: StoredMetadata<F>[] | undefined, names?: string[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const r of [...(records ?? [])].sort(byName)) {
      if (!names || names.includes(r.name)) out[r.name] = r.payload;
    }
    return out;
  }
}

export const assetMetadata = new MetadataRecords(TABLES.assetMetadata, "asset_name", "asset");
export const typeMetadata = new MetadataRecords(TABLES.assetTypeMetadata, "asset_type_name", "asset type");
