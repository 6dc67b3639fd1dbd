/** The rules of asset classes and types: a type names an existing class, and a type in use stays. */
import { assets as ep } from "../../../api/assets";
import { conflict } from "../../../api/errors";
import { operationName } from "../../paths";
import type { Store } from "../../store/store";
import { assetTable, classTable, missingRef, nameList, typeMetadata, typeTable } from "./model";

export function requireClassOf(store: Store, className: string, field: string): string {
  if (!classTable(store).has(className)) throw missingRef(field, "asset class", className, `create it with ${operationName(ep.classCreate)}`);
  return className;
}

export const usersOfType = (store: Store, typeName: string): string[] =>
  assetTable(store)
    .filter((a) => a.asset_type_name === typeName)
    .map((a) => a.name);

export const typeInUse = (typeName: string, users: string[]) =>
  conflict(`asset type '${typeName}' is used by the asset(s) ${nameList(users)}; delete them or change their type first`);

export function removeType(store: Store, typeName: string): void {
  typeMetadata.deleteAllOf(store, typeName);
  typeTable(store).delete(typeName);
}
