/**
 * Apps, app versions (the app manifest), app resources and app context (spec Part 1 "Apps"; bodies
 * from facts §3.1-3.2, records from facts §4.1, enums from facts §5).
 */
import { z } from "zod";
import {
  assetKrn,
  auditAt,
  cursorPage,
  freeObject,
  krn,
  name,
  nameKeyedRecord,
  notReserved,
  part1ListQuery,
  qArray,
  qBool,
  RESERVED_MESSAGE,
  scalarValue,
  semverString,
  text,
  title,
  describedPattern,
} from "./common";
import { area, endpoint, pathValues } from "./endpoint";

// ---------------------------------------------------------------------------------------------
// Enums (facts §5)

export const appType = z.enum(["app", "importer", "exporter", "docker"]);
export type AppType = z.infer<typeof appType>;
export const appStatus = z.enum(["running", "stopped", "updating", "requires_attention"]);
export const deploymentType = z.enum(["standard", "staged+instant-apply", "staged-only"]);
export type DeploymentType = z.infer<typeof deploymentType>;
export const parameterType = z.enum(["number", "string", "boolean"]);
export type ParameterType = z.infer<typeof parameterType>;
export const ioWay = z.enum(["output", "input-cc", "input-cc+output", "input", "output-cc", "input+output-cc"]);
export const ioStorage = z.enum(["node-and-cloud", "node", "none"]);
export const dynamicIoOwnership = z.enum(["both", "owned", "remote"]);
export const dynamicIoType = z.enum(["both", "data", "control"]);
export const customActionWay = z.enum(["input-ca", "output-ca"]);
export const dataQualityWay = z.enum(["input", "output"]);

/** An explicit `null` on an optional field means the same as leaving the field out (facts §1.1). */
export const absentIfNull = <T extends z.ZodType>(s: T) => s.nullish().transform((v) => (v === null ? undefined : v));
const opt = absentIfNull;

/** App names of the manifest (facts §3.1); a subset of the spec's filter charset. */
export const APP_NAME_PATTERN = describedPattern(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, "lowercase letters, digits and '-', starting and ending with a letter or digit");
export const appName = z
  .string()
  .min(1, { message: "must not be empty" })
  .max(64, { message: "must be at most 64 characters" })
  .regex(APP_NAME_PATTERN, { message: "must be lowercase letters, digits and '-', starting and ending with a letter or digit" });

const krnList = z.array(krn).max(10000);

// ---------------------------------------------------------------------------------------------
// The app manifest (facts §3.1). Defaults of facts §6.7 are filled by the emulator on create.

export const enableRuntimeUpdate = z
  .object({
    io: z.boolean().optional(),
    configuration: z.boolean().optional(),
    resource_parameters: z.boolean().optional(),
    resource_properties: z.boolean().optional(),
  })
  .strict();

export const appFlags = z
  .object({
    spec_version: text(64).optional(),
    enable_runtime_update: enableRuntimeUpdate.optional(),
    deployment: z.object({ allowed_resources: krnList.optional() }).strict().optional(),
    resources_required: z.boolean().optional(),
  })
  .strict();

export const appIo = z
  .object({
    name: title(128),
    data_type: title(64),
    unit: text(64).optional(),
    way: ioWay.optional(),
    storage: ioStorage.optional(),
  })
  .strict();

export const appDynamicIo = z
  .object({
    type_name: title(128),
    ownership: dynamicIoOwnership.optional(),
    type: dynamicIoType.optional(),
    data_types: z.array(title(64)).max(100).optional(),
  })
  .strict();

export const PARAMETER_NAME_PATTERN = /^[A-Za-z0-9._-]+$/;
export const parameterName = z
  .string()
  .min(1, { message: "must not be empty" })
  .max(128, { message: "must be at most 128 characters" })
  .regex(PARAMETER_NAME_PATTERN, { message: "may contain only letters, digits and '.', '_', '-'" })
  .refine(notReserved, { message: RESERVED_MESSAGE });

export const appParameterDefinition = z
  .object({
    name: parameterName,
    title: text(256).optional(),
    data_type: parameterType.optional(),
    default: scalarValue.optional(),
  })
  .strict();

export const ioConfigurationItem = z.object({ type_name: title(128), schema: freeObject }).strict();

export const appSchemas = z
  .object({
    parameters: freeObject.optional(),
    configuration: freeObject.optional(),
    io_configuration: z.array(ioConfigurationItem).max(1000).optional(),
  })
  .strict();

