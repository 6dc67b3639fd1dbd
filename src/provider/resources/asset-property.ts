/** AssetProperty and AssetMetadata: records that belong to one asset. */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { AssetPropertyCreate, MetadataCreate, assets } from "../../api/assets";
import { name as nameSchema } from "../../api/common";
import { declareKind, defineOutputs, echoes, output } from "../kind";
import { registerKind } from "../registry";
import type { Resolved } from "../input-types";
import type { PropertyValue } from "./contract-types";

/** The types of an {@link AssetProperty}'s args as programs write them (their docs are the specs' below). */
interface AssetPropertyArgTypes {
  assetName: pulumi.Input<string>;
  name: pulumi.Input<string>;
  title?: pulumi.Input<string>;
  value: pulumi.Input<PropertyValue>;
  adopt?: pulumi.Input<boolean>;
}
/** The types of an {@link AssetMetadata}'s args as programs write them (their docs are the specs' below). */
interface AssetMetadataArgTypes {
  assetName: pulumi.Input<string>;
  name: pulumi.Input<string>;
  payload: pulumi.Input<Record<string, unknown>>;
  adopt?: pulumi.Input<boolean>;
}

type PropInputs = Resolved<AssetPropertyArgTypes>;
type MetaInputs = Resolved<AssetMetadataArgTypes>;

/** The text the platform stores for a value (arrays as JSON). */
export const valueText = (v: PropertyValue): string => (Array.isArray(v) ? JSON.stringify(v) : String(v));
/** Whether the platform's text is the declared value's. */
const sameValueText = (declared: PropertyValue, stated: unknown): boolean => valueText(declared) === stated;

type ParamOf<E> = E extends { params?: infer P extends z.ZodType } ? keyof z.input<P> & string : never;
/** The path parameter that names a record of an asset (a property, a metadata record) in the table. */
type ChildParam = Exclude<ParamOf<typeof assets.propertyGet | typeof assets.metadataGet>, "asset_name">;

/**
 * The path values of a record of an asset from its id `<asset>/<name>`: the asset's name, and the
 * record's name under `param` (an asset's name holds no '/').
 */
const childParams =
  (param: ChildParam) =>
  (id: string): Record<string, string> => {
    const at = id.indexOf("/");
    return { asset_name: id.slice(0, at), [param]: id.slice(at + 1) };
  };

/** An asset property's computed outputs, read from the platform's record. */
const assetPropertyOutputs = defineOutputs(assets.propertyGet, {
  storedValue: output(
    "The value as the platform stores it: text (arrays as JSON).",
    echoes(["value"], (r) => r.value),
  ),
  storedTitle: output(
    "The title as the platform holds it (it keeps the title of a property name that existed already).",
    echoes(["title"], (r) => r.title),
  ),
  created: output("When the property was created on the platform (RFC 3339).", (r) => r.created),
  updated: output("When the property was last changed on the platform (RFC 3339).", (r) => r.updated),
});

/** An asset metadata record's computed outputs, read from the platform's record. */
const assetMetadataOutputs = defineOutputs(assets.metadataGet, {
  created: output("When the metadata was created on the platform (RFC 3339).", (r) => r.created),
  updated: output("When the metadata was last changed on the platform (RFC 3339).", (r) => r.updated),
});

export const assetPropertyKind = registerKind(
  declareKind<PropInputs>()({
    name: "AssetProperty",
    platformTerm: "asset property",
    doc: "A property of an asset (a named value such as a rated power). A new `assetName` or `name` replaces it; the title and the value update in place. Destroying it deletes the property.",
    argsDoc: "The arguments of an {@link AssetProperty}.",
    args: {
      assetName: { doc: "The asset the property belongs to: an asset name ({rule}). Changing it replaces the property.", required: true, wire: "asset_name", replaces: true },
      name: { doc: "The property's name: {rule}. Changing it replaces the property.", required: true, replaces: true },
      title: {
        doc: "The property's display title, {rule}; default: none. Property names are platform-wide: when the name exists already, its title stays as it is. Changes update in place.",
      },
      // The platform stores the value as text.
      value: {
        doc: "The value: a string, number, boolean or an array of one of these. The platform stores it as text (arrays as JSON), which refresh compares with the text of the declared value. Changes update in place.",
        required: true,
        equal: sameValueText,
      },
      adopt: { doc: "Take over a property that already exists with this name on the asset instead of failing. Provider-side only (never sent); default `false`.", local: true },
    },
    id: (i) => `${i.assetName}/${i.name}`,
    schema: AssetPropertyCreate.extend({ asset_name: nameSchema(64) }),
    // A property's title belongs to one property name platform-wide: a replacement under a new name that
    // keeps the title would be refused while the old property holds it, so the old one goes first.
    deleteBeforeReplace: true,
    endpoints: {
      create: assets.propertyCreate,
      read: assets.propertyGet,
      update: assets.propertyUpdate,
      delete: assets.propertyDelete,
      params: childParams("asset_property_name"),
    },
    outputs: assetPropertyOutputs,
  }),
);

export const assetMetadataKind = registerKind(
  declareKind<MetaInputs>()({
    name: "AssetMetadata",
    platformTerm: "asset metadata",
    doc: "A metadata record of an asset: a named free-form JSON payload. A new `assetName` or `name` replaces it; the payload updates in place. Destroying it deletes the record.",
    argsDoc: "The arguments of an {@link AssetMetadata}.",
    args: {
      assetName: { doc: "The asset the metadata belongs to: an asset name ({rule}). Changing it replaces the metadata.", required: true, wire: "asset_name", replaces: true },
      name: { doc: "The metadata record's name: {rule}. Changing it replaces the metadata.", required: true, replaces: true },
      payload: { doc: "The metadata: a free-form JSON object, passed through untouched. Changes update in place.", required: true, compare: "exact" },
      adopt: {
        doc: "Take over a metadata record that already exists with this name on the asset instead of failing. Provider-side only (never sent); default `false`.",
        local: true,
      },
    },
    id: (i) => `${i.assetName}/${i.name}`,
    schema: MetadataCreate.extend({ asset_name: nameSchema(64) }),
    endpoints: {
      create: assets.metadataCreate,
      read: assets.metadataGet,
      update: assets.metadataUpdate,
      delete: assets.metadataDelete,
      params: childParams("asset_metadata_name"),
    },
    outputs: assetMetadataOutputs,
  }),
);
