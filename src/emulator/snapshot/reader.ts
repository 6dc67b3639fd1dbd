/**
 * The fixture writer: reads an inventory from a source (a platform through the typed client, for
 * `svc-emulator snapshot` and parity in src/plant; the emulator itself, for GET /emulator/snapshot)
 * and writes it as a fixture that `svc-emulator serve --seed` loads unchanged (the sections of
 * ../fixtures.ts, each entry the body of the operation the loader replays): the inverse of the
 * fixture loader, which is why it lives beside it.
 *
 * How it reads: every list page by page (through the client: `client.paginate`), and one get per
 * record where the list item lacks fields a create needs (clusters, apps and their versions,
 * workloads, bridges, and the per-record metadata lists). Entries are written as they are read; what
 * it keeps beside the entry at hand is small and named in place (the names of bridge workloads, one
 * app version's parameter values, the pending schedules to sort them).
 *
 * What it never writes: secrets (see secrets.ts), ids and times the platform assigns, and state that
 * only running edges produce (statuses, download progress, metrics). A record that a fixture cannot
 * hold, or holds only in part, is reported by name through `onProgress`, in the result and in the
 * summary at the end of the file; nothing is dropped without a word.
 */
import semver from "semver";
import { z } from "zod";
import { AcpRegistration } from "../../api/acps";
import { areas } from "../../api/endpoints";
import type { AnyEndpoint } from "../../api/endpoint";
import { issuesToMessages } from "../validate";
import { SecretGuard } from "./secrets";
import type { PlantSource } from "./source";
import { FixtureWriter, fileSink, type TextSink } from "./writer";

// Platform records are walked as JSON; each section is checked against the endpoint's schema before it is written.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Rec = Record<string, any>;

/** Sections in the order the snapshot writes them (the loader loads in its own order). */
export const SNAPSHOT_SECTIONS = [
  "asset_classes",
  "asset_types",
  "assets",
  "clusters",
  "acps",
  "labels",
  "data_labels",
  "data_types",
  "apps",
  "parameter_values",
  "schedules",
  "bridges",
  "workloads",
  "app_resources",
  "instance_settings",
] as const;
export type SnapshotSection = (typeof SNAPSHOT_SECTIONS)[number];

/** `--only` areas and the sections each one covers; a single section name selects that section. */
export const SNAPSHOT_AREAS: Record<string, readonly SnapshotSection[]> = {
  assets: ["asset_classes", "asset_types", "assets"],
  clusters: ["clusters", "acps"],
  labels: ["labels", "data_labels"],
  data_types: ["data_types"],
  apps: ["apps", "parameter_values", "schedules", "app_resources"],
  workloads: ["workloads"],
  bridges: ["bridges"],
  instance_settings: ["instance_settings"],
};

export interface SnapshotOptions {
  /** Where the fixture goes: a file path (written whole or not at all) or a text sink. */
  out: string | TextSink;
  /** Areas or sections to read (see SNAPSHOT_AREAS); default all. */
  only?: string[];
  /** Only these clusters, and the ACPs, workloads and bridges on them. */
  clusters?: string[];
  /**
   * Only the assets at this path (the `/`-joined names from the root) and below, and the parameter
   * values, schedules and app bindings of those assets. The selection's top asset loses its parent.
   */
  assetPath?: string;
  /** Secret values that must not appear in the file (the credentials the caller logged in with). */
  knownSecrets?: Array<string | undefined>;
  /** Page size of the lists (default 1000). */
  pageSize?: number;
}

/** A record the fixture cannot hold (`left_out`) or holds only in part (`incomplete`). */
export interface SnapshotProblem {
  kind: "left_out" | "incomplete";
  section: string;
  /** The record: its name, or what identifies it (`oee-monitor 1.0.0`, a schedule's id). */
  name: string;
  reason: string;
}

export type SnapshotEvent = { type: "reading"; section: string; count: number } | { type: "done"; section: string; count: number } | ({ type: "problem" } & SnapshotProblem);

export interface SnapshotResult {
  /** Entries written per section (sections read but empty count 0). */
  counts: Record<string, number>;
  problems: SnapshotProblem[];
}

