/** AssetType and AssetClass: name changes replace; titles (and a type's class) update in place. */
import type * as pulumi from "@pulumi/pulumi";
import { AssetClassCreate, AssetTypeCreate, assets } from "../../api/assets";
import { defineKind, type WireRecord } from "../kind";
import { SvcResource } from "../shim";

export interface AssetTypeArgs {
  name: pulumi.Input<string>;
  title: pulumi.Input<string>;
  assetClassName?: pulumi.Input<string>;
  adopt?: pulumi.Input<boolean>;
}
export interface AssetClassArgs {
  name: pulumi.Input<string>;
  title: pulumi.Input<string>;
  adopt?: pulumi.Input<boolean>;
}

type TypeInputs = { name: string; title: string; assetClassName?: string; [k: string]: unknown };
type ClassInputs = { name: string; title: string; [k: string]: unknown };

const stamps = (r: WireRecord) => ({ created: r.created, updated: r.updated });

export const assetTypeKind = defineKind<TypeInputs>({
  name: "AssetType",
  noun: "asset type",
  args: { name: { replaces: true }, title: {}, assetClassName: { wire: "asset_class_name" }, adopt: { local: true } },
  required: ["name", "title"],
  id: (i) => i.name,
  schema: AssetTypeCreate,
  create: async ({ client }, i) => (await client.call(assets.typeCreate, { body: { name: i.name, title: i.title, asset_class_name: i.assetClassName } })) as WireRecord,
  read: async ({ client }, id) => (await client.call(assets.typeGet, { params: { asset_type_name: id } })) as WireRecord,
  update: async ({ client }, id, i) => (await client.call(assets.typeUpdate, { params: { asset_type_name: id }, body: { title: i.title, asset_class_name: i.assetClassName } })) as WireRecord,
  async delete({ client }, id) {
    await client.call(assets.typeDelete, { params: { asset_type_name: id } });
  },
  outputs: stamps,
});

export const assetClassKind = defineKind<ClassInputs>({
  name: "AssetClass",
  noun: "asset class",
  args: { name: { replaces: true }, title: {}, adopt: { local: true } },
  required: ["name", "title"],
  id: (i) => i.name,
  schema: AssetClassCreate,
  create: async ({ client }, i) => (await client.call(assets.classCreate, { body: { name: i.name, title: i.title } })) as WireRecord,
  read: async ({ client }, id) => (await client.call(assets.classGet, { params: { asset_class_name: id } })) as WireRecord,
  update: async ({ client }, id, i) => (await client.call(assets.classUpdate, { params: { asset_class_name: id }, body: { title: i.title } })) as WireRecord,
  async delete({ client }, id) {
    await client.call(assets.classDelete, { params: { asset_class_name: id } });
  },
  outputs: stamps,
});

export class AssetType extends SvcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string>;
  declare readonly created: pulumi.Output<string>;
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetTypeArgs, opts?: pulumi.CustomResourceOptions) {
    super("AssetType", name, args, ["created", "updated"], opts);
  }
}

export class AssetClass extends SvcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string>;
  declare readonly created: pulumi.Output<string>;
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetClassArgs, opts?: pulumi.CustomResourceOptions) {
    super("AssetClass", name, args, ["created", "updated"], opts);
  }
}
