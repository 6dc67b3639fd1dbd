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

/** Areas in the order of the spec. */
export const areas = {
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
} as const;

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
