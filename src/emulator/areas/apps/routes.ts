/** The apps area's routes and views: apps, app versions, app resources and contexts (rules in model.ts and model-resources.ts). */
import { apps as ep, type App, type AppListItem } from "../../../api/apps";
import { inFilter, matchesSearch, part1List } from "../../list";
import { route, type AreaModule } from "../../handler";
import { versionSortKey } from "../../version-order";
import type { Store } from "../../store/store";
import { requireAppVersion } from "../parameters/model";
import {
  appsTable,
  changeVersion,
  compact,
  createVersion,
  deleteApp,
  deleteVersion,
  patchVersion,
  requireApp,
  updateVersion,
  versionsOf,
  versionView,
  type StoredApp,
} from "./model";
import { deployAppVersion } from "../workloads/model-deploy";
import { appResourceRows, appStatusOf, contextEntries, resourceCount, setEnabled, unbind } from "./model-resources";

const listItem = (store: Store, a: StoredApp): AppListItem => ({ ...a, status: appStatusOf(store, a.name) });

function appView(store: Store, a: StoredApp): App {
  const item = listItem(store, a);
  return {
    ...item,
    versions: versionsOf(store, a.name).map((v) => ({ version: v.version, created_at: v.created_at, created_by: v.created_by })),
    deployment: { status: item.status, resource_count: resourceCount(store, a.name) },
  };
}

// ---------------------------------------------------------------------------------------------
// Routes

const intersects = (filter: string[] | undefined, values: string[]) => !filter || filter.length === 0 || values.some((v) => filter.includes(v));

export const area: AreaModule = {
  routes: [
    route(ep.create, (ctx) => createVersion(ctx, ctx.body)),
    route(ep.versionGet, (ctx) => versionView(requireAppVersion(ctx.store, ctx.params.app_name, ctx.params.app_version))),
    route(ep.versionPatch, (ctx) => changeVersion(ctx, ctx.params, ctx.body, patchVersion)),
    route(ep.versionUpdate, (ctx) => changeVersion(ctx, ctx.params, ctx.body, updateVersion)),
    route(ep.versionDelete, (ctx) => deleteVersion(ctx, ctx.params)),

    route(ep.get, (ctx) => appView(ctx.store, requireApp(ctx.store, ctx.params.app_name))),

    route(ep.list, (ctx) => {
      const q = ctx.query;
      const hasResource = (app: string) => !q.resources || q.resources.length === 0 || appResourceRows(ctx.store, app).some((r) => q.resources!.includes(r.resource));
      const rows = appsTable(ctx.store).filter(
        (a) => inFilter(q.app_names, a.name) && inFilter(q.app_types, a.type) && matchesSearch(q.search, a.name, a.title) && hasResource(a.name),
      );
      return part1List(rows, q, {
        key: (a) => a.name,
        sort: {
          name: (a) => a.name,
          title: (a) => a.title,
          type: (a) => a.type,
          latest_version: (a) => versionSortKey(a.latest_version),
          created_at: (a) => a.created_at,
          created_by: (a) => a.created_by,
          updated_at: (a) => a.updated_at,
          updated_by: (a) => a.updated_by,
        },
        item: (a) => listItem(ctx.store, a),
      });
    }),

    route(ep.patch, (ctx) => {
      const current = requireApp(ctx.store, ctx.params.app_name);
      const next: StoredApp = { ...current, ...compact(ctx.body), updated_at: ctx.now, updated_by: ctx.actor } as StoredApp;
      return appView(ctx.store, appsTable(ctx.store).put(current.name, next));
    }),

    route(ep.delete, (ctx) => deleteApp(ctx, ctx.params.app_name)),

    route(ep.deploy, (ctx) => deployAppVersion(ctx, ctx.params.app_name, ctx.params.app_version, ctx.body)),

    route(ep.resourcesEnable, (ctx) => setEnabled(ctx, ctx.params.app_name, ctx.body.resources, true)),
    route(ep.resourcesDisable, (ctx) => setEnabled(ctx, ctx.params.app_name, ctx.body.resources, false)),
    route(ep.resourcesDelete, (ctx) => unbind(ctx, ctx.params.app_name, ctx.body.resources)),

    route(ep.resourcesList, (ctx) => {
      const app = ctx.params.app_name;
      requireApp(ctx.store, app);
      const q = ctx.query;
      const rows = appResourceRows(ctx.store, app).filter(
        (r) =>
          matchesSearch(q.search, r.resource, r.app_name, ...r.workload_names) &&
          inFilter(q.resources, r.resource) &&
          intersects(q.app_versions, r.app_versions) &&
          intersects(q.workload_names, r.workload_names) &&
          (q.enabled === undefined || r.enabled === q.enabled),
      );
      return part1List(rows, q, {
        key: (r) => r.resource,
        sort: {
          resource: (r) => r.resource,
          app_name: (r) => r.app_name,
          enabled: (r) => r.enabled,
          created_at: (r) => r.created_at,
          created_by: (r) => r.created_by,
          updated_at: (r) => r.updated_at,
          updated_by: (r) => r.updated_by,
        },
      });
    }),

    route(ep.contextList, (ctx) => {
      const f = ctx.body;
      const rows = contextEntries(ctx.store).filter((e) => inFilter(f?.resources, e.resource) && inFilter(f?.sources, e.source));
      return part1List(rows, ctx.query, {
        key: (e) => `${e.resource}\u0000${e.source}`,
        sort: { resource: (e) => e.resource, source: (e) => e.source },
      });
    }),
  ],
};
