/** Workload: an app version deployed to a cluster, with its lifecycle (enabled, running, staged updates). */
import type * as pulumi from "@pulumi/pulumi";
import type { SvcClient } from "../../client";
import { deploymentRuntime } from "../../api/apps";
import { WorkloadCreate, workloads } from "../../api/workloads";
import type { z } from "zod";
import type { workloadState } from "../../api/workloads";
import { argsInBody, declareKind, defineOutputs, echoes, wireArgs, type ArgSpecs, type WireRecord, output } from "../kind";
import { registerKind } from "../registry";
import type { DeepInput, Resolved } from "../input-types";
/** A workload as the platform answers it (its read's record; lookups.ts proves it equal to the table's). */
import type { WorkloadRecord } from "../records";
import { wireOf, type BodyOf, type Same, proves } from "../wire-types";
import { camel, convertKeys, snake } from "../values";
import { RUNTIME_FREE, type DeploymentType, type WorkloadApiPermissions, type WorkloadRuntime, type WorkloadSystem } from "./contract-types";
import { SvcError } from "../../errors";

/** The types of a {@link Workload}'s args as programs write them (their docs are the specs' below). */
interface WorkloadArgTypes {
  name: pulumi.Input<string>;
  appName: pulumi.Input<string>;
  appVersion: pulumi.Input<string>;
  clusterName: pulumi.Input<string>;
  nodeName?: pulumi.Input<string>;
  title?: pulumi.Input<string>;
  runtime?: pulumi.Input<DeepInput<WorkloadRuntime>>;
  system?: pulumi.Input<WorkloadSystem>;
  apiPermissions?: pulumi.Input<WorkloadApiPermissions>;
  deploymentType?: pulumi.Input<DeploymentType>;
  enabled?: pulumi.Input<boolean>;
  running?: pulumi.Input<boolean>;
  adopt?: pulumi.Input<boolean>;
}

/** The workload's args as the provider receives them. */
type Inputs = Resolved<WorkloadArgTypes>;
// The args resolve to the documented contract types (contract-types.ts proves those are the contract's).
proves<Same<NonNullable<Inputs["runtime"]>, WorkloadRuntime>>();

/** How each arg maps to the wire. */
const workloadArgs = {
  name: {
    doc: "The workload's name, unique on the platform: {rule}. Changing it replaces the workload.",
    output: "The workload's name (its id on the platform).",
    required: true,
    replaces: true,
  },
  appName: {
    doc: "The app the workload runs: the name of an app created by an {@link AppVersion} ({rule}). Changing it replaces the workload.",
    output: "The app the workload runs.",
    required: true,
    replaces: true,
  },
  appVersion: {
    doc: "The version of the app to run: a semantic version such as `1.2.0` ({rule}) that exists for `appName`. Changes update in place (with a staged `deploymentType`, the new version is staged first).",
    output: "The declared app version (the staged one while a staged version waits).",
    required: true,
  },
  clusterName: {
    doc: "The cluster the workload runs on: a cluster name, {rule}. Changes update in place (the workload moves).",
    output: "The cluster the workload runs on.",
    required: true,
  },
  nodeName: { doc: "The node of the cluster to run on: a node name ({rule}); default: the platform picks one. Changes update in place." },
  title: { doc: "A display title, {rule}; default: the name. Changes update in place." },
  runtime: {
    doc: "The runtime settings: `resources` (one entry per asset: its resource KRN, parameters and datastreams), `configuration` (the app's configuration, passed through untouched) and `datastreams`. Keys are camelCase here, snake_case on the platform (except inside `configuration`, parameters and datastreams). Default: the app version's defaults. Changes update in place.",
    nested: true,
    freeForm: RUNTIME_FREE,
  },
  system: { doc: "System settings of the deployment (free-form JSON, passed through untouched); default: none. Changes update in place.", compare: "exact" },
  apiPermissions: {
    doc: "The platform API permissions granted to the workload (a JSON object or list, passed through untouched); default: none. Changes update in place.",
    compare: "exact",
  },
  deploymentType: {
    doc: "How an update is applied: `standard` (at once, the default), `staged+instant-apply` (staged, then applied by the platform as soon as the edge has downloaded it: `up` waits for that, up to svc:operationTimeoutSeconds, and fails naming the error when the download fails) or `staged-only` (staged until applied on the platform). While a staged version waits, what it changes counts as declared. Sent with each change, not read back. Changes update in place.",
    writeOnly: true,
  },
  enabled: {
    doc: "`false` creates a pending workload (not deployed); setting it to `true` enables it, in place. Default `true`. A pending workload cannot be made pending again: setting it to `false` on an enabled workload replaces it.",
  },
  running: { doc: "`false` stops the workload, `true` starts it (in place); default: left as the platform runs it (a new workload runs). Changes update in place." },
  adopt: {
    doc: "Take over a workload that already exists with this name instead of failing, and bring it to the declared arguments. Provider-side only (never sent); default `false`.",
    local: true,
  },
} as const satisfies ArgSpecs<Inputs>;

