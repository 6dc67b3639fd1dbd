/**
 * The quickstart: a cluster, an asset hierarchy, an app with two versions and its parameters,
 * a workload and a parameter schedule. Runs against the embedded emulator by default.
 */
import * as svc from "pulumi-svc";

export function quickstart() {
  const cluster = new svc.Cluster("plant-a", { name: "plant-a", title: "Plant A", ready: true, telemetryScrapeInterval: 60 });

  const pumps = new svc.AssetClass("pumps", { name: "pumps", title: "Pumps" });
  const lineType = new svc.AssetType("production-line", { name: "production-line", title: "Production line" });
  const pumpType = new svc.AssetType("centrifugal-pump", { name: "centrifugal-pump", title: "Centrifugal pump", assetClassName: pumps.name });

  const line = new svc.Asset("line-1", { name: "line-1", title: "Line 1", assetTypeName: lineType.name });
  const pumpNames = ["pump-1", "pump-2"];
  const assets = pumpNames.map(
    (n, i) => new svc.Asset(n, { name: n, title: `Pump ${i + 1}`, assetTypeName: pumpType.name, parentName: line.name, location: { lat: 48.1 + i / 100, lon: 11.5 } }),
  );
  new svc.AssetProperty("pump-1-rated-power", { assetName: assets[0].name, name: "rated_power_kw", title: "Rated power (kW)", value: 7.5 });

  const manifest = {
    description: "Watches pump pressure and vibration",
    io: [{ name: "pressure", data_type: "number", unit: "bar" }],
    parameters: [
      { name: "threshold", title: "Alarm threshold", data_type: "number" as const, default: 80 },
      { name: "mode", title: "Operating mode", data_type: "string" as const, default: "standard" },
    ],
  };
  const v1 = new svc.AppVersion("pump-monitor-1.0.0", {
    appName: "pump-monitor",
    version: "1.0.0",
    type: "app",
    title: "Pump monitor",
    manifest,
    image: "registry.local/pump-monitor:1.0.0",
  });
  const v2 = new svc.AppVersion("pump-monitor-1.1.0", {
    appName: v1.appName,
    version: "1.1.0",
    type: "app",
    title: "Pump monitor",
    manifest,
    image: "registry.local/pump-monitor:1.1.0",
    defaults: { deployment: { maxResources: 10 } },
  });
  const app = new svc.App("pump-monitor", { name: v1.appName, title: "Pump monitor", description: "Watches pump pressure and vibration" });

  const workload = new svc.Workload("pump-monitor-line-1", {
    name: "pump-monitor-line-1",
    title: "Pump monitor, line 1",
    appName: v2.appName,
    appVersion: v2.version,
    clusterName: cluster.name,
    runtime: { resources: assets.map((a) => ({ resource: a.name.apply((n) => `krn:asset:${n}`) })), configuration: { sampleRateHz: 10 } },
  });

  const values = new svc.AppParameterValues("pump-1-values", { appName: v2.appName, appVersion: v2.version, resource: assets[0].name, values: { threshold: 75 } });

  // A fixed time keeps the program deterministic (a computed "now + 1 day" would replace it on every run).
  const nightMode = new svc.ParameterSchedule(
    "night-eco-mode",
    {
      appName: v2.appName,
      appVersion: v2.version,
      scheduledFor: "2031-01-01T22:00:00Z",
      resources: pumpNames,
      parameters: { mode: "eco" },
      revert: {
        scheduledFor: "2031-01-02T06:00:00Z",
        resourceParameters: pumpNames.map((resource) => ({ resource, parameters: { mode: "standard" } })),
      },
      comment: "Eco mode over the first night of 2031",
    },
    { dependsOn: [values, ...assets] },
  );

  return {
    cluster: cluster.name,
    clusterStatus: cluster.status,
    app: app.name,
    // The newest version the program publishes (the App keeps only the app's own fields; getApp reads the rest).
    latestVersion: v2.version,
    workload: workload.name,
    workloadState: workload.state,
    assetPaths: assets.map((a) => a.path),
    scheduleState: nightMode.state,
  };
}
