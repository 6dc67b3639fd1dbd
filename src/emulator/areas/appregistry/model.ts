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
import type { z } from "zod";
import { APP_TYPE_TO_REGISTRY, type AppDefinition, type RegistryAppType } from "../../../api/appregistry";
import { conflict, notFound } from "../../../api/errors";
import type { UploadedFile, WriteContext } from "../../handler";
import type { Store } from "../../store/store";
import { TABLES, appVersionKey } from "../../store/tables";

export type BuildStatus = "pending" | "built";

export interface StoredApp {
  name: string;
  title: string;
  description: string;
  type: RegistryAppType;
  latest_version: string | null;
  created: string;
  updated: string;
}

export interface StoredVersion {
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

export interface StoredPackage {
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

export const apps = (store: Store) => store.table<StoredApp>(TABLES.registryApps);
export const versions = (store: Store) => store.table<StoredVersion>(TABLES.registryVersions);
export const packages = (store: Store) => store.table<StoredPackage>(TABLES.registryPackages);

const versionId = (app: string, version: string) => createHash("sha256").update(`${app}:${version}`).digest("hex");

export function requireApp(store: Store, appName: string): StoredApp {
  const app = apps(store).get(appName);
  if (!app) throw notFound("registry app", appName);
  return app;
}

export function requireVersion(store: Store, appName: string, version: string): StoredVersion {
  requireApp(store, appName);
  const v = versions(store).get(appVersionKey(appName, version));
  if (!v) throw notFound("registry app version", `${appName}:${version}`);
  return v;
}

export const versionsOf = (store: Store, appName: string) =>
  versions(store)
    .filter((v) => v.name === appName)
    .sort((a, b) => semver.compare(a.version, b.version));

export const latestOf = (store: Store, appName: string): string | null => versionsOf(store, appName).at(-1)?.version ?? null;

export function createVersion(ctx: WriteContext, appName: string, version: string, type: RegistryAppType, payload: Record<string, unknown>): void {
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

/**
 * Registers a definition: a new version of its app, and the app itself when it is the first. An app
 * keeps its type: a definition whose type maps to another answers 409.
 */
export function register(ctx: WriteContext, def: z.output<typeof AppDefinition>): StoredApp {
  const existing = apps(ctx.store).get(def.name);
  const type = def.type ? APP_TYPE_TO_REGISTRY[def.type] : (existing?.type ?? "svc");
  if (existing && existing.type !== type) {
    throw conflict(`registry app '${def.name}' is of type '${existing.type}'; body.payload.type '${def.type}' maps to '${type}'`);
  }
  createVersion(ctx, def.name, semver.valid(def.version) as string, type, def);
  return saveApp(
    ctx,
    existing ?? { name: def.name, title: def.title ?? def.name, description: def.description ?? "", type, latest_version: null, created: ctx.now, updated: ctx.now },
  );
}

/** Puts the app with latest_version recomputed from its versions. */
export function saveApp(ctx: WriteContext, app: StoredApp): StoredApp {
  return apps(ctx.store).put(app.name, { ...app, latest_version: latestOf(ctx.store, app.name), updated: ctx.now });
}

export function deleteVersionRecords(store: Store, appName: string, version: string): void {
  const key = appVersionKey(appName, version);
  versions(store).delete(key);
  packages(store).delete(key);
}
/** Keeps an uploaded package (replacing the version's former one) and marks the version built. */
export function storePackage(ctx: WriteContext, v: StoredVersion, file: UploadedFile): void {
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
}
