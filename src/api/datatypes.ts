/**
 * Data types (spec Part 2 "Data types"; DataTypeCreate and icd from facts §3.12, §4.11). A data type
 * is referred to as `name:version`; versions of one name live side by side.
 */
import semver from "semver";
import { z } from "zod";
import { auditStamps, freeObject, inventoryListQuery, inventoryPage, qArray, qBool, semverString, text } from "./common";
import { area, endpoint, pathValues } from "./endpoint";

/**
 * The spec's name rule, followed literally: its `.` is not escaped, so it matches any character
 * (`sensor.temperature` passes, and so does `sensorxtemperature`). Names are bounded to 128 characters.
 */
export const DATA_TYPE_NAME_PATTERN = /^([a-z][a-z0-9_]+.)+[a-z][a-z0-9_]+$/;
export const ICD_CLASS_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]+$/;
export const ICD_DEFAULT_VERSION = "0.0.1";

/** Field types that are not data types, with the JSON Schema each becomes. */
export const PRIMITIVE_FIELD_TYPES: Record<string, Record<string, unknown>> = {
  bool: { type: "boolean" },
  boolean: { type: "boolean" },
  string: { type: "string" },
  bytes: { type: "string", contentEncoding: "base64" },
  int: { type: "integer" },
  int8: { type: "integer", minimum: -128, maximum: 127 },
  int16: { type: "integer", minimum: -32768, maximum: 32767 },
  int32: { type: "integer", minimum: -2147483648, maximum: 2147483647 },
  int64: { type: "integer" },
  integer: { type: "integer" },
  uint: { type: "integer", minimum: 0 },
  uint8: { type: "integer", minimum: 0, maximum: 255 },
  uint16: { type: "integer", minimum: 0, maximum: 65535 },
  uint32: { type: "integer", minimum: 0, maximum: 4294967295 },
  uint64: { type: "integer", minimum: 0 },
  float: { type: "number" },
  float32: { type: "number" },
  float64: { type: "number" },
  double: { type: "number" },
  number: { type: "number" },
  timestamp: { type: "string", format: "date-time" },
  object: { type: "object" },
  any: {},
};

/** A field type naming another data type: `name:version`, or `name` for its latest version. */
export interface DataTypeReference {
  name: string;
  version: string | null;
}

/** Reads a field type as a data type reference; undefined for a primitive or an unreadable type. */
export function dataTypeReference(type: string): DataTypeReference | undefined {
  if (Object.prototype.hasOwnProperty.call(PRIMITIVE_FIELD_TYPES, type)) return undefined;
  const colon = type.lastIndexOf(":");
  if (colon > 0) {
    const name = type.slice(0, colon);
    const version = type.slice(colon + 1);
    if (DATA_TYPE_NAME_PATTERN.test(name) && semver.valid(version) === version) return { name, version };
  }
  return DATA_TYPE_NAME_PATTERN.test(type) ? { name: type, version: null } : undefined;
}

export const dataTypeName = z
  .string()
  .max(128, { message: "must be at most 128 characters" })
  .regex(DATA_TYPE_NAME_PATTERN, { message: `must match ${DATA_TYPE_NAME_PATTERN.source}, such as sensor.temperature` });

export const icdField = z
  .object({
    name: z.string().min(1, { message: "must not be empty" }).max(128, { message: "must be at most 128 characters" }),
    /** A primitive type (see PRIMITIVE_FIELD_TYPES) or another data type as `name:version` or `name`. */
    type: z
      .string()
      .max(200, { message: "must be at most 200 characters" })
      .refine((t) => Object.prototype.hasOwnProperty.call(PRIMITIVE_FIELD_TYPES, t) || dataTypeReference(t) !== undefined, {
        message: `must be a primitive type (${Object.keys(PRIMITIVE_FIELD_TYPES).join(", ")}) or a data type as name:version or name`,
      }),
    description: text(4096).default(""),
    array: z.boolean().default(false),
  })
  .strict();

