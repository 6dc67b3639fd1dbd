/** Label (a data label's name, with a title) and DataLabel (a labelled time range over asset metrics). */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { showValue } from "../../api/common";
import { DataLabelCreate, LabelCreate, datalabels } from "../../api/datalabels";
import { defineKind, type WireRecord } from "../kind";
import { SvcResource } from "../shim";

export interface LabelArgs {
  name: pulumi.Input<string>;
  title: pulumi.Input<string>;
  adopt?: pulumi.Input<boolean>;
}

export interface DataLabelArgs {
  labelName: pulumi.Input<string>;
  /** RFC 3339, microseconds allowed. */
  startDate: pulumi.Input<string>;
  endDate: pulumi.Input<string>;
  metrics?: pulumi.Input<pulumi.Input<{ assetName: pulumi.Input<string>; name: pulumi.Input<string> }>[]>;
  source?: pulumi.Input<{ type: pulumi.Input<"workload" | "user">; info?: pulumi.Input<Record<string, unknown>> }>;
  description?: pulumi.Input<string>;
  /** How sure the label is: an integer from 0 to 100 (the platform's default is 0). */
  confidence?: pulumi.Input<number>;
  validation?: pulumi.Input<boolean>;
  info?: pulumi.Input<Record<string, unknown>>;
}

type LabelInputs = { name: string; title: string; [k: string]: unknown };
type DataLabelInputs = Record<string, any>;

export const labelKind = defineKind<LabelInputs>({
  name: "Label",
  noun: "label",
  args: { name: { replaces: true }, title: {}, adopt: { local: true } },
  required: ["name", "title"],
  id: (i) => i.name,
  schema: LabelCreate,
  create: async ({ client }, i) => (await client.call(datalabels.labelCreate, { body: { name: i.name, title: i.title } })) as WireRecord,
  read: async ({ client }, id) => (await client.call(datalabels.labelGet, { params: { label_name: id } })) as WireRecord,
  update: async ({ client }, id, i) => (await client.call(datalabels.labelUpdate, { params: { label_name: id }, body: { title: i.title } })) as WireRecord,
  async delete({ client }, id) {
    await client.call(datalabels.labelDelete, { params: { label_name: id } });
  },
  outputs: (r) => ({ created: r.created, updated: r.updated }),
});

const dataLabelArgs = {
  labelName: {},
  startDate: {},
  endDate: {},
  metrics: { nested: true },
  source: { nested: true, freeForm: ["info"] },
  description: {},
  confidence: {},
  validation: {},
  info: { compare: "exact" as const },
};

/**
 * The API's rule for `confidence` (an integer from 0 to 100), stated whole in one message: the API
 * schema reports a fraction and a value out of range one after the other.
 */
const confidenceRule = (v: unknown) => `must be an integer from 0 to 100, got ${showValue(v)}`;
const confidence = z
  .number({ error: (issue) => confidenceRule(issue.input) })
  .refine((v) => Number.isInteger(v) && v >= 0 && v <= 100, { error: (issue) => confidenceRule(issue.input) });

const dataLabelBody = (i: DataLabelInputs) => ({
  label_name: i.labelName,
  start_date: i.startDate,
  end_date: i.endDate,
  metrics: i.metrics?.map((m: { assetName: string; name: string }) => ({ asset_name: m.assetName, name: m.name })),
  source: i.source && { type: i.source.type, info: i.source.info ?? {} },
  description: i.description,
  confidence: i.confidence,
  validation: i.validation,
  info: i.info,
});

/** Dates compare as instants: the platform may render them in another (equivalent) form. */
const sameInstant = (a: unknown, b: unknown) => typeof a === "string" && typeof b === "string" && a.replace(/(\.\d*?)0*Z$/, "$1Z").replace(/\.Z$/, "Z") === b.replace(/(\.\d*?)0*Z$/, "$1Z").replace(/\.Z$/, "Z");

export const dataLabelKind = defineKind<DataLabelInputs>({
  name: "DataLabel",
  noun: "data label",
  args: dataLabelArgs,
  required: ["labelName", "startDate", "endDate"],
  schema: DataLabelCreate.safeExtend({ confidence: confidence.nullish() }),
  create: async ({ client }, i) => (await client.call(datalabels.create, { body: dataLabelBody(i) as never })) as WireRecord,
  read: async ({ client }, id) => (await client.call(datalabels.get, { params: { datalabel_id: id } })) as WireRecord,
  update: async ({ client }, id, i) => (await client.call(datalabels.update, { params: { datalabel_id: id }, body: dataLabelBody(i) as never })) as WireRecord,
  async delete({ client }, id) {
    await client.call(datalabels.delete, { params: { datalabel_id: id } });
  },
  argsFromRecord: (r, olds) => ({
    startDate: sameInstant(olds.startDate, r.start_date) ? olds.startDate : r.start_date,
    endDate: sameInstant(olds.endDate, r.end_date) ? olds.endDate : r.end_date,
  }),
  outputs: (r) => ({ labelId: r.id, created: r.created, updated: r.updated }),
});

export class Label extends SvcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly created: pulumi.Output<string>;

  constructor(name: string, args: LabelArgs, opts?: pulumi.CustomResourceOptions) {
    super("Label", name, args, ["created", "updated"], opts);
  }
}

export class DataLabel extends SvcResource {
  declare readonly labelId: pulumi.Output<number>;
  declare readonly created: pulumi.Output<string>;

  constructor(name: string, args: DataLabelArgs, opts?: pulumi.CustomResourceOptions) {
    super("DataLabel", name, args, ["labelId", "created", "updated"], opts);
  }
}
