// @ts-check
/**
 * The areas' lists: for each, the list operation, how a search reaches it, the columns, and the
 * record each row opens. Each is typed with the records its operation answers (src/api/).
 */
import { badge, link } from "../dom.js";
import { route, text } from "../format.js";

/**
 * One column: its heading, its `data-col` (the heading in lower case unless given), and its cell.
 * @template R
 * @typedef {{ label: string, col?: string, value: (r: R) => import("../dom.js").Child }} Column
 */
/**
 * A list of one area, with records of type R.
 * @template R
 * @typedef {object} ListConfig
 * @property {string} title
 * @property {string} op The list operation's id.
 * @property {(term: string) => { query?: Record<string, unknown>, body?: unknown }} search How the search box's term reaches the operation.
 * @property {string} [searchLabel] What the search box searches by, when not the title.
 * @property {(r: R) => string} key A row's `data-key`.
 * @property {Column<R>[]} columns
 */
/**
 * A record type of the API, as its schema in src/api/ describes it.
 * @template {import("zod").ZodType} S
 * @typedef {import("zod").infer<S>} Of
 */

const searchQuery = (/** @type {string} */ term) => ({ query: { search: [term] } });

/** @type {ListConfig<import("../../../api/assets").AssetClass>} */
const assetClasses = {
  title: "Asset classes",
  op: "assets.classList",
  search: searchQuery,
  key: (r) => r.name,
  columns: [
    { label: "Name", value: (r) => link(r.name, route("asset-classes", r.name)) },
    { label: "Title", value: (r) => r.title },
    { label: "Updated", value: (r) => r.updated },
  ],
};

/** @type {ListConfig<import("../../../api/assets").AssetType>} */
const assetTypes = {
  title: "Asset types",
  op: "assets.typeList",
  search: searchQuery,
  key: (r) => r.name,
  columns: [
    { label: "Name", value: (r) => link(r.name, route("asset-types", r.name)) },
    { label: "Title", value: (r) => r.title },
    { label: "Class", value: (r) => (r.asset_class_name ? link(r.asset_class_name, route("asset-classes", r.asset_class_name)) : "") },
    { label: "Updated", value: (r) => r.updated },
  ],
};

/** @type {ListConfig<import("../../../api/apps").AppListItem>} */
const apps = {
  title: "Apps",
  op: "apps.list",
  search: searchQuery,
  key: (r) => r.name,
  columns: [
    { label: "Name", value: (r) => link(r.name, route("apps", r.name)) },
    { label: "Title", value: (r) => r.title },
    { label: "Type", value: (r) => r.type },
    { label: "Latest version", value: (r) => (r.latest_version ? link(r.latest_version, route("app-versions", r.name, r.latest_version)) : "") },
    { label: "Updated", value: (r) => r.updated_at },
  ],
};

/** @type {ListConfig<Of<typeof import("../../../api/workloads").WorkloadListItem>>} */
const workloads = {
  title: "Workloads",
  op: "workloads.list",
  search: searchQuery,
  key: (r) => r.name,
  columns: [
    { label: "Name", value: (r) => link(r.name, route("workloads", r.name)) },
    { label: "State", col: "state", value: (r) => badge(r.status?.state) },
    { label: "Cluster", col: "cluster", value: (r) => (r.cluster_name ? link(r.cluster_name, route("clusters", r.cluster_name)) : "") },
    { label: "App", value: (r) => link(`${r.app_name} ${r.app_version}`, route("app-versions", r.app_name, r.app_version)) },
    { label: "Download", value: (r) => r.download_status },
    { label: "Updated", value: (r) => r.updated_at },
  ],
};

/** @type {ListConfig<Of<typeof import("../../../api/clusters").ClusterListItem>>} */
const clusters = {
  title: "Clusters",
  op: "clusters.list",
  search: searchQuery,
  key: (r) => r.name,
  columns: [
    { label: "Name", value: (r) => link(r.name, route("clusters", r.name)) },
    { label: "Status", col: "state", value: (r) => badge(r.status) },
    { label: "Ready", value: (r) => text(r.ready) },
    { label: "Type", value: (r) => r.type },
    { label: "Last seen", value: (r) => r.last_seen },
  ],
};

