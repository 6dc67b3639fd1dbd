/**
 * Apps and app versions (spec Part 1 "Apps"; facts §3.1-3.2, §4.1, §6.1, §6.7). App resources and
 * app contexts live in model-resources.ts; deploy is served by the workloads area.
 *
 * An app is created with its first version by /apps/create; later creates add versions. The app's
 * title, description and category come from its first version and change only through app patch.
 * Its latest_version is the highest version in semver order.
 *
 * App resources: an app's resources are the assets its workloads serve (read live from the
 * workloads table) merged with the rows written by resources enable/disable; see model-resources.ts.
 *
 * Design choices where the spec is silent:
 * - The platform defaults of facts §6.7 (flags.enable_runtime_update, io way/storage, dynamic_io
 *   ownership/type) are filled in on create; `flags.enable_runtime_update` is present on every version.
 * - Version patch works on the spec's listed keys (image, defaults.deployment.max_resources, ...,
 *   schemas.io_configuration): each one sent replaces its whole value; `defaults: {}` changes nothing.
 *   Update replaces `schemas` and `defaults` whole (absent means removed); `image` changes only when sent.
 * - An image is stored and answered as `{ mode, uri }`, the form of the vendor's current client; a
 *   string (the facts file's form, which earlier clients send and earlier state files hold) is taken
 *   and answered as `{ mode: "manual", uri }`, and an empty one (an image removed) as none.
 * - A version (or an app) that workloads still run answers 400 naming them on delete.
 * - Deleting a version drops its parameter values and history; deleting an app drops its versions,
 *   resource bindings, parameter definitions, values and history. Schedules stay and end in `error`
 *   when they come due.
 * - A parameter defined twice in one manifest, or whose default does not match its data_type, is 400.
 */
import type { AppImage, AppVersion, AppVersionCreate, AppVersionPatch } from "../../../api/apps";
import { badRequest, conflict } from "../../../api/errors";
import type { WriteContext } from "../../handler";
import type { Store } from "../../store/store";
import { appVersionKey } from "../../store/tables";
import { dataTypeOf, dropParameterData, requireAppVersion, syncDefinitions } from "../parameters/model";
import { appsTable, requireApp, versionsOf, versionsTable } from "./model-records";
import { dropAppResources, workloadsOf } from "./model-resources";

export { appsTable, requireApp, versionsOf, versionsTable, type StoredApp } from "./model-records";

/** Drops keys whose value is undefined, so stored records hold only what is set. */
export function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

// ---------------------------------------------------------------------------------------------
// Manifest normalization and checks

const RUNTIME_UPDATE_DEFAULTS = { io: false, configuration: false, resource_parameters: true, resource_properties: true };

type Manifest = Omit<AppVersion, "created_at" | "created_by" | "updated_at" | "updated_by">;

/** An image in the form the platform answers (see the header). */
export function imageForm(image: string | AppImage | undefined): AppImage | undefined {
  if (typeof image !== "string") return image;
  return image === "" ? undefined : { mode: "manual", uri: image };
}

/** A version as the platform answers it: a stored string image (earlier state files) in the current form. */
export function versionView(v: AppVersion): AppVersion {
  return typeof v.image === "string" ? compact({ ...v, image: imageForm(v.image) }) : v;
}

/** The manifest as the platform stores it: the defaults of facts §6.7 filled in. */
function withPlatformDefaults(m: AppVersionCreate): Manifest {
  return compact({
    ...m,
    image: imageForm(m.image),
    flags: compact({ ...m.flags, enable_runtime_update: { ...RUNTIME_UPDATE_DEFAULTS, ...compact(m.flags?.enable_runtime_update ?? {}) } }),
    io: m.io?.map((i) => ({ ...i, way: i.way ?? "output", storage: i.storage ?? "node-and-cloud" })),
    dynamic_io: m.dynamic_io?.map((d) => ({ ...d, ownership: d.ownership ?? "both", type: d.type ?? "both" })),
  });
}

function checkParameterDefinitions(m: AppVersionCreate): void {
  const seen = new Set<string>();
  const problems: string[] = [];
  (m.parameters ?? []).forEach((p, i) => {
    if (seen.has(p.name)) problems.push(`body.parameters[${i}].name: '${p.name}' is defined twice`);
    seen.add(p.name);
    if (p.default !== undefined && typeof p.default !== dataTypeOf(p)) {
      problems.push(`body.parameters[${i}].default: must be a ${dataTypeOf(p)} (the parameter's data_type), got ${JSON.stringify(p.default)}`);
    }
  });
  if (problems.length > 0) throw badRequest(...problems);
}

// ---------------------------------------------------------------------------------------------
// Apps

/** Recomputes latest_version after versions change; the app counts as updated. */
function touchApp(ctx: WriteContext, app: string): void {
  const current = requireApp(ctx.store, app);
  const versions = versionsOf(ctx.store, app);
  const latest = versions.length ? versions[versions.length - 1].version : null;
  appsTable(ctx.store).put(app, { ...current, latest_version: latest, updated_at: ctx.now, updated_by: ctx.actor });
}

