/**
 * Data labels, labels and label metadata.
 *
 * Design choices where the spec is silent:
 * - Dates are stored in the API's form (UTC, six fractional digits); an input with an offset or more
 *   than six fractional digits is normalized to it. Filters compare integer microseconds.
 * - Update takes the create body: the three required fields are replaced, an optional field that is
 *   left out (or null) keeps its value, and supplied metrics replace the whole list.
 * - Optional fields absent on create take Go's zero values: description "", confidence 0,
 *   validation false, info {}, metrics []; source defaults to `{ type: "user", info: {} }`.
 * - A label created implicitly by a data label gets its name as title.
 * - Deleting a label that data labels use answers 409 naming them; its metadata goes with it.
 * - Range answers labels in start_date order (then id). Clustering puts each label in the bucket of
 *   its start_date, buckets aligned to the Unix epoch; a cluster's dates are the earliest start and
 *   latest end of its labels, its label_names are distinct and sorted; the answer is
 *   `{ data: clusters[] }` in time order, empty buckets left out.
 * - Bulk metadata operations apply the items that can be applied and answer 207 with a result per
 *   item when some fail; when none can be applied the call is rejected whole with the first error.
 */
import type { z } from "zod";
import {
  type DataLabelCreate,
  datalabels as ep,
  formatMicros,
  microsOf,
  parseGoDuration,
  type DataLabel,
  type DataLabelFilter,
  type Label,
  type LabelMetadata,
  type MetricRef,
} from "../../../api/datalabels";
import { conflict, notFound } from "../../../api/errors";
import { runBulk, type MultiStatusOptions } from "../../bulk";
import { inFilter, inventoryList, matchesMetadataFilter, matchesSearch } from "../../list";
import { route, type AreaModule } from "../../handler";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";

const dataLabels = (store: Store) => store.table<DataLabel>(TABLES.dataLabels);
const labels = (store: Store) => store.table<Label>(TABLES.labels);
const labelMetadata = (store: Store) => store.table<LabelMetadata>(TABLES.labelMetadata);
const metadataKey = (label: string, name: string) => `${label}\u0000${name}`;
/** How results and audit entries name a metadata record. */
const metadataId = (label: string, name: string) => `${label}/${name}`;

/** The API's timestamp form of any RFC 3339 input. */
const normalizeDate = (value: string) => formatMicros(microsOf(value));

// ---------------------------------------------------------------------------------------------
// Labels

function requireLabel(store: Store, labelName: string): Label {
  const l = labels(store).get(labelName);
  if (!l) throw notFound("label", labelName);
  return l;
}

/** Creates the label when it does not exist yet (data label create and update do this). */
function ensureLabel(store: Store, labelName: string, now: string): void {
  if (!labels(store).has(labelName)) labels(store).put(labelName, { name: labelName, title: labelName, metadata: {}, created: now, updated: now });
}

/** A label as answered: `metadata` holds the payloads of the metadata records the caller named. */
function labelView(store: Store, label: Label, metadataNames: string[] | undefined): Label {
  const metadata: Record<string, unknown> = {};
  for (const n of metadataNames ?? []) {
    const md = labelMetadata(store).get(metadataKey(label.name, n));
    if (md) metadata[n] = md.payload;
  }
  return { ...label, metadata };
}

function requireLabelMetadata(store: Store, labelName: string, name: string): LabelMetadata {
  requireLabel(store, labelName);
  const md = labelMetadata(store).get(metadataKey(labelName, name));
  if (!md) throw notFound("label metadata", metadataId(labelName, name));
  return md;
}

/** Creates one metadata record; the caller has checked that the label exists. */
function putLabelMetadata(store: Store, labelName: string, name: string, payload: Record<string, unknown>, now: string): LabelMetadata {
  const key = metadataKey(labelName, name);
  if (labelMetadata(store).has(key)) throw conflict(`metadata '${name}' of label '${labelName}' already exists; update it instead`);
  return labelMetadata(store).put(key, { label_name: labelName, name, payload, created: now, updated: now });
}

/**
 * Bulk metadata operations: all succeed, the success status with no body; some fail, 207 with a
 * result per item (the successful ones stay applied); all fail, the first error, nothing changed.
 */
const BULK_CREATE: MultiStatusOptions = { okStatus: 201, allFailed: "reject" };
const BULK_DELETE: MultiStatusOptions = { okStatus: 200, allFailed: "reject" };

// ---------------------------------------------------------------------------------------------
// Data labels

function requireDataLabel(store: Store, id: number): DataLabel {
  const dl = dataLabels(store).get(String(id));
  if (!dl) throw notFound("data label", String(id));
  return dl;
}

const sameMetric = (a: MetricRef, b: MetricRef) => a.asset_name === b.asset_name && a.name === b.name;