/** Unknown `--only` names, with what is allowed. */
export function resolveOnly(only: string[] | undefined): Set<SnapshotSection> {
  if (!only || only.length === 0) return new Set(SNAPSHOT_SECTIONS);
  const out = new Set<SnapshotSection>();
  const unknown: string[] = [];
  for (const name of only) {
    const area = SNAPSHOT_AREAS[name];
    if (area) area.forEach((s) => out.add(s));
    else if ((SNAPSHOT_SECTIONS as readonly string[]).includes(name)) out.add(name as SnapshotSection);
    else unknown.push(name);
  }
  if (unknown.length > 0) {
    throw new Error(
      `--only: unknown area(s) ${unknown.map((u) => `'${u}'`).join(", ")}; areas: ${Object.keys(SNAPSHOT_AREAS).join(", ")}; sections: ${SNAPSHOT_SECTIONS.join(", ")}`,
    );
  }
  return out;
}

/** The snapshot's reading, from any source (the parity check reads two servers at once). */
export async function readPlant(source: PlantSource, options: SnapshotOptions, onProgress?: (event: SnapshotEvent) => void): Promise<SnapshotResult> {
  const sections = resolveOnly(options.only);
  const sink = typeof options.out === "string" ? fileSink(options.out) : options.out;
  const writer = new FixtureWriter(sink);
  const reader = new PlantReader(source, writer, sections, options, onProgress ?? (() => undefined));
  try {
    await reader.run();
    writer.close();
  } catch (err) {
    writer.abort();
    throw err;
  }
  return { counts: reader.counts, problems: reader.problems };
}

// ---------------------------------------------------------------------------------------------

const ep = {
  classList: areas.assets.classList,
  typeList: areas.assets.typeList,
  typeMetadataList: areas.assets.typeMetadataList,
  assetList: areas.assets.list,
  clusterList: areas.clusters.list,
  clusterGet: areas.clusters.get,
  acpList: areas.acps.list,
  acpStatusGet: areas.acps.statusGet,
  acpEdgeVersionGet: areas.acps.edgeAppsVersionGet,
  acpMetadataList: areas.acps.metadataList,
  labelList: areas.datalabels.labelList,
  labelMetadataList: areas.datalabels.labelMetadataList,
  dataLabelList: areas.datalabels.list,
  dataTypeList: areas.datatypes.list,
  appList: areas.apps.list,
  appGet: areas.apps.get,
  versionGet: areas.apps.versionGet,
  resourcesList: areas.apps.resourcesList,
  parameterList: areas.parameters.list,
  valuesList: areas.parameters.valuesList,
  scheduleList: areas.schedules.list,
  bridgeList: areas.bridges.list,
  bridgeGet: areas.bridges.get,
  workloadList: areas.workloads.list,
  workloadGet: areas.workloads.get,
  legacyWorkloadList: areas.legacyWorkloads.list,
  settingsGet: areas.instance.settingsGet,
  registryList: areas.appregistry.list,
} as const;

/** The schema each section's entries are checked against before they are written. */
const bodyOf = (e: AnyEndpoint): z.ZodType => e.body as z.ZodType;
const CHECKS: Record<SnapshotSection, z.ZodType> = {
  asset_classes: bodyOf(areas.assets.classCreate),
  asset_types: bodyOf(areas.assets.typeCreate),
  assets: bodyOf(areas.assets.create),
  clusters: bodyOf(areas.clusters.create),
  acps: z.unknown(),
  labels: bodyOf(areas.datalabels.labelCreate),
  data_labels: bodyOf(areas.datalabels.create),
  data_types: bodyOf(areas.datatypes.create),
  apps: bodyOf(areas.apps.create),
  parameter_values: bodyOf(areas.parameters.valuesUpdate),
  schedules: bodyOf(areas.schedules.create),
  bridges: bodyOf(areas.bridges.deploy),
  workloads: bodyOf(areas.workloads.create),
  app_resources: bodyOf(areas.apps.resourcesEnable),
  instance_settings: bodyOf(areas.instance.settingsUpdate),
};

const METADATA_ENTRY = bodyOf(areas.assets.typeMetadataCreate);
const CLUSTER_UPDATE = bodyOf(areas.clusters.update);
const CLUSTER_CREATE_FIELDS = ["name", "title", "type"];
/** An ACP registration, as the fixture's `acps` section takes it (checked without `metadata`). */
const ACP_REGISTRATION: z.ZodType = AcpRegistration;

/** Drops keys whose value is undefined (the YAML would otherwise show them as null). */
function defined<T extends Rec>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
const nonEmpty = (o: Rec | null | undefined) => (o && Object.keys(o).length > 0 ? o : undefined);
const nonEmptyList = <T>(l: T[] | null | undefined) => (l && l.length > 0 ? l : undefined);