export const Icd = z
  .object({
    name: dataTypeName,
    class_name: z
      .string()
      .max(128, { message: "must be at most 128 characters" })
      .regex(ICD_CLASS_NAME_PATTERN, { message: `must match ${ICD_CLASS_NAME_PATTERN.source}, such as TemperatureReading` }),
    description: text(4096).default(""),
    version: semverString.default(ICD_DEFAULT_VERSION),
    fields: z.array(icdField).max(1000, { message: "at most 1000 fields" }).default([]),
  })
  .strict()
  .superRefine((icd, ctx) => {
    const seen = new Set<string>();
    icd.fields.forEach((f, i) => {
      if (seen.has(f.name)) ctx.addIssue({ code: "custom", path: ["fields", i, "name"], message: `'${f.name}' is already a field of this data type; field names are unique` });
      seen.add(f.name);
    });
  });
export type Icd = z.infer<typeof Icd>;

export const DataTypeCreate = z
  .object({
    icd: Icd,
    /** Where the type comes from; `connect` makes it a connect type. */
    source: z.string().min(1, { message: "must not be empty" }).max(64, { message: "must be at most 64 characters" }).default("user"),
  })
  .strict();

export const DataType = z.object({
  name: z.string(),
  /** The icd's class_name. */
  type: z.string(),
  version: z.string(),
  source: z.string(),
  connect: z.boolean(),
  schema: freeObject,
  icd: z.object({
    name: z.string(),
    version: z.string(),
    class_name: z.string(),
    description: z.string(),
    fields: z.array(z.object({ name: z.string(), type: z.string(), description: z.string(), array: z.boolean() })),
  }),
  ...auditStamps,
});
export type DataType = z.infer<typeof DataType>;

/** One data type another depends on; `version` is null when a bare name refers to no existing type. */
export const DataTypeDependency = z.object({ name: z.string(), version: z.string().nullable(), reference: z.string() });

const nameParams = z.object({ data_type_name: dataTypeName });
const versionParams = z.object({ data_type_name: dataTypeName, data_type_version: semverString });

export const datatypes = area("datatypes", "part2", {
  create: endpoint({
    method: "POST",
    effect: "create",
    confirm: {
      read: "datatypes.get",
      params: (c) => {
        const icd = c.body.icd as { name?: unknown; version?: unknown } | undefined;
        return pathValues({ data_type_name: icd?.name, data_type_version: icd?.version ?? ICD_DEFAULT_VERSION });
      },
    },
    path: "/datatypes/create",
    permission: "data_type.create",
    summary: "Create a data type version (409 when that name and version exist)",
    body: DataTypeCreate,
    success: { status: 201, body: DataType },
    errors: [400, 401, 403, 409],
  }),
  list: endpoint({
    method: "GET",
    effect: "read",
    path: "/datatypes/list",
    permission: "data_type.read",
    summary: "List data types (by default only the latest version of each name)",
    query: z
      .object({
        search: qArray(text(256)).optional(),
        all: qBool.default(false),
        connect: qBool.default(false),
        ...inventoryListQuery(["data_type.name", "data_type.version"]),
      })
      .strict(),
    success: { status: 200, body: inventoryPage(DataType) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  get: endpoint({
    method: "GET",
    effect: "read",
    path: "/datatypes/{data_type_name}/versions/{data_type_version}/get",
    permission: "data_type.read",
    summary: "Get one version of a data type",
    params: versionParams,
    success: { status: 200, body: DataType },
  }),
  latestGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/datatypes/{data_type_name}/versions/latest/get",
    permission: "data_type.read",
    summary: "Get the latest version (by semver) of a data type",
    params: nameParams,
    success: { status: 200, body: DataType },
  }),
  dependenciesGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/datatypes/{data_type_name}/versions/{data_type_version}/dependencies/get",
    permission: "data_type.read",
    summary: "Every data type a data type depends on, all levels in one flat list",
    params: versionParams,
    success: { status: 200, body: z.object({ data: z.array(DataTypeDependency) }) },
  }),
  schemaGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/datatypes/{data_type_name}/versions/{data_type_version}/schema/get",
    permission: "data_type.read",
    summary: "The JSON Schema of a data type version",
    params: versionParams,
    success: { status: 200, body: freeObject },
  }),
});
