/**
 * Fixtures: a YAML (or already parsed) document describing a starting state, loaded into an empty
 * emulator. Every entry is replayed through the real create operation of its kind (the endpoint
 * table's zod schemas, then the area's handler), so the same rules and defaults apply as over HTTP,
 * and a bad entry fails naming its section, index, name and field.
 *
 * Sections, loaded in this order (all optional; each is a list of entries):
 *   asset_classes       body of POST /assets/class/create
 *   asset_types         body of POST /assets/types/create, plus `metadata:` (metadata name → payload),
 *                       each created with POST /assets/types/{asset_type_name}/metadata/create
 *   assets              body of POST /assets/create; parents are created before their children
 *   clusters            body of POST /orchestration/clusters/create; the fields of
 *                       POST /orchestration/clusters/{cluster_name}/update (ready, settings, ...) are
 *                       applied with that operation right after the create
 *   acps                a node's registration (the API has no ACP create; nodes register themselves);
 *                       `metadata:` (name → payload) through POST /acps/{acp_name}/metadata/create
 *   labels              body of POST /datalabels/labels/create
 *   data_labels         body of POST /datalabels/create
 *   data_types          body of POST /datatypes/create
 *   apps                app-level fields of POST /apps/create plus `versions:` (each a version's
 *                       own fields); an entry with `version` and no `versions` is one version. With
 *                       `versions:`, app-level title/description/category that differ from what the
 *                       first version gave the app are set with POST /apps/{app_name}/patch
 *   parameter_defaults  `app_name`, `app_version` and the body of .../parameters/defaults/update
 *   parameter_values    `app_name`, `app_version` and the body of .../parameters/values/update
 *   schedules           body of POST /apps/parameters/schedules/create (scheduled_for in the future)
 *   workloads           body of POST /apps/workloads/create, plus `stopped: true` for the query flag
 *   bridges             body of POST /bridges/deploy (creates the bridge's workload too)
 *   app_resources       `app_name`, `resources` (asset KRNs) and `enabled` (default true): the
 *                       bindings of POST /apps/{app_name}/resources/enable (or /disable)
 *   instance_settings   body of POST /instance/settings/update; an entry that changes nothing is
 *                       not applied, so default settings leave the settings unset as on a new platform
 *
 * Design choices: the whole document is one transaction (a bad entry leaves the emulator empty); it
 * runs as the system identity; fixtures are the starting state, not actions, so they leave no audit
 * log entries.
 *
 * Restarts: the transaction also records which fixture seeded the state (`_seed` table: the SHA-256
 * of the document's canonical JSON, its source, when, and the counts). Seeding a state that the same
 * fixture seeded is a no-op with a log line, whatever happened to the records since, so
 * `serve --state X --seed Y` restarts with the same command. A different fixture into a non-empty
 * state fails naming both. POST /emulator/reset clears the record with the rest of the state.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { parse as parseYaml, YAMLParseError } from "yaml";
import type { AnyEndpoint } from "../api/endpoint";
import { endpoints } from "../api/endpoints";
import { ApiError } from "../api/errors";
import { formatTimestamp } from "../api/common";
import type { Auth } from "./areas/auth/model";
import { allRoutes } from "./areas/index";
import { registerAcp } from "./areas/acps/model";
import type { Edge } from "./edge";
import { isReply, systemContext, type Route } from "./handler";
import type { Change, Store } from "./store/store";
import { parseOrThrow } from "./validate";

/** A fixture that cannot be loaded; `where` names the entry (`assets[3] (pump-01)`). */
export class FixtureError extends Error {
  constructor(
    readonly source: string,
    readonly where: string | undefined,
    readonly problems: string[],
  ) {
    super(`fixture ${source}: ${where ? `${where}: ` : ""}${problems.join("; ")}`);
    this.name = "FixtureError";
  }
}

export type FixtureDocument = Record<string, unknown>;
type Entry = Record<string, unknown>;

/** One create operation to replay. */
interface Operation {
  where: string;
  params: Record<string, unknown>;
  query: Record<string, string>;
  body: unknown;
}

