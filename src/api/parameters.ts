/**
 * App parameters: definitions, values per app version and resource, history, defaults (spec Part 1
 * "App parameters"; bodies from facts §3.3, records from facts §4.2).
 */
import { z } from "zod";
import { absentIfNull, parameterName, parameterType } from "./apps";
import { assetKrn, auditAt, cursorPage, dateTime, krn, name, part1ListQuery, qBool, scalarValue, semverString, text } from "./common";
import { area, endpoint } from "./endpoint";

const opt = absentIfNull;
const list = <T extends z.ZodType>(item: T) => opt(z.array(item).max(10000));

/** `apps` filter entry: an app, optionally one version of it; entries are ORed. */
export const appFilter = z.object({ name: name(64), version: opt(semverString) }).strict();

export const AppParametersList = z
  .object({
    app_names: list(name(64)),
    names: list(parameterName),
    search: list(text(256)),
    data_types: list(parameterType),
  })
  .strict();

export const AppVersionParameterValuesList = z
  .object({
    apps: list(appFilter),
    resources: list(assetKrn),
    parameter_names: list(parameterName),
  })
  .strict();

export const AppVersionParametersHistoryList = AppVersionParameterValuesList.extend({
  start_date: opt(dateTime),
  end_date: opt(dateTime),
}).strict();

export const parameterValueInput = z.object({ name: parameterName, value: scalarValue, comment: opt(text(1024)) }).strict();

export const AppVersionParametersUpdate = z
  .object({
    resource_parameters: z.array(z.object({ resource: assetKrn, parameters: z.array(parameterValueInput).max(1000) }).strict()).max(10000),
    /** Only service accounts may set it. */
    source: opt(krn),
  })
  .strict();

export const AppVersionParametersDefaultsUpdate = z.object({ parameters: list(z.object({ name: parameterName, value: scalarValue }).strict()) }).strict();

export const AppVersionParametersUniqueValuesGet = z
  .object({
    app_parameters: list(z.object({ app_name: name(64), parameters: list(parameterName) }).strict()),
    data_types: list(parameterType),
  })
  .strict();

export const AppVersionParametersFallbackValuesGet = z.object({ resources: list(assetKrn) }).strict();

// Records

export const AppParameter = z.object({
  name: z.string(),
  title: z.string(),
  app_name: z.string(),
  data_type: parameterType,
  ...auditAt,
});

export const ParameterValue = z.object({
  name: z.string(),
  app_name: z.string(),
  app_version: z.string(),
  resource: z.string(),
  value: scalarValue,
  comment: z.string().nullable(),
  source: z.string().nullable(),
  ...auditAt,
});

export const ParameterHistoryEntry = ParameterValue.extend({ invalidated_at: z.string(), invalidated_by: z.string() });

export const UniqueValues = z.object({
  app_parameter_values: z.record(z.string(), z.record(z.string(), z.array(scalarValue))),
});
export const FallbackValues = z.object({
  resource_parameters: z.record(z.string(), z.record(z.string(), scalarValue)),
});

const versionParams = z.object({ app_name: name(64), app_version: semverString });
const patchQuery = z.object({ patch: qBool.default(true) }).strict();

export const parameters = area("parameters", "part1", {
  valuesList: endpoint({
    method: "POST",
    effect: "read",
    path: "/apps/parameters/values/list",
    permission: "parameter.read",
    summary: "List parameter values that are set",
    query: z.object(part1ListQuery(["name", "app_name", "app_version", "resource", "comment", "created_at", "created_by", "updated_at", "updated_by"], ["name"])).strict(),
    body: AppVersionParameterValuesList,
    bodyOptional: true,
    success: { status: 200, body: cursorPage(ParameterValue) },
    list: "part1",
  }),
  historyList: endpoint({
    method: "POST",
    effect: "read",
    path: "/apps/parameters/history/list",
    permission: "parameter.read",
    summary: "List replaced and removed parameter values",
    query: z.object(part1ListQuery(["name", "app_name", "app_version", "resource", "comment", "created_at", "created_by", "invalidated_at", "invalidated_by"], ["name"])).strict(),
    body: AppVersionParametersHistoryList,
    bodyOptional: true,
    success: { status: 200, body: cursorPage(ParameterHistoryEntry) },
    list: "part1",
  }),
  list: endpoint({
    method: "POST",
    effect: "read",
    path: "/apps/parameters/list",
    permission: "parameter.read",
    summary: "List parameter definitions",
    query: z.object(part1ListQuery(["name", "title", "app_name", "data_type", "created_at", "created_by", "updated_at", "updated_by"], ["name"])).strict(),
    body: AppParametersList,
    bodyOptional: true,
    success: { status: 200, body: cursorPage(AppParameter) },
    list: "part1",
  }),
  valuesUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/apps/{app_name}/v/{app_version}/parameters/values/update",
    permission: "parameter.update",
    summary: "Set parameter values per resource (patch=true: only the sent ones; false: the complete set)",
    params: versionParams,
    query: patchQuery,
    body: AppVersionParametersUpdate,
    success: { status: 204 },
  }),
  defaultsUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/apps/{app_name}/v/{app_version}/parameters/defaults/update",
    permission: "app.update",
    summary: "Set parameter defaults of an app version (patch=true: only the sent ones; false: the complete set)",
    params: versionParams,
    query: patchQuery,
    body: AppVersionParametersDefaultsUpdate,
    success: { status: 204 },
  }),
  uniqueValuesGet: endpoint({
    method: "POST",
    effect: "read",
    path: "/apps/parameters/unique-values/get",
    permission: "parameter.read",
    summary: "The distinct values set per app and parameter (defaults excluded)",
    body: AppVersionParametersUniqueValuesGet,
    bodyOptional: true,
    success: { status: 200, body: UniqueValues },
  }),
  fallbackValuesGet: endpoint({
    method: "POST",
    effect: "read",
    path: "/apps/{app_name}/v/{app_version}/parameters/fallback-values/get",
    permission: "parameter.read",
    summary: "Per resource, each parameter's current value or else its default",
    params: versionParams,
    body: AppVersionParametersFallbackValuesGet,
    bodyOptional: true,
    success: { status: 200, body: FallbackValues },
  }),
});
