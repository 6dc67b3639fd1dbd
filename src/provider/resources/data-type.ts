/**
 * DataType: one version of a data type definition (its ICD). A published version is immutable and
 * API v4 offers no delete: publishing a new definition means a new `icd.version`, and destroying the
 * resource releases the version from the stack while it stays on the platform. Creating one whose
 * version exists with the same definition takes it over again.
 */
import type * as pulumi from "@pulumi/pulumi";
import { DataTypeCreate, datatypes } from "../../api/datatypes";
import { defineKind, type CheckFailure, type WireRecord } from "../kind";
import { SvcResource } from "../shim";
import { deepEqual } from "../values";

export interface DataTypeArgs {
  /** name (`a.b_c` form), className, description, version (default 0.0.1), fields [{ name, type, description, array? }]. */
  icd: pulumi.Input<{
    name: pulumi.Input<string>;
    className: pulumi.Input<string>;
    description?: pulumi.Input<string>;
    version?: pulumi.Input<string>;
    fields: pulumi.Input<pulumi.Input<{ name: pulumi.Input<string>; type: pulumi.Input<string>; description?: pulumi.Input<string>; array?: pulumi.Input<boolean> }>[]>;
  }>;
  /** `connect` makes it a connect type; default `user`. */
  source?: pulumi.Input<string>;
  /** Take over the version if it exists (a DataType always does, with the same definition: versions cannot be deleted). */
  adopt?: pulumi.Input<boolean>;
}

type Icd = { name: string; className: string; description?: string; version?: string; fields: Array<Record<string, unknown>> };
type Inputs = { icd: Icd; source?: string; [k: string]: unknown };

const versionOf = (icd: Icd) => icd.version ?? "0.0.1";

export const dataTypeKind = defineKind<Inputs>({
  name: "DataType",
  noun: "data type",
  args: { icd: { nested: true, replaces: true }, source: { replaces: true }, adopt: { local: true } },
  required: ["icd"],
  id: (i) => `${i.icd.name}:${versionOf(i.icd)}`,
  schema: DataTypeCreate,
  // API v4 has no data type delete: the version stays on the platform and leaves the stack.
  onDestroy: "release",
  check(i, _now, olds): CheckFailure[] {
    if (olds && olds.icd.name === i.icd.name && versionOf(olds.icd) === versionOf(i.icd) && (!deepEqual(olds.icd, i.icd) || olds.source !== i.source)) {
      return [{ property: "icd", reason: `icd: data type ${i.icd.name}:${versionOf(i.icd)} is published and immutable; change icd.version to publish the new definition` }];
    }
    return [];
  },
  create: async ({ client }, i) =>
    (await client.call(datatypes.create, {
      body: { icd: { name: i.icd.name, class_name: i.icd.className, description: i.icd.description ?? "", version: i.icd.version, fields: i.icd.fields as never }, source: i.source },
    })) as WireRecord,
  read: async ({ client }, id) => {
    const at = id.lastIndexOf(":");
    return (await client.call(datatypes.get, { params: { data_type_name: id.slice(0, at), data_type_version: id.slice(at + 1) } })) as WireRecord;
  },
  outputs: (r) => ({ type: r.type, connect: r.connect, jsonSchema: r.schema, created: r.created, updated: r.updated }),
});

export class DataType extends SvcResource {
  declare readonly type: pulumi.Output<string>;
  declare readonly connect: pulumi.Output<boolean>;
  declare readonly jsonSchema: pulumi.Output<Record<string, unknown>>;
  declare readonly created: pulumi.Output<string>;

  constructor(name: string, args: DataTypeArgs, opts?: pulumi.CustomResourceOptions) {
    super("DataType", name, args, ["type", "connect", "jsonSchema", "created", "updated"], opts);
  }
}
