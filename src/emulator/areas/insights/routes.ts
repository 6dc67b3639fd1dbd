/** The asset insights route (the query's columns, filters and sorting in model.ts). */
import { insights as ep, type AssetInsightsRequest } from "../../../api/insights";
import { route, type AreaModule } from "../../handler";
import { part1List } from "../../list";
import { TABLES, type AssetRef } from "../../store/tables";
import { buildIndex, comparator, itemOf, matchesAsset, passesColumnFilters, requestedColumns, validateFilters, validateSorts } from "./model";

export const area: AreaModule = {
  routes: [
    route(ep.get, (ctx) => {
      const body: AssetInsightsRequest = ctx.body ?? {};
      const columns = requestedColumns(body);
      const sorts = body.sort_by ?? [{ direction: "asc", field: "name", sort_by_extra_field: false }];
      validateFilters(columns);
      validateSorts(sorts, columns);
      const idx = buildIndex(ctx.store);
      const pinned = new Set(body.pinned_assets ?? []);
      const items = ctx.store
        .table<AssetRef>(TABLES.assets)
        .filter((a) => matchesAsset(a, body))
        .map((a) => itemOf(a, pinned, columns, idx))
        .filter((item) => passesColumnFilters(item, columns))
        .sort(comparator(sorts));
      // The body's sort_by orders the items; the list engine pages them by their place in that order.
      const ranked = items.map((item, rank) => ({ item, rank }));
      return part1List(ranked, { ...ctx.query, direction: "asc", sort_by: ["rank"] }, { key: (r) => r.item.name, sort: { rank: (r) => r.rank }, item: (r) => r.item });
    }),
  ],
};
