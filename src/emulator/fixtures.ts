/**
 * Fixtures: a YAML (or already parsed) document describing a starting state, loaded into an empty
 * emulator. Every entry is replayed through the real create operation of its kind (the endpoint
 * table's zod schemas, then the area's handler), so the same rules and defaults apply as over HTTP,
 * and a bad entry fails naming its section, index, name and field.
 *
 * Sections, loaded in this order (all optional; each is a list of entries):
 *   asset_classes       body of POST /assets/class/create
 *   asset_types         body of POST /assets/types/create
 *   assets              body of POST /assets/create; parents are created before their children
 *   clusters            body of POST /orchestration/clusters/create
 *   acps                a node's registration (the API has no ACP create; nodes register themselves)
 *   labels              body of POST /datalabels/labels/create
 *   apps                app-level fields of POST /apps/create plus `versions:` (each a version's
 *                       own fields); an entry with `version` and no `versions` is one version
 *   parameter_defaults  `app_name`, `app_version` and the body of .../parameters/defaults/update
 *   parameter_values    `app_name`, `app_version` and the body of .../parameters/values/update
 *   workloads           body of POST /apps/workloads/create, plus `stopped: true` for the query flag
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
import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { parse as parseYaml, YAMLParseError } from "yaml";
import type { AnyEndpoint } from "../api/endpoint";
import { endpoints } from "../api/endpoints";
import { ApiError } from "../api/errors";
import { formatTimestamp } from "../api/common";
import { krnOf, SYSTEM_IDENTITY, type Auth } from "./auth";
import { allRoutes } from "./handlers";
import { registerAcp } from "./handlers/acps";
import { isReply, type HandlerContext, type Route } from "./handler";
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

interface Section {
  name: string;
  /** Path of the create operation in the endpoint table (POST); absent for ACP registration. */
  path?: string;
  /** Entry fields sent as query parameters. */
  queryKeys?: string[];
  /** Turns the section's entries into operations (default: one per entry). */
  expand?: (entries: Entry[], section: string) => Array<{ where: string; entry: Entry }>;
}

const labelOf = (e: Entry): string | undefined => {
  for (const k of ["name", "label_name"]) if (typeof e[k] === "string") return e[k] as string;
  if (typeof e.app_name === "string") return [e.app_name, e.app_version].filter((x) => typeof x === "string").join(" ");
  return undefined;
};
const whereOf = (section: string, index: number, e: Entry) => {
  const label = labelOf(e);
  return `${section}[${index}]${label ? ` (${label})` : ""}`;
};

const eachEntry = (entries: Entry[], section: string) => entries.map((entry, i) => ({ where: whereOf(section, i, entry), entry }));

