/**
 * GitOps: the desired workloads live in `workloads.yaml`; a pull request edits the file, CI runs
 * `pulumi preview --diff` on it, and a merge to main runs `pulumi up`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as svc from "pulumi-svc";
import { parse } from "yaml";

export interface Desired {
  cluster: { name: string; title?: string };
  app: { name: string; type: "app" | "importer" | "exporter" | "docker"; versions: string[] };
  workloads: Array<{ name: string; version: string; assets: string[]; configuration?: Record<string, unknown> }>;
  assetType: { name: string; title: string };
}

export function loadDesired(file = path.join(__dirname, "workloads.yaml")): Desired {
  return parse(fs.readFileSync(file, "utf8")) as Desired;
}

export function gitops(desired: Desired = loadDesired()) {
  const cluster = new svc.Cluster(desired.cluster.name, { name: desired.cluster.name, title: desired.cluster.title });
  const type = new svc.AssetType(desired.assetType.name, desired.assetType);
  const assetNames = [...new Set(desired.workloads.flatMap((w) => w.assets))].sort();
  const assets = new Map(assetNames.map((n) => [n, new svc.Asset(n, { name: n, title: n, assetTypeName: type.name })]));
  const versions = new Map<string, svc.AppVersion>();
  let previous: svc.AppVersion | undefined;
  for (const v of desired.app.versions) {
    previous = new svc.AppVersion(`${desired.app.name}-${v}`, { appName: desired.app.name, version: v, type: desired.app.type }, previous ? { dependsOn: previous } : undefined);
    versions.set(v, previous);
  }
  const workloads = desired.workloads.map((w) => {
    const version = versions.get(w.version);
    if (!version) throw new Error(`workloads.yaml: workload ${w.name} asks for version ${w.version}, which app.versions does not list`);
    return new svc.Workload(w.name, {
      name: w.name,
      appName: version.appName,
      appVersion: version.version,
      clusterName: cluster.name,
      runtime: { resources: w.assets.map((a) => ({ resource: assets.get(a)!.name.apply((n) => `krn:asset:${n}`) })), configuration: w.configuration ?? {} },
    });
  });
  return { workloads: workloads.map((w) => w.name) };
}
