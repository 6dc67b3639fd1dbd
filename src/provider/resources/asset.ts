/** Asset: a thing in the plant hierarchy (machine, line, site) that workloads read and control. */
import type * as pulumi from "@pulumi/pulumi";
import { assets } from "../../api/assets";
import { readAsset } from "../../client/batch";
import { declareKind, defineOutputs, echoes, type OutputValues, type DeclaredOutputs } from "../kind";
import { registerKind } from "../registry";
import { SvcResource } from "../shim";
import type { Resolved } from "../input-types";
import type { AssetRecord } from "../records";
import { type BodyOf, type CamelCasedDeep, type Same, proves } from "../wire-types";

/** The arguments of an {@link Asset}. */
export interface AssetArgs {
  /** The asset's name, unique on the platform: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the asset. */
  name: pulumi.Input<string>;
  /** The asset's display title, 1–64 characters. Changes update in place. */
  title: pulumi.Input<string>;
  /** The asset's type: the name of an {@link AssetType} (lowercase letters, digits, '.', '_', '-'; 1–64 characters). Changes update in place. */
  assetTypeName: pulumi.Input<string>;
  /** The name of the parent asset in the hierarchy (lowercase letters, digits, '.', '_', '-'; 1–64 characters); default: none (a top-level asset). Changes update in place. */
  parentName?: pulumi.Input<string>;
  /** Where the asset is: `lat` from -90 to 90 and `lon` from -180 to 180 (degrees); default: none. Changes update in place. */
  location?: pulumi.Input<{
    /** The latitude in degrees, from -90 to 90. */
    lat: pulumi.Input<number>;
    /** The longitude in degrees, from -180 to 180. */
    lon: pulumi.Input<number>;
  }>;
  /** Take over an asset that already exists with this name instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

type Inputs = Resolved<AssetArgs>;
proves<Same<NonNullable<Inputs["location"]>, CamelCasedDeep<NonNullable<BodyOf<typeof assets.create>["location"]>>>>();

/** An asset's computed outputs, read from the platform's record. */
const assetOutputs = defineOutputs(assets.get, {
  // The names of the asset's ancestors and its own.
  path: echoes(["name", "parentName"], (r) => r.path),
  // Another resource's value (the asset type's title): its secrecy is not this resource's to know.
  assetTypeTitle: (r) => r.asset_type_title,
  state: (r) => r.status.state,
  lastSeen: (r) => r.status.last_seen,
  created: (r) => r.created,
  updated: (r) => r.updated,
});

const assetKind = registerKind(
  declareKind<Inputs>()({
    name: "Asset",
    platformTerm: "asset",
    args: {
      name: { required: true, replaces: true },
      title: { required: true },
      assetTypeName: { required: true, wire: "asset_type_name" },
      parentName: { wire: "asset_parent_name" },
      location: {},
      adopt: { local: true },
    },
    id: (i) => i.name,
    endpoints: { create: assets.create, update: assets.update, delete: assets.delete },
    // Reads are coalesced into list calls (refresh of many assets), so the read is written here.
    read: async ({ client }, id) => await readAsset(client, id),
    outputs: assetOutputs,
  }),
);

/**
 * An asset of the plant hierarchy. A new `name` replaces it; everything else updates in place (the
 * update always sends the title, as the platform requires). Its properties and metadata are managed
 * by {@link AssetProperty} and {@link AssetMetadata}, so that one object is never owned by two
 * resources. Destroying it deletes the asset.
 */
export class Asset extends SvcResource {
  /** The asset's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;
  /** The asset's display title. */
  declare readonly title: pulumi.Output<string>;
  /** The asset's type. */
  declare readonly assetTypeName: pulumi.Output<string>;

  /** The asset's place in the hierarchy: the names from the top-level asset down to this one, joined by `/`. */
  declare readonly path: pulumi.Output<string>;
  /**
   * The title of the asset's type. It is the type's value, not this resource's: when that title is
   * secret, name `assetTypeTitle` in this resource's `additionalSecretOutputs`.
   */
  declare readonly assetTypeTitle: pulumi.Output<string>;
  /** The asset's connection state: `online`, `offline`, `partially_online` or `unknown`. */
  declare readonly state: pulumi.Output<AssetRecord["status"]["state"]>;
  /** When data of the asset was last seen (RFC 3339); unset until then. */
  declare readonly lastSeen: pulumi.Output<string | undefined>;
  /** When the asset was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the asset was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetArgs, opts?: pulumi.CustomResourceOptions) {
    super(assetKind, name, args, opts);
  }
}

proves<Same<OutputValues<typeof assetOutputs>, DeclaredOutputs<Asset, keyof typeof assetOutputs>>>();
