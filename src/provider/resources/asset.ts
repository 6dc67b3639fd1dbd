/**
 * Asset: name changes replace; everything else updates in place (the update body always carries
 * the title, as the platform requires). Properties and metadata are managed by AssetProperty and
 * AssetMetadata, so that one object is never owned by two resources.
 */
import type * as pulumi from "@pulumi/pulumi";
import { AssetCreate, assets } from "../../api/assets";
import { defineKind, type WireRecord } from "../kind";
import { SvcResource } from "../shim";

export interface AssetArgs {
  name: pulumi.Input<string>;
  title: pulumi.Input<string>;
  assetTypeName: pulumi.Input<string>;
  /** Name of the parent asset in the hierarchy. */
  parentName?: pulumi.Input<string>;
  location?: pulumi.Input<{ lat: pulumi.Input<number>; lon: pulumi.Input<number> }>;
  adopt?: pulumi.Input<boolean>;
}

type Inputs = { name: string; title: string; assetTypeName: string; parentName?: string; location?: { lat: number; lon: number }; [k: string]: unknown };

const OUTPUTS = ["path", "assetTypeTitle", "state", "lastSeen", "created", "updated"] as const;

const fields = (i: Inputs) => ({ title: i.title, asset_type_name: i.assetTypeName, asset_parent_name: i.parentName, location: i.location });

export const assetKind = defineKind<Inputs>({
  name: "Asset",
  noun: "asset",
  args: {
    name: { replaces: true },
    title: {},
    assetTypeName: { wire: "asset_type_name" },
    parentName: { wire: "asset_parent_name" },
    location: {},
    adopt: { local: true },
  },
  required: ["name", "title", "assetTypeName"],
  id: (i) => i.name,
  schema: AssetCreate,
  create: async ({ client }, i) => (await client.call(assets.create, { body: { name: i.name, ...fields(i) } })) as WireRecord,
  read: async ({ client }, id) => (await client.call(assets.get, { params: { asset_name: id } })) as WireRecord,
  update: async ({ client }, id, i) => (await client.call(assets.update, { params: { asset_name: id }, body: fields(i) })) as WireRecord,
  async delete({ client }, id) {
    await client.call(assets.delete, { params: { asset_name: id } });
  },
  outputs: (r) => {
    const status = (r.status ?? {}) as { state?: string; last_seen?: string };
    return { path: r.path, assetTypeTitle: r.asset_type_title, state: status.state, lastSeen: status.last_seen, created: r.created, updated: r.updated };
  },
});

export class Asset extends SvcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string>;
  declare readonly assetTypeName: pulumi.Output<string>;
  declare readonly path: pulumi.Output<string>;
  declare readonly assetTypeTitle: pulumi.Output<string>;
  declare readonly state: pulumi.Output<string>;
  declare readonly lastSeen: pulumi.Output<string | undefined>;
  declare readonly created: pulumi.Output<string>;
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetArgs, opts?: pulumi.CustomResourceOptions) {
    super("Asset", name, args, OUTPUTS, opts);
  }
}
