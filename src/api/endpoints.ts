/**
 * THE endpoint table: every operation of both spec parts, the operations the facts file adds, and
 * the two token endpoints, gathered from the area files. Router, permission checks, client and
 * OpenAPI document all derive from this list.
 */
import { confirmReads, type AnyEndpoint } from "./endpoint";
import { acps } from "./acps";
import { appregistry } from "./appregistry";
import { apps } from "./apps";
import { assets } from "./assets";
import { auth } from "./auth";
import { bridges } from "./bridges";
import { clusters } from "./clusters";
import { datalabels } from "./datalabels";
import { datatypes } from "./datatypes";
import { insights } from "./insights";
import { instance } from "./instance";
import { legacyWorkloads } from "./legacy-workloads";
import { parameters } from "./parameters";
import { schedules } from "./schedules";
import { workloads } from "./workloads";

/**
 * A table of areas in which each area sits under its own name, the one its ids start with (`area`
 * derives them from it): an area filed under another key fails the type-check.
 */
export type AreaTable<A extends { readonly [K in keyof A & string]: Readonly<Record<string, { readonly id: `${K}.${string}` }>> }> = A;

/**
 * The type of `areas`, naming each area's own constant: left to inference, the declaration file would
 * write every endpoint's schema types out again here (450 KB), and a user's type-check of the client
 * would read and check each of them twice.
 */
export type Areas = AreaTable<{
  readonly auth: typeof auth;
  readonly apps: typeof apps;
  readonly parameters: typeof parameters;
  readonly schedules: typeof schedules;
  readonly workloads: typeof workloads;
  readonly legacyWorkloads: typeof legacyWorkloads;
  readonly insights: typeof insights;
  readonly acps: typeof acps;
  readonly appregistry: typeof appregistry;
  readonly assets: typeof assets;
  readonly bridges: typeof bridges;
  readonly clusters: typeof clusters;
  readonly datalabels: typeof datalabels;
  readonly datatypes: typeof datatypes;
  readonly instance: typeof instance;
}>;

/** Areas in the order of the spec. */
export const areas: Areas = {
  auth,
  apps,
  parameters,
  schedules,
  workloads,
  legacyWorkloads,
  insights,
  acps,
  appregistry,
  assets,
  bridges,
  clusters,
  datalabels,
  datatypes,
  instance,
};

export const endpoints: AnyEndpoint[] = Object.values(areas).flatMap((a) => Object.values<AnyEndpoint>(a));

/**
 * The rows by id, once the table holds together: ids and routes are unique, and each confirm reads a
 * read of the table (rows name the reads of their confirms by id).
 */
export function indexTable(rows: readonly AnyEndpoint[]): Map<string, AnyEndpoint> {
  const byId = new Map<string, AnyEndpoint>();
  const byRoute = new Set<string>();
  for (const e of rows) {
    if (byId.has(e.id)) throw new Error(`duplicate endpoint id ${e.id}`);
    byId.set(e.id, e);
    const route = `${e.method} ${e.path}`;
    if (byRoute.has(route)) throw new Error(`duplicate route ${route}`);
    byRoute.add(route);
  }
  for (const e of rows) {
    for (const id of confirmReads(e)) {
      if (byId.get(id)?.effect !== "read") throw new Error(`${e.id}: its confirm reads ${id}, which is not a read of the table`);
    }
  }
  return byId;
}

const byId = indexTable(endpoints);

export function endpointById(id: string): AnyEndpoint {
  const e = byId.get(id);
  if (!e) throw new Error(`no endpoint with id ${id}`);
  return e;
}