function refuseWhileDeployed(store: Store, app: string, version?: string): void {
  const running = workloadsOf(store, app).filter((w) => version === undefined || w.app_version === version);
  if (running.length === 0) return;
  const what = version === undefined ? `app '${app}'` : `app '${app}' version ${version}`;
  throw badRequest(`${what} is deployed as workload(s) ${running.map((w) => w.name).join(", ")}; delete them first`);
}

export function createVersion(ctx: WriteContext, m: AppVersionCreate): AppVersion {
  const existing = appsTable(ctx.store).get(m.name);
  if (existing && versionsTable(ctx.store).has(appVersionKey(m.name, m.version))) {
    throw conflict(`app '${m.name}' already has version ${m.version}; create a new version or update this one`);
  }
  if (existing && existing.type !== m.type) {
    throw badRequest(`body.type: app '${m.name}' is of type '${existing.type}'; a new version cannot be '${m.type}'`);
  }
  checkParameterDefinitions(m);
  if (!existing) {
    appsTable(ctx.store).put(
      m.name,
      compact({
        name: m.name,
        title: m.title,
        description: m.description,
        category: m.category,
        type: m.type,
        latest_version: m.version,
        created_at: ctx.now,
        created_by: ctx.actor,
        updated_at: ctx.now,
        updated_by: ctx.actor,
      }),
    );
  }
  const version = versionsTable(ctx.store).put(appVersionKey(m.name, m.version), {
    ...withPlatformDefaults(m),
    created_at: ctx.now,
    created_by: ctx.actor,
    updated_at: ctx.now,
    updated_by: ctx.actor,
  });
  touchApp(ctx, m.name);
  syncDefinitions(ctx, m.name);
  return version;
}

export function deleteApp(ctx: WriteContext, name: string): undefined {
  const app = requireApp(ctx.store, name).name;
  refuseWhileDeployed(ctx.store, app);
  for (const v of versionsOf(ctx.store, app)) versionsTable(ctx.store).delete(appVersionKey(app, v.version));
  dropAppResources(ctx.store, app);
  dropParameterData(ctx, app);
  appsTable(ctx.store).delete(app);
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Version patch and update

/** The keys patch may change (spec "App version"), as paths into the record. */
const PATCHABLE_KEYS: ReadonlyArray<readonly string[]> = [
  ["image"],
  ["defaults", "deployment", "max_resources"],
  ["defaults", "deployment", "deployment_type"],
  ["defaults", "deployment", "target"],
  ["defaults", "app", "configuration"],
  ["defaults", "app", "io_datastream_mapping"],
  ["defaults", "api_permissions"],
  ["defaults", "system"],
  ["schemas", "parameters"],
  ["schemas", "configuration"],
  ["schemas", "io_configuration"],
];

function getPath(o: unknown, path: readonly string[]): unknown {
  let cur = o;
  for (const k of path) {
    if (!cur || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

function setPath(o: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let cur = o;
  for (const k of path.slice(0, -1)) {
    const next = cur[k];
    cur[k] = next && typeof next === "object" ? next : {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[path[path.length - 1]] = value;
}

export function patchVersion(current: AppVersion, body: AppVersionPatch): AppVersion {
  const next = structuredClone(current) as unknown as Record<string, unknown>;
  for (const path of PATCHABLE_KEYS) {
    const value = getPath(body, path);
    if (value !== undefined) setPath(next, path, structuredClone(value));
  }
  return versionView(compact({ ...(next as unknown as AppVersion), image: imageForm((next as unknown as AppVersion).image) }));
}

export function updateVersion(current: AppVersion, body: AppVersionPatch): AppVersion {
  return compact({ ...current, image: imageForm(body.image ?? current.image), schemas: body.schemas, defaults: body.defaults });
}

export function changeVersion(
  ctx: WriteContext,
  { app_name, app_version }: { app_name: string; app_version: string },
  body: AppVersionPatch,
  change: (current: AppVersion, body: AppVersionPatch) => AppVersion,
): AppVersion {
  const current = requireAppVersion(ctx.store, app_name, app_version);
  const next = { ...change(current, body), updated_at: ctx.now, updated_by: ctx.actor };
  return versionsTable(ctx.store).put(appVersionKey(app_name, app_version), next);
}

export function deleteVersion(ctx: WriteContext, { app_name, app_version }: { app_name: string; app_version: string }): undefined {
  requireAppVersion(ctx.store, app_name, app_version);
  refuseWhileDeployed(ctx.store, app_name, app_version);
  versionsTable(ctx.store).delete(appVersionKey(app_name, app_version));
  dropParameterData(ctx, app_name, app_version);
  touchApp(ctx, app_name);
  return undefined;
}
