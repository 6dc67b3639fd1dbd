/** Label (a data label's name, with a title) and DataLabel (a labelled time range over asset metrics). */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { showValue } from "../../api/common";
import { DataLabelCreate, datalabels } from "../../api/datalabels";
import { declareKind, defineOutputs, type ArgSpecs, type OutputValues, type DeclaredOutputs } from "../kind";
import { registerKind } from "../registry";
import { SvcResource } from "../shim";
import { sameInstant } from "../values";
import type { Resolved } from "../input-types";
import { type BodyOf, type CamelCasedDeep, type Same, proves } from "../wire-types";
import { findCreatedDataLabel } from "./data-label-created";

/** The arguments of a {@link Label}. */
export interface LabelArgs {
  /** The label's name, unique on the platform: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the label. */
  name: pulumi.Input<string>;
  /** The label's display title, 1–64 characters. Changes update in place. */
  title: pulumi.Input<string>;
  /** Take over a label that already exists with this name instead of failing. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

/** The arguments of a {@link DataLabel}. Every argument updates in place (the platform assigns the data label's id). */
export interface DataLabelArgs {
  /** The label this range carries: the name of a {@link Label} (lowercase letters, digits, '.', '_', '-'; 1–64 characters). Changes update in place. */
  labelName: pulumi.Input<string>;
  /** Where the range starts: an RFC 3339 time, microseconds allowed. Changes update in place. */
  startDate: pulumi.Input<string>;
  /** Where the range ends: an RFC 3339 time, microseconds allowed, not before `startDate`. Changes update in place. */
  endDate: pulumi.Input<string>;
  /** The asset metrics the range covers, at most 1000, each `{ assetName, name }`; default: none (`[]`). Changes update in place. */
  metrics?: pulumi.Input<
    pulumi.Input<{
      /** The asset's name: lowercase letters, digits, '.', '_', '-'; 1–64 characters. */
      assetName: pulumi.Input<string>;
      /** The metric's name, 1–256 characters. */
      name: pulumi.Input<string>;
    }>[]
  >;
  /** Who set the label: `type` `workload` or `user`, with free-form `info` (passed through untouched); default `{ type: "user", info: {} }`. Changes update in place. */
  source?: pulumi.Input<{
    /** Who set the label: `workload` or `user`. */
    type: pulumi.Input<"workload" | "user">;
    /** Free-form information about the source, passed through untouched; default `{}`. */
    info?: pulumi.Input<Record<string, unknown>>;
  }>;
  /** A description, up to 4096 characters; default: none. Changes update in place. */
  description?: pulumi.Input<string>;
  /** How sure the label is: an integer from 0 to 100 (the platform's default is 0). Changes update in place. */
  confidence?: pulumi.Input<number>;
  /** Whether the range was validated (e.g. by a person); default `false`. Changes update in place. */
  validation?: pulumi.Input<boolean>;
  /** Free-form information stored with the range, passed through untouched; default: none. Changes update in place. */
  info?: pulumi.Input<Record<string, unknown>>;
}

type LabelInputs = Resolved<LabelArgs>;
/** A data label's args as the provider receives them. */
export type DataLabelInputs = Resolved<DataLabelArgs>;
proves<Same<DataLabelInputs, CamelCasedDeep<BodyOf<typeof datalabels.create>, "source.info">>>();

/** A label's computed outputs, read from the platform's record. */
const labelOutputs = defineOutputs(datalabels.labelGet, {
  created: (r) => r.created,
  updated: (r) => r.updated,
});

/** A data label's computed outputs, read from the platform's record. */
const dataLabelOutputs = defineOutputs(datalabels.get, {
  labelId: (r) => r.id,
  created: (r) => r.created,
  updated: (r) => r.updated,
});

const labelKind = registerKind(
  declareKind<LabelInputs>()({
    name: "Label",
    platformTerm: "label",
    args: { name: { required: true, replaces: true }, title: { required: true }, adopt: { local: true } },
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
  labelName: { required: true },
  // The platform answers times in its own form (UTC, six fraction digits).
  startDate: { required: true, equal: sameInstant },
  endDate: { required: true, equal: sameInstant },
  metrics: { nested: true },
  source: { nested: true, freeForm: ["info"] },
  description: {},
  confidence: {},
  validation: {},
  info: { compare: "exact" },
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

const dataLabelKind = registerKind(
  declareKind<DataLabelInputs>()({
    name: "DataLabel",
    platformTerm: "data label",
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

/** A label: the name data labels carry, with a title. A new `name` replaces it; the title updates in place. Destroying it deletes the label. */
export class Label extends SvcResource {
  /** The label's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;

  /** When the label was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the label was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: LabelArgs, opts?: pulumi.CustomResourceOptions) {
    super(labelKind, name, args, opts);
  }
}

proves<Same<OutputValues<typeof labelOutputs>, DeclaredOutputs<Label, keyof typeof labelOutputs>>>();

/**
 * A data label: a {@link Label} set on a time range of asset metrics (e.g. an anomaly). The platform
 * assigns its id; every argument updates in place. Destroying it deletes the data label.
 */
export class DataLabel extends SvcResource {
  /** The data label's id, assigned by the platform (also the resource's id, as text). */
  declare readonly labelId: pulumi.Output<number>;
  /** When the data label was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the data label was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: DataLabelArgs, opts?: pulumi.CustomResourceOptions) {
    super(dataLabelKind, name, args, opts);
  }
}

proves<Same<OutputValues<typeof dataLabelOutputs>, DeclaredOutputs<DataLabel, keyof typeof dataLabelOutputs>>>();
