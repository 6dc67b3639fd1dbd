/**
 * THE endpoint table: every operation of both spec parts, the operations the facts file adds, and
 * the two token endpoints, gathered from the area files. Router, permission checks, client and
 * OpenAPI document all derive from this list.
 */
import type { AnyEndpoint } from "./endpoint";
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
 * The type of `areas`, naming each area's own constant: left to inference, the declaration file would
 * write every endpoint's schema types out again here (450 KB), and a user's type-check of the client
 * would read and check each of them twice.
 */
export type Areas = {
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
};

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

export const endpoints: AnyEndpoint[] = Object.values(areas).flatMap((a) => Object.values(a as Record<string, AnyEndpoint>));

const byId = new Map<string, AnyEndpoint>();
for (const e of endpoints) {
  if (byId.has(e.id)) throw new Error(`duplicate endpoint id ${e.id}`);
  byId.set(e.id, e);
}
const byRoute = new Set<string>();
for (const e of endpoints) {
  const k = `${e.method} ${e.path}`;
  if (byRoute.has(k)) throw new Error(`duplicate route ${k}`);
  byRoute.add(k);
}

export function endpointById(id: string): AnyEndpoint {
  const e = byId.get(id);
  if (!e) throw new Error(`no endpoint with id ${id}`);
  return e;
}