/** Assets in an order where every parent comes before its children (otherwise as written). */
function parentsFirst(entries: Entry[], section: string): Array<{ where: string; entry: Entry }> {
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

/** An app with `versions:` becomes one create per version, each carrying the app-level fields. */
function appVersions(entries: Entry[], section: string): Array<{ where: string; entry: Entry }> {
  return entries.flatMap((app, i) => {
    const where = whereOf(section, i, app);
    if (app.versions === undefined) return [{ where, entry: app }];
    if (!Array.isArray(app.versions)) throw new FixtureError("", where, ["versions: must be a list of app versions"]);
    const { versions, ...shared } = app;
    return (versions as unknown[]).map((v, j) => {
      const vwhere = `${where}.versions[${j}]${isObject(v) && typeof v.version === "string" ? ` (${v.version})` : ""}`;
      if (!isObject(v)) throw new FixtureError("", vwhere, ["must be a mapping of the version's fields"]);
      const inherited = Object.fromEntries(Object.entries(shared).filter(([k]) => APP_LEVEL.includes(k) && !(k in v)));
      const unexpected = Object.keys(shared).filter((k) => !APP_LEVEL.includes(k));
      if (unexpected.length > 0) {
        throw new FixtureError("", where, [`${unexpected.join(", ")}: version fields go under versions[], next to 'version' (app-level fields: ${APP_LEVEL.join(", ")})`]);
      }
      return { where: vwhere, entry: { ...inherited, ...v } };
    });
  });
}

export const SECTIONS: readonly Section[] = [
  { name: "asset_classes", path: "/assets/class/create" },
  { name: "asset_types", path: "/assets/types/create" },
  { name: "assets", path: "/assets/create", expand: parentsFirst },
  { name: "clusters", path: "/orchestration/clusters/create" },
  { name: "acps" },
  { name: "labels", path: "/datalabels/labels/create" },
  { name: "apps", path: "/apps/create", expand: appVersions },
  { name: "parameter_defaults", path: "/apps/{app_name}/v/{app_version}/parameters/defaults/update" },
  { name: "parameter_values", path: "/apps/{app_name}/v/{app_version}/parameters/values/update" },
  { name: "workloads", path: "/apps/workloads/create", queryKeys: ["stopped"] },
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

/**
 * Loads a fixture document into an empty store, as one transaction. Returns the changes (for
 * persistence) and how many records of each section were created. When the same fixture (by content
 * hash) already seeded the store, loads nothing and returns `skipped` with the earlier seeding.
 */
export function seedStore(
  doc: FixtureDocument,
  env: SeedEnvironment,
): { changes: Change[]; counts: Record<string, number>; skipped?: SeedRecord } {
  const source = env.source ?? "seed";
  if (!isObject(doc)) throw new FixtureError(source, undefined, ["the document must be a mapping of sections (" + SECTIONS.map((s) => s.name).join(", ") + ")"]);
  const unknown = Object.keys(doc).filter((k) => !SECTIONS.some((s) => s.name === k));
  if (unknown.length > 0) {
    throw new FixtureError(source, undefined, [`unknown section(s) ${unknown.map((k) => `'${k}'`).join(", ")}; allowed: ${SECTIONS.map((s) => s.name).join(", ")}`]);
  }
  const sha256 = fixtureHash(doc);
  const previous = seedRecord(env.store);
  if (previous?.sha256 === sha256) {
    env.log?.(
      `svc-emulator: the state already holds fixture ${source} (sha256 ${short(sha256)}, loaded from ${previous.source} at ${previous.seeded_at}); not loading it again`,
    );
    return { changes: [], counts: {}, skipped: previous };
  }
  if (!storeIsEmpty(env.store)) {
    const what = previous
      ? `the state was seeded from ${previous.source} (sha256 ${short(previous.sha256)}, at ${previous.seeded_at}) and ${source} (sha256 ${short(sha256)}) is a different fixture; fixtures load only into an empty emulator`
      : `the emulator already holds records that no fixture loaded; fixtures load only into an empty emulator`;
    throw new FixtureError(source, undefined, [
      `${what}. To load ${source}, start with a new state file (or move the state file and its .log away), ` +
        `or POST /emulator/reset and start again; to keep the current state, start without the fixture (no --seed)`,
    ]);
  }
  const routes = new Map<string, Route>(allRoutes().map((r) => [r.endpoint.id, r]));
  const counts: Record<string, number> = {};
  const nowMs = env.nowMs;
  const now = formatTimestamp(nowMs);

  const { changes } = env.store.transaction(() => {
    for (const section of SECTIONS) {
      const raw = doc[section.name];
      if (raw === undefined || raw === null) continue;
      if (!Array.isArray(raw)) throw new FixtureError(source, section.name, ["must be a list of entries"]);
      raw.forEach((e, i) => {
        if (!isObject(e)) throw new FixtureError(source, `${section.name}[${i}]`, ["must be a mapping of fields"]);
      });
      let items: Array<{ where: string; entry: Entry }>;
      try {
        items = (section.expand ?? eachEntry)(raw as Entry[], section.name);
      } catch (err) {
        if (err instanceof FixtureError) throw new FixtureError(source, err.where, err.problems);
        throw err;
      }
      for (const { where, entry } of items) {
        try {
          if (section.path) runOperation(section, toOperation(section, where, entry));
          else registerAcp(env.store, entry as never, now);
        } catch (err) {
          if (err instanceof ApiError) throw new FixtureError(source, where, err.messages.map(asEntryField));
          if (err instanceof FixtureError) throw new FixtureError(source, err.where ?? where, err.problems);
          throw err;
        }
        counts[section.name] = (counts[section.name] ?? 0) + 1;
      }
    }
    env.store.table<SeedRecord>(SEED_TABLE).put(SEED_KEY, { sha256, source, seeded_at: now, counts: { ...counts } });
  });
  return { changes, counts };

  function runOperation(section: Section, op: Operation): void {
    const ep = createEndpoint(section);
    const route = routes.get(ep.id);
    if (!route) throw new FixtureError(source, section.name, [`this emulator does not implement POST ${ep.path} yet, so '${section.name}' cannot be loaded`]);
    const params = ep.params ? parseOrThrow(ep.params, op.params, "path") : {};
    const query = ep.query ? parseOrThrow(ep.query, op.query, "query") : {};
    if (!ep.query && Object.keys(op.query).length > 0) throw new FixtureError(source, op.where, ["this section takes no query flags"]);
    const body = ep.body ? parseOrThrow(ep.body, op.body, "body") : undefined;
    const ctx: HandlerContext = {
      params,
      query,
      body,
      identity: SYSTEM_IDENTITY,
      actor: krnOf(SYSTEM_IDENTITY),
      now,
      nowMs,
      requestId: randomUUID(),
      store: env.store,
      files: [],
      baseUrl: env.baseUrl,
      auth: env.auth,
    };
    const result = route.handler(ctx as never);
    if (isReply(result) && result.status >= 300) {
      const detail = JSON.stringify(result.body ?? "").slice(0, 500);
      throw new FixtureError(source, op.where, [`POST ${ep.path} answered ${result.status}: ${detail}`]);
    }
  }

  function createEndpoint(section: Section): AnyEndpoint {
    const ep = endpoints.find((e) => e.method === "POST" && e.path === section.path);
    if (!ep) throw new FixtureError(source, section.name, [`this emulator has no operation POST ${section.path}, so '${section.name}' cannot be loaded`]);
    return ep;
  }
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
