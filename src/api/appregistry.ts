/** The app registry: registry apps, their versions, packages and build status (spec Part 2 "App registry"; facts §3.9, §4.6, §5). */
import { z } from "zod";
import { NAME_PATTERN, auditStamps, freeObject, inventoryListQuery, inventoryPage, name, qArray, semverString, text, title } from "./common";
import { area, endpoint, pathValues, type ConfirmReader, type CreateInput } from "./endpoint";

/** The registry's own type set (facts §5). */
export const registryAppType = z.enum(["svc", "docker", "bridge"]);
export type RegistryAppType = z.infer<typeof registryAppType>;

/** AppType values are accepted too and mapped into the registry's set: app → svc, importer and exporter → bridge. */
export const APP_TYPE_TO_REGISTRY: Record<string, RegistryAppType> = {
  svc: "svc",
  docker: "docker",
  bridge: "bridge",
  app: "svc",
  importer: "bridge",
  exporter: "bridge",
};
const anyAppType = z.enum(["svc", "docker", "bridge", "app", "importer", "exporter"], {
  message: "must be a registry app type (svc, docker, bridge) or an app type (app, importer, exporter, docker)",
});

/** Build states of a version's package: `pending` until a package is uploaded, then `built`. */
export const buildStatus = z.enum(["pending", "built"]);

export const RegistryAppVersion = z.object({
  id: z.string(),
  version: z.string(),
  payload: freeObject,
  ...auditStamps,
});

export const RegistryAppListItem = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  type: registryAppType,
  latest_version: z.string().nullable(),
  ...auditStamps,
});
export const RegistryApp = RegistryAppListItem.extend({ versions: z.array(RegistryAppVersion) });

export const AppVersionStatus = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  status: buildStatus,
  build_log: z.string(),
});

/** The app definition: these fields are read; every other field passes through untouched. */
export const AppDefinition = z.looseObject({
  name: name(64),
  version: semverString,
  type: anyAppType.optional(),
  title: title(64).nullish(),
  description: text(256).nullish(),
});

export const AppCreate = z.object({ payload: AppDefinition }).strict();
export const AppUpdate = z.object({ title: title(64).nullish(), description: text(256).nullish() }).strict();

const appParams = z.object({ app_name: name(64) });
const versionParams = z.object({ app_name: name(64), app_version: z.string().min(1).max(64) });

/** `<app_name>:<version>` */
export const APP_VERSION_REF = new RegExp(`^${NAME_PATTERN.source.slice(1, -1)}:[0-9A-Za-z.+-]{1,64}$`);

/**
 * Whether a registration whose answer was lost was applied: the app holds the version. (A read of
 * the app alone does not tell: an existing app gets the version appended.)
 */
async function findRegistered(c: CreateInput, read: ConfirmReader): Promise<unknown> {
  const payload = c.body.payload as { name?: unknown; version?: unknown } | undefined;
  const params = pathValues({ app_name: payload?.name });
  const version = payload?.version;
  if (!params || typeof version !== "string") throw new Error("the request names no app and version to look for");
  const app = (await read("appregistry.get", { params })) as z.output<typeof RegistryApp> | undefined;
  return app?.versions.some((v) => v.version === version) ? app : undefined;
}

const errors = [400, 401, 403, 404];

export const appregistry = area("appregistry", "part2", {
  create: endpoint({
    method: "POST",
    effect: "create",
    confirm: { reads: ["appregistry.get"], find: findRegistered },
    path: "/appregistry/create",
    permission: "appregistry.create",
    summary: "Register an app version; an existing app gets the version appended",
    body: AppCreate,
    success: { status: 201, body: RegistryApp },
    errors: [400, 401, 403, 409],
  }),
  list: endpoint({
    method: "GET",
    effect: "read",
    path: "/appregistry/list",
    permission: "appregistry.read",
    summary: "List registry apps",
    query: z
      .object({
        type: qArray(anyAppType).optional(),
        search: qArray(text(256)).optional(),
        ...inventoryListQuery(["app.name", "app.title", "app.type", "app.latest_version", "app.created", "app.updated", "status"]),
      })
      .strict(),
    success: { status: 200, body: inventoryPage(RegistryAppListItem) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  get: endpoint({
    method: "GET",
    effect: "read",
    path: "/appregistry/{app_name}/get",
    permission: "appregistry.read",
    summary: "Get a registry app with its versions",
    params: appParams,
    success: { status: 200, body: RegistryApp },
    errors,
  }),
  update: endpoint({
    method: "POST",
    effect: "update",
    path: "/appregistry/{app_name}/update",
    permission: "appregistry.update",
    summary: "Update a registry app's title or description (omitted fields stay unchanged)",
    params: appParams,
    body: AppUpdate,
    success: { status: 200, body: RegistryApp },
    errors,
  }),
  delete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/appregistry/{app_name}/delete",
    permission: "appregistry.delete",
    summary: "Delete a registry app with all its versions and packages",
    params: appParams,
    success: { status: 200 },
    errors,
  }),
  versionGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/appregistry/{app_name}/versions/{app_version}/get",
    permission: "appregistry.read",
    summary: "Get a registry app version",
    params: versionParams,
    success: { status: 200, body: RegistryAppVersion },
    errors,
  }),
  versionUpload: endpoint({
    method: "POST",
    effect: "update",
    path: "/appregistry/{app_name}/versions/{app_version}/upload",
    permission: "appregistry.create",
    summary: "Upload the package file of a version (multipart/form-data, one file); the version becomes built",
    params: versionParams,
    bodyKind: "multipart",
    success: { status: 200 },
    errors: [400, 401, 403, 404, 413, 415],
  }),
  versionDownload: endpoint({
    method: "GET",
    effect: "read",
    path: "/appregistry/{app_name}/versions/{app_version}/download",
    permission: "appregistry.read",
    summary: "Download the package file of a version exactly as uploaded",
    params: versionParams,
    success: { status: 200, kind: "binary" },
    errors,
  }),
  versionDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/appregistry/{app_name}/versions/{app_version}/delete",
    permission: "appregistry.delete",
    summary: "Delete a version with its package (container image)",
    params: versionParams,
    success: { status: 200 },
    errors,
  }),
  versionStatusGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/appregistry/{app_name}/versions/{app_version}/status/get",
    permission: "appregistry.read",
    summary: "Get the build status of a version",
    params: versionParams,
    success: { status: 200, body: AppVersionStatus },
    errors,
  }),
  versionStatusList: endpoint({
    method: "GET",
    effect: "read",
    path: "/appregistry/versions/status/list",
    permission: "appregistry.read",
    summary: "List build statuses, optionally of the named app versions",
    query: z
      .object({
        app_versions: qArray(z.string().max(130).regex(APP_VERSION_REF, { message: "must look like <app_name>:<version>, e.g. my-app:1.2.0" })).optional(),
        ...inventoryListQuery(["app_version.id"]),
      })
      .strict(),
    success: { status: 200, body: inventoryPage(AppVersionStatus) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
});