export const deploymentTarget = z
  .object({
    type: text(64).optional(),
    cluster: z
      .object({ name: name(64) })
      .strict()
      .optional(),
  })
  .strict();

export const deploymentDefaults = z
  .object({
    max_resources: z.number().int().min(1).optional(),
    deployment_type: deploymentType.optional(),
    target: deploymentTarget.optional(),
  })
  .strict();

export const ioDatastreamMapping = z.object({ io: title(128), datastream: title(256) }).strict();

export const appDefaults = z
  .object({
    deployment: deploymentDefaults.optional(),
    app: z
      .object({
        configuration: freeObject.optional(),
        io_datastream_mapping: z.array(ioDatastreamMapping).max(10000).optional(),
      })
      .strict()
      .optional(),
    system: freeObject.optional(),
    /** Shape not known (facts §3.1): passed through as given. */
    api_permissions: z.unknown().optional(),
  })
  .strict();

export const customAction = z
  .object({
    type: z
      .string()
      .max(128)
      .regex(/^[a-zA-Z0-9]([-_ .a-zA-Z0-9]*[a-zA-Z0-9])?$/, { message: "must be letters, digits and '-', '_', ' ', '.', starting and ending with a letter or digit" }),
    way: customActionWay,
  })
  .strict();

export const dataQuality = z
  .object({
    name: title(128),
    data_type: title(64),
    way: dataQualityWay,
    datastreams: z.array(title(256)).max(1000),
  })
  .strict();

/**
 * An app version's container image as the vendor's current client sends and reads it: `mode` (`manual`
 * with an explicit `uri`; `auto` and `undefined` where the platform builds or has no image yet) and the
 * image reference `uri` (up to 1024 characters).
 */
export const appImageMode = z.enum(["auto", "manual", "undefined"]);
export const AppImage = z.object({ mode: appImageMode, uri: opt(text(1024)) }).strict();
export type AppImage = z.output<typeof AppImage>;
/**
 * The image as create, patch and update take it: the current form, or the facts file's string (the
 * earlier form, which a platform in transition still takes, as `{ mode: "manual", uri }`).
 */
export const appImageInput = z.union([text(1024), AppImage]);

/** POST /apps/create: the app manifest. The variants ac, sigcon, opcua, influxdb, s3 and cc-task share it. */
export const AppVersionCreate = z
  .object({
    name: appName,
    title: title(128),
    description: text(4096),
    type: appType,
    version: semverString,
    category: opt(text(256)),
    image: opt(appImageInput),
    flags: opt(appFlags),
    io: opt(z.array(appIo).max(1000)),
    dynamic_io: opt(z.array(appDynamicIo).max(1000)),
    parameters: opt(z.array(appParameterDefinition).max(1000)),
    schemas: opt(appSchemas),
    defaults: opt(appDefaults),
    custom_actions: opt(z.array(customAction).max(1000)),
    data_quality: opt(z.array(dataQuality).max(1000)),
  })
  .strict();
export type AppVersionCreate = z.output<typeof AppVersionCreate>;

/** The keys of an app version that patch and update may change (spec "App version"). */
export const AppVersionPatch = z
  .object({
    image: opt(appImageInput),
    schemas: opt(appSchemas),
    defaults: opt(appDefaults),
  })
  .strict();
export type AppVersionPatch = z.output<typeof AppVersionPatch>;
/** Same fields as patch; `schemas` and `defaults` are the complete new values. */
export const AppVersionUpdate = AppVersionPatch;
export type AppVersionUpdate = AppVersionPatch;

// ---------------------------------------------------------------------------------------------
// Deploy (facts §3.2); the workloads area uses the runtime for create, update and bulk update.

export const runtimeDatastreamSettings = z
  .object({
    way: ioWay.optional(),
    storage: ioStorage.optional(),
    remote: z.boolean().optional(),
    configuration: freeObject.optional(),
  })
  .strict();

