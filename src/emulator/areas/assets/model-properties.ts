/**
 * Asset properties. Property names are defined platform-wide (facts §6.5 item 24): the first property
 * of a name fixes its title, later ones of that name keep it whatever title they send, and one title
 * never serves two names (409). The definitions are the property records themselves: a name whose
 * last record is deleted is free again.
 */
import type { AssetPropertyCreate } from "../../../api/assets";
import { conflict, invalidField } from "../../../api/errors";
import type { Store } from "../../store/store";
import { ownedKey, propertiesOf, propertyTable, type StoredProperty } from "./model";

type PropertyValue = AssetPropertyCreate["value"];

/** The stored value is text: scalars as they print, arrays as JSON (`[1,2]`, `["a","b"]`). */
export function renderValue(value: PropertyValue): string {
  if (Array.isArray(value)) return JSON.stringify(value);
  return String(value);
}

/** The platform-wide name ↔ title pairs, as the property records define them. */
export class PropertyCatalog {
  private readonly titleOf = new Map<string, string>();
  private readonly nameOf = new Map<string, string>();

  constructor(store: Store) {
    for (const p of propertyTable(store).values()) this.define(p.name, p.title);
  }

  private define(name: string, title: string): void {
    this.titleOf.set(name, title);
    this.nameOf.set(title, name);
  }

  /** The title a property of this name gets: the defined one, else the sent one (or the name itself). */
  resolve(name: string, sentTitle: string | null | undefined, field: string): string {
    const known = this.titleOf.get(name);
    if (known !== undefined) return known;
    const title = sentTitle ?? name;
    this.claim(name, title, field);
    return title;
  }

  /** Gives `title` to `name`, refusing a title that another property name holds. */
  claim(name: string, title: string, field: string): void {
    const holder = this.nameOf.get(title);
    if (holder !== undefined && holder !== name) {
      throw conflict(`${field}: the title '${title}' belongs to property '${holder}'; property titles are unique across the platform`);
    }
    const previous = this.titleOf.get(name);
    if (previous !== undefined) this.nameOf.delete(previous);
    this.define(name, title);
  }
}

/**
 * Checks a list of properties for an asset and returns the records to write, without writing:
 * callers validate everything first so that a rejected request changes nothing.
 */
export function planProperties(
  store: Store,
  assetName: string,
  inputs: AssetPropertyCreate[],
  now: string,
  /** Where item `i` sits in the request, for messages (`body`, `body.properties[2]`). */
  fieldOf: (i: number) => string,
): StoredProperty[] {
  const catalog = new PropertyCatalog(store);
  const seen = new Set<string>();
  return inputs.map((input, i) => {
    const where = fieldOf(i);
    if (seen.has(input.name)) throw invalidField(`${where}.name`, `property '${input.name}' is sent twice`);
    seen.add(input.name);
    const title = catalog.resolve(input.name, input.title, `${where}.title`);
    const value = renderValue(input.value);
    const current = propertyTable(store).get(ownedKey(assetName, input.name));
    return current ? { ...current, value, updated: now } : { asset_name: assetName, name: input.name, title, value, created: now, updated: now };
  });
}

export function writeProperties(store: Store, records: StoredProperty[]): void {
  for (const r of records) propertyTable(store).put(ownedKey(r.asset_name, r.name), r);
}

export function deletePropertiesOf(store: Store, assetName: string): void {
  for (const p of propertiesOf(store, assetName)) {
    propertyTable(store).delete(ownedKey(assetName, p.name));
  }
}

/** Renames a property platform-wide: every asset's record of that name takes the new title. */
export function retitle(store: Store, propertyName: string, title: string, now: string): void {
  new PropertyCatalog(store).claim(propertyName, title, "body.title");
  for (const p of propertyTable(store).filter((r) => r.name === propertyName && r.title !== title)) {
    propertyTable(store).put(ownedKey(p.asset_name, p.name), { ...p, title, updated: now });
  }
}
