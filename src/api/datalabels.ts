/**
 * Data labels and labels (spec Part 2 "Data labels and labels"; bodies from facts §3.12 and §3.13).
 * Data label dates are RFC 3339 with microseconds: the helpers below read and write them at
 * microsecond precision, which a JavaScript Date (milliseconds) cannot hold.
 */
import { z } from "zod";
import { auditStamps, dateTime, freeObject, inventoryListQuery, inventoryPage, metadataQuery, name, nameKeyedRecord, qArray, text, title } from "./common";
import { area, endpoint, pathValues } from "./endpoint";

// ---------------------------------------------------------------------------------------------
// Timestamps at microsecond precision

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i;

/** Microseconds since the epoch of an RFC 3339 date-time; digits beyond the sixth are dropped. */
export function microsOf(value: string): number {
  const m = RFC3339.exec(value);
  if (!m) throw new Error(`not an RFC 3339 date-time: ${value}`);
  const [, y, mo, d, h, mi, s, frac = "", zone] = m;
  const seconds = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) / 1000;
  const micros = Number(frac.slice(0, 6).padEnd(6, "0"));
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    offsetMinutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  }
  return (seconds - offsetMinutes * 60) * 1_000_000 + micros;
}

/** The API's timestamp form (UTC, `Z`, six fractional digits) of a microsecond instant. */
export function formatMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const rest = micros - ms * 1000;
  return new Date(ms).toISOString().replace(/Z$/, `${String(rest).padStart(3, "0")}Z`);
}

// ---------------------------------------------------------------------------------------------
// Go durations (`1h30m`, `90s`, `1.5h`, `300ms`), as Go's time.ParseDuration reads them

const DURATION_UNITS_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX_DURATION_NS = (1n << 63n) - 1n;

