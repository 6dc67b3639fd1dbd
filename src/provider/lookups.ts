/**
 * Lookups for programs: typed records read through the same client and configuration as the
 * provider (stack config `svc:*`, else SVC_* variables). They run in the program's process, the
 * resources in the provider host's: with `svc:emulator` both use the one embedded emulator of the
 * state file, whichever process serves it (see embedded.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { apps } from "../api/apps";
import { assets } from "../api/assets";
import { clusters } from "../api/clusters";
import { datalabels } from "../api/datalabels";
import { datatypes } from "../api/datatypes";
import { workloads } from "../api/workloads";
import type { CallOutput, ListItem, SvcClient } from "../client";
import { SvcApiError } from "../client/errors";
import { SvcError } from "../errors";
import type { AppRecord, AppVersionRecord, AssetClassRecord, AssetRecord, AssetTypeRecord, ClusterRecord, DataTypeRecord, LabelRecord, WorkloadRecord } from "./records";
import { proves, type Same } from "./wire-types";

export type { AppRecord, AppVersionRecord, AssetClassRecord, AssetRecord, AssetTypeRecord, ClusterRecord, DataTypeRecord, LabelRecord, WorkloadRecord } from "./records";

// The records are plain types (records.ts), so that the main entry's declarations do not reach zod or
// the table; these prove them the table's (scripts/record-types.js writes them again when the table changes).
proves<Same<AppRecord, CallOutput<typeof apps.get>>>();
proves<Same<AppVersionRecord, CallOutput<typeof apps.versionGet>>>();
proves<Same<WorkloadRecord, CallOutput<typeof workloads.get>>>();
proves<Same<AssetRecord, CallOutput<typeof assets.get>>>();
proves<Same<AssetRecord, ListItem<typeof assets.list>>>();
proves<Same<ClusterRecord, CallOutput<typeof clusters.get>>>();
proves<Same<AssetClassRecord, CallOutput<typeof assets.classGet>>>();
proves<Same<AssetTypeRecord, CallOutput<typeof assets.typeGet>>>();
proves<Same<LabelRecord, CallOutput<typeof datalabels.labelGet>>>();
proves<Same<DataTypeRecord, CallOutput<typeof datatypes.get>>>();
proves<Same<DataTypeRecord, CallOutput<typeof datatypes.latestGet>>>();

let configuredWith: string | undefined;

/**
 * The client of the program's lookups: the provider runtime's, configured from the stack config once
 * per process, and again when the configuration changed (a test running several stacks in one process).
 */
async function client(): Promise<SvcClient> {
  const { configure, shutdown, client: runtimeClient } = await import("./runtime");
  const all = pulumi.runtime.allConfig();
  const fingerprint = JSON.stringify(
    Object.entries(all)
      .filter(([k]) => k.startsWith("svc:"))
      .sort(),
  );
  const changed = configuredWith !== undefined && configuredWith !== fingerprint;
  configuredWith = fingerprint;
  if (changed) await shutdown();
  const cfg = new pulumi.Config("svc");
  await configure({
    config: { get: (key: string) => cfg.get(key.replace(/^svc:/, "")), keys: () => Object.keys(all) },
    warn: (message) => void pulumi.log.warn(message),
  });
  // A configuration or credentials error is reported by the call.
  return runtimeClient();
}

/**
 * The error of a lookup whose object the platform does not have (tell it with {@link isLookupNotFound}).
 * Its message names the lookup, the object and what to do; `cause` is the platform's answer (the
 * client's 404).
 */
export interface LookupNotFoundError {
  /** `"LookupNotFoundError"`. */
  name: "LookupNotFoundError";
  /** Its code in the error catalog (docs/errors.md), which also ends the message. */
  readonly code: "SVC_LOOKUP_NOT_FOUND";
  /** What went wrong and what to do: the lookup, the missing object, where to declare it, and the platform's answer. */
  message: string;
  /** The message with the stack of the lookup's call. */
  stack?: string;
  /** The platform's answer: the client's error for the 404. */
  cause?: unknown;
  /** The lookup and its arguments, as the program called it: `getAssetType("centrifugal-pump")`. */
  readonly lookup: string;
  /** The object it looked for, in the platform's words: `asset type "centrifugal-pump"`. */
  readonly object: string;
}

/** Whether `error` is a lookup's {@link LookupNotFoundError}: the platform has no such object (any other failure is the client's own error). */
export function isLookupNotFound(error: unknown): error is LookupNotFoundError {
  return error instanceof NotFound;
}

// Not a public class: the main entry's classes are the resource kinds.
class NotFound extends SvcError implements LookupNotFoundError {
  declare name: "LookupNotFoundError";
  declare readonly code: "SVC_LOOKUP_NOT_FOUND";
  constructor(
    /** The lookup and its arguments, as the program called it: `getAssetType("centrifugal-pump")`. */
    readonly lookup: string,
    /** The object it looked for, in the platform's words: `asset type "centrifugal-pump"`. */
    readonly object: string,
    answer: Error,
    found?: string,
  ) {
    super(
      "SVC_LOOKUP_NOT_FOUND",
      `${lookup}: the platform has no ${object}${found ? ` (${found})` : ""}. A lookup only reads what another stack (or someone else) manages; ` +
        `it never creates it: declare the ${object} in the stack that owns the objects your stacks share and run that stack's \`pulumi up\` first, ` +
        `or correct the name. The platform answered: ${answer.message}`,
      { cause: answer },
    );
    this.name = "LookupNotFoundError";
  }
}

const isNotFound = (e: unknown): e is SvcApiError => e instanceof SvcApiError && e.status === 404;

