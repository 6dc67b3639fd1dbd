/**
 * One site: its cluster, its line of pumps, the pump monitor running on them, a pump's alarm
 * threshold and the commissioning window of its pumps. Every site stack runs this program; the site's
 * name comes from the stack's config (`svc-site:site`), and every object it declares carries that name,
 * so two sites never declare the same object.
 *
 * What all sites use (asset types, the app and its versions, the label) belongs to the shared stack
 * (../shared). A site reads their names from the shared stack's outputs (a stack reference) and looks
 * each one up on the platform: a lookup reads, it never creates, adopts or deletes, so destroying this
 * site leaves the shared objects, and the other sites, as they are.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

/** The shared stack's name as a stack reference writes it; with a local backend, `organization/<project>/<stack>`. */
export const DEFAULT_SHARED_STACK = "organization/svc-shared/shared";

export async function site() {
  const config = new pulumi.Config();
  const name = config.require("site");
  const threshold = config.getNumber("threshold") ?? 75;

  // Which objects the shared stack publishes: its outputs.
  const shared = new pulumi.StackReference("shared", { name: config.get("sharedStack") ?? DEFAULT_SHARED_STACK });
  const names = async (key: string) => String(await shared.requireOutputValue(key));

  // The shared objects as the platform holds them. A missing one fails the run here, naming the object
  // and the stack to bring up first, before anything of the site is created.
  const [lineType, pumpType, version, commissioning] = await Promise.all([
    names("lineType").then(svc.getAssetType),
    names("pumpType").then(svc.getAssetType),
    Promise.all([names("app"), names("appVersion")]).then(([app, v]) => svc.getAppVersion(app, v)),
    names("label").then(svc.getLabel),
  ]);
  if (!version.parameters?.some((p) => p.name === "threshold")) {
    throw new Error(
      `site ${name}: ${version.name} ${version.version} has no parameter "threshold" (it has: ${(version.parameters ?? []).map((p) => p.name).join(", ") || "none"})`,
    );
  }

  const cluster = new svc.Cluster(name, { name, title: `Site ${name}`, ready: true });
  const line = new svc.Asset(`${name}-line-1`, { name: `${name}-line-1`, title: `${name} line 1`, assetTypeName: lineType.name });
  const pumps = [1, 2].map(
    (i) => new svc.Asset(`${name}-pump-${i}`, { name: `${name}-pump-${i}`, title: `${name} pump ${i}`, assetTypeName: pumpType.name, parentName: line.name }),
  );

  const monitor = new svc.Workload(`pump-monitor-${name}`, {
    name: `pump-monitor-${name}`,
    title: `Pump monitor, ${name}`,
    appName: version.name,
    appVersion: version.version,
    clusterName: cluster.name,
    runtime: { resources: pumps.map((p) => ({ resource: p.name.apply((n) => `krn:asset:${n}`) })), configuration: {} },
  });
  new svc.AppParameterValues(`${name}-pump-1-threshold`, { appName: version.name, appVersion: version.version, resource: pumps[0].name, values: { threshold } });
  new svc.DataLabel(`${name}-commissioning`, {
    labelName: commissioning.name,
    startDate: "2030-01-01T00:00:00Z",
    endDate: "2030-01-08T00:00:00Z",
    metrics: pumps.map((p) => ({ assetName: p.name, name: "pressure" })),
    description: `Commissioning of ${name}`,
  });

  return {
    site: name,
    cluster: cluster.name,
    pumps: pumps.map((p) => p.name),
    workload: monitor.name,
    workloadState: monitor.state,
    appVersion: `${version.name}@${version.version}`,
  };
}