/** One entry to load, as a section's `expand` makes it. */
interface Item {
  where: string;
  entry: Entry;
  /** Runs the item instead of the section's own `run` (a step that belongs to other entries). */
  run?: (api: LoadApi) => void;
  /** The item is a step of entries already counted, not an entry of its own. */
  uncounted?: boolean;
}

/** What a section's loading code may call: the operations of the endpoint table, through their handlers. */
interface LoadApi {
  /** The section's own create operation with the entry split into path, query and body. */
  create(where: string, entry: Entry): unknown;
  /** Any operation of the table by method and path, with its inputs validated as over HTTP. */
  call(method: "GET" | "POST", path: string, where: string, input: { params?: Record<string, unknown>; query?: Record<string, string>; body?: unknown }): unknown;
  /** Registers a compute node. */
  registerAcp(where: string, entry: Entry): void;
}

interface Section {
  name: string;
  /** Path of the create operation in the endpoint table (POST); absent for ACP registration. */
  path?: string;
  /** Entry fields sent as query parameters. */
  queryKeys?: string[];
  /** Turns the section's entries into operations (default: one per entry). */
  expand?: (entries: Entry[], section: string) => Item[];
  /** Loads one item (default: the create operation with the entry). */
  run?: (item: Item, api: LoadApi) => void;
}

const labelOf = (e: Entry): string | undefined => {
  for (const k of ["name", "label_name"]) if (typeof e[k] === "string") return e[k];
  if (isObject(e.icd) && typeof e.icd.name === "string") return [e.icd.name, e.icd.version].filter((x) => typeof x === "string").join(" ");
  if (typeof e.app_name === "string") return [e.app_name, e.app_version].filter((x) => typeof x === "string").join(" ");
  return undefined;
};
const whereOf = (section: string, index: number, e: Entry) => {
  const label = labelOf(e);
  return `${section}[${index}]${label ? ` (${label})` : ""}`;
};

const eachEntry = (entries: Entry[], section: string): Item[] => entries.map((entry, i) => ({ where: whereOf(section, i, entry), entry }));

/** Assets in an order where every parent comes before its children (otherwise as written). */
function parentsFirst(entries: Entry[], section: string): Item[] {
  const items = eachEntry(entries, section);
  const byName = new Map(items.map((it) => [it.entry.name, it]));
  const out: typeof items = [];
  const state = new Map<unknown, "visiting" | "done">();
  const visit = (it: (typeof items)[number]) => {
    const s = state.get(it.entry.name);
    if (s === "done" || s === "visiting") return; // a cycle is left for the handler to reject
    state.set(it.entry.name, "visiting");
    const parent = byName.get(it.entry.asset_parent_name);
    if (parent && parent !== it) visit(parent);
    state.set(it.entry.name, "done");
    out.push(it);
  };
  for (const it of items) {
    if (typeof it.entry.name !== "string") out.push(it);
    else visit(it);
  }
  return out;
}

const APP_LEVEL = ["name", "title", "description", "type", "category"];

const PATCHABLE_APP_FIELDS = ["title", "description", "category"];

/**
 * An app with `versions:` becomes one create per version, each carrying the app-level fields, then a
 * step that sets the app-level title, description and category where the app (which took them from
 * its first version) differs: a version may have fields of its own.
 */