export const runtimeResource = z
  .object({
    resource: assetKrn,
    /** Present: exactly these values (others fall back to their default); absent: current values kept. */
    parameters: nameKeyedRecord(parameterName, scalarValue).optional(),
    datastreams: nameKeyedRecord(title(128), runtimeDatastreamSettings).optional(),
    asset: z
      .object({
        name: name(64).optional(),
        title: title(64).optional(),
        type: z
          .object({ name: name(64).optional(), title: title(64).optional() })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type RuntimeResource = z.output<typeof runtimeResource>;

export const runtimeDatastream = z
  .object({
    name: title(256),
    data_type_name: title(128),
    semantic_type_name: text(128).optional(),
    unit_name: text(64).optional(),
  })
  .strict();

export const deploymentRuntime = z
  .object({
    resources: z.array(runtimeResource).max(10000).optional(),
    configuration: freeObject.optional(),
    datastreams: z.array(runtimeDatastream).max(10000).optional(),
  })
  .strict();
export type DeploymentRuntime = z.output<typeof deploymentRuntime>;

export const AppVersionDeploy = z
  .object({
    runtime: opt(deploymentRuntime),
    system: opt(freeObject),
    deployment: opt(deploymentDefaults),
  })
  .strict();
export type AppVersionDeploy = z.output<typeof AppVersionDeploy>;
export const AppVersionDeployResult = z.object({ workload_names: z.array(z.string()) });

// ---------------------------------------------------------------------------------------------
// Other bodies

export const AppPatch = z
  .object({
    title: opt(title(128)),
    description: opt(text(4096)),
    category: opt(text(256)),
  })
  .strict();

export const AppResourcesBody = z.object({ resources: z.array(assetKrn).min(1, { message: "must name at least one resource" }).max(10000) }).strict();
export const AppResourcesEnable = AppResourcesBody;
export const AppResourcesDisable = AppResourcesBody;
export const AppResourcesDelete = AppResourcesBody;

export const AppsContextList = z.object({ resources: opt(krnList), sources: opt(krnList) }).strict();

// ---------------------------------------------------------------------------------------------
// Records (facts §4.1)

const ioRecord = appIo.extend({ way: ioWay, storage: ioStorage });
const dynamicIoRecord = appDynamicIo.extend({ ownership: dynamicIoOwnership, type: dynamicIoType });
const flagsRecord = appFlags.extend({
  enable_runtime_update: z.object({ io: z.boolean(), configuration: z.boolean(), resource_parameters: z.boolean(), resource_properties: z.boolean() }),
});

/** The manifest as stored and answered: the platform's defaults filled in. */
export const AppVersion = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  type: appType,
  version: z.string(),
  category: z.string().optional(),
  /** `{ mode, uri }`; an earlier platform answered the image reference as a string. */
  image: z.union([z.string(), AppImage]).optional(),
  flags: flagsRecord,
  io: z.array(ioRecord).optional(),
  dynamic_io: z.array(dynamicIoRecord).optional(),
  parameters: z.array(appParameterDefinition).optional(),
  schemas: appSchemas.optional(),
  defaults: appDefaults.optional(),
  custom_actions: z.array(customAction).optional(),
  data_quality: z.array(dataQuality).optional(),
  ...auditAt,
});
export type AppVersion = z.infer<typeof AppVersion>;

export const AppVersionSummary = z.object({ version: z.string(), created_at: z.string(), created_by: z.string() });

export const AppListItem = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string().optional(),
  type: appType,
  latest_version: z.string().nullable(),
  /** How the app's workloads fare, summed up (the vendor's clients require it). */
  status: appStatus,
  ...auditAt,
});
export type AppListItem = z.infer<typeof AppListItem>;

export const App = AppListItem.extend({
  versions: z.array(AppVersionSummary),
  deployment: z.object({ status: appStatus, resource_count: z.object({ total: z.number().int(), running: z.number().int() }) }),
});
export type App = z.infer<typeof App>;

export const AppResource = z.object({
  resource: z.string(),
  app_name: z.string(),
  enabled: z.boolean(),
  app_versions: z.array(z.string()),
  workload_names: z.array(z.string()),
  ...auditAt,
});
export type AppResource = z.infer<typeof AppResource>;

export const AppContextItem = z.object({ resource: z.string(), source: z.string() });

// ---------------------------------------------------------------------------------------------
// Endpoints

const appParams = z.object({ app_name: name(64) });
const versionParams = z.object({ app_name: name(64), app_version: semverString });

