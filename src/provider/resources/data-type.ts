/** DataType: one version of a data type definition (its ICD); versions are immutable and cannot be deleted. */
import type * as pulumi from "@pulumi/pulumi";
import { DataTypeCreate, datatypes } from "../../api/datatypes";
import { declareKind, defineOutputs, echoes, type CheckFailure, output } from "../kind";
import { registerKind } from "../registry";
import type { Resolved } from "../input-types";
import { type BodyOf, type CamelCasedDeep, type Same, proves } from "../wire-types";
import semverValid from "semver/functions/valid";
import { deepEqual } from "../../pulumi/values";
import { containedIn } from "../values";

/** The types of a {@link DataType}'s args as programs write them (their docs are the specs' below). */
interface DataTypeArgTypes {
  icd: pulumi.Input<{
    /** The type's name: dotted lowercase segments such as `plant.pump_reading`, up to 128 characters. */
    name: pulumi.Input<string>;
    /** The class name, `^[a-zA-Z][a-zA-Z0-9_]+$`, up to 128 characters. */
    className: pulumi.Input<string>;
    /** The description, up to 4096 characters; default empty. */
    description?: pulumi.Input<string>;
    /** The version, a semantic version; default `0.0.1`. */
    version?: pulumi.Input<string>;
    /** The fields, at most 1000, names unique; default: none. */
    fields?: pulumi.Input<
      pulumi.Input<{
        /** The field's name, 1–128 characters. */
        name: pulumi.Input<string>;
        /** Its type: a primitive type (such as `number`, `string`, `int32`, `timestamp`) or another data type as `name:version` or `name`; up to 200 characters. */
        type: pulumi.Input<string>;
        /** Its description, up to 4096 characters; default empty. */
        description?: pulumi.Input<string>;
        /** Whether it holds a list of values; default `false`. */
        array?: pulumi.Input<boolean>;
      }>[]
    >;
  }>;
  source?: pulumi.Input<string>;
  adopt?: pulumi.Input<boolean>;
}

type Inputs = Resolved<DataTypeArgTypes>;
type Icd = Inputs["icd"];
proves<Same<Icd, CamelCasedDeep<BodyOf<typeof datatypes.create>["icd"]>>>();

const versionOf = (icd: Icd) => icd.version ?? "0.0.1";

/** Versions compare as the platform stores them: normalized by semver (`v1.2.0` is `1.2.0`, build metadata dropped). */
const normalized = (v: string) => semverValid(v) ?? v;

/** Whether the platform's definition states the declared one (its version written in the platform's form). */
function sameIcd(declared: Icd, stated: Partial<Icd> | undefined): boolean {
  return stated !== undefined && containedIn({ ...declared, version: undefined }, stated) && normalized(versionOf(declared)) === normalized(stated.version ?? "");
}

/** A data type's computed outputs, read from the platform's record. */
const dataTypeOutputs = defineOutputs(datatypes.get, {
  // The class name, the source and the schema of the declared ICD.
  type: output(
    "The type's class name (the icd's `className`).",
    echoes(["icd"], (r) => r.type),
  ),
  connect: output(
    "Whether it is a connect type (`source: connect`).",
    echoes(["source"], (r) => r.connect),
  ),
  jsonSchema: output(
    "The JSON Schema the platform derived from the definition.",
    echoes(["icd"], (r) => r.schema),
  ),
  created: output("When the version was published (RFC 3339).", (r) => r.created),
  updated: output("When the version was last changed on the platform (RFC 3339).", (r) => r.updated),
});

export const dataTypeKind = registerKind(
  declareKind<Inputs>()({
    name: "DataType",
    platformTerm: "data type",
    doc: "One version of a data type definition (its ICD), with the id `<name>:<version>`. A published version is immutable and API v4 offers no delete: publishing a new definition means a new `icd.version` (which replaces the resource), and destroying the resource releases the version from the stack while it stays on the platform. Creating one whose version exists with the same definition takes it over again.",
    argsDoc: "The arguments of a {@link DataType}. A published version is immutable: a change replaces it, which means publishing a new `icd.version`.",
    args: {
      icd: {
        doc: "The definition: `name` (dotted lowercase segments such as `plant.pump_reading`, matching `^([a-z][a-z0-9_]+.)+[a-z][a-z0-9_]+$`), `className` (`^[a-zA-Z][a-zA-Z0-9_]+$`, up to 128 characters), `description` (up to 4096 characters, default empty), `version` (a semantic version, default `0.0.1`) and `fields`, up to 1000 of `{ name, type, description?, array? }` (`type` a primitive type or another data type as `name:version` or `name`; field names unique). Changing it replaces the data type; the same name and version with another definition fails the check (change `icd.version`).",
        required: true,
        nested: true,
        replaces: true,
        equal: (declared, stated) => sameIcd(declared, stated as Partial<Icd> | undefined),
      },
      source: { doc: "Where the type comes from, {rule}: `connect` makes it a connect type; default `user`. Changing it replaces the data type.", replaces: true },
      adopt: {
        doc: "Take over the version if it exists (a DataType always does, with the same definition: versions cannot be deleted). Provider-side only (never sent); default `false`.",
        local: true,
      },
    },
    id: (i) => `${i.icd.name}:${versionOf(i.icd)}`,
    schema: DataTypeCreate,
    // API v4 has no data type delete: the version stays on the platform and leaves the stack.
    onDestroy: "release",
    check(i, _now, olds): CheckFailure[] {
      if (olds && olds.icd.name === i.icd.name && versionOf(olds.icd) === versionOf(i.icd) && (!deepEqual(olds.icd, i.icd) || olds.source !== i.source)) {
        return [{ property: "icd", reason: `data type ${i.icd.name}:${versionOf(i.icd)} is published and immutable; change icd.version to publish the new definition` }];
      }
      return [];
    },
    create: async ({ client }, i) =>
      await client.call(datatypes.create, {
        body: { icd: { name: i.icd.name, class_name: i.icd.className, description: i.icd.description ?? "", version: i.icd.version, fields: i.icd.fields }, source: i.source },
      }),
    endpoints: {
      read: datatypes.get,
      params: (id) => {
        const at = id.lastIndexOf(":");
        return { data_type_name: id.slice(0, at), data_type_version: id.slice(at + 1) };
      },
    },
    outputs: dataTypeOutputs,
  }),
);