/** The spec's filter semantics: AND across fields; OR within label_names and within metrics. */
function matchesDataLabelFilter(dl: DataLabel, f: DataLabelFilter | undefined): boolean {
  if (!f) return true;
  if (!inFilter(f.label_names ?? undefined, dl.label_name)) return false;
  if (f.metrics && f.metrics.length > 0 && !dl.metrics.some((m) => f.metrics!.some((w) => sameMetric(m, w)))) return false;
  if (f.start_date && microsOf(dl.start_date) < microsOf(f.start_date)) return false;
  if (f.end_date && microsOf(dl.end_date) > microsOf(f.end_date)) return false;
  return true;
}

type DataLabelBody = z.output<typeof DataLabelCreate>;

/** A data label from the create body, over `current` (update) or over the zero values (create). */
function dataLabelFrom(body: DataLabelBody, current: DataLabel | undefined, id: number, now: string): DataLabel {
  return {
    id,
    label_name: body.label_name,
    description: body.description ?? current?.description ?? "",
    confidence: body.confidence ?? current?.confidence ?? 0,
    validation: body.validation ?? current?.validation ?? false,
    start_date: normalizeDate(body.start_date),
    end_date: normalizeDate(body.end_date),
    info: body.info ?? current?.info ?? {},
    metrics: body.metrics ?? current?.metrics ?? [],
    source: body.source ?? current?.source ?? { type: "user", info: {} },
    created: current?.created ?? now,
    updated: now,
  };
}

const dataLabelList = {
  key: (dl: DataLabel) => String(dl.id),
  sort: { "data_label.id": (dl: DataLabel) => dl.id },
};

/** Start-date order with the id as tie-break, compared at microsecond precision. */
const byStart = (a: DataLabel, b: DataLabel) => microsOf(a.start_date) - microsOf(b.start_date) || a.id - b.id;

interface Cluster {
  count: number;
  label_names: string[];
  start_date: string;
  end_date: string;
}

/** Groups labels by the time bucket of their start_date. */
function clusterLabels(rows: DataLabel[], bucketMicros: number): Cluster[] {
  const buckets = new Map<number, { count: number; names: Set<string>; start: number; end: number }>();
  for (const dl of rows) {
    const start = microsOf(dl.start_date);
    const end = microsOf(dl.end_date);
    const b = Math.floor(start / bucketMicros);
    const acc = buckets.get(b);
    if (!acc) buckets.set(b, { count: 1, names: new Set([dl.label_name]), start, end });
    else {
      acc.count++;
      acc.names.add(dl.label_name);
      acc.start = Math.min(acc.start, start);
      acc.end = Math.max(acc.end, end);
    }
  }
  return [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, acc]) => ({ count: acc.count, label_names: [...acc.names].sort(), start_date: formatMicros(acc.start), end_date: formatMicros(acc.end) }));
}

// ---------------------------------------------------------------------------------------------