/** Problems of `value` against `schema`, as the API names them (`name: must be ...`). */
function check(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : issuesToMessages("body", r.error).map((m) => m.replace(/^body(\.|: )/, ""));
}

const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
const assetOfKrn = (krn: string) => (krn.startsWith("krn:asset:") ? krn.slice("krn:asset:".length) : undefined);

/** Workload states a create can set, and how. */
const WORKLOAD_STATE_FLAGS: Record<string, Rec> = {
  running: {},
  stopped: { stopped: true },
  pending_deploy: { enabled: false },
};

class PlantReader {
  readonly counts: Record<string, number> = {};
  readonly problems: SnapshotProblem[] = [];
  private readonly secrets = new SecretGuard();
  /** Names of the selected assets, kept only when `assetPath` filters them. */
  private selectedAssets?: Set<string>;
  /** Assets left out, and assets written naming one of them as parent. */
  private readonly leftOutAssets = new Set<string>();
  private readonly childrenOfLeftOut: Array<{ child: string; parent: string }> = [];
  /** Workloads that bridges own (their deploy creates them): not written as workloads. */
  private readonly bridgeWorkloads = new Set<string>();
  /** App names, read once for the app bindings. */
  private appNames?: string[];
  private readonly clusters?: Set<string>;
  /** `assetPath` without leading or trailing slashes. */
  private readonly assetPath?: string;

  constructor(
    private readonly source: PlantSource,
    private readonly writer: FixtureWriter,
    private readonly sections: Set<SnapshotSection>,
    options: SnapshotOptions,
    private readonly onProgress: (e: SnapshotEvent) => void,
  ) {
    for (const s of options.knownSecrets ?? []) this.secrets.add(s);
    this.clusters = options.clusters && options.clusters.length > 0 ? new Set(options.clusters) : undefined;
    this.assetPath = options.assetPath?.replace(/^\/+|\/+$/g, "");
  }

  async run(): Promise<void> {
    this.writer.comments([
      "Fixture written by `svc-emulator snapshot` from a platform's inventory; load it with",
      "`svc-emulator serve --seed FILE`. Each entry is the body of the operation the loader replays.",
      "Credentials and other secrets are never written; the summary at the end lists what was left out.",
    ]);
    const steps: Array<[SnapshotSection, () => Promise<void>]> = [
      ["asset_classes", () => this.assetClasses()],
      ["asset_types", () => this.assetTypes()],
      ["assets", () => this.assets()],
      ["clusters", () => this.clusterSection()],
      ["acps", () => this.acps()],
      ["labels", () => this.labels()],
      ["data_labels", () => this.dataLabels()],
      ["data_types", () => this.dataTypes()],
      ["apps", () => this.apps()],
      ["parameter_values", () => this.parameterValues()],
      ["schedules", () => this.schedules()],
      ["bridges", () => this.bridges()],
      ["workloads", () => this.workloads()],
      ["app_resources", () => this.appResources()],
      ["instance_settings", () => this.instanceSettings()],
    ];
    for (const [section, step] of steps) {
      if (!this.sections.has(section)) continue;
      this.counts[section] = 0;
      this.onProgress({ type: "reading", section, count: 0 });
      await step();
      this.writer.endSection();
      this.onProgress({ type: "done", section, count: this.counts[section] });
    }
    if (this.sections.has("apps")) await this.registryApps();
    this.summary();
  }

  // -------------------------------------------------------------------------------------------
  // Writing and reporting

  private problem(kind: SnapshotProblem["kind"], section: string, name: string, reason: string): void {
    const p: SnapshotProblem = { kind, section, name, reason };
    this.problems.push(p);
    this.onProgress({ type: "problem", ...p });
  }

  /**
   * Writes an entry after taking out its secrets and checking it against the operation the loader
   * replays; an entry that fails the check is left out and reported. Returns whether it was written.
   */
  private emit(section: SnapshotSection, name: string, entry: Rec, extraProblems: string[] = []): boolean {
    const { value, removed } = this.secrets.clean(entry);
    const problems = [...extraProblems, ...this.checkEntry(section, value)];
    if (problems.length > 0) {
      this.problem("left_out", section, name, `the platform's record does not pass the API's own checks: ${problems.join("; ")}`);
      return false;
    }
    if (removed.length > 0) {
      this.problem("incomplete", section, name, `${removed.join(", ")} left out: it looks like a secret (set it again after loading)`);
    }
    this.writer.entry(section, value);
    this.counts[section]++;
    return true;
  }