const quoted = (...args: string[]) => args.map((a) => JSON.stringify(a)).join(", ");

/** The record `read` gets; a 404 becomes a {@link LookupNotFoundError} naming the object (with what `found` adds). */
async function lookup<T>(lookupName: string, args: string[], object: string, read: (c: SvcClient) => Promise<T>, found?: (c: SvcClient) => Promise<string>): Promise<T> {
  const c = await client();
  try {
    return await read(c);
  } catch (e) {
    if (!isNotFound(e)) throw e;
    throw new NotFound(`${lookupName}(${quoted(...args)})`, object, e, found && (await found(c).catch(() => undefined)));
  }
}

/**
 * The app as the platform holds it now: title, description, category, type, latest version,
 * status and audit fields. Fails with a {@link LookupNotFoundError} when no app has this name.
 */
export async function getApp(name: string): Promise<AppRecord> {
  return lookup("getApp", [name], `app "${name}"`, (c) => c.call(apps.get, { params: { app_name: name } }));
}

/**
 * One version of an app (`version` a semantic version such as `1.2.0`) with its full manifest as the
 * platform holds it. Fails with a {@link LookupNotFoundError} when it does not exist, naming the
 * versions the app has (or that there is no such app).
 */
export async function getAppVersion(appName: string, version: string): Promise<AppVersionRecord> {
  return lookup(
    "getAppVersion",
    [appName, version],
    `version "${version}" of app "${appName}"`,
    (c) => c.call(apps.versionGet, { params: { app_name: appName, app_version: version } }),
    async (c) => {
      try {
        const app = await c.call(apps.get, { params: { app_name: appName } });
        return app.versions.length ? `the app has ${app.versions.map((v) => v.version).join(", ")}` : "the app has no versions";
      } catch (e) {
        if (isNotFound(e)) return `there is no app "${appName}" either`;
        throw e;
      }
    },
  );
}

/** The workload as the platform holds it now: its app version, cluster, runtime, lifecycle status and staged version. Fails with a {@link LookupNotFoundError} when it does not exist. */
export async function getWorkload(name: string): Promise<WorkloadRecord> {
  return lookup("getWorkload", [name], `workload "${name}"`, (c) => c.call(workloads.get, { params: { workload_name: name } }));
}

/** The asset as the platform holds it now: type, parent, path, location, status, properties and metadata. Fails with a {@link LookupNotFoundError} when it does not exist. */
export async function getAsset(name: string): Promise<AssetRecord> {
  return lookup("getAsset", [name], `asset "${name}"`, (c) => c.call(assets.get, { params: { asset_name: name } }));
}

/** The cluster as the platform holds it now: type, status, settings, networks and versions. Fails with a {@link LookupNotFoundError} when it does not exist. */
export async function getCluster(name: string): Promise<ClusterRecord> {
  return lookup("getCluster", [name], `cluster "${name}"`, (c) => c.call(clusters.get, { params: { cluster_name: name } }));
}

/** The asset class as the platform holds it now: its title and audit times. Fails with a {@link LookupNotFoundError} when it does not exist. */
export async function getAssetClass(name: string): Promise<AssetClassRecord> {
  return lookup("getAssetClass", [name], `asset class "${name}"`, (c) => c.call(assets.classGet, { params: { asset_class_name: name } }));
}

/** The asset type as the platform holds it now: its title, its class (`asset_class_name`, or null) and audit times. Fails with a {@link LookupNotFoundError} when it does not exist. */
export async function getAssetType(name: string): Promise<AssetTypeRecord> {
  return lookup("getAssetType", [name], `asset type "${name}"`, (c) => c.call(assets.typeGet, { params: { asset_type_name: name } }));
}

/** The label (the name data labels carry) as the platform holds it now: its title and audit times. Fails with a {@link LookupNotFoundError} when it does not exist. */
export async function getLabel(name: string): Promise<LabelRecord> {
  return lookup("getLabel", [name], `label "${name}"`, (c) => c.call(datalabels.labelGet, { params: { label_name: name } }));
}

/**
 * One version of a data type (`name` such as `plant.pump_reading`; `version` a semantic version,
 * default: the latest by semver) with its definition and JSON Schema as the platform holds it. Fails
 * with a {@link LookupNotFoundError} when it does not exist.
 */
export async function getDataType(name: string, version?: string): Promise<DataTypeRecord> {
  if (version === undefined) return lookup("getDataType", [name], `data type "${name}"`, (c) => c.call(datatypes.latestGet, { params: { data_type_name: name } }));
  return lookup("getDataType", [name, version], `version "${version}" of data type "${name}"`, (c) =>
    c.call(datatypes.get, { params: { data_type_name: name, data_type_version: version } }),
  );
}

/** Which assets {@link listAssets} returns: every given criterion must match; none given lists every asset. */
export interface AssetFilter {
  /** Only assets with one of these names. */
  names?: string[];
  /** Only assets of one of these asset types. */
  assetTypeNames?: string[];
  /** Only assets whose name or title contains one of these texts. */
  search?: string[];
  /** Only assets in one of these connection states. */
  statusStates?: Array<"online" | "offline" | "partially_online" | "unknown">;
}

/** Every asset matching the filter, read page by page. */
export async function listAssets(filter: AssetFilter = {}): Promise<AssetRecord[]> {
  const c = await client();
  const out: AssetRecord[] = [];
  const query = { names: filter.names, asset_type_name: filter.assetTypeNames, search: filter.search, status_state: filter.statusStates };
  for await (const a of c.paginate(assets.list, { query })) out.push(a);
  return out;
}
