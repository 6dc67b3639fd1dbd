/**
 * The app registry. Apps live in TABLES.registryApps keyed by name; versions in
 * TABLES.registryVersions keyed by appVersionKey(app, version); uploaded packages in
 * TABLES.registryPackages under the same key, their bytes as base64.
 *
 * Design choices where the spec is silent:
 * - A version's id is the sha256 (hex) of `<app>:<version>`.
 * - The app's type is stored in the registry's type set (AppType values are mapped, facts §5); a new
 *   app without a type is `svc`. A version whose type differs from its app's answers 409.
 * - The app's title and description come from the definition that creates the app (title defaults to
 *   the name, description to ""); appending a version does not change them; update does.
 * - The definition (`payload`) is stored as sent.
 * - Build status is `pending` until a package is uploaded and `built` after; re-uploading replaces
 *   the package. Upload answers 200 with no body.
 * - Deleting the last version keeps the app, with latest_version null.
 * - The list's `status` sort key is the build status of the latest version.
 */
import { createHash } from "node:crypto";
import semver from "semver";
import { APP_TYPE_TO_REGISTRY, appregistry as ep, type RegistryAppType } from "../../../api/appregistry";
import { badRequest, conflict, errors, invalidField, notFound } from "../../../api/errors";
import { route, type AreaModule, type Handler, type HandlerContext } from "../../handler";
import { versionSortKey } from "../../version-order";
import { inFilter, inventoryList, matchesSearch } from "../../list";
import type { Store } from "../../store/store";
import { TABLES, appVersionKey } from "../../store/tables";

type BuildStatus = "pending" | "built";

interface StoredApp {
  name: string;
  title: string;
  description: string;
  type: RegistryAppType;
  latest_version: string | null;
  created: string;
  updated: string;
}

interface StoredVersion {
  id: string;
  /** The app's name (internal; the version record of the API has no app name). */
  name: string;
  version: string;
  type: RegistryAppType;
  payload: Record<string, unknown>;
  created: string;
  updated: string;
  status: BuildStatus;
  build_log: string;
}

interface StoredPackage {
  app_name: string;
  version: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  /** The package bytes, base64. */
  data: string;
  created: string;
}

/** The typed context of an endpoint's handler. */
type Ctx<E extends (typeof ep)[keyof typeof ep]> = Parameters<Handler<E>>[0];

const apps = (store: Store) => store.table<StoredApp>(TABLES.registryApps);
const versions = (store: Store) => store.table<StoredVersion>(TABLES.registryVersions);
const packages = (store: Store) => store.table<StoredPackage>(TABLES.registryPackages);

const versionId = (app: string, version: string) => createHash("sha256").update(`${app}:${version}`).digest("hex");

function requireApp(store: Store, appName: string): StoredApp {
  const app = apps(store).get(appName);
  if (!app) throw notFound("registry app", appName);
  return app;
}

function requireVersion(store: Store, appName: string, version: string): StoredVersion {
  requireApp(store, appName);
  const v = versions(store).get(appVersionKey(appName, version));
  if (!v) throw notFound("registry app version", `${appName}:${version}`);
  return v;
}

const versionsOf = (store: Store, appName: string) =>
  versions(store)
    .filter((v) => v.name === appName)
    .sort((a, b) => semver.compare(a.version, b.version));

const latestOf = (store: Store, appName: string): string | null => versionsOf(store, appName).at(-1)?.version ?? null;

const versionView = (v: StoredVersion) => ({ id: v.id, version: v.version, payload: v.payload, created: v.created, updated: v.updated });
const appView = (store: Store, app: StoredApp) => ({ ...app, versions: versionsOf(store, app.name).map(versionView) });
const statusView = (v: StoredVersion) => ({ id: v.id, name: v.name, version: v.version, status: v.status, build_log: v.build_log });

// ---------------------------------------------------------------------------------------------
// Create

function createVersion(ctx: HandlerContext, appName: string, version: string, type: RegistryAppType, payload: Record<string, unknown>): void {
  const key = appVersionKey(appName, version);
  if (versions(ctx.store).has(key)) {
    throw conflict(`registry app '${appName}' already has version ${version}; register a new version number`);
  }
  versions(ctx.store).put(key, {
    id: versionId(appName, version),
    name: appName,
    version,
    type,
    payload,
    created: ctx.now,
    updated: ctx.now,
    status: "pending",
    build_log: "waiting for the package upload\n",
  });
}

/** Puts the app with latest_version recomputed from its versions. */
function saveApp(ctx: HandlerContext, app: StoredApp): StoredApp {
  return apps(ctx.store).put(app.name, { ...app, latest_version: latestOf(ctx.store, app.name), updated: ctx.now });
}

function create(ctx: Ctx<typeof ep.create>) {
  const def = ctx.body.payload;
  const existing = apps(ctx.store).get(def.name);
  const type = def.type ? APP_TYPE_TO_REGISTRY[def.type] : (existing?.type ?? "svc");
  if (existing && existing.type !== type) {
    throw conflict(`registry app '${def.name}' is of type '${existing.type}'; body.payload.type '${def.type}' maps to '${type}'`);
  }
  const version = semver.valid(def.version) as string;
  createVersion(ctx, def.name, version, type, def);
  const app = saveApp(
    ctx,
    existing ?? { name: def.name, title: def.title ?? def.name, description: def.description ?? "", type, latest_version: null, created: ctx.now, updated: ctx.now },
  );
  return appView(ctx.store, app);
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
  const sha256 = createHash("sha256").update(file.data).digest("hex");
  const key = appVersionKey(v.name, v.version);
  packages(ctx.store).put(key, {
    app_name: v.name,
    version: v.version,
    filename: file.filename,
    content_type: file.contentType,
    size: file.data.length,
    sha256,
    data: file.data.toString("base64"),
    created: ctx.now,
  });
  const image = `registry.local/${v.name}:${v.version}`;
  const build_log = `received ${file.filename} (${file.data.length} bytes, sha256 ${sha256})\nbuilt image ${image}\n`;
  versions(ctx.store).put(key, { ...v, status: "built", build_log, updated: ctx.now });
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

function deleteVersionRecords(store: Store, appName: string, version: string): void {
  const key = appVersionKey(appName, version);
  versions(store).delete(key);
  packages(store).delete(key);
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
