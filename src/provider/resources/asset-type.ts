/** AssetType and AssetClass: the types of assets and the classes that group them. */
import type * as pulumi from "@pulumi/pulumi";
import { assets } from "../../api/assets";
import { readAssetType } from "../../client/batch";
import { declareKind, defineOutputs, type OutputValues, type DeclaredOutputs } from "../kind";
import { registerKind } from "../registry";
import { SvcResource } from "../shim";
import type { Resolved } from "../input-types";
import { proves, type Same } from "../wire-types";

/** The arguments of an {@link AssetType}. */
export interface AssetTypeArgs {
  /** The type's name, unique on the platform: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the asset type. */
  name: pulumi.Input<string>;
  /** The type's display title, 1–64 characters. Changes update in place. */
  title: pulumi.Input<string>;
  /** The class the type belongs to: the name of an {@link AssetClass} (lowercase letters, digits, '.', '_', '-'; 1–64 characters); default: none. Changes update in place. */
  assetClassName?: pulumi.Input<string>;
  /** Take over an asset type that already exists with this name instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}
/** The arguments of an {@link AssetClass}. */
export interface AssetClassArgs {
  /** The class's name, unique on the platform: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the asset class. */
  name: pulumi.Input<string>;
  /** The class's display title, 1–64 characters. Changes update in place. */
  title: pulumi.Input<string>;
  /** Take over an asset class that already exists with this name instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

type TypeInputs = Resolved<AssetTypeArgs>;
type ClassInputs = Resolved<AssetClassArgs>;

/** The computed outputs of an asset type or class, read from the platform's record. */
const assetTypeOutputs = defineOutputs(assets.classGet, {
  created: (r) => r.created,
  updated: (r) => r.updated,
});

const assetTypeKind = registerKind(
  declareKind<TypeInputs>()({
    name: "AssetType",
    platformTerm: "asset type",
    args: { name: { required: true, replaces: true }, title: { required: true }, assetClassName: { wire: "asset_class_name" }, adopt: { local: true } },
    id: (i) => i.name,
    endpoints: { create: assets.typeCreate, update: assets.typeUpdate, delete: assets.typeDelete },
    // Reads are coalesced into list calls.
    read: async ({ client }, id) => await readAssetType(client, id),
    outputs: assetTypeOutputs,
  }),
);

const assetClassKind = registerKind(
  declareKind<ClassInputs>()({
    name: "AssetClass",
    platformTerm: "asset class",
    args: { name: { required: true, replaces: true }, title: { required: true }, adopt: { local: true } },
    id: (i) => i.name,
    endpoints: { create: assets.classCreate, read: assets.classGet, update: assets.classUpdate, delete: assets.classDelete },
    outputs: assetTypeOutputs,
  }),
);

/**
 * An asset type: what kind of thing an {@link Asset} is (e.g. a pump), optionally in an
 * {@link AssetClass}. A new `name` replaces it; the title and the class update in place. Destroying
 * it deletes the type.
 */
export class AssetType extends SvcResource {
  /** The type's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;
  /** The type's display title. */
  declare readonly title: pulumi.Output<string>;

  /** When the type was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the type was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetTypeArgs, opts?: pulumi.CustomResourceOptions) {
    super(assetTypeKind, name, args, opts);
  }
}

proves<Same<OutputValues<typeof assetTypeOutputs>, DeclaredOutputs<AssetType, keyof typeof assetTypeOutputs>>>();

/** An asset class: a group of asset types. A new `name` replaces it; the title updates in place. Destroying it deletes the class. */
export class AssetClass extends SvcResource {
  /** The class's name (its id on the platform). */
  declare readonly name: pulumi.Output<string>;
  /** The class's display title. */
  declare readonly title: pulumi.Output<string>;

  /** When the class was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the class was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetClassArgs, opts?: pulumi.CustomResourceOptions) {
    super(assetClassKind, name, args, opts);
  }
}

proves<Same<OutputValues<typeof assetTypeOutputs>, DeclaredOutputs<AssetClass, keyof typeof assetTypeOutputs>>>();
