/**
 * AssetProperty and AssetMetadata: records that belong to one asset. A property's value may be a
 * string, number, boolean or an array of one of these; the platform stores it as text, which refresh
 * compares against the text of what was declared.
 */
import type * as pulumi from "@pulumi/pulumi";
import { AssetPropertyCreate, MetadataCreate, assets } from "../../api/assets";
import { name as nameSchema } from "../../api/common";
import { defineKind, type WireRecord } from "../kind";
import { SvcResource } from "../shim";

type Value = string | number | boolean | string[] | number[] | boolean[];

export interface AssetPropertyArgs {
  assetName: pulumi.Input<string>;
  name: pulumi.Input<string>;
  /** Property names are platform-wide: when the name exists already, its title stays as it is. */
  title?: pulumi.Input<string>;
  value: pulumi.Input<Value>;
  adopt?: pulumi.Input<boolean>;
}
export interface AssetMetadataArgs {
  assetName: pulumi.Input<string>;
  name: pulumi.Input<string>;
  /** Free-form; passes through untouched. */
  payload: pulumi.Input<Record<string, unknown>>;
  adopt?: pulumi.Input<boolean>;
}

type PropInputs = { assetName: string; name: string; title?: string; value: Value; [k: string]: unknown };
type MetaInputs = { assetName: string; name: string; payload: Record<string, unknown>; [k: string]: unknown };

/** The text the platform stores for a value (arrays as JSON). */
export const valueText = (v: Value): string => (Array.isArray(v) ? JSON.stringify(v) : String(v));

const split = (id: string) => {
  const at = id.indexOf("/");
  return { asset_name: id.slice(0, at), name: id.slice(at + 1) };
};

export const assetPropertyKind = defineKind<PropInputs>({
  name: "AssetProperty",
  noun: "asset property",
  args: { assetName: { wire: "asset_name", replaces: true }, name: { replaces: true }, title: {}, value: {}, adopt: { local: true } },
  required: ["assetName", "name", "value"],
  id: (i) => `${i.assetName}/${i.name}`,
  schema: AssetPropertyCreate.extend({ asset_name: nameSchema(64) }),
  // A property's title belongs to one property name platform-wide: a replacement under a new name that
  // keeps the title would be refused while the old property holds it, so the old one goes first.
  deleteBeforeReplace: true,
  create: async ({ client }, i) =>
    (await client.call(assets.propertyCreate, { params: { asset_name: i.assetName }, body: { name: i.name, title: i.title, value: i.value } })) as WireRecord,
  read: async ({ client }, id) => {
    const { asset_name, name } = split(id);
    return (await client.call(assets.propertyGet, { params: { asset_name, asset_property_name: name } })) as WireRecord;
  },
  update: async ({ client }, id, i) => {
    const { asset_name, name } = split(id);
    return (await client.call(assets.propertyUpdate, { params: { asset_name, asset_property_name: name }, body: { title: i.title, value: i.value } })) as WireRecord;
  },
  async delete({ client }, id) {
    const { asset_name, name } = split(id);
    await client.call(assets.propertyDelete, { params: { asset_name, asset_property_name: name } });
  },
  argsFromRecord: (r, olds) => ({ value: valueText(olds.value) === r.value ? olds.value : (r.value as string) }),
  outputs: (r) => ({ storedValue: r.value, storedTitle: r.title, created: r.created, updated: r.updated }),
});

export const assetMetadataKind = defineKind<MetaInputs>({
  name: "AssetMetadata",
  noun: "asset metadata",
  args: { assetName: { wire: "asset_name", replaces: true }, name: { replaces: true }, payload: { compare: "exact" }, adopt: { local: true } },
  required: ["assetName", "name", "payload"],
  id: (i) => `${i.assetName}/${i.name}`,
  schema: MetadataCreate.extend({ asset_name: nameSchema(64) }),
  create: async ({ client }, i) => (await client.call(assets.metadataCreate, { params: { asset_name: i.assetName }, body: { name: i.name, payload: i.payload } })) as WireRecord,
  read: async ({ client }, id) => {
    const { asset_name, name } = split(id);
    return (await client.call(assets.metadataGet, { params: { asset_name, asset_metadata_name: name } })) as WireRecord;
  },
  update: async ({ client }, id, i) => {
    const { asset_name, name } = split(id);
    return (await client.call(assets.metadataUpdate, { params: { asset_name, asset_metadata_name: name }, body: { payload: i.payload } })) as WireRecord;
  },
  async delete({ client }, id) {
    const { asset_name, name } = split(id);
    await client.call(assets.metadataDelete, { params: { asset_name, asset_metadata_name: name } });
  },
  outputs: (r) => ({ created: r.created, updated: r.updated }),
});

export class AssetProperty extends SvcResource {
  declare readonly storedValue: pulumi.Output<string>;
  declare readonly storedTitle: pulumi.Output<string>;
  declare readonly created: pulumi.Output<string>;

  constructor(name: string, args: AssetPropertyArgs, opts?: pulumi.CustomResourceOptions) {
    super("AssetProperty", name, args, ["storedValue", "storedTitle", "created", "updated"], opts);
  }
}

export class AssetMetadata extends SvcResource {
  declare readonly created: pulumi.Output<string>;
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetMetadataArgs, opts?: pulumi.CustomResourceOptions) {
    super("AssetMetadata", name, args, ["created", "updated"], opts);
  }
}