export const apps = area("apps", "part1", {
  create: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "apps.versionGet", params: (c) => pathValues({ app_name: c.body.name, app_version: c.body.version }) },
    path: "/apps/create",
    permission: "app.create",
    summary: "Create an app with its first version, or add a version to an existing app",
    body: AppVersionCreate,
    success: { status: 201, body: AppVersion },
    errors: [400, 401, 403, 404, 409],
  }),
  versionGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/apps/{app_name}/v/{app_version}/get",
    permission: "app.read",
    summary: "Get an app version",
    params: versionParams,
    success: { status: 200, body: AppVersion },
  }),
  versionPatch: endpoint({
    method: "POST",
    effect: "update",
    path: "/apps/{app_name}/v/{app_version}/patch",
    permission: "app.update",
    summary: "Patch an app version: each sent key replaces its whole subtree, unsent keys stay",
    params: versionParams,
    body: AppVersionPatch,
    success: { status: 200, body: AppVersion },
  }),
  versionUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/apps/{app_name}/v/{app_version}/update",
    permission: "app.update",
    summary: "Update an app version: schemas and defaults are replaced as a whole",
    params: versionParams,
    body: AppVersionUpdate,
    success: { status: 200, body: AppVersion },
  }),
  versionDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/apps/{app_name}/v/{app_version}/delete",
    permission: "app.delete",
    summary: "Delete an app version (the app stays)",
    params: versionParams,
    success: { status: 204 },
  }),
  deploy: endpoint({
    method: "POST",
    effect: "create",
    path: "/apps/{app_name}/v/{app_version}/deploy",
    permission: "app.deploy",
    summary: "Deploy an app version as workloads, at most max_resources assets per workload",
    params: versionParams,
    body: AppVersionDeploy,
    success: { status: 200, body: AppVersionDeployResult },
  }),
  resourcesEnable: endpoint({
    method: "POST",
    effect: "update",
    path: "/apps/{app_name}/resources/enable",
    permission: "app.update",
    summary: "Bind assets to the app (or re-enable them)",
    params: appParams,
    body: AppResourcesEnable,
    success: { status: 204 },
  }),
  resourcesDisable: endpoint({
    method: "POST",
    effect: "update",
    path: "/apps/{app_name}/resources/disable",
    permission: "app.update",
    summary: "Disable the app on assets (the binding stays)",
    params: appParams,
    body: AppResourcesDisable,
    success: { status: 204 },
  }),
  resourcesDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/apps/{app_name}/resources/delete",
    permission: "app.update",
    summary: "Unbind assets from the app, dropping their parameter values for it",
    params: appParams,
    body: AppResourcesDelete,
    success: { status: 204 },
  }),
  resourcesList: endpoint({
    method: "GET",
    effect: "read",
    path: "/apps/{app_name}/resources/list",
    permission: "app.read",
    summary: "List the app's resources",
    params: appParams,
    query: z
      .object({
        search: qArray(text(256)).optional(),
        resources: qArray(assetKrn).optional(),
        app_versions: qArray(semverString).optional(),
        workload_names: qArray(name(64)).optional(),
        enabled: qBool.optional(),
        ...part1ListQuery(["resource", "app_name", "enabled", "created_at", "created_by", "updated_at", "updated_by"], ["resource"]),
      })
      .strict(),
    success: { status: 200, body: cursorPage(AppResource) },
    list: "part1",
  }),
  get: endpoint({
    method: "GET",
    effect: "read",
    path: "/apps/{app_name}/get",
    permission: "app.read",
    summary: "Get an app",
    params: appParams,
    success: { status: 200, body: App },
  }),
  list: endpoint({
    method: "GET",
    effect: "read",
    path: "/apps/list",
    permission: "app.read",
    summary: "List apps",
    query: z
      .object({
        app_names: qArray(name(64)).optional(),
        app_types: qArray(appType).optional(),
        resources: qArray(assetKrn).optional(),
        search: qArray(text(256)).optional(),
        ...part1ListQuery(["name", "title", "type", "latest_version", "created_at", "created_by", "updated_at", "updated_by"], ["name"]),
      })
      .strict(),
    success: { status: 200, body: cursorPage(AppListItem) },
    list: "part1",
  }),
  patch: endpoint({
    method: "POST",
    effect: "update",
    path: "/apps/{app_name}/patch",
    permission: "app.update",
    summary: "Patch an app (fields not sent stay unchanged)",
    params: appParams,
    body: AppPatch,
    success: { status: 200, body: App },
  }),
  delete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/apps/{app_name}/delete",
    permission: "app.delete",
    summary: "Delete an app with its versions, resources and parameters",
    params: appParams,
    success: { status: 204 },
  }),
  contextList: endpoint({
    method: "POST",
    effect: "read",
    path: "/apps/context/list",
    permission: "app.read",
    summary: "List app contexts: which source serves which resource",
    query: z.object(part1ListQuery(["resource", "source"], ["resource"])).strict(),
    body: AppsContextList,
    bodyOptional: true,
    success: { status: 200, body: cursorPage(AppContextItem) },
    list: "part1",
    errors: [400, 401, 403],
  }),
});
