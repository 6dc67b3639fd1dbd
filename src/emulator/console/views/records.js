// @ts-check
/**
 * The records by kind: the get operation, its parameters from the route's parts, the links to what
 * the record names, its state, and its related lists. Each is typed with the record its operation
 * answers (src/api/).
 */
import { call, redacted } from "../api.js";
import { badge, link } from "../dom.js";
import { route, text } from "../format.js";

/** @typedef {import("../dom.js").Child} Child */
/** @template {import("zod").ZodType} S @typedef {import("./lists.js").Of<S>} Of */
/** @typedef {Of<typeof import("../../../api/workloads").WorkloadListItem>} WorkloadListItem */
/**
 * A related list: its title, column headings and rows of cells (or how to read them).
 * @typedef {{ title: string, head: string[], rows: Child[][] | (() => Promise<Child[][]>) }} Related
 */
/**
 * A record of one kind, of type R.
 * @template R
 * @typedef {object} RecordConfig
 * @property {string} title
 * @property {string} op The get operation's id.
 * @property {(parts: string[]) => Record<string, string>} params Its path parameters, from the route's parts (`#/app-versions/<app>/<version>`).
 * @property {(r: R) => Array<[label: string, href: string] | "" | false | null | undefined>} [links] Links to the records it names, where it names them.
 * @property {(r: R) => unknown} [state]
 * @property {(r: R) => Related[]} [related]
 */

/**
 * A list operation's records, redacted, as rows of cells.
 * @template X
 * @param {Promise<unknown>} answer The list operation's answer, a page of X.
 * @param {(x: X) => Child[]} row
 */
async function rowsOf(answer, row) {
  const page = /** @type {import("../api.js").Page<X>} */ (await answer);
  return (page.data ?? []).map(redacted).map(row);
}

/** A workload as a related list's row: name, version, state, cluster. */
function workloadRow(/** @type {WorkloadListItem} */ w) {
  return [link(w.name, route("workloads", w.name)), w.app_version, badge(w.status?.state), w.cluster_name ? link(w.cluster_name, route("clusters", w.cluster_name)) : ""];
}
const WORKLOAD_HEAD = ["Name", "Version", "State", "Cluster"];

/** @type {RecordConfig<import("../../../api/assets").Asset>} */
const asset = {
  title: "Asset",
  op: "assets.get",
  params: ([name]) => ({ asset_name: name }),
  links: (r) => [r.asset_parent_name && ["Parent", route("assets", r.asset_parent_name)], ["Type", route("asset-types", r.asset_type_name)]],
};

/** @type {RecordConfig<import("../../../api/assets").AssetClass>} */
const assetClass = { title: "Asset class", op: "assets.classGet", params: ([name]) => ({ asset_class_name: name }) };

/** @type {RecordConfig<import("../../../api/assets").AssetType>} */
const assetType = {
  title: "Asset type",
  op: "assets.typeGet",
  params: ([name]) => ({ asset_type_name: name }),
  links: (r) => [r.asset_class_name && ["Class", route("asset-classes", r.asset_class_name)]],
};

/** @type {RecordConfig<import("../../../api/apps").App>} */
const app = {
  title: "App",
  op: "apps.get",
  params: ([name]) => ({ app_name: name }),
  related: (r) => [
    {
      title: "Versions",
      rows: (r.versions ?? []).map((v) => [link(v.version, route("app-versions", r.name, v.version)), v.created_at, v.created_by]),
      head: ["Version", "Created", "By"],
    },
    {
      title: "Parameters",
      rows: () =>
        rowsOf(
          call("parameters.list", { query: { pagination_type: "cursor", page_size: 200 }, body: { app_names: [r.name] } }),
          (/** @type {Of<typeof import("../../../api/parameters").AppParameter>} */ p) => [p.name, p.title, p.data_type],
        ),
      head: ["Name", "Title", "Type"],
    },
    {
      title: "Parameter values",
      rows: () =>
        rowsOf(
          call("parameters.valuesList", { query: { pagination_type: "cursor", page_size: 200 }, body: { apps: [{ name: r.name }] } }),
          (/** @type {Of<typeof import("../../../api/parameters").ParameterValue>} */ v) => [v.app_version, v.resource, v.name, text(v.value)],
        ),
      head: ["Version", "Resource", "Parameter", "Value"],
    },
    {
      title: "Workloads",
      rows: () => rowsOf(call("workloads.list", { query: { pagination_type: "cursor", page_size: 200, app_names: [r.name] } }), workloadRow),
      head: WORKLOAD_HEAD,
    },
  ],
};