  private checkEntry(section: SnapshotSection, entry: Rec): string[] {
    switch (section) {
      case "asset_types": {
        const { metadata, ...rest } = entry;
        return [...check(CHECKS.asset_types, rest), ...this.checkMetadata(metadata)];
      }
      case "clusters": {
        const create = Object.fromEntries(Object.entries(entry).filter(([k]) => CLUSTER_CREATE_FIELDS.includes(k)));
        const update = Object.fromEntries(Object.entries(entry).filter(([k]) => !CLUSTER_CREATE_FIELDS.includes(k)));
        return [...check(CHECKS.clusters, create), ...check(CLUSTER_UPDATE, update)];
      }
      case "acps": {
        const { metadata, ...rest } = entry;
        return [...check(ACP_REGISTRATION, rest), ...this.checkMetadata(metadata)];
      }
      case "apps": {
        const { versions, ...app } = entry;
        return (versions as Rec[]).flatMap((v) => check(CHECKS.apps, { ...appLevelFor(app, v), ...v }).map((m) => `versions (${v.version}): ${m}`));
      }
      case "parameter_values": {
        const { app_name: _a, app_version: _v, ...body } = entry;
        return check(CHECKS.parameter_values, body);
      }
      case "app_resources": {
        const { app_name: _a, enabled: _e, ...body } = entry;
        return check(CHECKS.app_resources, body);
      }
      case "workloads": {
        const { stopped: _s, ...body } = entry;
        return check(CHECKS.workloads, body);
      }
      default:
        return check(CHECKS[section], entry);
    }
  }

  private checkMetadata(metadata: Rec | undefined): string[] {
    return Object.entries(metadata ?? {}).flatMap(([name, payload]) => check(METADATA_ENTRY, { name, payload }).map((m) => `metadata.${name}: ${m}`));
  }

  private progress(section: SnapshotSection, seen: number): void {
    if (seen % 100 === 0) this.onProgress({ type: "reading", section, count: seen });
  }

  private async *list(section: SnapshotSection, endpoint: AnyEndpoint, input?: Rec): AsyncGenerator<Rec> {
    let seen = 0;
    for await (const item of this.source.list(endpoint, input)) {
      seen++;
      this.progress(section, seen);
      yield item as Rec;
    }
  }

  private get<T = Rec>(endpoint: AnyEndpoint, input?: Rec): Promise<T> {
    return this.source.get(endpoint, input) as Promise<T>;
  }

  /** Every item of a list, as an array (for the small per-record lists: metadata of one record). */
  private async all(endpoint: AnyEndpoint, input?: Rec): Promise<Rec[]> {
    const out: Rec[] = [];
    for await (const item of this.source.list(endpoint, input)) out.push(item as Rec);
    return out;
  }

  private summary(): void {
    const lines = ["", "Summary: entries per section"];
    for (const s of SNAPSHOT_SECTIONS) if (s in this.counts) lines.push(`  ${s}: ${this.counts[s]}`);
    const describe = (kind: SnapshotProblem["kind"], title: string) => {
      const list = this.problems.filter((p) => p.kind === kind);
      lines.push(`${title} (${list.length})${list.length === 0 ? ": none" : ":"}`);
      for (const p of list) lines.push(`  ${p.section} ${p.name}: ${p.reason}`);
    };
    describe("left_out", "Left out: records this fixture cannot hold");
    describe("incomplete", "Written in part: records with something this fixture cannot hold");
    this.writer.comments(lines);
  }

  // -------------------------------------------------------------------------------------------
  // Assets

  private async assetClasses(): Promise<void> {
    for await (const c of this.list("asset_classes", ep.classList)) {
      this.emit("asset_classes", c.name, { name: c.name, title: c.title });
    }
  }

  private async assetTypes(): Promise<void> {
    for await (const t of this.list("asset_types", ep.typeList)) {
      const metadata = await this.metadataOf(ep.typeMetadataList, { asset_type_name: t.name });
      this.emit("asset_types", t.name, defined({ name: t.name, title: t.title, asset_class_name: t.asset_class_name ?? undefined, metadata }));
    }
  }

  /** A record's metadata records as the create bodies take them: name → payload. */
  private async metadataOf(endpoint: AnyEndpoint, params: Rec): Promise<Rec | undefined> {
    const records = await this.all(endpoint, { params });
    return nonEmpty(Object.fromEntries(records.map((m) => [m.name, m.payload])));
  }