function appVersions(entries: Entry[], section: string): Item[] {
  return entries.flatMap((app, i): Item[] => {
    const where = whereOf(section, i, app);
    if (app.versions === undefined) return [{ where, entry: app }];
    if (!Array.isArray(app.versions)) throw new FixtureError("", where, ["versions: must be a list of app versions"]);
    const { versions, ...shared } = app;
    const items: Item[] = (versions as unknown[]).map((v, j) => {
      const vwhere = `${where}.versions[${j}]${isObject(v) && typeof v.version === "string" ? ` (${v.version})` : ""}`;
      if (!isObject(v)) throw new FixtureError("", vwhere, ["must be a mapping of the version's fields"]);
      const inherited = Object.fromEntries(Object.entries(shared).filter(([k]) => APP_LEVEL.includes(k) && !(k in v)));
      const unexpected = Object.keys(shared).filter((k) => !APP_LEVEL.includes(k));
      if (unexpected.length > 0) {
        throw new FixtureError("", where, [`${unexpected.join(", ")}: version fields go under versions[], next to 'version' (app-level fields: ${APP_LEVEL.join(", ")})`]);
      }
      return { where: vwhere, entry: { ...inherited, ...v } };
    });
    const wanted = Object.fromEntries(Object.entries(shared).filter(([k]) => PATCHABLE_APP_FIELDS.includes(k)));
    if ((versions as unknown[]).length === 0 || Object.keys(wanted).length === 0 || typeof app.name !== "string") return items;
    const appLevel: Item = {
      where,
      entry: wanted,
      uncounted: true,
      run: (api) => {
        const params = { app_name: app.name };
        const current = api.call("GET", "/apps/{app_name}/get", where, { params }) as Entry;
        const differs = Object.entries(wanted).filter(([k, v]) => !isDeepStrictEqual(current[k], v));
        if (differs.length > 0) api.call("POST", "/apps/{app_name}/patch", where, { params, body: Object.fromEntries(differs) });
      },
    };
    return [...items, appLevel];
  });
}

/** Splits `metadata:` (name → payload) off an entry; each record is created after the entry. */
function metadataOf(entry: Entry, where: string): { rest: Entry; metadata: Array<[string, unknown]> } {
  const { metadata, ...rest } = entry;
  if (metadata === undefined || metadata === null) return { rest, metadata: [] };
  if (!isObject(metadata)) throw new FixtureError("", where, ["metadata: must be a mapping of metadata name to payload"]);
  return { rest, metadata: Object.entries(metadata) };
}

/** Creates the metadata records of a record through the operation at `path` (params name the record). */
function createMetadata(api: LoadApi, path: string, params: Record<string, unknown>, where: string, metadata: Array<[string, unknown]>): void {
  for (const [name, payload] of metadata) api.call("POST", path, `${where}.metadata.${name}`, { params, body: { name, payload } });
}

const CLUSTER_CREATE_FIELDS = ["name", "title", "type"];

function runCluster(item: Item, api: LoadApi): void {
  const create = Object.fromEntries(Object.entries(item.entry).filter(([k]) => CLUSTER_CREATE_FIELDS.includes(k)));
  const update = Object.fromEntries(Object.entries(item.entry).filter(([k]) => !CLUSTER_CREATE_FIELDS.includes(k)));
  api.create(item.where, create);
  if (Object.keys(update).length > 0) {
    api.call("POST", "/orchestration/clusters/{cluster_name}/update", item.where, { params: { cluster_name: item.entry.name }, body: update });
  }
}

function runAssetType(item: Item, api: LoadApi): void {
  const { rest, metadata } = metadataOf(item.entry, item.where);
  api.create(item.where, rest);
  createMetadata(api, "/assets/types/{asset_type_name}/metadata/create", { asset_type_name: item.entry.name }, item.where, metadata);
}

function runAcp(item: Item, api: LoadApi): void {
  // Registration takes the node's fields; its metadata records are created like any others.
  const { rest, metadata } = metadataOf(item.entry, item.where);
  api.registerAcp(item.where, rest);
  createMetadata(api, "/acps/{acp_name}/metadata/create", { acp_name: item.entry.name }, item.where, metadata);
}

function runAppResources(item: Item, api: LoadApi): void {
  const { app_name, enabled = true, ...body } = item.entry;
  if (typeof enabled !== "boolean") throw new FixtureError("", item.where, [`enabled: must be true or false, got ${JSON.stringify(enabled)}`]);
  api.call("POST", `/apps/{app_name}/resources/${enabled ? "enable" : "disable"}`, item.where, { params: { app_name }, body });
}

