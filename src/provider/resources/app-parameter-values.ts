/** AppParameterValues: the values of an app version's parameters for one resource. */
import type * as pulumi from "@pulumi/pulumi";
import type { SvcClient } from "../../client";
import { parameters } from "../../api/parameters";
import { defineKind, type CheckFailure, type OutputReader, type WireRecord } from "../kind";
import { registerKind } from "../registry";
import { assetNameOfKrn, nameKeyedRecord, scalarValue, showValue } from "../../api/common";
import { parameterName } from "../../api/apps";
import { isAssetRef, toAssetKrn } from "./refs";
import type { Resolved } from "../input-types";
import type { Scalar } from "./contract-types";

/** The types of an {@link AppParameterValues}'s args as programs write them (their docs are the specs' below). */
interface AppParameterValuesArgTypes {
  appName: pulumi.Input<string>;
  appVersion: pulumi.Input<string>;
  resource: pulumi.Input<string>;
  values: pulumi.Input<Record<string, pulumi.Input<Scalar>>>;
  comment?: pulumi.Input<string>;
}

/** Parameter values have no computed outputs: `values` (the managed values as the platform holds them) is their state. */
const appParameterValuesOutputs: Record<never, OutputReader<ValuesRecord>> = {};

type Inputs = Resolved<AppParameterValuesArgTypes>;
type Identity = Pick<Inputs, "appName" | "appVersion" | "resource">;

const params = (i: Identity) => ({ app_name: i.appName, app_version: i.appVersion });

async function currentValues(client: SvcClient, i: Identity): Promise<Record<string, Scalar>> {
  const out: Record<string, Scalar> = {};
  const rows = client.paginate(parameters.valuesList, {
    body: { apps: [{ name: i.appName, version: i.appVersion }], resources: [toAssetKrn(i.resource)] },
  });
  for await (const row of rows as AsyncIterable<{ name: string; value: Scalar }>) out[row.name] = row.value;
  return out;
}

async function writeAll(client: SvcClient, i: Inputs, values: Record<string, Scalar>): Promise<void> {
  await client.call(parameters.valuesUpdate, {
    params: params(i),
    query: { patch: false },
    body: {
      resource_parameters: [
        { resource: toAssetKrn(i.resource), parameters: Object.entries(values).map(([name, value]) => ({ name, value, ...(i.comment ? { comment: i.comment } : {}) })) },
      ],
    },
  });
}

/** The kind's record: the platform has no record of one resource's values, so the provider makes it. */
interface ValuesRecord extends WireRecord {
  app_name: string;
  app_version: string;
  resource: string;
  values: Record<string, Scalar>;
}

async function record(client: SvcClient, i: Identity): Promise<ValuesRecord> {
  return { app_name: i.appName, app_version: i.appVersion, resource: toAssetKrn(i.resource), values: await currentValues(client, i) };
}

function fromId(id: string): Identity {
  const slash = id.indexOf("/");
  const at = id.lastIndexOf("@", slash);
  return { appName: id.slice(0, at), appVersion: id.slice(at + 1, slash), resource: id.slice(slash + 1) };
}

export const appParameterValuesKind = registerKind(
  defineKind<Inputs, ValuesRecord>({
    name: "AppParameterValues",
    platformTerm: "parameter values",
    doc: "The values of an app version's parameters for one resource (asset), with patch semantics: only the parameters named in `values` are managed; the resource's other parameters are left alone. Removing a parameter from `values` (or destroying the resource) resets it to its default. A new app, version or resource replaces it; the values update in place.",
    argsDoc: "The arguments of an {@link AppParameterValues}.",
    args: {
      appName: {
        rule: parameters.valuesUpdate.params?.shape.app_name,
        doc: "The app whose parameters are set (an app name, {rule}). Changing it replaces the resource.",
        required: true,
        replaces: true,
      },
      appVersion: { doc: "The app version that declares the parameters, a semantic version such as `1.2.0`. Changing it replaces the resource.", required: true, replaces: true },
      resource: { doc: "The resource the values are for: an asset name or KRN (`krn:asset:<name>`). Changing it replaces the resource.", required: true, replaces: true },
      // Parameter name → value: any name is data.
      values: {
        doc: "The managed values: parameter name → number, string or boolean (the parameter's type). Only these parameters are managed; one removed from here returns to its default. Changes update in place.",
        output: { doc: "The managed values as the platform holds them.", type: "Record<string, Scalar>" },
        required: true,
        compare: "exact",
        schema: nameKeyedRecord(parameterName, scalarValue),
      },
      comment: { doc: "A comment stored with the values when they are written; not read back; default: none. Changes update in place.", writeOnly: true },
    },
    id: (i) => `${i.appName}@${i.appVersion}/${toAssetKrn(i.resource)}`,
    check(i): CheckFailure[] {
      const failures: CheckFailure[] = [];
      if (!isAssetRef(i.resource)) failures.push({ property: "resource", reason: `'${i.resource}' is neither an asset name nor a KRN 'krn:asset:<name>'` });
      for (const [k, v] of Object.entries(i.values)) {
        if (!["string", "number", "boolean"].includes(typeof v)) failures.push({ property: "values", reason: `${k}: must be a number, string or boolean, got ${showValue(v)}` });
      }
      return failures;
    },
    async create({ client }, i) {
      // Values the platform already holds (an adopted plant) are not written again: no call changes anything.
      const current = await currentValues(client, i);
      if (i.comment === undefined && Object.entries(i.values).every(([k, v]) => k in current && current[k] === v)) return record(client, i);
      await client.call(parameters.valuesUpdate, {
        params: params(i),
        query: { patch: true },
        body: {
          resource_parameters: [
            { resource: toAssetKrn(i.resource), parameters: Object.entries(i.values).map(([name, value]) => ({ name, value, ...(i.comment ? { comment: i.comment } : {}) })) },
          ],
        },
      });
      return record(client, i);
    },
    async read({ client }, id, olds) {
      const { appName, appVersion, resource } = olds;
      const i: Identity = appName && appVersion && resource ? { appName, appVersion, resource } : fromId(id);
      const values = await currentValues(client, i);
      // A read by id alone takes over every value that is set; a refresh looks at the managed ones.
      const keys = olds.values ? Object.keys(olds.values).filter((k) => k in values) : Object.keys(values);
      const managed = Object.fromEntries(keys.map((k) => [k, values[k]]));
      // None of the managed parameters has a value any more: the object this resource stands for is gone.
      return Object.keys(managed).length === 0 ? undefined : { app_name: i.appName, app_version: i.appVersion, resource: toAssetKrn(i.resource), values: managed };
    },
    async update({ client }, _id, news, olds) {
      const current = await currentValues(client, news);
      const released = Object.keys(olds?.values ?? {}).filter((k) => !(k in news.values));
      const next: Record<string, Scalar> = { ...current, ...news.values };
      for (const k of released) delete next[k];
      await writeAll(client, news, next);
      return record(client, news);
    },
    async delete({ client }, _id, i) {
      const current = await currentValues(client, i);
      for (const k of Object.keys(i.values)) delete current[k];
      await writeAll(client, i, current);
    },
    // The identity (app, version, resource) is the id itself; only the values can drift.
    argsFromRecord: (r, olds) => ({
      appName: olds.appName ?? (r.app_name as string),
      appVersion: olds.appVersion ?? (r.app_version as string),
      resource: olds.resource ?? assetNameOfKrn(r.resource as string),
      values: r.values as Record<string, Scalar>,
    }),
    outputs: appParameterValuesOutputs,
  }),
);