/** The args a patch carries (their wire names are the patch body's fields). */
const PATCHABLE = argsInBody(workloadArgs, workloads.patch);
/**
 * Refresh reads args from any record (also a snapshot's), not only a validated answer: there the
 * status and the staged version are read as these shapes, each field checked where it is used.
 */
type Status = { state: z.infer<typeof workloadState>; message: string; last_seen?: string | null };
const status = (r: WireRecord) => (r.status ?? {}) as Status;
/** A staged version: its app version, the update's keys it brings (wire names), whether it applies itself once downloaded. */
type Staged = { app_version?: string; payload?: WireRecord; instantly_apply?: boolean; status?: { state?: string; message?: string } };
const stagedOf = (r: WireRecord) => r.staged as Staged | null | undefined;
/** What the staged-version rules read of a record: a validated record is one as it is. */
type StagedView = { staged?: Staged | null; download_status?: unknown };

/**
 * The staged version that will still be applied: not one whose package failed to download (the
 * platform never applies that one; the workload keeps running what it ran).
 */
function pendingStaged(r: StagedView): Staged | undefined {
  const s = r.staged;
  return s && s.status?.state !== "failed" && r.download_status !== "failed" ? s : undefined;
}

/**
 * The args a pending staged version sets, as the program declared them: while it waits (its package
 * downloading, then applied by itself or by an apply) the workload runs its former settings, yet the
 * update is made. Runtime keys the update did not send keep the workload's own.
 */
function stagedArgs(r: WireRecord): Partial<Inputs> {
  const s = pendingStaged({ staged: stagedOf(r), download_status: r.download_status });
  if (!s) return {};
  const sent = s.payload ?? {};
  const out: Partial<Record<keyof Inputs, unknown>> = {};
  for (const arg of PATCHABLE) {
    const wire = snake(arg);
    if (!(wire in sent)) continue;
    out[arg] = arg === "runtime" ? convertKeys({ ...(r.runtime as WireRecord), ...(sent.runtime as WireRecord) }, camel, RUNTIME_FREE) : sent[wire];
  }
  if (s.app_version !== undefined) out.appVersion = s.app_version;
  return out as Partial<Inputs>;
}

const ROLLOUT_POLL_MS = 250;

/**
 * A `staged+instant-apply` update is applied by the platform once the edge has downloaded its
 * package. Waits for that (up to svc:operationTimeoutSeconds), so that `up` ends with the workload
 * running what the program declares, and fails naming the download error when the package did not
 * download (the workload then still runs its former version, and the next `up` tries again).
 */
async function waitForRollout(client: SvcClient, name: string, record: WorkloadRecord, timeoutMs: number): Promise<WorkloadRecord> {
  const deadline = Date.now() + timeoutMs;
  for (let r = record; ; r = await get(client, name)) {
    const s = r.staged;
    if (!s?.instantly_apply) return r;
    if (!pendingStaged(r)) {
      throw new SvcError(
        "SVC_STAGED_VERSION_NOT_APPLIED",
        `workload '${name}': the staged version ${s.app_version} was not applied: its package did not download (${r.download_error ?? s.status.message}); it still runs ${r.app_version}. The next up stages it again`,
      );
    }
    if (Date.now() + ROLLOUT_POLL_MS > deadline) {
      throw new SvcError(
        "SVC_STAGED_VERSION_NOT_APPLIED",
        `workload '${name}': the staged version ${s.app_version} is not applied after ${Math.round(timeoutMs / 1000)} s (download_status ${r.download_status}); it still runs ${r.app_version}. Raise svc:operationTimeoutSeconds, or use deploymentType staged-only to apply it yourself`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, ROLLOUT_POLL_MS));
  }
}
/**
 * Whether the workload neither runs nor is stopped yet: pending (created with enabled: false), or
 * waiting for its first staged version to be applied. The platform refuses to start or stop it, so
 * `running` waits until it is enabled or applied.
 */
const notDeployedYet = (state: string | undefined) => state === "pending_deploy" || state === "staged";

/** A workload's computed outputs, read from the platform's record. */
const workloadOutputs = defineOutputs(workloads.get, {
  state: output("The workload's lifecycle state, e.g. `pending_deploy`, `deploying`, `running`, `stopped`, `failed`, `staged`, `unreachable`.", (r) => r.status.state),
  statusMessage: output("The platform's message about the current state (empty when there is nothing to report).", (r) => r.status.message),
  lastSeen: output("When the node last reported the workload (RFC 3339); unset until it has.", (r) => r.status.last_seen ?? undefined),
  downloadStatus: output("Progress of the app package's download to the node: `pending`, `scheduled`, `processing`, `downloading`, `ready` or `failed`.", (r) => r.download_status),
  staged: output("Whether a staged version waits to be applied (staged deployment types).", (r) => r.staged !== null),
  stagedAppVersion: output(
    "The app version that is staged, when one is.",
    echoes(["appVersion"], (r) => r.staged?.app_version),
  ),
  appType: output("The app's type: `app`, `importer`, `exporter` or `docker`.", (r) => r.app_type),
  createdAt: output("When the workload was created on the platform (RFC 3339).", (r) => r.created_at),
  createdBy: output("Who created the workload.", (r) => r.created_by),
  updatedAt: output("When the workload was last changed on the platform (RFC 3339).", (r) => r.updated_at),
  updatedBy: output("Who changed the workload last.", (r) => r.updated_by),
});

