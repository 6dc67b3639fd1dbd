/** AssetProperty and AssetMetadata: records that belong to one asset. */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { AssetPropertyCreate, MetadataCreate, assets } from "../../api/assets";
import { name as nameSchema } from "../../api/common";
import { declareKind, defineOutputs, echoes, type OutputValues, type DeclaredOutputs } from "../kind";
import { registerKind } from "../registry";
import { SvcResource } from "../shim";
import type { Resolved } from "../input-types";
import { proves, type Same } from "../wire-types";

type Value = string | number | boolean | string[] | number[] | boolean[];

/** The arguments of an {@link AssetProperty}. */
export interface AssetPropertyArgs {
  /** The asset the property belongs to: an asset name (lowercase letters, digits, '.', '_', '-'; 1–64 characters). Changing it replaces the property. */
  assetName: pulumi.Input<string>;
  /** The property's name: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the property. */
  name: pulumi.Input<string>;
  /**
   * The property's display title, 1–64 characters; default: none. Property names are
   * platform-wide: when the name exists already, its title stays as it is. Changes update in place.
   */
  title?: pulumi.Input<string>;
  /**
   * The value: a string, number, boolean or an array of one of these. The platform stores it as
   * text (arrays as JSON), which refresh compares with the text of the declared value. Changes update in place.
   */
  value: pulumi.Input<Value>;
  /** Take over a property that already exists with this name on the asset instead of failing. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}
/** The arguments of an {@link AssetMetadata}. */
export interface AssetMetadataArgs {
  /** The asset the metadata belongs to: an asset name (lowercase letters, digits, '.', '_', '-'; 1–64 characters). Changing it replaces the metadata. */
  assetName: pulumi.Input<string>;
  /** The metadata record's name: lowercase letters, digits, '.', '_' and '-', 1–64 characters. Changing it replaces the metadata. */
  name: pulumi.Input<string>;
  /** The metadata: a free-form JSON object, passed through untouched. Changes update in place. */
  payload: pulumi.Input<Record<string, unknown>>;
  /** Take over a metadata record that already exists with this name on the asset instead of failing. Provider-side only (never sent); default `false`. */
  adopt?: pulumi.Input<boolean>;
}

type PropInputs = Resolved<AssetPropertyArgs>;
type MetaInputs = Resolved<AssetMetadataArgs>;

/** The text the platform stores for a value (arrays as JSON). */
export const valueText = (v: Value): string => (Array.isArray(v) ? JSON.stringify(v) : String(v));
/** Whether the platform's text is the declared value's. */
const sameValueText = (declared: Value, stated: unknown): boolean => valueText(declared) === stated;

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
  storedValue: echoes(["value"], (r) => r.value),
  storedTitle: echoes(["title"], (r) => r.title),
  created: (r) => r.created,
  updated: (r) => r.updated,
});

/** An asset metadata record's computed outputs, read from the platform's record. */
const assetMetadataOutputs = defineOutputs(assets.metadataGet, {
  created: (r) => r.created,
  updated: (r) => r.updated,
});

const assetPropertyKind = registerKind(
  declareKind<PropInputs>()({
    name: "AssetProperty",
    platformTerm: "asset property",
    args: {
      assetName: { required: true, wire: "asset_name", replaces: true },
      name: { required: true, replaces: true },
      title: {},
      // The platform stores the value as text.
      value: { required: true, equal: sameValueText },
      adopt: { local: true },
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

const assetMetadataKind = registerKind(
  declareKind<MetaInputs>()({
    name: "AssetMetadata",
    platformTerm: "asset metadata",
    args: {
      assetName: { required: true, wire: "asset_name", replaces: true },
      name: { required: true, replaces: true },
      payload: { required: true, compare: "exact" },
      adopt: { local: true },
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

/**
 * A property of an asset (a named value such as a rated power). A new `assetName` or `name`
 * replaces it; the title and the value update in place. Destroying it deletes the property.
 */
export class AssetProperty extends SvcResource {
  /** The value as the platform stores it: text (arrays as JSON). */
  declare readonly storedValue: pulumi.Output<string>;
  /** The title as the platform holds it (it keeps the title of a property name that existed already). */
  declare readonly storedTitle: pulumi.Output<string>;
  /** When the property was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the property was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetPropertyArgs, opts?: pulumi.CustomResourceOptions) {
    super(assetPropertyKind, name, args, opts);
  }
}

proves<Same<OutputValues<typeof assetPropertyOutputs>, DeclaredOutputs<AssetProperty, keyof typeof assetPropertyOutputs>>>();

/**
 * A metadata record of an asset: a named free-form JSON payload. A new `assetName` or `name`
 * replaces it; the payload updates in place. Destroying it deletes the record.
 */
export class AssetMetadata extends SvcResource {
  /** When the metadata was created on the platform (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** When the metadata was last changed on the platform (RFC 3339). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: AssetMetadataArgs, opts?: pulumi.CustomResourceOptions) {
    super(assetMetadataKind, name, args, opts);
  }
}

proves<Same<OutputValues<typeof assetMetadataOutputs>, DeclaredOutputs<AssetMetadata, keyof typeof assetMetadataOutputs>>>();
