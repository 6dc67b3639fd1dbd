/** The data labels' routes and views (records and rules in model.ts). */
import { datalabels as ep, parseGoDuration, type DataLabel, type Label } from "../../../api/datalabels";
import { conflict } from "../../../api/errors";
import { runBulk, type MultiStatusOptions } from "../../bulk";
import { inFilter, inventoryList, matchesMetadataFilter, matchesSearch } from "../../list";
import { route, type AreaModule } from "../../handler";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";
import {
  byStart,
  clusterLabels,
  dataLabelFrom,
  dataLabels,
  ensureLabel,
  labelMetadata,
  labels,
  matchesDataLabelFilter,
  metadataId,
  metadataKey,
  putLabelMetadata,
  requireDataLabel,
  requireLabel,
  requireLabelMetadata,
} from "./model";

function labelView(store: Store, label: Label, metadataNames: string[] | undefined): Label {
  const metadata: Record<string, unknown> = {};
  for (const n of metadataNames ?? []) {
    const md = labelMetadata(store).get(metadataKey(label.name, n));
    if (md) metadata[n] = md.payload;
  }
  return { ...label, metadata };
}

/**
 * Bulk metadata operations: all succeed, the success status with no body; some fail, 207 with a
 * result per item (the successful ones stay applied); all fail, the first error, nothing changed.
 */
const BULK_CREATE: MultiStatusOptions = { okStatus: 201, allFailed: "reject" };
const BULK_DELETE: MultiStatusOptions = { okStatus: 200, allFailed: "reject" };

// ---------------------------------------------------------------------------------------------
// Data labels

const dataLabelList = {
  key: (dl: DataLabel) => String(dl.id),
  sort: { "data_label.id": (dl: DataLabel) => dl.id },
};

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
