/**
 * Finding the data label a create made when its answer was lost. The platform numbers data labels
 * itself, so a lost answer (reset, timeout, 502/503/504 after the label was stored) leaves nothing to
 * read the label by: the provider looks for it among the label's data labels created since the create
 * was sent, by every field the create set, and takes it as the create's result instead of creating a
 * second one.
 */
import { datalabels } from "../../api/datalabels";
import type { KindContext, RecordOf } from "../kind";
import { deepEqual } from "../../pulumi/values";
import { sameInstant } from "../values";
import type { BodyOf, CamelCasedDeep } from "../wire-types";

type DataLabelRecord = RecordOf<typeof datalabels.get>;
/** A data label's inputs: its create body in camelCase (label.ts proves its args are exactly that). */
type Inputs = CamelCasedDeep<BodyOf<typeof datalabels.create>, "source.info">;

/** A minute of clock skew between this machine and the platform. */
const CLOCK_SKEW_MS = 60_000;

/** Whether `r` holds what a create with inputs `i` stores (the platform's defaults where `i` leaves a field out). */
function madeBy(i: Inputs, r: DataLabelRecord): boolean {
  const metrics = (i.metrics ?? []).map((m) => ({ asset_name: m.assetName, name: m.name }));
  return (
    r.label_name === i.labelName &&
    sameInstant(r.start_date, i.startDate) &&
    sameInstant(r.end_date, i.endDate) &&
    deepEqual(r.metrics, metrics) &&
    r.description === (i.description ?? "") &&
    r.confidence === (i.confidence ?? 0) &&
    r.validation === (i.validation ?? false) &&
    deepEqual(r.info, i.info ?? {}) &&
    (i.source === undefined || (r.source.type === i.source.type && deepEqual(r.source.info, i.source.info ?? {})))
  );
}

/** The data label a create with inputs `i` made at or after `sinceMs` (the newest that matches), if any. */
export async function findCreatedDataLabel({ client }: KindContext, i: Inputs, sinceMs: number): Promise<DataLabelRecord | undefined> {
  for await (const r of client.paginate(datalabels.filter, { body: { label_names: [i.labelName] } })) {
    // Newest first: past the window, nothing older can be the one.
    if (Date.parse(r.created) < sinceMs - CLOCK_SKEW_MS) break;
    if (madeBy(i, r)) return r;
  }
  return undefined;
}
