/** The routes of asset properties (their rules in model-properties.ts). */
import { assets as ep } from "../../../api/assets";
import { conflict } from "../../../api/errors";
import { route, type Route } from "../../handler";
import { inventoryList, matchesSearch } from "../../list";
import { planProperties, writeProperties, retitle, renderValue } from "./model-properties";
import { ownedKey, propertiesOf, propertyTable, requireAsset, requireProperty, type StoredProperty } from "./model";

export const propertyRoutes: Route[] = [
  route(ep.propertyCreate, (ctx) => {
    const assetName = requireAsset(ctx.store, ctx.params.asset_name).name;
    if (propertyTable(ctx.store).has(ownedKey(assetName, ctx.body.name))) {
      throw conflict(`property '${ctx.body.name}' of asset '${assetName}' already exists; update it instead`);
    }
    const [record] = planProperties(ctx.store, assetName, [ctx.body], ctx.now, () => "body");
    writeProperties(ctx.store, [record]);
    return record;
  }),

  route(ep.propertyGet, (ctx) => requireProperty(ctx.store, ctx.params.asset_name, ctx.params.asset_property_name)),

  route(ep.propertyList, (ctx) => {
    const assetName = requireAsset(ctx.store, ctx.params.asset_name).name;
    const rows = propertiesOf(ctx.store, assetName).filter((p) => matchesSearch(ctx.query.search, p.name, p.title, p.value));
    return inventoryList(rows, ctx.query, {
      key: (p) => p.name,
      sort: {
        "asset_property.name": (p) => p.name,
        "asset_property.title": (p) => p.title,
        "asset_property.value": (p) => p.value,
        "asset_property.created": (p) => p.created,
        "asset_property.updated": (p) => p.updated,
      },
    });
  }),

  route(ep.propertyUpdate, (ctx) => {
    const { asset_name, asset_property_name } = ctx.params;
    requireProperty(ctx.store, asset_name, asset_property_name);
    if (ctx.body.title) retitle(ctx.store, asset_property_name, ctx.body.title, ctx.now);
    const current = requireProperty(ctx.store, asset_name, asset_property_name);
    const next: StoredProperty = { ...current, value: renderValue(ctx.body.value), updated: ctx.now };
    return propertyTable(ctx.store).put(ownedKey(asset_name, asset_property_name), next);
  }),

  route(ep.propertyDelete, (ctx) => {
    const { asset_name, asset_property_name } = ctx.params;
    requireProperty(ctx.store, asset_name, asset_property_name);
    propertyTable(ctx.store).delete(ownedKey(asset_name, asset_property_name));
    return undefined;
  }),
];
