/** AppVersion: one version of an app; the first version creates the app. */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { AppVersionCreate, AppVersionPatch, appImageInput, apps } from "../../api/apps";
import { auditAt, renderPath } from "../../api/common";
import { declareKind, defineOutputs, echoes, type CheckFailure, type WireRecord, output } from "../kind";
import { registerKind } from "../registry";
import { UNUSABLE_MANIFEST, readManifestFile, type Json } from "./manifest-file";
import { containsUnknown, deepEqual } from "../../pulumi/values";
import { camel, convertKeys, describeIssue, reconcile, snake } from "../values";
import type { DeepInput, Resolved } from "../input-types";
import { conformed, type Same, proves } from "../wire-types";
import { DEFAULTS_FREE, MANIFEST_ARGS_ONLY, SCHEMAS_FREE, type AppManifest, type AppVersionDefaults, type AppVersionSchemas } from "./contract-types";

/** The types of an {@link AppVersion}'s args as programs write them (their docs are the specs' below). */
interface AppVersionArgTypes {
  appName: pulumi.Input<string>;
  version: pulumi.Input<string>;
  type: pulumi.Input<"app" | "importer" | "exporter" | "docker">;
  title?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  image?: pulumi.Input<string>;
  defaults?: pulumi.Input<DeepInput<AppVersionDefaults>>;
  schemas?: pulumi.Input<DeepInput<AppVersionSchemas>>;
  manifest?: pulumi.Input<DeepInput<AppManifest> | string>;
  adopt?: pulumi.Input<boolean>;
}

const MANIFEST_OWN = ["name", "version", "type", "title", "description", "image", "defaults", "schemas"];
/** The manifest's fields an explicit arg of the same name overrides. */
const OVERRIDABLE = ["title", "description", "image", "defaults", "schemas"] as const;
/** The fields of a version the platform can patch; a change of any other replaces the version. */
const PATCHABLE = ["image", "defaults", "schemas"] as const;

/**
 * The app version's args as the provider receives them. The manifest arrives as a mapping (a file's is
 * read by the resource class), whose content check validates with the rest of the body.
 */
type Inputs = Omit<Resolved<AppVersionArgTypes>, "manifest"> & { manifest?: Json };
// The args resolve to the documented contract types (contract-types.ts proves those are the contract's).
proves<Same<NonNullable<Inputs["defaults"]>, AppVersionDefaults>>();
proves<Same<NonNullable<Inputs["schemas"]>, AppVersionSchemas>>();
proves<Same<Exclude<Resolved<AppVersionArgTypes["manifest"]>, string | undefined>, AppManifest>>();

/** The create body before validation: the manifest, overridden by the explicit args. */
function createBody(i: Inputs): Json {
  const manifest = i.manifest ?? {};
  return scrubUndefined({
    ...manifest,
    name: i.appName,
    version: i.version,
    type: i.type,
    title: i.title ?? manifest.title ?? i.appName,
    description: i.description ?? manifest.description ?? "",
    image: imageBody(i.image ?? manifest.image),
    defaults: i.defaults !== undefined ? convertKeys(i.defaults, snake, DEFAULTS_FREE) : manifest.defaults,
    schemas: i.schemas !== undefined ? convertKeys(i.schemas, snake, SCHEMAS_FREE) : manifest.schemas,
  });
}

/**
 * The image as the platform's current form carries it, `{ mode, uri }` (the vendor's current client
 * sends and reads it so); an image reference (the arg, or a manifest's string) is `{ mode: "manual", uri }`.
 */
function imageBody(image: unknown): unknown {
  return typeof image === "string" ? { mode: "manual", uri: image } : image;
}

/**
 * The record's image in the form the program declared it: the reference where it declared a string
 * (the arg, or a manifest's string), the record's `{ mode, uri }` where it declared that. A record of
 * a platform that still answers the earlier form, a string, reads the same.
 */
function imageAsDeclared(stated: unknown, declared: unknown): unknown {
  if (typeof declared === "object" && declared !== null) return typeof stated === "string" ? imageBody(stated) : stated;
  if (typeof stated !== "object" || stated === null) return stated;
  const s = stated as { mode?: unknown; uri?: unknown };
  return s.mode === "manual" && typeof s.uri === "string" ? s.uri : stated;
}