/** @type {RecordConfig<import("../../../api/apps").AppVersion>} */
const appVersion = {
  title: "App version",
  op: "apps.versionGet",
  params: ([app, version]) => ({ app_name: app, app_version: version }),
  links: (r) => [["App", route("apps", r.name)]],
  related: (r) => [
    { title: "Parameters", rows: (r.parameters ?? []).map((p) => [p.name, p.title ?? "", p.data_type, text(p.default)]), head: ["Name", "Title", "Type", "Default"] },
  ],
};

/** @type {RecordConfig<import("../../../api/workloads").Workload>} */
const workload = {
  title: "Workload",
  op: "workloads.get",
  params: ([name]) => ({ workload_name: name }),
  links: (r) => [r.cluster_name && ["Cluster", route("clusters", r.cluster_name)], ["App version", route("app-versions", r.app_name, r.app_version)]],
  state: (r) => r.status?.state,
};

/** @type {RecordConfig<import("../../../api/clusters").Cluster>} */
const cluster = {
  title: "Cluster",
  op: "clusters.get",
  params: ([name]) => ({ cluster_name: name }),
  state: (r) => r.status,
  related: (r) => [
    {
      title: "Workloads on this cluster",
      rows: () => rowsOf(call("workloads.list", { query: { pagination_type: "cursor", page_size: 200, cluster_names: [r.name] } }), workloadRow),
      head: WORKLOAD_HEAD,
    },
  ],
};

/** @type {RecordConfig<import("../../../api/datalabels").Label>} */
const label = { title: "Label", op: "datalabels.labelGet", params: ([name]) => ({ label_name: name }) };

/** @type {RecordConfig<import("../../../api/datalabels").DataLabel>} */
const dataLabel = { title: "Data label", op: "datalabels.get", params: ([id]) => ({ datalabel_id: id }), links: (r) => [["Label", route("labels", r.label_name)]] };

/** @type {RecordConfig<import("../../../api/datatypes").DataType>} */
const dataType = { title: "Data type", op: "datatypes.get", params: ([name, version]) => ({ data_type_name: name, data_type_version: version }) };

/** @type {RecordConfig<import("../../../api/schedules").ParameterSchedule>} */
const schedule = {
  title: "Schedule",
  op: "schedules.get",
  params: ([id]) => ({ schedule_id: id }),
  links: (r) => [["App version", route("app-versions", r.app_name, r.app_version)]],
  state: (r) => r.state,
};

/**
 * The records by view name (`#/workloads/<name>`); each is checked against its own record type above.
 * @type {Record<string, RecordConfig<any>>}
 */
export const RECORDS = {
  assets: asset,
  "asset-classes": assetClass,
  "asset-types": assetType,
  apps: app,
  "app-versions": appVersion,
  workloads: workload,
  clusters: cluster,
  labels: label,
  "data-labels": dataLabel,
  "data-types": dataType,
  schedules: schedule,
};

/**
 * Where an audit change's record opens: the view of each table whose records the console shows.
 * @type {Record<string, string | undefined>}
 */
export const RECORD_OF_TABLE = {
  assets: "assets",
  asset_classes: "asset-classes",
  asset_types: "asset-types",
  apps: "apps",
  app_versions: "app-versions",
  workloads: "workloads",
  clusters: "clusters",
  labels: "labels",
  data_labels: "data-labels",
  data_types: "data-types",
  schedules: "schedules",
};
