/**
 * The apps' and app versions' tables and the lookups every apps module uses: model.ts (the rules of
 * apps and versions) and model-resources.ts (what an app's workloads hold) both read them, so neither
 * imports the other for them.
 */
import semver from "semver";
import type { AppListItem, AppVersion } from "../../../api/apps";
import { notFound } from "../../../api/errors";
import type { Store } from "../../store/store";
import { TABLES } from "../../store/tables";

/** The app as stored: its status is read from its workloads when it is shown. */
export type StoredApp = Omit<AppListItem, "status">;

export const appsTable = (store: Store) => store.table<StoredApp>(TABLES.apps);
export const versionsTable = (store: Store) => store.table<AppVersion>(TABLES.appVersions);
export const versionsOf = (store: Store, app: string): AppVersion[] =>
  versionsTable(store)
    .filter((v) => v.name === app)
    .sort((a, b) => semver.compare(a.version, b.version));

export function requireApp(store: Store, app: string): StoredApp {
  const a = appsTable(store).get(app);
  if (!a) throw notFound("app", app);
  return a;
}