function scrubUndefined(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** The create body without the fields a patch changes: what the version keeps for good. */
const fixedPart = (body: Json): Json => Object.fromEntries(Object.entries(body).filter(([k]) => !(PATCHABLE as readonly string[]).includes(k)));

/**
 * The manifest as the platform's record states it. The record holds the manifest with the explicit
 * args applied over it and the platform's defaults filled in: a field an arg overrides is that arg's
 * to read, so the declared value stays; the other declared fields keep their declared form where the
 * record states them, and show what changed where it does not.
 */
function manifestFromRecord(declared: Json, record: WireRecord, olds: Partial<Inputs>): Json {
  const overridden = (k: string) => (OVERRIDABLE as readonly string[]).includes(k) && olds[k as (typeof OVERRIDABLE)[number]] !== undefined;
  const own = Object.fromEntries(Object.entries(declared).filter(([k]) => !overridden(k)));
  const stated = reconcile(own, record) as Json;
  return stated === own ? declared : { ...stated, ...Object.fromEntries(Object.entries(declared).filter(([k]) => overridden(k))) };
}

/** A record's fields that are no manifest content: the platform's stamps of who changed it when. */
const STAMPS = Object.keys(auditAt);

/**
 * The manifest an import declares: the record's fields that no arg takes (parameters, io, flags, ...,
 * with the defaults the platform filled in), so that a replacement of the imported version makes the
 * same version again; none when the record holds nothing beyond the args.
 */
function manifestOfRecord(record: WireRecord): Json | undefined {
  const rest = Object.entries(record).filter(([k, v]) => !MANIFEST_OWN.includes(k) && !STAMPS.includes(k) && v !== undefined && v !== null);
  return rest.length > 0 ? Object.fromEntries(rest) : undefined;
}

const params = (id: string) => {
  const at = id.lastIndexOf("@");
  return { app_name: id.slice(0, at), app_version: id.slice(at + 1) };
};

/** An app version's computed outputs, read from the platform's record. */
const appVersionOutputs = defineOutputs(apps.versionGet, {
  createdAt: output("When the version was created (RFC 3339).", (r) => r.created_at),
  createdBy: output("Who created the version.", (r) => r.created_by),
  updatedAt: output("When the version was last changed (RFC 3339).", (r) => r.updated_at),
  updatedBy: output("Who changed the version last.", (r) => r.updated_by),
  // The manifest declares the parameters and the flags.
  parameterNames: output(
    "The names of the parameters the version declares (its manifest's `parameters`), in order.",
    echoes(["manifest"], (r) => (r.parameters ?? []).map((p) => p.name)),
  ),
  flags: output(
    "The version's flags as the platform holds them (snake_case, the platform's defaults filled in).",
    echoes(["manifest"], (r): { [x: string]: unknown } => r.flags),
  ),
});

export const appVersionKind = registerKind(
  declareKind<Inputs>()({
    name: "AppVersion",
    platformTerm: "app version",
    doc: "One version of an app, with the id `<app>@<version>`; the first version creates the app. `image`, `defaults` and `schemas` change in place (the platform's patchable keys, patch semantics), whether an arg or the manifest sets them; any other change replaces the version, because the platform cannot patch the rest of a manifest. Destroying it deletes the version.",
    argsDoc:
      "The arguments of an {@link AppVersion}. `image`, `defaults` and `schemas` change in place (as args or in the manifest); a change of anything else replaces the version.",
    args: {
      appName: {
        rule: AppVersionCreate.shape.name,
        doc: "The app's name: {rule}; the first version creates the app. Changing it replaces the version.",
        output: "The app's name.",
        required: true,
        wire: "name",
        replaces: true,
      },
      version: {
        rule: AppVersionCreate.shape.version,
        doc: "The version, a semantic version such as `1.2.0` ({rule}). Changing it replaces the version.",
        output: "The version.",
        required: true,
        replaces: true,
      },
      type: {
        doc: "The app's type: `app`, `importer`, `exporter` or `docker`. Changing it replaces the version.",
        output: { doc: "The app's type.", type: "string" },
        required: true,
        replaces: true,
      },
      title: {
        rule: AppVersionCreate.shape.title,
        doc: "The display title, {rule}; default: the manifest's, else the app name. Changing it replaces the version.",
        replaces: true,
      },
      description: {
        rule: AppVersionCreate.shape.description,
        doc: "The description, {rule}; default: the manifest's, else empty. Changing it replaces the version.",
        replaces: true,
      },
      image: { rule: appImageInput.options[0], doc: "The container image, {rule}; default: the manifest's, else none. Changes update in place." },
      defaults: {
        doc: "The deployment defaults: `deployment`, `app` (its `configuration` passes through untouched), `system` and `apiPermissions` (untouched); camelCase here, snake_case on the platform. Default: the manifest's, else none. Changes update in place.",
        nested: true,
        freeForm: DEFAULTS_FREE,
        schema: AppVersionCreate.shape.defaults,
      },
      schemas: {
        doc: "The schemas: `parameters` and `configuration` (JSON Schemas, untouched) and `ioConfiguration`. Default: the manifest's, else none. Changes update in place.",
        nested: true,
        freeForm: SCHEMAS_FREE,
        schema: AppVersionCreate.shape.schemas,
      },
      // A manifest change replaces the version unless it only changes what a patch can (see replaceWhen).
      // Its fields are the create body's (check refuses name, version and type there, which args set),
      // and the mark of a file that could not be used, which check reports.
      manifest: {
        doc: "The rest of the app manifest in the platform's shape (snake_case: io, parameters, flags, ...): an object, or the path of a YAML file read when the program runs. A relative path is relative to the program's working directory (`process.cwd()` of the program: with the Pulumi CLI, the project directory that holds Pulumi.yaml, or `main` when that names a directory). A file that cannot be read or is not a YAML mapping fails the resource's check, naming the path and that directory. Explicit args win over the manifest; `name`, `version` and `type` must be set with the args. Default: none. A change of its `image`, `defaults` or `schemas` (where no arg overrides them) updates in place; a change of anything else in it replaces the version.",
        wire: "__manifest",
        schema: AppVersionCreate.extend({ [UNUSABLE_MANIFEST]: z.string().optional() }),
      },
      adopt: {
        doc: "Take over a version that already exists instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`.",
        local: true,
      },
    },
    id: (i) => `${i.appName}@${i.version}`,
    // The manifest and the args make one body: a change the platform cannot patch replaces the version.
    replaceWhen: (olds, news) => containsUnknown(news.manifest) || !deepEqual(fixedPart(createBody(olds as Inputs)), fixedPart(createBody(news as Inputs))),
    check(i): CheckFailure[] {
      const unreadable = manifestProblem(i.manifest);
      if (unreadable) return [{ property: "manifest", reason: unreadable }];
      const manifest = i.manifest ?? {};
      const clash = MANIFEST_ARGS_ONLY.filter((k) => k in manifest);
      const failures: CheckFailure[] = clash.map((k) => ({ property: "manifest", reason: `${k}: set it with the ${camel(k === "name" ? "app_name" : k)} arg instead` }));
      const parsed = AppVersionCreate.safeParse(createBody(i), { reportInput: true });
      if (!parsed.success) {
        // Unknown fields are told by the lifecycle's check for every kind, with the nearest known one.
        for (const issue of parsed.error.issues.filter((i) => i.code !== "unrecognized_keys").slice(0, 20)) {
          const head = String(issue.path[0] ?? "");
          const property = head === "name" ? "appName" : head === "version" || head === "type" || MANIFEST_OWN.includes(head) ? camel(head) : "manifest";
          // Inside an arg the path below it; inside the manifest the manifest's own path.
          const where = property === "manifest" ? renderPath("", issue.path).slice(1) : renderPath("", issue.path.slice(1)).replace(/^\./, "");
          failures.push({ property, reason: `${where ? `${where}: ` : ""}${describeIssue(issue, property === "manifest" ? (k) => k : camel)}` });
        }
      }
      return failures;
    },
    create: async ({ client }, i) => await client.call(apps.create, { body: conformed(AppVersionCreate, createBody(i)) }),
    endpoints: { read: apps.versionGet, delete: apps.versionDelete, params },
    async update({ client }, id, news, olds) {
      // Adoption patches every patchable key; an update those whose value changed, whether an arg or
      // the manifest set it. A patch cannot remove part of `defaults` or `schemas` (keys it is not sent
      // stay), so a change to either goes through update, which replaces both whole.
      const body = createBody(news);
      const before = olds && createBody(olds);
      const changed = PATCHABLE.filter((k) => before === undefined || !deepEqual(before[k], body[k]));
      if (changed.length === 0) return await client.call(apps.versionGet, { params: params(id) });
      const whole = before !== undefined && changed.some((k) => k !== "image");
      const sent: Json = whole ? { defaults: body.defaults, schemas: body.schemas } : {};
      for (const k of changed) if (!whole || k === "image") sent[k] = body[k] ?? (k === "image" && before !== undefined ? "" : undefined);
      const request = { params: params(id), body: conformed(AppVersionPatch, scrubUndefined(sent)) };
      return whole ? await client.call(apps.versionUpdate, request) : await client.call(apps.versionPatch, request);
    },
    argsFromRecord: (r, olds) => {
      // The image arg is a reference; an import (no olds) reads it so too.
      const image = imageAsDeclared(r.image, olds.image ?? "") as string | undefined;
      if (Object.keys(olds).length === 0) return { image, manifest: manifestOfRecord(r) };
      if (olds.manifest === undefined) return { image };
      const manifestImage = imageAsDeclared(r.image, olds.manifest.image ?? "");
      return { image, manifest: manifestFromRecord(olds.manifest, { ...r, image: manifestImage }, olds) };
    },
    outputs: appVersionOutputs,
    // A file that cannot be used becomes a value check refuses: the resource fails, the program does not crash.
    programArgs: (args: { manifest?: pulumi.Input<unknown> }) => ({
      ...args,
      manifest: args.manifest === undefined ? undefined : pulumi.output(args.manifest).apply(manifestValue),
    }),
  }),
);

/** A manifest as the program gave it (a mapping, or the path of its YAML file) as the class registers it. */
function manifestValue(manifest: unknown): unknown {
  if (typeof manifest !== "string") return manifest;
  const read = readManifestFile(manifest);
  return "problem" in read ? { [UNUSABLE_MANIFEST]: read.problem } : read.manifest;
}

/** What check says about a manifest file that could not be used, when that is what `manifest` holds. */
function manifestProblem(manifest: unknown): string | undefined {
  const m = manifest as Record<string, unknown> | undefined;
  const problem = m && typeof m === "object" && !Array.isArray(m) ? m[UNUSABLE_MANIFEST] : undefined;
  return typeof problem === "string" ? problem : undefined;
}
