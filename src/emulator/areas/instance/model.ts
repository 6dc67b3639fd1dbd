/**
 * Instance health, settings, the dependency graph and the audit log.
 *
 * Design choices where the spec is silent:
 * - Health lists the emulator's own components (api, store, auth, scheduler), all healthy.
 * - Settings default to: auto_update disabled, every 86400 s; metrics enabled, every 60 s; status
 *   enabled, every 30 s. Intervals are seconds (1..604800). An update changes only the sent keys.
 * - The dependency graph is asked `{ collection, name }`, in the GET body as the spec has it or,
 *   for clients that cannot send a body with GET, as the same two query parameters (not both). It
 *   answers `{ data: [{ collection, name, title }] }`, the records that use the named one:
 *   asset_types → assets; asset_classes → asset_types; apps → workloads; clusters → workloads,
 *   bridges and acps; labels → data_labels (named by id, titled by description or label name).
 *   An unknown record answers 404.
 * - The audit log is read only here; the server writes it. Entries are answered as stored,
 *   request_uri included (it is a sort key).
 */
import type { GRAPH_COLLECTIONS, AuditLogEntry, InstanceSettings } from "../../../api/instance";
import { notFound } from "../../../api/errors";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";

// ---------------------------------------------------------------------------------------------
// Settings

export const SETTINGS_KEY = "settings";
export const DEFAULT_INSTANCE_SETTINGS: InstanceSettings = {
  acp: {
    auto_update: { enabled: false, interval: 86400 },
    metrics: { enabled: true, interval: 60 },
    status: { enabled: true, interval: 30 },
  },
};

export const settingsTable = (store: Store) => store.table<InstanceSettings>(TABLES.instanceSettings);
export const currentSettings = (store: Store) => settingsTable(store).get(SETTINGS_KEY) ?? DEFAULT_INSTANCE_SETTINGS;

// ---------------------------------------------------------------------------------------------
// Dependency graph

type Row = Record<string, unknown>;
type Collection = (typeof GRAPH_COLLECTIONS)[number];

const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));

interface Dependents {
  collection: string;
  table: string;
  uses: (row: Row, name: string) => boolean;
  name?: (row: Row) => string;
  title?: (row: Row) => string;
}

/** Per collection asked about: the table that holds it, and who depends on it. */
const GRAPH: Record<Collection, { table: string; kind: string; dependents: Dependents[] }> = {
  asset_types: {
    table: TABLES.assetTypes,
    kind: "asset type",
    dependents: [{ collection: "assets", table: TABLES.assets, uses: (r, n) => r.asset_type_name === n }],
  },
  asset_classes: {
    table: TABLES.assetClasses,
    kind: "asset class",
    dependents: [{ collection: "asset_types", table: TABLES.assetTypes, uses: (r, n) => r.asset_class_name === n }],
  },
  apps: {
    table: TABLES.apps,
    kind: "app",
    dependents: [{ collection: "workloads", table: TABLES.workloads, uses: (r, n) => r.app_name === n }],
  },
  clusters: {
    table: TABLES.clusters,
    kind: "cluster",
    dependents: [
      { collection: "workloads", table: TABLES.workloads, uses: (r, n) => r.cluster_name === n },
      { collection: "bridges", table: TABLES.bridges, uses: (r, n) => r.cluster_name === n },
      { collection: "acps", table: TABLES.acps, uses: (r, n) => r.cluster_name === n },
    ],
  },
  labels: {
    table: TABLES.labels,
    kind: "label",
    dependents: [
      {
        collection: "data_labels",
        table: TABLES.dataLabels,
        uses: (r, n) => r.label_name === n,
        name: (r) => str(r.id),
        title: (r) => str(r.description) || str(r.label_name),
      },
    ],
  },
};

export function dependentsOf(store: Store, collection: Collection, name: string) {
  const node = GRAPH[collection];
  if (!store.table(node.table).has(name)) throw notFound(node.kind, name);
  return node.dependents.flatMap((d) =>
    store
      .table<Row>(d.table)
      .filter((r) => d.uses(r, name))
      .map((r) => ({ collection: d.collection, name: d.name ? d.name(r) : str(r.name), title: d.title ? d.title(r) : str(r.title) || str(r.name) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  );
}

// ---------------------------------------------------------------------------------------------
// Audit log

export const auditLog = (store: Store) => store.table<AuditLogEntry>(TABLES.auditLog);