  /**
   * Assets with their properties and metadata, from the asset list: the Asset record carries every
   * property and metadata record of the asset (the table's schema requires both), so one request per
   * page reads them all.
   */
  private async assets(): Promise<void> {
    const prefix = this.assetPath;
    if (prefix !== undefined) this.selectedAssets = new Set();
    for await (const a of this.list("assets", ep.assetList)) {
      if (prefix !== undefined && !isUnder(a.path, prefix)) continue;
      let parent: string | undefined = a.asset_parent_name ?? undefined;
      if (prefix !== undefined && a.path === prefix && parent) {
        this.problem("incomplete", "assets", a.name, `written without its parent '${parent}', which is outside --asset-path ${prefix}`);
        parent = undefined;
      }
      if (parent && this.leftOutAssets.has(parent)) {
        this.leftOutAssets.add(a.name);
        this.problem("left_out", "assets", a.name, `its parent '${parent}' is left out`);
        continue;
      }
      const entry = defined({
        name: a.name,
        title: a.title,
        asset_type_name: a.asset_type_name,
        asset_parent_name: parent,
        location: a.location ?? undefined,
        metadata: nonEmpty(a.metadata),
        properties: nonEmptyList((a.properties as Rec[] | undefined)?.map((p) => ({ name: p.name, title: p.title, value: p.value }))),
      });
      if (this.emit("assets", a.name, entry)) {
        this.selectedAssets?.add(a.name);
        if (parent) this.childrenOfLeftOut.push({ child: a.name, parent });
      } else {
        this.leftOutAssets.add(a.name);
      }
    }
    // Children written before their parent turned out to be left out: the fixture needs a hand.
    for (const { child, parent } of this.childrenOfLeftOut) {
      if (this.leftOutAssets.has(parent)) {
        this.problem("incomplete", "assets", child, `names '${parent}' as parent, which is left out: fix '${parent}' or change asset_parent_name before loading`);
      }
    }
    this.childrenOfLeftOut.length = 0;
  }

  private assetSelected(krn: string): boolean {
    if (!this.selectedAssets) return true;
    const name = assetOfKrn(krn);
    return name !== undefined && this.selectedAssets.has(name);
  }

  // -------------------------------------------------------------------------------------------
  // Clusters and compute nodes

  private clusterSelected(name: string | null | undefined): boolean {
    return !this.clusters || (typeof name === "string" && this.clusters.has(name));
  }

  private async clusterSection(): Promise<void> {
    for await (const item of this.list("clusters", ep.clusterList)) {
      if (!this.clusterSelected(item.name)) continue;
      const c = await this.get(ep.clusterGet, { params: { cluster_name: item.name } });
      // Never written, and never allowed into the file from elsewhere.
      for (const s of [c.service_account_token, c.kubeconfig]) this.secrets.add(s);
      const entry = defined({
        name: c.name,
        title: c.title,
        type: c.type,
        ready: c.ready,
        forward_logs_enabled: c.forward_logs_enabled,
        forward_logs_buffer_size: c.forward_logs_buffer_size,
        manifests_scrape_enabled: c.manifests_scrape_enabled,
        manifests_scrape_interval: c.manifests_scrape_interval,
        sync_scrape_interval: c.sync_scrape_interval,
        telemetry_enabled: c.telemetry_enabled,
        telemetry_buffer_size: c.telemetry_buffer_size,
        telemetry_scrape_interval: c.telemetry_scrape_interval,
        telemetry_alerts_enabled: c.telemetry_alerts_enabled,
        upgrade: { instantly_apply: c.upgrade_instantly_apply, pre_download: c.upgrade_pre_download },
        api_credentials: c.api_credentials?.username ? { username: c.api_credentials.username } : undefined,
        edge_apps: c.edge_apps,
        edge_options: c.edge_options,
      });
      if (this.emit("clusters", c.name, entry) && c.api_credentials?.password_set) {
        this.problem("incomplete", "clusters", c.name, "api_credentials.password is write-only and not in the snapshot: set it again after loading");
      }
    }
  }

