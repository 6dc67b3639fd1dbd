/** The upgrade baselines on disk: `test/upgrade/baselines/<version>/<scenario>/`, read by the upgrade and move tests. */
import * as fs from "node:fs";
import * as path from "node:path";
import semver from "semver";

export const BASELINES = path.join(__dirname, "baselines");

/** The versions and scenarios that have a baseline, by version then scenario. */
export const recorded: [string, string][] = fs.existsSync(BASELINES)
  ? fs
      .readdirSync(BASELINES)
      .sort()
      .flatMap((v) => fs.readdirSync(path.join(BASELINES, v)).map((s): [string, string] => [v, s]))
  : [];

/** The newest version with baselines: its recording holds every scenario of its time. */
export const newestVersion: string | undefined = [...new Set(recorded.map(([v]) => v))].sort(semver.compare).pop();

/** The scenarios recorded for the newest version. */
export const newestScenarios: string[] = recorded.filter(([v]) => v === newestVersion).map(([, s]) => s);