function runInstanceSettings(item: Item, api: LoadApi): void {
  const current = api.call("GET", "/instance/settings/get", item.where, {}) as { acp: Record<string, Record<string, unknown>> };
  const sent = isObject(item.entry.acp) ? (item.entry.acp as Record<string, unknown>) : {};
  const changes = Object.entries(sent).some(([k, v]) => !isObject(v) || Object.entries(v).some(([field, value]) => !isDeepStrictEqual(current.acp?.[k]?.[field], value)));
  // Anything else than a change of known settings goes to the operation, which names what is wrong.
  const onlyAcp = Object.keys(item.entry).every((k) => k === "acp");
  if (changes || !onlyAcp) api.create(item.where, item.entry);
}

export const SECTIONS: readonly Section[] = [
  { name: "asset_classes", path: "/assets/class/create" },
  { name: "asset_types", path: "/assets/types/create", run: runAssetType },
  { name: "assets", path: "/assets/create", expand: parentsFirst },
  { name: "clusters", path: "/orchestration/clusters/create", run: runCluster },
  { name: "acps", run: runAcp },
  { name: "labels", path: "/datalabels/labels/create" },
  { name: "data_labels", path: "/datalabels/create" },
  { name: "data_types", path: "/datatypes/create" },
  { name: "apps", path: "/apps/create", expand: appVersions },
  { name: "parameter_defaults", path: "/apps/{app_name}/v/{app_version}/parameters/defaults/update" },
  { name: "parameter_values", path: "/apps/{app_name}/v/{app_version}/parameters/values/update" },
  { name: "schedules", path: "/apps/parameters/schedules/create" },
  { name: "workloads", path: "/apps/workloads/create", queryKeys: ["stopped"] },
  { name: "bridges", path: "/bridges/deploy" },
  { name: "app_resources", run: runAppResources },
  { name: "instance_settings", path: "/instance/settings/update", run: runInstanceSettings },
];

function isObject(v: unknown): v is Entry {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/** Reads a fixture file (YAML, or JSON which is YAML too); fails naming the file and the line. */
export function readFixtureFile(path: string): FixtureDocument {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new FixtureError(path, undefined, [`cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`]);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    if (err instanceof YAMLParseError) {
      const at = err.linePos?.[0];
      throw new FixtureError(path, at ? `line ${at.line}, column ${at.col}` : undefined, [`not valid YAML: ${err.message.split("\n")[0]}`]);
    }
    throw err;
  }
  return (doc ?? {}) as FixtureDocument;
}

export interface SeedEnvironment {
  store: Store;
  auth: Auth;
  baseUrl: string;
  /** Epoch ms of the seeding. */
  nowMs: number;
  /** Named in error messages: the file, or "seed" for a parsed document. */
  source?: string;
  /** Where the line saying a seeding was skipped goes. */
  log?: (line: string) => void;
  /** How the emulated edge downloads packages (for workloads that start one). */
  edge?: Edge;
}

/** Table and key of the record naming the fixture that seeded the state. */
export const SEED_TABLE = "_seed";
const SEED_KEY = "fixture";

/** Which fixture seeded a state, kept in the state itself. */
export interface SeedRecord {
  /** SHA-256 of the document's canonical JSON (keys sorted): formatting and comments do not count. */
  sha256: string;
  /** The file (as given) or "seed". */
  source: string;
  seeded_at: string;
  counts: Record<string, number>;
}

/** The same JSON for the same content, whatever the order of keys. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The content hash a seeding records: SHA-256 of the document's canonical JSON. */
export function fixtureHash(doc: FixtureDocument): string {
  return createHash("sha256").update(canonicalJson(doc)).digest("hex");
}

/** The record of the fixture that seeded `store`, if one did (and no reset came since). */
export function seedRecord(store: Store): SeedRecord | undefined {
  return store.table<SeedRecord>(SEED_TABLE).get(SEED_KEY);
}

/** Strips the `body.` / `path.` / `query.` / `acp.` root of a validation message: in a fixture, they are all entry fields. */
const asEntryField = (message: string) => message.replace(/^(body|path|query|acp)(\.|: )/, "");