const runtimeWire = (i: Inputs) => i.runtime && wireOf(deploymentRuntime, i.runtime, RUNTIME_FREE);

function createBody(i: Inputs): BodyOf<typeof workloads.create> {
  return {
    name: i.name,
    title: i.title,
    app_name: i.appName,
    app_version: i.appVersion,
    cluster_name: i.clusterName,
    node_name: i.nodeName,
    runtime: runtimeWire(i),
    system: i.system,
    api_permissions: i.apiPermissions,
    deployment_type: i.deploymentType,
    ...(i.enabled === false ? { enabled: false } : {}),
  };
}

const get = async (client: SvcClient, name: string) => await client.call(workloads.get, { params: { workload_name: name } });

/** Brings enabled and running to the declared values. */
async function applyRunState(client: SvcClient, news: Inputs, record: WorkloadRecord): Promise<WorkloadRecord> {
  const name = news.name;
  let changed = false;
  const state = record.status.state;
  // Only a pending workload (created with enabled: false) is enabled; a stopped one is not enabled
  // either on the platform, but it is started, below, when it should run.
  if (news.enabled !== false && state === "pending_deploy") {
    // An enable applied whose answer was lost is confirmed by the client (the row's confirm reads the
    // workload), not repeated: the platform refuses to enable a workload that is no longer pending.
    await client.call(workloads.enable, { body: { workload_names: [name] } });
    changed = true;
  }
  // One that waits for its first staged version to be applied cannot be stopped yet (see notDeployedYet).
  if (news.running === false && state !== "stopped" && state !== "stopping" && state !== "staged" && news.enabled !== false) {
    await client.call(workloads.stop, { body: { workload_names: [name] } });
    changed = true;
  } else if (news.running === true && (state === "stopped" || state === "stopping")) {
    await client.call(workloads.start, { body: { workload_names: [name] } });
    changed = true;
  }
  return changed ? get(client, name) : record;
}

export const workloadKind = registerKind(
  declareKind<Inputs>()({
    name: "Workload",
    platformTerm: "workload",
    doc: "A workload: an app version deployed to a cluster (and optionally a node). `appVersion`, `clusterName`, `nodeName`, `title`, `runtime`, `system`, `apiPermissions` change in place (patch semantics); a new `name` or `appName` replaces the workload. `enabled: false` creates a pending workload, and setting it to true enables it; `running` maps to start and stop. With a staged `deploymentType` an update stages the new version: the staged version counts as the declared one until it is applied on the platform. Destroying it deletes the workload.",
    argsDoc: "The arguments of a {@link Workload}.",
    args: workloadArgs,
    id: (i) => i.name,
    schema: WorkloadCreate,
    // A pending workload cannot be made pending again: disabling one that runs replaces it.
    replaceWhen: (olds, news) => olds.enabled !== false && news.enabled === false,
    async create({ client }, i) {
      const record = await client.call(workloads.create, { query: { stopped: i.running === false }, body: createBody(i) });
      return applyRunState(client, i, record);
    },
    endpoints: { read: workloads.get },
    async update({ client, settings }, id, news, olds, changed) {
      // Each sent key replaces its whole value on the platform: only the changed ones are sent (all on adoption).
      const keys = olds === undefined ? PATCHABLE : changed.filter((c) => PATCHABLE.includes(c));
      const body = wireArgs(workloadArgs, news, workloads.patch, { only: keys });
      const record = keys.length ? await client.call(workloads.patch, { params: { workload_name: id }, body }) : await get(client, id);
      return applyRunState(client, news, await waitForRollout(client, id, record, settings.operationTimeoutSeconds * 1000));
    },
    async delete({ client }, id) {
      await client.call(workloads.delete, { body: { workload_names: [id] } });
    },
    argsFromRecord(r, olds) {
      const state = status(r).state;
      const out: Partial<Inputs> = { appVersion: typeof r.app_version === "string" ? r.app_version : undefined, ...stagedArgs(r) };
      if (olds.running !== undefined) out.running = notDeployedYet(state) ? olds.running : !(state === "stopped" || state === "stopping");
      // The platform's own `enabled` is false while the workload is stopped; the arg says whether it is
      // deployed at all (false: created pending), so it reads back from the state.
      if (olds.enabled !== undefined) out.enabled = state !== "pending_deploy";
      return out;
    },
    outputs: workloadOutputs,
  }),
);