  private async acps(): Promise<void> {
    for await (const a of this.list("acps", ep.acpList)) {
      if (!this.clusterSelected(a.cluster_name)) continue;
      const params = { acp_name: a.name };
      const status = (await this.get(ep.acpStatusGet, { params, query: { source: "cache" } })).status as Rec;
      const edge = await this.get(ep.acpEdgeVersionGet, { params });
      const metadata = await this.metadataOf(ep.acpMetadataList, params);
      const entry = defined({
        name: a.name,
        title: a.title,
        cluster_name: a.cluster_name,
        node_name: a.node_name,
        svc_info: a.svc_info,
        system_info: a.system_info,
        network_info: a.network_info,
        location: a.location ?? undefined,
        manifests_scrape_enabled: a.manifests_scrape_enabled,
        manifests_scrape_interval: a.manifests_scrape_interval,
        metrics_enabled: a.metrics_enabled,
        metrics_scrape_interval: a.metrics_scrape_interval,
        status_scrape_enabled: a.status_scrape_enabled,
        status_scrape_interval: a.status_scrape_interval,
        // When last seen is the time of loading; a node never seen stays never seen.
        status: defined({ state: status.state, message: status.message, warnings: status.warnings, last_seen: status.last_seen === null ? null : undefined }),
        edge_app_version: edge.edge_app_version,
        metadata,
      });
      this.emit("acps", a.name, entry);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Labels, data labels, data types

  private async labels(): Promise<void> {
    for await (const l of this.list("labels", ep.labelList)) {
      const metadata = await this.metadataOf(ep.labelMetadataList, { label_name: l.name });
      this.emit("labels", l.name, defined({ name: l.name, title: l.title, metadata }));
    }
  }

  private async dataLabels(): Promise<void> {
    // Oldest first, so that loading gives them ids in the same order.
    for await (const d of this.list("data_labels", ep.dataLabelList, { query: { sort_asc: true } })) {
      const entry = {
        label_name: d.label_name,
        start_date: d.start_date,
        end_date: d.end_date,
        description: d.description,
        confidence: d.confidence,
        validation: d.validation,
        info: d.info,
        metrics: d.metrics,
        source: d.source,
      };
      this.emit("data_labels", `#${d.id} ${d.label_name}`, entry);
    }
  }

  private async dataTypes(): Promise<void> {
    for await (const t of this.list("data_types", ep.dataTypeList, { query: { all: true } })) {
      const icd = t.icd as Rec;
      const entry = {
        icd: {
          name: icd.name,
          class_name: icd.class_name,
          description: icd.description,
          version: icd.version,
          fields: (icd.fields as Rec[]).map((f) => ({ name: f.name, type: f.type, description: f.description, array: f.array })),
        },
        source: t.source,
      };
      this.emit("data_types", `${t.name}:${t.version}`, entry);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Apps, parameters, schedules

  private async apps(): Promise<void> {
    /** Per app, the parameter definitions its versions imply: name → { title, data_type } of the highest version defining it. */
    const implied = new Map<string, Map<string, { title: string; data_type: string }>>();
    this.appNames = [];
    for await (const item of this.list("apps", ep.appList)) {
      this.appNames.push(item.name);
      const app = await this.get(ep.appGet, { params: { app_name: item.name } });
      const versions = (app.versions as Rec[]).map((v) => v.version as string).sort(semver.compare);
      const manifests: Rec[] = [];
      for (const version of versions) manifests.push(await this.get(ep.versionGet, { params: { app_name: app.name, app_version: version } }));
      const defs = new Map<string, { title: string; data_type: string }>();
      for (const m of manifests) {
        for (const p of (m.parameters ?? []) as Rec[]) {
          defs.set(p.name, { title: p.title ?? p.name, data_type: p.data_type ?? (p.default !== undefined ? typeof p.default : "string") });
        }
      }
      implied.set(app.name, defs);
      const appLevel = defined({ name: app.name, title: app.title, description: app.description, type: app.type, category: app.category });
      if (manifests.length === 0) {
        this.problem("left_out", "apps", app.name, "has no versions; an app is created with its first version");
        continue;
      }
      const entry = { ...appLevel, versions: manifests.map((m) => versionEntry(appLevel, m)) };
      this.emit("apps", app.name, entry);
    }
    // Definitions follow from the versions; one that does not is reported (the fixture will differ).
    for await (const d of this.list("apps", ep.parameterList)) {
      const want = implied.get(d.app_name)?.get(d.name);
      if (!want) {
        this.problem(
          "incomplete",
          "apps",
          `${d.app_name} parameter ${d.name}`,
          "the platform defines this parameter but no version of the app does; it will not exist after loading",
        );
      } else if (want.title !== d.title || want.data_type !== d.data_type) {
        this.problem(
          "incomplete",
          "apps",
          `${d.app_name} parameter ${d.name}`,
          `the platform has title '${d.title}', data_type ${d.data_type}; the app's versions give title '${want.title}', data_type ${want.data_type}, which loading will use`,
        );
      }
    }
  }

  /**
   * Set parameter values, one entry per app version and source (the update's `source` applies to a
   * whole request). The list is read in (app, version, resource, name) order, so only one app
   * version's values are held at a time.
   */
  private async parameterValues(): Promise<void> {
    let group: { app: string; version: string; bySource: Map<string, Map<string, Rec[]>> } | undefined;
    const flush = () => {
      if (!group) return;
      for (const [source, resources] of group.bySource) {
        const entry = defined({
          app_name: group.app,
          app_version: group.version,
          source: source === "" ? undefined : source,
          resource_parameters: [...resources].map(([resource, parameters]) => ({ resource, parameters })),
        });
        this.emit("parameter_values", `${group.app} ${group.version}${source ? ` (source ${source})` : ""}`, entry);
      }
      group = undefined;
    };
    const query = { sort_by: ["app_name", "app_version", "resource", "name"] };
    for await (const v of this.list("parameter_values", ep.valuesList, { query, body: {} })) {
      if (!this.assetSelected(v.resource)) continue;
      if (!group || group.app !== v.app_name || group.version !== v.app_version) {
        flush();
        group = { app: v.app_name, version: v.app_version, bySource: new Map() };
      }
      const bySource = group.bySource;
      const source = v.source ?? "";
      if (!bySource.has(source)) bySource.set(source, new Map());
      const resources = bySource.get(source)!;
      if (!resources.has(v.resource)) resources.set(v.resource, []);
      resources.get(v.resource)!.push(defined({ name: v.name, value: v.value, comment: v.comment ?? undefined }));
    }
    flush();
  }

  /** Schedules still waiting: sorted by content so that the same schedules always read the same. */
  private async schedules(): Promise<void> {
    const pending: Array<{ key: string; id: string; entry: Rec }> = [];
    for await (const s of this.list("schedules", ep.scheduleList, { body: { states: ["scheduled", "scheduled-revert"] } })) {
      if (!(s.resources as string[]).every((r) => this.assetSelected(r))) continue;
      if (s.state !== "scheduled") {
        this.problem(
          "left_out",
          "schedules",
          s.id,
          `is in state ${s.state} (applied at ${s.applied_at}, revert due ${s.revert?.scheduled_for}); a create makes schedules in state scheduled only`,
        );
        continue;
      }
      const entry = defined({
        app_name: s.app_name,
        app_version: s.app_version,
        scheduled_for: s.scheduled_for,
        resources: s.resources,
        parameters: s.parameters,
        comment: s.comment ?? undefined,
        revert: s.revert ?? undefined,
      });
      pending.push({ key: JSON.stringify(entry), id: s.id, entry });
    }
    pending.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const p of pending) this.emit("schedules", p.id, p.entry);
  }

  /** Bindings of assets to apps that no workload makes: enabled only through enable, or disabled. */
  private async appResources(): Promise<void> {
    if (!this.appNames) {
      this.appNames = [];
      for await (const a of this.list("app_resources", ep.appList)) this.appNames.push(a.name);
    }
    for (const app of this.appNames) {
      const enabled: string[] = [];
      const disabled: string[] = [];
      for await (const r of this.list("app_resources", ep.resourcesList, { params: { app_name: app } })) {
        if (!this.assetSelected(r.resource)) continue;
        if (!r.enabled) disabled.push(r.resource);
        else if ((r.workload_names as string[]).length === 0) enabled.push(r.resource);
      }
      if (enabled.length > 0) this.emit("app_resources", `${app} (enabled)`, { app_name: app, enabled: true, resources: enabled });
      if (disabled.length > 0) this.emit("app_resources", `${app} (disabled)`, { app_name: app, enabled: false, resources: disabled });
    }
  }

  // -------------------------------------------------------------------------------------------
  // Bridges and workloads

  private async bridges(): Promise<void> {
    for await (const item of this.list("bridges", ep.bridgeList)) {
      if (!this.clusterSelected(item.cluster_name)) continue;
      this.bridgeWorkloads.add(item.workload_name);
      const b = await this.get(ep.bridgeGet, { params: { bridge_name: item.name } });
      const entry = defined({
        name: b.name,
        title: b.title,
        cluster_name: b.cluster_name,
        node_name: b.node_name ?? undefined,
        app_name: b.app_name,
        app_version: b.app_version,
        protocol: b.protocol === "" ? undefined : b.protocol,
        payload: b.payload,
      });
      if (this.emit("bridges", b.name, entry) && (!b.enabled || b.status?.state !== "running")) {
        this.problem("incomplete", "bridges", b.name, `its workload is ${b.status?.state}${b.enabled ? "" : " (disabled)"}; a deploy starts it running`);
      }
    }
  }

  private async workloads(): Promise<void> {
    // The deployment type shows only in the legacy view's flags: name → flags, two booleans a workload.
    const flags = new Map<string, { instantly_apply: boolean; pre_download: boolean }>();
    for await (const w of this.list("workloads", ep.legacyWorkloadList)) flags.set(w.name, { instantly_apply: w.instantly_apply, pre_download: w.pre_download });
    // Bridges deploy their own workloads; a snapshot without the bridges still leaves those out.
    if (!this.sections.has("bridges")) {
      for await (const b of this.list("workloads", ep.bridgeList)) this.bridgeWorkloads.add(b.workload_name);
    }
    for await (const item of this.list("workloads", ep.workloadList)) {
      if (this.bridgeWorkloads.has(item.name) || !this.clusterSelected(item.cluster_name)) continue;
      const w = await this.get(ep.workloadGet, { params: { workload_name: item.name } });
      const f = flags.get(w.name) ?? { instantly_apply: true, pre_download: false };
      const deploymentType = !f.instantly_apply ? "staged-only" : f.pre_download ? "staged+instant-apply" : undefined;
      const state = w.status?.state as string;
      const notes: string[] = [];
      let stateFlags = WORKLOAD_STATE_FLAGS[state];
      if (state === "staged" && deploymentType === "staged-only") stateFlags = {};
      if (!stateFlags) {
        stateFlags = w.enabled === false ? { enabled: false } : {};
        notes.push(`its state ${state} is not one a create makes; written ${w.enabled === false ? "pending (enabled: false)" : "running"}`);
      }
      const staged = w.staged as Rec | null;
      if (staged && (nonEmpty(staged.payload) || staged.app_version !== w.app_version)) {
        notes.push(`its staged version (${staged.app_version}) with its changes is not in the snapshot; the workload is written as it runs now`);
      }
      const runtime = w.runtime as Rec;
      const entry = defined({
        name: w.name,
        title: w.title,
        app_name: w.app_name,
        app_version: w.app_version,
        cluster_name: w.cluster_name,
        node_name: w.node_name ?? undefined,
        runtime: defined({ resources: runtime.resources, configuration: runtime.configuration, datastreams: runtime.datastreams }),
        system: w.system ?? undefined,
        api_permissions: w.api_permissions ?? undefined,
        deployment_type: deploymentType,
        ...stateFlags,
      });
      if (this.emit("workloads", w.name, entry)) for (const n of notes) this.problem("incomplete", "workloads", w.name, n);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Instance settings and what a fixture cannot hold

  private async instanceSettings(): Promise<void> {
    const s = await this.get(ep.settingsGet);
    this.emit("instance_settings", "settings", { acp: s.acp });
  }

  /** Apps of the app registry are packages (uploaded archives); a fixture holds none. */
  private async registryApps(): Promise<void> {
    for await (const r of this.source.list(ep.registryList)) {
      const app = r as Rec;
      this.problem("left_out", "app_registry", app.name, `app registry apps are uploaded packages (latest version ${app.latest_version ?? "none"}); a fixture cannot hold them`);
    }
  }
}

/** The app-level fields a version inherits in the fixture (those it does not give itself). */
function appLevelFor(app: Rec, version: Rec): Rec {
  return Object.fromEntries(Object.entries(app).filter(([k]) => !(k in version)));
}

/**
 * A version's own fields under its app: the manifest without the app's identity and the platform's
 * audit fields; title, description and category only where they differ from the app's (the loader
 * gives a version the app's fields it does not have itself, so a version without a category that the
 * app has says `category: null`).
 */
function versionEntry(app: Rec, m: Rec): Rec {
  const { name: _n, type: _t, created_at: _ca, created_by: _cb, updated_at: _ua, updated_by: _ub, title, description, category, version, ...rest } = m;
  return defined({
    version,
    title: title === app.title ? undefined : title,
    description: description === app.description ? undefined : description,
    category: category === app.category ? undefined : (category ?? null),
    ...rest,
  });
}