/** Whether the store holds any record (the signing key in `_meta` and the seed record do not count). */
export function storeIsEmpty(store: Store): boolean {
  return store.tableNames().every((n) => n === "_meta" || n === SEED_TABLE || store.table(n).size === 0);
}

const short = (sha256: string) => sha256.slice(0, 12);

/** What loading one fixture document carries from step to step. */
interface Load {
  source: string;
  env: SeedEnvironment;
  routes: Map<string, Route>;
  nowMs: number;
  now: string;
}

/** Refuses a document that is not a mapping of the known sections. */
function checkSections(doc: FixtureDocument, source: string): void {
  const allowed = SECTIONS.map((s) => s.name).join(", ");
  if (!isObject(doc)) throw new FixtureError(source, undefined, [`the document must be a mapping of sections (${allowed})`]);
  const unknown = Object.keys(doc).filter((k) => !SECTIONS.some((s) => s.name === k));
  if (unknown.length > 0) throw new FixtureError(source, undefined, [`unknown section(s) ${unknown.map((k) => `'${k}'`).join(", ")}; allowed: ${allowed}`]);
}

/**
 * The earlier seeding by this same fixture (then nothing is loaded again); refuses a store that holds
 * records of anything else, saying how to start again.
 */
function earlierSeeding(env: SeedEnvironment, source: string, sha256: string): SeedRecord | undefined {
  const previous = seedRecord(env.store);
  if (previous?.sha256 === sha256) {
    env.log?.(`svc-emulator: the state already holds fixture ${source} (sha256 ${short(sha256)}, loaded from ${previous.source} at ${previous.seeded_at}); not loading it again`);
    return previous;
  }
  if (storeIsEmpty(env.store)) return undefined;
  const what = previous
    ? `the state was seeded from ${previous.source} (sha256 ${short(previous.sha256)}, at ${previous.seeded_at}) and ${source} (sha256 ${short(sha256)}) is a different fixture; fixtures load only into an empty emulator`
    : `the emulator already holds records that no fixture loaded; fixtures load only into an empty emulator`;
  throw new FixtureError(source, undefined, [
    `${what}. To load ${source}, start with a new state file (or move the state file and its .log away), ` +
      `or POST /emulator/reset and start again; to keep the current state, start without the fixture (no --seed)`,
  ]);
}

/**
 * Loads a fixture document into an empty store, as one transaction. Returns the changes (for
 * persistence) and how many records of each section were created. When the same fixture (by content
 * hash) already seeded the store, loads nothing and returns `skipped` with the earlier seeding.
 */
export function seedStore(doc: FixtureDocument, env: SeedEnvironment): { changes: Change[]; counts: Record<string, number>; skipped?: SeedRecord } {
  const source = env.source ?? "seed";
  checkSections(doc, source);
  const sha256 = fixtureHash(doc);
  const skipped = earlierSeeding(env, source, sha256);
  if (skipped) return { changes: [], counts: {}, skipped };
  const load: Load = { source, env, routes: new Map(allRoutes().map((r) => [r.endpoint.id, r])), nowMs: env.nowMs, now: formatTimestamp(env.nowMs) };
  const counts: Record<string, number> = {};
  const { changes } = env.store.transaction(() => {
    for (const section of SECTIONS) loadSection(load, section, doc[section.name], counts);
    env.store.table<SeedRecord>(SEED_TABLE).put(SEED_KEY, { sha256, source, seeded_at: load.now, counts: { ...counts } });
  });
  return { changes, counts };
}

