/** Asset: a thing in the plant hierarchy (machine, line, site) that workloads read and control. */
import type * as pulumi from "@pulumi/pulumi";
import { assets } from "../../api/assets";
import { readAsset } from "../../client/batch";
import { declareKind, defineOutputs, echoes, output } from "../kind";
import { registerKind } from "../registry";
import type { Resolved } from "../input-types";
import { type BodyOf, type CamelCasedDeep, type Same, proves } from "../wire-types";

/** The types of an {@link Asset}'s args as programs write them (their docs are the specs' below). */
interface AssetArgTypes {
  name: pulumi.Input<string>;
  title: pulumi.Input<string>;
  assetTypeName: pulumi.Input<string>;
  parentName?: pulumi.Input<string>;
  location?: pulumi.Input<{
    /** The latitude in degrees, from -90 to 90. */
    lat: pulumi.Input<number>;
    /** The longitude in degrees, from -180 to 180. */
    lon: pulumi.Input<number>;
  }>;
  adopt?: pulumi.Input<boolean>;
}

type Inputs = Resolved<AssetArgTypes>;
proves<Same<NonNullable<Inputs["location"]>, CamelCasedDeep<NonNullable<BodyOf<typeof assets.create>["location"]>>>>();

/** An asset's computed outputs, read from the platform's record. */
const assetOutputs = defineOutputs(assets.get, {
  // The names of the asset's ancestors and its own.
  path: output(
    "The asset's place in the hierarchy: the names from the top-level asset down to this one, joined by `/`.",
    echoes(["name", "parentName"], (r) => r.path),
  ),
  // Another resource's value (the asset type's title): its secrecy is not this resource's to know.
  assetTypeTitle: output(
    "The title of the asset's type. It is the type's value, not this resource's: when that title is secret, name `assetTypeTitle` in this resource's `additionalSecretOutputs`.",
    (r) => r.asset_type_title,
  ),
  state: output("The asset's connection state: `online`, `offline`, `partially_online` or `unknown`.", (r) => r.status.state),
  lastSeen: output("When data of the asset was last seen (RFC 3339); unset until then.", (r) => r.status.last_seen),
  created: output("When the asset was created on the platform (RFC 3339).", (r) => r.created),
  updated: output("When the asset was last changed on the platform (RFC 3339).", (r) => r.updated),
});

export const assetKind = registerKind(
  declareKind<Inputs>()({
    name: "Asset",
    platformTerm: "asset",
    doc: "An asset of the plant hierarchy. A new `name` replaces it; everything else updates in place (the update always sends the title, as the platform requires). Its properties and metadata are managed by {@link AssetProperty} and {@link AssetMetadata}, so that one object is never owned by two resources. Destroying it deletes the asset.",
    argsDoc: "The arguments of an {@link Asset}.",
    args: {
      name: {
        doc: "The asset's name, unique on the platform: {rule}. Changing it replaces the asset.",
        output: "The asset's name (its id on the platform).",
        required: true,
        replaces: true,
      },
      title: { doc: "The asset's display title, {rule}. Changes update in place.", output: "The asset's display title.", required: true },
      assetTypeName: {
        doc: "The asset's type: the name of an {@link AssetType} ({rule}). Changes update in place.",
        output: "The asset's type.",
        required: true,
        wire: "asset_type_name",
      },
      parentName: { doc: "The name of the parent asset in the hierarchy ({rule}); default: none (a top-level asset). Changes update in place.", wire: "asset_parent_name" },
      location: { doc: "Where the asset is: `lat` from -90 to 90 and `lon` from -180 to 180 (degrees); default: none. Changes update in place." },
      adopt: {
        doc: "Take over an asset that already exists with this name instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`.",
        local: true,
      },
    },
    id: (i) => i.name,
    endpoints: { create: assets.create, update: assets.update, delete: assets.delete },
    // Reads are coalesced into list calls (refresh of many assets), so the read is written here.
    read: async ({ client }, id) => await readAsset(client, id),
    outputs: assetOutputs,
  }),
);