export const area: AreaModule = {
  routes: [
    route(ep.create, (ctx) => {
      const id = ctx.store.nextSeq(TABLES.dataLabels);
      ensureLabel(ctx.store, ctx.body.label_name, ctx.now);
      ctx.auditIdentifier = String(id);
      return dataLabels(ctx.store).put(String(id), dataLabelFrom(ctx.body, undefined, id, ctx.now));
    }),

    route(ep.list, (ctx) =>
      inventoryList(
        dataLabels(ctx.store).filter((dl) => matchesSearch(ctx.query.search, dl.description, dl.label_name)),
        ctx.query,
        dataLabelList,
      ),
    ),

    route(ep.filter, (ctx) =>
      inventoryList(
        dataLabels(ctx.store).filter((dl) => matchesDataLabelFilter(dl, ctx.body)),
        ctx.query,
        dataLabelList,
      ),
    ),

    route(ep.get, (ctx) => requireDataLabel(ctx.store, ctx.params.datalabel_id)),

    route(ep.update, (ctx) => {
      const current = requireDataLabel(ctx.store, ctx.params.datalabel_id);
      ensureLabel(ctx.store, ctx.body.label_name, ctx.now);
      ctx.auditIdentifier = String(current.id);
      return dataLabels(ctx.store).put(String(current.id), dataLabelFrom(ctx.body, current, current.id, ctx.now));
    }),

    route(ep.delete, (ctx) => {
      const current = requireDataLabel(ctx.store, ctx.params.datalabel_id);
      ctx.auditIdentifier = String(current.id);
      dataLabels(ctx.store).delete(String(current.id));
    }),

    route(ep.rangeGet, (ctx) => {
      const rows = dataLabels(ctx.store)
        .filter((dl) => matchesDataLabelFilter(dl, ctx.body))
        .sort(byStart);
      return {
        status: 200,
        headers: { "content-type": "application/x-json-stream" },
        raw: rows.map((dl) => JSON.stringify(dl) + "\n").join(""),
      };
    }),

    route(ep.clusteringGet, (ctx) => {
      const bucketMicros = Number((parseGoDuration(ctx.body.time_bucket) as bigint) / 1000n);
      const rows = dataLabels(ctx.store).filter((dl) => matchesDataLabelFilter(dl, ctx.body));
      return { data: clusterLabels(rows, bucketMicros) };
    }),

    // Labels ---------------------------------------------------------------------------------

    route(ep.labelCreate, (ctx) => {
      const { name, title, metadata } = ctx.body;
      if (labels(ctx.store).has(name)) throw conflict(`label '${name}' already exists`);
      const label = labels(ctx.store).put(name, { name, title, metadata: {}, created: ctx.now, updated: ctx.now });
      for (const [mdName, payload] of Object.entries(metadata ?? {})) putLabelMetadata(ctx.store, name, mdName, payload, ctx.now);
      return labelView(ctx.store, label, Object.keys(metadata ?? {}));
    }),

    route(ep.labelList, (ctx) => {
      const q = ctx.query;
      const rows = labels(ctx.store).filter(
        (l) =>
          inFilter(q.names, l.name) &&
          matchesSearch(q.search, l.name, l.title) &&
          matchesMetadataFilter(q.metadata_filter, (md) => labelMetadata(ctx.store).get(metadataKey(l.name, md))?.payload),
      );
      return inventoryList(rows, q, {
        key: (l) => l.name,
        sort: { "label.name": (l) => l.name },
        item: (l) => labelView(ctx.store, l, q.metadata),
      });
    }),

    route(ep.labelGet, (ctx) => labelView(ctx.store, requireLabel(ctx.store, ctx.params.label_name), ctx.query.metadata)),

    route(ep.labelUpdate, (ctx) => {
      const current = requireLabel(ctx.store, ctx.params.label_name);
      const next = labels(ctx.store).put(current.name, { ...current, title: ctx.body.title ?? current.title, updated: ctx.now });
      return labelView(ctx.store, next, []);
    }),

    route(ep.labelDelete, (ctx) => {
      const label = requireLabel(ctx.store, ctx.params.label_name);
      const users = dataLabels(ctx.store)
        .filter((dl) => dl.label_name === label.name)
        .map((dl) => dl.id);
      if (users.length > 0) {
        const shown = users.slice(0, 20).join(", ") + (users.length > 20 ? `, and ${users.length - 20} more` : "");
        throw conflict(`label '${label.name}' is used by data labels ${shown}; delete or relabel them first`);
      }
      for (const md of labelMetadata(ctx.store).filter((m) => m.label_name === label.name)) {
        labelMetadata(ctx.store).delete(metadataKey(label.name, md.name));
      }
      labels(ctx.store).delete(label.name);
    }),

    // Label metadata -------------------------------------------------------------------------

    route(ep.labelMetadataCreate, (ctx) => {
      requireLabel(ctx.store, ctx.params.label_name);
      ctx.auditIdentifier = metadataId(ctx.params.label_name, ctx.body.name);
      return putLabelMetadata(ctx.store, ctx.params.label_name, ctx.body.name, ctx.body.payload, ctx.now);
    }),

    route(ep.labelMetadataBulkCreate, (ctx) => {
      ctx.auditIdentifier = [...new Set(ctx.body.map((i) => i.label_name))].join(",");
      return runBulk(
        ctx.body,
        (i) => metadataId(i.label_name, i.name),
        (i) => {
          requireLabel(ctx.store, i.label_name);
          putLabelMetadata(ctx.store, i.label_name, i.name, i.payload, ctx.now);
        },
        BULK_CREATE,
      );
    }),

    route(ep.labelMetadataList, (ctx) => {
      requireLabel(ctx.store, ctx.params.label_name);
      return inventoryList(
        labelMetadata(ctx.store).filter((m) => m.label_name === ctx.params.label_name && matchesSearch(ctx.query.search, m.name)),
        ctx.query,
        {
          key: (m) => metadataKey(m.label_name, m.name),
          sort: { "label_metadata.name": (m) => m.name, "label_metadata.label_name": (m) => m.label_name },
        },
      );
    }),

    route(ep.labelMetadataGet, (ctx) => requireLabelMetadata(ctx.store, ctx.params.label_name, ctx.params.label_metadata_name)),

    route(ep.labelMetadataUpdate, (ctx) => {
      const current = requireLabelMetadata(ctx.store, ctx.params.label_name, ctx.params.label_metadata_name);
      ctx.auditIdentifier = metadataId(current.label_name, current.name);
      return labelMetadata(ctx.store).put(metadataKey(current.label_name, current.name), { ...current, payload: ctx.body.payload, updated: ctx.now });
    }),

    route(ep.labelMetadataDelete, (ctx) => {
      const current = requireLabelMetadata(ctx.store, ctx.params.label_name, ctx.params.label_metadata_name);
      ctx.auditIdentifier = metadataId(current.label_name, current.name);
      labelMetadata(ctx.store).delete(metadataKey(current.label_name, current.name));
    }),

    route(ep.labelMetadataBulkDelete, (ctx) => {
      const { label_name, names } = ctx.body;
      requireLabel(ctx.store, label_name);
      ctx.auditIdentifier = label_name;
      return runBulk(
        [...new Set(names)],
        (n) => n,
        (n) => {
          requireLabelMetadata(ctx.store, label_name, n);
          labelMetadata(ctx.store).delete(metadataKey(label_name, n));
        },
        BULK_DELETE,
      );
    }),
  ],
};
