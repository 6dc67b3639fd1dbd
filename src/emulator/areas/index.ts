/** Every area's handlers, gathered for the router. */
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