/** Nanoseconds of a Go duration, or a message saying what is wrong with it. */
export function parseGoDuration(value: string): bigint | string {
  let rest = value;
  let sign = 1n;
  if (rest.startsWith("-") || rest.startsWith("+")) {
    if (rest[0] === "-") sign = -1n;
    rest = rest.slice(1);
  }
  if (rest === "0") return 0n;
  if (rest === "") return "is empty; use a Go duration such as 1h30m or 90s";
  let total = 0n;
  const part = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;
  while (rest.length > 0) {
    const m = part.exec(rest);
    if (!m || (m[1] === "" && (m[2] ?? "") === "")) {
      return `'${value}' is not a Go duration; use numbers with the units ns, us, ms, s, m, h, such as 1h30m or 90s`;
    }
    const unit = DURATION_UNITS_NS[m[3]];
    const whole = BigInt(m[1] || "0") * unit;
    const fraction = m[2] ? (BigInt(m[2]) * unit) / 10n ** BigInt(m[2].length) : 0n;
    total += whole + fraction;
    if (total > MAX_DURATION_NS) return `'${value}' is longer than the largest Go duration (about 2562047h)`;
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}

// ---------------------------------------------------------------------------------------------
// Models

export const labelName = name(64);
export const dataLabelSourceType = z.enum(["workload", "user"]);

export const metricRef = z
  .object({
    asset_name: name(64),
    name: z.string().min(1, { message: "must not be empty" }).max(256, { message: "must be at most 256 characters" }),
  })
  .strict();
export type MetricRef = z.infer<typeof metricRef>;

const metrics = z.array(metricRef).max(1000, { message: "at most 1000 metrics" });

/** DataLabelCreate, the body of create and update. An explicit null counts as an absent field. */
export const DataLabelCreate = z
  .object({
    label_name: labelName,
    start_date: dateTime,
    end_date: dateTime,
    metrics: metrics.nullish(),
    source: z
      .object({ type: dataLabelSourceType, info: freeObject.default({}) })
      .strict()
      .nullish(),
    description: text(4096).nullish(),
    confidence: z.number().int({ message: "must be an integer" }).min(0).max(100).nullish(),
    validation: z.boolean().nullish(),
    info: freeObject.nullish(),
  })
  .strict()
  .superRefine((b, ctx) => {
    // Runs even when a date failed its own check; compare only two readable dates.
    if (!RFC3339.test(b.start_date) || !RFC3339.test(b.end_date)) return;
    if (microsOf(b.end_date) <= microsOf(b.start_date)) {
      ctx.addIssue({ code: "custom", path: ["end_date"], message: `must be after start_date (${b.start_date}); got ${b.end_date}` });
    }
  });

/** The filter of /filter, /range/get and /clustering/get (AND across fields, OR within a list). */
const filterFields = {
  label_names: z.array(labelName).max(1000, { message: "at most 1000 names" }).nullish(),
  metrics: metrics.nullish(),
  start_date: dateTime.nullish(),
  end_date: dateTime.nullish(),
};
export const DataLabelFilter = z.object(filterFields).strict();
export type DataLabelFilter = z.infer<typeof DataLabelFilter>;
export const DataLabelRange = DataLabelFilter;
export const DataLabelClusterRequest = z
  .object({
    ...filterFields,
    time_bucket: z
      .string()
      .max(64, { message: "must be at most 64 characters" })
      .superRefine((v, ctx) => {
        const ns = parseGoDuration(v);
        if (typeof ns === "string") ctx.addIssue({ code: "custom", message: ns });
        else if (ns < 1000n) ctx.addIssue({ code: "custom", message: `must be at least 1us; got '${v}'` });
      }),
  })
  .strict();

export const DataLabel = z.object({
  id: z.number().int(),
  label_name: z.string(),
  description: z.string(),
  confidence: z.number().int(),
  validation: z.boolean(),
  start_date: z.string(),
  end_date: z.string(),
  info: freeObject,
  metrics: z.array(metricRef),
  source: z.object({ type: dataLabelSourceType, info: freeObject }),
  ...auditStamps,
});
export type DataLabel = z.infer<typeof DataLabel>;

export const DataLabelCluster = z.object({
  count: z.number().int(),
  label_names: z.array(z.string()),
  start_date: z.string(),
  end_date: z.string(),
});

export const LabelCreate = z
  .object({
    name: labelName,
    title: title(64),
    /** Metadata records to create with the label: metadata name → payload. */
    metadata: nameKeyedRecord(name(64), freeObject).nullish(),
  })
  .strict();
export const LabelUpdate = z.object({ title: title(64).nullish() }).strict();

export const Label = z.object({ name: z.string(), title: z.string(), metadata: freeObject, ...auditStamps });
export type Label = z.infer<typeof Label>;

export const LabelMetadataCreate = z.object({ name: name(64), payload: freeObject }).strict();
export const LabelMetadataUpdate = z.object({ payload: freeObject }).strict();
/** Bulk create: the single form plus the label it belongs to, since the path names none. */
export const LabelMetadataBulkCreate = z
  .array(LabelMetadataCreate.extend({ label_name: labelName }).strict())
  .min(1, { message: "must hold at least one metadata record" })
  .max(1000, { message: "at most 1000 records" });
/** Bulk delete: `{ names }` of one label's metadata. */
export const LabelMetadataBulkDelete = z
  .object({
    label_name: labelName,
    names: z.array(name(64)).min(1, { message: "must name at least one metadata record" }).max(1000, { message: "at most 1000 names" }),
  })
  .strict();

export const LabelMetadata = z.object({ label_name: z.string(), name: z.string(), payload: freeObject, ...auditStamps });
export type LabelMetadata = z.infer<typeof LabelMetadata>;

// ---------------------------------------------------------------------------------------------
// Endpoints

const dataLabelParams = z.object({
  datalabel_id: z
    .string()
    .regex(/^\d{1,15}$/, { message: "must be a data label id (a positive integer)" })
    .transform((v) => Number(v)),
});
const labelParams = z.object({ label_name: labelName });
const labelMetadataParams = z.object({ label_name: labelName, label_metadata_name: name(64) });
const search = qArray(text(256)).optional();
const dataLabelListQuery = inventoryListQuery(["data_label.id"], false);

export const datalabels = area("datalabels", "part2", {
  create: endpoint({
    method: "POST",
    effect: "create",
    path: "/datalabels/create",
    permission: "data_label.create",
    summary: "Create a data label (a label_name that does not exist creates the label)",
    body: DataLabelCreate,
    success: { status: 201, body: DataLabel },
    errors: [400, 401, 403],
  }),
  list: endpoint({
    method: "GET",
    effect: "read",
    path: "/datalabels/list",
    permission: "data_label.read",
    summary: "List data labels, newest first",
    query: z.object({ search, ...dataLabelListQuery }).strict(),
    success: { status: 200, body: inventoryPage(DataLabel) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  filter: endpoint({
    method: "POST",
    effect: "read",
    path: "/datalabels/filter",
    permission: "data_label.read",
    summary: "List the data labels matching a filter body, newest first",
    query: z.object(dataLabelListQuery).strict(),
    body: DataLabelFilter,
    bodyOptional: true,
    success: { status: 200, body: inventoryPage(DataLabel) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  get: endpoint({
    method: "GET",
    effect: "read",
    path: "/datalabels/{datalabel_id}/get",
    permission: "data_label.read",
    summary: "Get a data label",
    params: dataLabelParams,
    success: { status: 200, body: DataLabel },
  }),
  update: endpoint({
    method: "POST",
    effect: "update",
    path: "/datalabels/{datalabel_id}/update",
    permission: "data_label.update",
    summary: "Update a data label (supplied metrics replace the whole list; omitted optional fields stay)",
    params: dataLabelParams,
    body: DataLabelCreate,
    success: { status: 200, body: DataLabel },
  }),
  delete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/datalabels/{datalabel_id}/delete",
    permission: "data_label.delete",
    summary: "Delete a data label",
    params: dataLabelParams,
    success: { status: 200 },
  }),
  rangeGet: endpoint({
    method: "POST",
    effect: "read",
    path: "/datalabels/range/get",
    permission: "data_label.read",
    summary: "Stream the data labels matching a filter, one JSON object per line, by start_date",
    body: DataLabelRange,
    bodyOptional: true,
    success: { status: 200, kind: "ndjson", body: DataLabel },
    errors: [400, 401, 403],
  }),
  clusteringGet: endpoint({
    method: "POST",
    effect: "read",
    path: "/datalabels/clustering/get",
    permission: "data_label.read",
    summary: "Aggregate the data labels matching a filter into clusters per time bucket",
    body: DataLabelClusterRequest,
    success: { status: 200, body: z.object({ data: z.array(DataLabelCluster) }) },
    errors: [400, 401, 403],
  }),
  labelCreate: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "datalabels.labelGet", params: (c) => pathValues({ label_name: c.body.name }) },
    path: "/datalabels/labels/create",
    permission: "data_label.create",
    summary: "Create a label",
    body: LabelCreate,
    success: { status: 201, body: Label },
    errors: [400, 401, 403, 409],
  }),
  labelList: endpoint({
    method: "GET",
    effect: "read",
    path: "/datalabels/labels/list",
    permission: "data_label.read",
    summary: "List labels",
    query: z.object({ names: qArray(labelName).optional(), search, ...metadataQuery, ...inventoryListQuery(["label.name"]) }).strict(),
    success: { status: 200, body: inventoryPage(Label) },
    list: "inventory",
    errors: [400, 401, 403],
  }),
  labelGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/datalabels/labels/{label_name}/get",
    permission: "data_label.read",
    summary: "Get a label, with the named metadata injected",
    params: labelParams,
    query: z.object({ metadata: metadataQuery.metadata }).strict(),
    success: { status: 200, body: Label },
  }),
  labelUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/datalabels/labels/{label_name}/update",
    permission: "data_label.update",
    summary: "Update a label (omitted fields stay unchanged)",
    params: labelParams,
    body: LabelUpdate,
    success: { status: 200, body: Label },
  }),
  labelDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/datalabels/labels/{label_name}/delete",
    permission: "data_label.delete",
    summary: "Delete a label and its metadata (409 while data labels use it)",
    params: labelParams,
    success: { status: 200 },
    errors: [400, 401, 403, 404, 409],
  }),
  labelMetadataCreate: endpoint({
    method: "POST",
    effect: "create",
    confirm: { read: "datalabels.labelMetadataGet", params: (c) => pathValues({ label_name: c.params.label_name, label_metadata_name: c.body.name }) },
    path: "/datalabels/labels/{label_name}/metadata/create",
    permission: "data_label.create",
    summary: "Create a metadata record of a label",
    params: labelParams,
    body: LabelMetadataCreate,
    success: { status: 201, body: LabelMetadata },
    errors: [400, 401, 403, 404, 409],
  }),
  labelMetadataBulkCreate: endpoint({
    method: "POST",
    effect: "create",
    path: "/datalabels/labels/metadata/create",
    permission: "data_label.create",
    summary: "Create metadata records of several labels (207 when some fail)",
    body: LabelMetadataBulkCreate,
    success: { status: 201 },
    errors: [207, 400, 401, 403, 404, 409],
  }),
  labelMetadataList: endpoint({
    method: "GET",
    effect: "read",
    path: "/datalabels/labels/{label_name}/metadata/list",
    permission: "data_label.read",
    summary: "List a label's metadata records",
    params: labelParams,
    query: z.object({ search, ...inventoryListQuery(["label_metadata.name", "label_metadata.label_name"]) }).strict(),
    success: { status: 200, body: inventoryPage(LabelMetadata) },
    list: "inventory",
  }),
  labelMetadataGet: endpoint({
    method: "GET",
    effect: "read",
    path: "/datalabels/labels/{label_name}/metadata/{label_metadata_name}/get",
    permission: "data_label.read",
    summary: "Get a metadata record of a label",
    params: labelMetadataParams,
    success: { status: 200, body: LabelMetadata },
  }),
  labelMetadataUpdate: endpoint({
    method: "POST",
    effect: "update",
    path: "/datalabels/labels/{label_name}/metadata/{label_metadata_name}/update",
    permission: "data_label.update",
    summary: "Replace the payload of a label's metadata record",
    params: labelMetadataParams,
    body: LabelMetadataUpdate,
    success: { status: 200, body: LabelMetadata },
  }),
  labelMetadataDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/datalabels/labels/{label_name}/metadata/{label_metadata_name}/delete",
    permission: "data_label.delete",
    summary: "Delete a metadata record of a label",
    params: labelMetadataParams,
    success: { status: 200 },
  }),
  labelMetadataBulkDelete: endpoint({
    method: "POST",
    effect: "delete",
    path: "/datalabels/labels/metadata/delete",
    permission: "data_label.delete",
    summary: "Delete several metadata records of a label (207 when some fail)",
    body: LabelMetadataBulkDelete,
    success: { status: 200 },
    errors: [207, 400, 401, 403, 404],
  }),
});
