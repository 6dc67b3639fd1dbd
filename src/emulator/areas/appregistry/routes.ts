/** The app registry's routes and views (records and rules in model.ts). */
import { APP_TYPE_TO_REGISTRY, appregistry as ep } from "../../../api/appregistry";
import { badRequest, errors, invalidField } from "../../../api/errors";
import { route, type AreaModule, type Handler } from "../../handler";
import { versionSortKey } from "../../version-order";
import { inFilter, inventoryList, matchesSearch } from "../../list";
import type { Store } from "../../store/store";
import { appVersionKey } from "../../store/tables";
import {
  apps,
  deleteVersionRecords,
  packages,
  register,
  requireApp,
  requireVersion,
  saveApp,
  storePackage,
  versions,
  versionsOf,
  type StoredApp,
  type StoredVersion,
} from "./model";

/** The typed context of an endpoint's handler. */
type Ctx<E extends (typeof ep)[keyof typeof ep]> = Parameters<Handler<E>>[0];

const versionView = (v: StoredVersion) => ({ id: v.id, version: v.version, payload: v.payload, created: v.created, updated: v.updated });
const appView = (store: Store, app: StoredApp) => ({ ...app, versions: versionsOf(store, app.name).map(versionView) });
const statusView = (v: StoredVersion) => ({ id: v.id, name: v.name, version: v.version, status: v.status, build_log: v.build_log });

// ---------------------------------------------------------------------------------------------
// Create

function create(ctx: Ctx<typeof ep.create>) {
  return appView(ctx.store, register(ctx, ctx.body.payload));
}

// ---------------------------------------------------------------------------------------------
// Packages

function upload(ctx: Ctx<typeof ep.versionUpload>): undefined {
  const v = requireVersion(ctx.store, ctx.params.app_name, ctx.params.app_version);
  if (ctx.files.length !== 1) {
    throw invalidField("body", `send exactly one package file (field 'file'); got ${ctx.files.length}`);
  }
  const file = ctx.files[0];
  if (file.data.length === 0) throw badRequest(`body.${file.field}: the package file '${file.filename}' is empty`);
  storePackage(ctx, v, file);
  return undefined;
}

function download(ctx: Ctx<typeof ep.versionDownload>) {
  const v = requireVersion(ctx.store, ctx.params.app_name, ctx.params.app_version);
  const pkg = packages(ctx.store).get(appVersionKey(v.name, v.version));
  if (!pkg) throw errors.NOT_FOUND(`registry app version '${v.name}:${v.version}' has no package yet; upload one first`);
  return {
    status: 200,
    headers: { "content-type": "application/octet-stream", "content-disposition": `attachment; filename="${pkg.filename.replace(/"/g, "")}"` },
    raw: Buffer.from(pkg.data, "base64"),
  };
}

// ---------------------------------------------------------------------------------------------
// Lists

function list(ctx: Ctx<typeof ep.list>) {
  const q = ctx.query;
  const types = q.type?.map((t) => APP_TYPE_TO_REGISTRY[t]);
  const rows = apps(ctx.store).filter((a) => inFilter(types, a.type) && matchesSearch(q.search, a.name, a.title));
  const latestStatus = (a: StoredApp) => (a.latest_version ? (versions(ctx.store).get(appVersionKey(a.name, a.latest_version))?.status ?? null) : null);
  return inventoryList(rows, q, {
    key: (a) => a.name,
    sort: {
      "app.name": (a) => a.name,
      "app.title": (a) => a.title,
      "app.type": (a) => a.type,
      "app.latest_version": (a) => versionSortKey(a.latest_version),
      "app.created": (a) => a.created,
      "app.updated": (a) => a.updated,
      status: latestStatus,
    },
  });
}

/** `<app_name>:<version>` entries; the query schema has checked their form. */
const parseAppVersionRef = (ref: string) => {
  const i = ref.indexOf(":");
  return appVersionKey(ref.slice(0, i), ref.slice(i + 1));
};

// ---------------------------------------------------------------------------------------------
// Routes

export const area: AreaModule = {
  routes: [
    route(ep.create, (ctx) => create(ctx)),
    route(ep.list, (ctx) => list(ctx)),
    route(ep.get, (ctx) => appView(ctx.store, requireApp(ctx.store, ctx.params.app_name))),

    route(ep.update, (ctx) => {
      const app = requireApp(ctx.store, ctx.params.app_name);
      const { title, description } = ctx.body;
      const next = { ...app, title: title ?? app.title, description: description ?? app.description, updated: ctx.now };
      return appView(ctx.store, apps(ctx.store).put(app.name, next));
    }),

    route(ep.delete, (ctx) => {
      const app = requireApp(ctx.store, ctx.params.app_name);
      for (const v of versionsOf(ctx.store, app.name)) deleteVersionRecords(ctx.store, app.name, v.version);
      apps(ctx.store).delete(app.name);
      return undefined;
    }),

    route(ep.versionGet, (ctx) => versionView(requireVersion(ctx.store, ctx.params.app_name, ctx.params.app_version))),
    route(ep.versionUpload, (ctx) => upload(ctx)),
    route(ep.versionDownload, (ctx) => download(ctx)),

    route(ep.versionDelete, (ctx) => {
      const v = requireVersion(ctx.store, ctx.params.app_name, ctx.params.app_version);
      deleteVersionRecords(ctx.store, v.name, v.version);
      saveApp(ctx, requireApp(ctx.store, v.name));
      return undefined;
    }),

    route(ep.versionStatusGet, (ctx) => statusView(requireVersion(ctx.store, ctx.params.app_name, ctx.params.app_version))),

    route(ep.versionStatusList, (ctx) => {
      const wanted = ctx.query.app_versions?.map(parseAppVersionRef);
      const rows = versions(ctx.store).filter((v) => inFilter(wanted, appVersionKey(v.name, v.version)));
      return inventoryList(rows, ctx.query, { key: (v) => v.id, sort: { "app_version.id": (v) => v.id }, item: statusView });
    }),
  ],
};
