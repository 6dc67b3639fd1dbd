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
import { type DataLabelCreate, formatMicros, microsOf, type DataLabel, type DataLabelFilter, type Label, type LabelMetadata, type MetricRef } from "../../../api/datalabels";
import { conflict, notFound } from "../../../api/errors";
import { inFilter } from "../../list";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";

export const dataLabels = (store: Store) => store.table<DataLabel>(TABLES.dataLabels);
export const labels = (store: Store) => store.table<Label>(TABLES.labels);
export const labelMetadata = (store: Store) => store.table<LabelMetadata>(TABLES.labelMetadata);
export const metadataKey = (label: string, name: string) => `${label}\u0000${name}`;
/** How results and audit entries name a metadata record. */
export const metadataId = (label: string, name: string) => `${label}/${name}`;

/** The API's timestamp form of any RFC 3339 input. */
export const normalizeDate = (value: string) => formatMicros(microsOf(value));

// ---------------------------------------------------------------------------------------------
// Labels

export function requireLabel(store: Store, labelName: string): Label {
  const l = labels(store).get(labelName);
  if (!l) throw notFound("label", labelName);
  return l;
}

/** Creates the label when it does not exist yet (data label create and update do this). */
export function ensureLabel(store: Store, labelName: string, now: string): void {
  if (!labels(store).has(labelName)) labels(store).put(labelName, { name: labelName, title: labelName, metadata: {}, created: now, updated: now });
}

/** A label as answered: `metadata` holds the payloads of the metadata records the caller named. */

export function requireLabelMetadata(store: Store, labelName: string, name: string): LabelMetadata {
  requireLabel(store, labelName);
  const md = labelMetadata(store).get(metadataKey(labelName, name));
  if (!md) throw notFound("label metadata", metadataId(labelName, name));
  return md;
}

/** Creates one metadata record; the caller has checked that the label exists. */
export function putLabelMetadata(store: Store, labelName: string, name: string, payload: Record<string, unknown>, now: string): LabelMetadata {
  const key = metadataKey(labelName, name);
  if (labelMetadata(store).has(key)) throw conflict(`metadata '${name}' of label '${labelName}' already exists; update it instead`);
  return labelMetadata(store).put(key, { label_name: labelName, name, payload, created: now, updated: now });
}

export function requireDataLabel(store: Store, id: number): DataLabel {
  const dl = dataLabels(store).get(String(id));
  if (!dl) throw notFound("data label", String(id));
  return dl;
}

export const sameMetric = (a: MetricRef, b: MetricRef) => a.asset_name === b.asset_name && a.name === b.name;

/** The spec's filter semantics: AND across fields; OR within label_names and within metrics. */
export function matchesDataLabelFilter(dl: DataLabel, f: DataLabelFilter | undefined): boolean {
  if (!f) return true;
  if (!inFilter(f.label_names ?? undefined, dl.label_name)) return false;
  if (f.metrics && f.metrics.length > 0 && !dl.metrics.some((m) => f.metrics!.some((w) => sameMetric(m, w)))) return false;
  if (f.start_date && microsOf(dl.start_date) < microsOf(f.start_date)) return false;
  if (f.end_date && microsOf(dl.end_date) > microsOf(f.end_date)) return false;
  return true;
}

export type DataLabelBody = z.output<typeof DataLabelCreate>;

/** A data label from the create body, over `current` (update) or over the zero values (create). */
export function dataLabelFrom(body: DataLabelBody, current: DataLabel | undefined, id: number, now: string): DataLabel {
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

/** Start-date order with the id as tie-break, compared at microsecond precision. */
export const byStart = (a: DataLabel, b: DataLabel) => microsOf(a.start_date) - microsOf(b.start_date) || a.id - b.id;

export interface Cluster {
  count: number;
  label_names: string[];
  start_date: string;
  end_date: string;
}

/** Groups labels by the time bucket of their start_date. */
export function clusterLabels(rows: DataLabel[], bucketMicros: number): Cluster[] {
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
