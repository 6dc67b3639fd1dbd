/** Label (a data label's name, with a title) and DataLabel (a labelled time range over asset metrics). */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { showValue } from "../../api/common";
import { DataLabelCreate, datalabels } from "../../api/datalabels";
import { declareKind, defineOutputs, type ArgSpecs, output } from "../kind";
import { registerKind } from "../registry";
import { sameInstant } from "../values";
import type { Resolved } from "../input-types";
import { type BodyOf, type CamelCasedDeep, type Same, proves } from "../wire-types";
import { findCreatedDataLabel } from "./data-label-created";

/** The types of a {@link Label}'s args as programs write them (their docs are the specs' below). */
interface LabelArgTypes {
  name: pulumi.Input<string>;
  title: pulumi.Input<string>;
  adopt?: pulumi.Input<boolean>;
}

/** The types of a {@link DataLabel}'s args as programs write them (their docs are the specs' below). */
interface DataLabelArgTypes {
  labelName: pulumi.Input<string>;
  startDate: pulumi.Input<string>;
  endDate: pulumi.Input<string>;
  metrics?: pulumi.Input<
    pulumi.Input<{
      /** The asset's name: lowercase letters, digits, '.', '_' and '-', 1–64 characters. */
      assetName: pulumi.Input<string>;
      /** The metric's name, 1–256 characters. */
      name: pulumi.Input<string>;
    }>[]
  >;
  source?: pulumi.Input<{
    /** Who set the label: `workload` or `user`. */
    type: pulumi.Input<"workload" | "user">;
    /** Free-form information about the source, passed through untouched; default `{}`. */
    info?: pulumi.Input<Record<string, unknown>>;
  }>;
  description?: pulumi.Input<string>;
  confidence?: pulumi.Input<number>;
  validation?: pulumi.Input<boolean>;
  info?: pulumi.Input<Record<string, unknown>>;
}

type LabelInputs = Resolved<LabelArgTypes>;
/** A data label's args as the provider receives them. */
export type DataLabelInputs = Resolved<DataLabelArgTypes>;
proves<Same<DataLabelInputs, CamelCasedDeep<BodyOf<typeof datalabels.create>, "source.info">>>();

/** A label's computed outputs, read from the platform's record. */
const labelOutputs = defineOutputs(datalabels.labelGet, {
  created: output("When the label was created on the platform (RFC 3339).", (r) => r.created),
  updated: output("When the label was last changed on the platform (RFC 3339).", (r) => r.updated),
});

/** A data label's computed outputs, read from the platform's record. */
const dataLabelOutputs = defineOutputs(datalabels.get, {
  labelId: output("The data label's id, assigned by the platform (also the resource's id, as text).", (r) => r.id),
  created: output("When the data label was created on the platform (RFC 3339).", (r) => r.created),
  updated: output("When the data label was last changed on the platform (RFC 3339).", (r) => r.updated),
});

export const labelKind = registerKind(
  declareKind<LabelInputs>()({
    name: "Label",
    platformTerm: "label",
    doc: "A label: the name data labels carry, with a title. A new `name` replaces it; the title updates in place. Destroying it deletes the label.",
    argsDoc: "The arguments of a {@link Label}.",
    args: {
      name: {
        doc: "The label's name, unique on the platform: {rule}. Changing it replaces the label.",
        output: "The label's name (its id on the platform).",
        required: true,
        replaces: true,
      },
      title: { doc: "The label's display title, {rule}. Changes update in place.", required: true },
      adopt: { doc: "Take over a label that already exists with this name instead of failing. Provider-side only (never sent); default `false`.", local: true },
    },
    id: (i) => i.name,
    endpoints: {
      create: datalabels.labelCreate,
      read: datalabels.labelGet,
      update: datalabels.labelUpdate,
      delete: datalabels.labelDelete,
    },
    outputs: labelOutputs,
  }),
);

const dataLabelArgs = {
  labelName: { doc: "The label this range carries: the name of a {@link Label} ({rule}). Changes update in place.", required: true },
  // The platform answers times in its own form (UTC, six fraction digits).
  startDate: { doc: "Where the range starts: an RFC 3339 time, microseconds allowed. Changes update in place.", required: true, equal: sameInstant },
  endDate: { doc: "Where the range ends: an RFC 3339 time, microseconds allowed, not before `startDate`. Changes update in place.", required: true, equal: sameInstant },
  metrics: { doc: "The asset metrics the range covers, {rule}, each `{ assetName, name }`; default: none (`[]`). Changes update in place.", nested: true },
  source: {
    doc: 'Who set the label: `type` `workload` or `user`, with free-form `info` (passed through untouched); default `{ type: "user", info: {} }`. Changes update in place.',
    nested: true,
    freeForm: ["info"],
  },
  description: { doc: "A description, {rule}; default: none. Changes update in place." },
  confidence: { doc: "How sure the label is: an integer from 0 to 100 (the platform's default is 0). Changes update in place." },
  validation: { doc: "Whether the range was validated (e.g. by a person); default `false`. Changes update in place." },
  info: { doc: "Free-form information stored with the range, passed through untouched; default: none. Changes update in place.", compare: "exact" },
} as const satisfies ArgSpecs<DataLabelInputs>;

/**
 * The API's rule for `confidence` (an integer from 0 to 100), stated whole in one message: the API
 * schema reports a fraction and a value out of range one after the other.
 */
const confidenceRule = (v: unknown) => `must be an integer from 0 to 100, got ${showValue(v)}`;
const confidence = z
  .number({ error: (issue) => confidenceRule(issue.input) })
  .refine((v) => Number.isInteger(v) && v >= 0 && v <= 100, { error: (issue) => confidenceRule(issue.input) });

const dataLabelBody = (i: DataLabelInputs): BodyOf<typeof datalabels.create> => ({
  label_name: i.labelName,
  start_date: i.startDate,
  end_date: i.endDate,
  metrics: i.metrics?.map((m) => ({ asset_name: m.assetName, name: m.name })),
  source: i.source && { type: i.source.type, info: i.source.info ?? {} },
  description: i.description,
  confidence: i.confidence,
  validation: i.validation,
  info: i.info,
});

export const dataLabelKind = registerKind(
  declareKind<DataLabelInputs>()({
    name: "DataLabel",
    platformTerm: "data label",
    doc: "A data label: a {@link Label} set on a time range of asset metrics (e.g. an anomaly). The platform assigns its id; every argument updates in place. Destroying it deletes the data label.",
    argsDoc: "The arguments of a {@link DataLabel}. Every argument updates in place (the platform assigns the data label's id).",
    args: dataLabelArgs,
    schema: DataLabelCreate.safeExtend({ confidence: confidence.nullish() }),
    endpoints: { read: datalabels.get, delete: datalabels.delete },
    // The bodies send a given source's `info` as `{}` when the program leaves it out, which the shared mapping does not.
    create: async ({ client }, i) => await client.call(datalabels.create, { body: dataLabelBody(i) }),
    // The platform numbers data labels: a create whose answer was lost finds the label it made.
    findCreated: findCreatedDataLabel,
    update: async ({ client }, id, i) => await client.call(datalabels.update, { params: { datalabel_id: id }, body: dataLabelBody(i) }),
    outputs: dataLabelOutputs,
  }),
);
