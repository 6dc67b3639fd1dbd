/** Every area's handlers, gathered for the router. */
import type { AreaModule, Route, Ticker } from "../handler";
import { area as acps } from "./acps";
import { area as appregistry } from "./appregistry";
import { area as apps } from "./apps";
import { area as assets } from "./assets";
import { area as auth } from "./auth";
import { area as bridges } from "./bridges";
import { area as clusters } from "./clusters";
import { area as datalabels } from "./datalabels";
import { area as datatypes } from "./datatypes";
import { area as insights } from "./insights";
import { area as instance } from "./instance";
import { area as legacyWorkloads } from "./legacy-workloads";
import { area as parameters } from "./parameters";
import { area as schedules } from "./schedules";
import { area as workloads } from "./workloads";

const modules: AreaModule[] = [
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
];

export function allRoutes(): Route[] {
  const routes = modules.flatMap((m) => m.routes);
  const seen = new Set<string>();
  for (const r of routes) {
    if (seen.has(r.endpoint.id)) throw new Error(`two handlers for ${r.endpoint.id}`);
    seen.add(r.endpoint.id);
  }
  return routes;
}

export function allTickers(): Ticker[] {
  return modules.flatMap((m) => m.tickers ?? []);
}
