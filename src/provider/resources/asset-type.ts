/** AssetType and AssetClass: the types of assets and the classes that group them. */
import type * as pulumi from "@pulumi/pulumi";
import { assets } from "../../api/assets";
import { readAssetType } from "../../client/batch";
import { declareKind, defineOutputs, output } from "../kind";
import { registerKind } from "../registry";
import type { Resolved } from "../input-types";

/** The types of an {@link AssetType}'s args as programs write them (their docs are the specs' below). */
interface AssetTypeArgTypes {
  name: pulumi.Input<string>;
  title: pulumi.Input<string>;
  assetClassName?: pulumi.Input<string>;
  adopt?: pulumi.Input<boolean>;
}
/** The types of an {@link AssetClass}'s args as programs write them (their docs are the specs' below). */
interface AssetClassArgTypes {
  name: pulumi.Input<string>;
  title: pulumi.Input<string>;
  adopt?: pulumi.Input<boolean>;
}

type TypeInputs = Resolved<AssetTypeArgTypes>;
type ClassInputs = Resolved<AssetClassArgTypes>;

/** The computed outputs of an asset type, read from the platform's record (a type's record is a class's). */
const assetTypeOutputs = defineOutputs(assets.classGet, {
  created: output("When the type was created on the platform (RFC 3339).", (r) => r.created),
  updated: output("When the type was last changed on the platform (RFC 3339).", (r) => r.updated),
});

/** The computed outputs of an asset class, read from the platform's record. */
const assetClassOutputs = defineOutputs(assets.classGet, {
  created: output("When the class was created on the platform (RFC 3339).", (r) => r.created),
  updated: output("When the class was last changed on the platform (RFC 3339).", (r) => r.updated),
});

export const assetTypeKind = registerKind(
  declareKind<TypeInputs>()({
    name: "AssetType",
    platformTerm: "asset type",
    doc: "An asset type: what kind of thing an {@link Asset} is (e.g. a pump), optionally in an {@link AssetClass}. A new `name` replaces it; the title and the class update in place. Destroying it deletes the type.",
    argsDoc: "The arguments of an {@link AssetType}.",
    args: {
      name: {
        doc: "The type's name, unique on the platform: {rule}. Changing it replaces the asset type.",
        output: "The type's name (its id on the platform).",
        required: true,
        replaces: true,
      },
      title: { doc: "The type's display title, {rule}. Changes update in place.", output: "The type's display title.", required: true },
      assetClassName: { doc: "The class the type belongs to: the name of an {@link AssetClass} ({rule}); default: none. Changes update in place.", wire: "asset_class_name" },
      adopt: {
        doc: "Take over an asset type that already exists with this name instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`.",
        local: true,
      },
    },
    id: (i) => i.name,
    endpoints: { create: assets.typeCreate, update: assets.typeUpdate, delete: assets.typeDelete },
    // Reads are coalesced into list calls.
    read: async ({ client }, id) => await readAssetType(client, id),
    outputs: assetTypeOutputs,
  }),
);

export const assetClassKind = registerKind(
  declareKind<ClassInputs>()({
    name: "AssetClass",
    platformTerm: "asset class",
    doc: "An asset class: a group of asset types. A new `name` replaces it; the title updates in place. Destroying it deletes the class.",
    argsDoc: "The arguments of an {@link AssetClass}.",
    args: {
      name: {
        doc: "The class's name, unique on the platform: {rule}. Changing it replaces the asset class.",
        output: "The class's name (its id on the platform).",
        required: true,
        replaces: true,
      },
      title: { doc: "The class's display title, {rule}. Changes update in place.", output: "The class's display title.", required: true },
      adopt: {
        doc: "Take over an asset class that already exists with this name instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`.",
        local: true,
      },
    },
    id: (i) => i.name,
    endpoints: { create: assets.classCreate, read: assets.classGet, update: assets.classUpdate, delete: assets.classDelete },
    outputs: assetClassOutputs,
  }),
);
