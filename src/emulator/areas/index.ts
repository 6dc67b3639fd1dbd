/**
 * Every area of the emulator, under the name the endpoint table (src/api/endpoints.ts `areas`) gives
 * it. Each area is a folder with the same two files: `model.ts`, its stored records and their rules
 * (no HTTP), and `routes.ts`, its handlers and views (request → model → answer); a large area splits
 * its routes into more files beside them. The record below is typed by the table's keys, so an area
 * the table has and the emulator lacks, or the reverse, does not compile.
 */
import { areas } from "../../api/endpoints";
import type { AreaModule, Route, Ticker } from "../handler";
import { area as acps } from "./acps/routes";
import { area as appregistry } from "./appregistry/routes";
import { area as apps } from "./apps/routes";
import { area as assets } from "./assets/routes";
import { area as auth } from "./auth/routes";
import { area as bridges } from "./bridges/routes";
import { area as clusters } from "./clusters/routes";
import { area as datalabels } from "./datalabels/routes";
import { area as datatypes } from "./datatypes/routes";
import { area as insights } from "./insights/routes";
import { area as instance } from "./instance/routes";
import { area as legacyWorkloads } from "./legacy-workloads/routes";
import { area as parameters } from "./parameters/routes";
import { area as schedules } from "./schedules/routes";
import { area as workloads } from "./workloads/routes";

export type AreaName = keyof typeof areas;

export const emulatorAreas: { readonly [A in AreaName]: AreaModule } = {
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

/**
 * Every route, each checked to serve an operation of its own area's table entry and to be the only
 * one serving it (the router would otherwise answer with whichever came first).
 */
export function allRoutes(): Route[] {
  const seen = new Set<string>();
  const routes: Route[] = [];
  for (const name of Object.keys(emulatorAreas) as AreaName[]) {
    const own = new Set(Object.values(areas[name]).map((e) => e.id));
    for (const r of emulatorAreas[name].routes) {
      if (!own.has(r.endpoint.id)) throw new Error(`area ${name} routes ${r.endpoint.id}, an operation of another area`);
      if (seen.has(r.endpoint.id)) throw new Error(`two handlers for ${r.endpoint.id}`);
      seen.add(r.endpoint.id);
      routes.push(r);
    }
  }
  return routes;
}

export function allTickers(): Ticker[] {
  return Object.values(emulatorAreas).flatMap((m) => m.tickers ?? []);
}