/** @type {ListConfig<import("../../../api/datalabels").Label>} */
const labels = {
  title: "Labels",
  op: "datalabels.labelList",
  search: searchQuery,
  key: (r) => r.name,
  columns: [
    { label: "Name", value: (r) => link(r.name, route("labels", r.name)) },
    { label: "Title", value: (r) => r.title },
    { label: "Updated", value: (r) => r.updated },
  ],
};

/** @type {ListConfig<import("../../../api/datalabels").DataLabel>} */
const dataLabels = {
  title: "Data labels",
  op: "datalabels.list",
  search: searchQuery,
  key: (r) => String(r.id),
  columns: [
    { label: "Id", value: (r) => link(String(r.id), route("data-labels", r.id)) },
    { label: "Label", value: (r) => link(r.label_name, route("labels", r.label_name)) },
    { label: "From", value: (r) => r.start_date },
    { label: "To", value: (r) => r.end_date },
    { label: "Metrics", value: (r) => (r.metrics ?? []).map((m) => `${m.asset_name}.${m.name}`).join(", ") },
  ],
};

/** @type {ListConfig<import("../../../api/datatypes").DataType>} */
const dataTypes = {
  title: "Data types",
  op: "datatypes.list",
  search: searchQuery,
  key: (r) => `${r.name} ${r.version}`,
  columns: [
    { label: "Name", value: (r) => link(r.name, route("data-types", r.name, r.version)) },
    { label: "Version", value: (r) => r.version },
    { label: "Class", value: (r) => r.type },
    { label: "Source", value: (r) => r.source },
    { label: "Fields", value: (r) => (r.icd?.fields ?? []).map((f) => f.name).join(", ") },
  ],
};

/** @type {ListConfig<import("../../../api/schedules").ParameterSchedule>} */
const schedules = {
  title: "Schedules",
  op: "schedules.list",
  // The schedule list has no free-text search: the term is an app name.
  search: (term) => ({ body: { apps: [{ name: term }] } }),
  searchLabel: "app name",
  key: (r) => r.id,
  columns: [
    { label: "Id", value: (r) => link(r.id.slice(0, 8), route("schedules", r.id), { title: r.id }) },
    { label: "State", col: "state", value: (r) => badge(r.state) },
    { label: "App", value: (r) => link(`${r.app_name} ${r.app_version}`, route("app-versions", r.app_name, r.app_version)) },
    { label: "Scheduled for", value: (r) => r.scheduled_for },
    { label: "Revert at", value: (r) => r.revert?.scheduled_for ?? "" },
    { label: "Applied", value: (r) => r.applied_at ?? "" },
    { label: "Reverted", value: (r) => r.reverted_at ?? "" },
    { label: "Resources", value: (r) => (r.resources ?? []).join(", ") },
  ],
};

/** @type {ListConfig<import("../../../api/assets").Asset>} */
const assets = {
  title: "Assets",
  op: "assets.list",
  search: searchQuery,
  key: (r) => r.name,
  columns: [
    { label: "Name", value: (r) => link(r.name, route("assets", r.name)) },
    { label: "Path", value: (r) => r.path },
    { label: "Type", value: (r) => link(r.asset_type_name, route("asset-types", r.asset_type_name)) },
    { label: "Status", col: "state", value: (r) => badge(r.status?.state) },
  ],
};

/**
 * The lists by view name (`#/workloads`); each is checked against its own record type above.
 * @type {Record<string, ListConfig<any>>}
 */
export const LISTS = {
  "asset-classes": assetClasses,
  "asset-types": assetTypes,
  apps,
  workloads,
  clusters,
  labels,
  "data-labels": dataLabels,
  "data-types": dataTypes,
  schedules,
  assets,
};