/** Loads one section's entries, counting them in `counts`; an entry's failure names the entry. */
function loadSection(load: Load, section: Section, raw: unknown, counts: Record<string, number>): void {
  const { source } = load;
  if (raw === undefined || raw === null) return;
  if (!Array.isArray(raw)) throw new FixtureError(source, section.name, ["must be a list of entries"]);
  raw.forEach((e, i) => {
    if (!isObject(e)) throw new FixtureError(source, `${section.name}[${i}]`, ["must be a mapping of fields"]);
  });
  let items: Item[];
  try {
    items = (section.expand ?? eachEntry)(raw as Entry[], section.name);
  } catch (err) {
    if (err instanceof FixtureError) throw new FixtureError(source, err.where, err.problems);
    throw err;
  }
  for (const item of items) {
    const api = loadApi(load, section);
    try {
      if (item.run) item.run(api);
      else if (section.run) section.run(item, api);
      else api.create(item.where, item.entry);
    } catch (err) {
      if (err instanceof ApiError) throw new FixtureError(source, item.where, err.messages.map(asEntryField));
      if (err instanceof FixtureError) throw new FixtureError(source, err.where ?? item.where, err.problems);
      throw err;
    }
    if (!item.uncounted) counts[section.name] = (counts[section.name] ?? 0) + 1;
  }
}

/** The operations a section's entries load through. */
function loadApi(load: Load, section: Section): LoadApi {
  // An error of an operation other than the entry's own create names the step (`where`) it came from.
  const named = <T>(where: string, fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof ApiError) throw new FixtureError(load.source, where, err.messages.map(asEntryField));
      throw err;
    }
  };
  return {
    create: (where, entry) => runOperation(load, section, endpointAt(load, section, "POST", section.path ?? ""), toOperation(section, where, entry)),
    call: (method, path, where, input) =>
      named(where, () => runOperation(load, section, endpointAt(load, section, method, path), { where, params: input.params ?? {}, query: input.query ?? {}, body: input.body })),
    registerAcp: (where, entry) => named(where, () => registerAcp(load.env.store, entry as never, load.now)),
  };
}

/** Runs one operation through its handler as the system identity, validated as a request would be. */
function runOperation(load: Load, section: Section, ep: AnyEndpoint, op: Operation): unknown {
  const { source } = load;
  const route = load.routes.get(ep.id);
  if (!route) throw new FixtureError(source, section.name, [`this emulator does not implement ${ep.method} ${ep.path} yet, so '${section.name}' cannot be loaded`]);
  const params = ep.params ? parseOrThrow(ep.params, op.params, "path") : {};
  const query = ep.query ? parseOrThrow(ep.query, op.query, "query") : {};
  if (!ep.query && Object.keys(op.query).length > 0) throw new FixtureError(source, op.where, ["this section takes no query flags"]);
  const body = ep.body ? parseOrThrow(ep.body, op.body, "body") : undefined;
  const result = route.handler(systemContext({ params, query, body }, load.env, load.nowMs));
  if (isReply(result) && result.status >= 300) {
    const detail = JSON.stringify(result.body ?? "").slice(0, 500);
    throw new FixtureError(source, op.where, [`${ep.method} ${ep.path} answered ${result.status}: ${detail}`]);
  }
  return isReply(result) ? result.body : result;
}

/** The endpoint at `method path`, which a section names. */
function endpointAt(load: Load, section: Section, method: "GET" | "POST", path: string): AnyEndpoint {
  const ep = endpoints.find((e) => e.method === method && e.path === path);
  if (!ep) throw new FixtureError(load.source, section.name, [`this emulator has no operation ${method} ${path}, so '${section.name}' cannot be loaded`]);
  return ep;
}

/** Splits an entry into the path parameters, query flags and body of its operation. */
function toOperation(section: Section, where: string, entry: Entry): Operation {
  const pathKeys = [...(section.path ?? "").matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
  const params: Record<string, unknown> = {};
  const query: Record<string, string> = {};
  const body: Entry = {};
  for (const [k, v] of Object.entries(entry)) {
    if (pathKeys.includes(k)) params[k] = v;
    else if (section.queryKeys?.includes(k)) query[k] = String(v);
    else body[k] = v;
  }
  return { where, params, query, body };
}

/** Reads the seed option: a path to a YAML file, or an already parsed document. */
export function resolveSeed(seed: string | FixtureDocument): { doc: FixtureDocument; source: string } {
  return typeof seed === "string" ? { doc: readFixtureFile(seed), source: seed } : { doc: seed, source: "seed" };
}
