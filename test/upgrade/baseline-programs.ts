/**
 * The programs of the upgrade baselines (baselines.test.ts). Each scenario's state was recorded under
 * the real `pulumi` CLI by the package version its folder names, and every later build previews that
 * state with the same program: a program must therefore never change once a version's baseline holds
 * its state (a new case is a new scenario). The programs import nothing of the repository's other
 * programs, which may change.
 *
 * - `all-kinds`: one resource of every kind, with references between them, a secret in a bridge's
 *   payload, and app versions whose image is an arg and a manifest field.
 * - `options`: what changes what the state stores: objects taken over with `adopt` (made by hand
 *   before the first up), `protect`, `retainOnDelete`, `additionalSecretOutputs`, a secret nested in
 *   a payload, a component with children, a resource renamed with an alias, a resource replaced by the
 *   second up, and an app version updated in place (its image patched) by it.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";
import type { SvcClient } from "../../src/client";

export interface Scenario {
  /** The program, at the phase the baseline is previewed with (the last one). */
  program: () => Record<string, unknown>;
  /** The programs the recording runs `pulumi up` with, in order; the last is `program`. */
  phases: (() => Record<string, unknown>)[];
  /** What a user made on the platform by hand before the first up (the objects `adopt` takes over). */
  beforeFirstUp?: (client: SvcClient) => Promise<void>;
}

function allKinds(): Record<string, unknown> {
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
  new svc.AssetMetadata("pump-1-vendor", { assetName: assets[0].name, name: "vendor", payload: { make: "ACME", serial: { plate: "P-1", year: 2029 } } });

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
    manifest: { ...manifest, image: "registry.local/pump-monitor:1.0.0" },
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
  const schedule = new svc.ParameterSchedule(
    "night-eco-mode",
    {
      appName: v2.appName,
      appVersion: v2.version,
      scheduledFor: "2031-01-01T22:00:00Z",
      resources: pumpNames,
      parameters: { mode: "eco" },
      revert: { scheduledFor: "2031-01-02T06:00:00Z", resourceParameters: pumpNames.map((resource) => ({ resource, parameters: { mode: "standard" } })) },
      comment: "Eco mode over the first night of 2031",
    },
    { dependsOn: [values, ...assets] },
  );
  const label = new svc.Label("anomaly", { name: "anomaly", title: "Anomaly" });
  new svc.DataLabel("bearing-noise", {
    labelName: label.name,
    startDate: "2030-05-01T12:00:00.000000Z",
    endDate: "2030-05-01T13:00:00.000000Z",
    description: "bearing noise on pump 1",
    metrics: [{ assetName: assets[0].name, name: "vibration" }],
    source: { type: "user" },
  });
  const reading = new svc.DataType("pump-reading", {
    icd: { name: "plant.pump_reading", className: "PumpReading", version: "1.0.0", fields: [{ name: "pressure", type: "number", description: "bar" }] },
  });
  const bridge = new svc.Bridge("opcua-line-1", {
    name: "opcua-line-1",
    clusterName: cluster.name,
    appName: "opcua-bridge",
    appVersion: "2.0.0",
    protocol: "opcua",
    payload: { endpoint: "opc.tcp://plc:4840", password: pulumi.secret("opcua-line-1-password"), metrics_map: [{ name: "pressure", asset_name: assets[0].name }] },
  });
  new svc.InstanceSettings("settings", { acp: { metrics: { enabled: true, interval: 45 }, status: { enabled: true, interval: 20 } } });
  return {
    app: app.name,
    workloadState: workload.state,
    scheduleState: schedule.state,
    dataType: reading.id,
    bridgeWorkload: bridge.workloadName,
  };
}

/** A component of the program's own, holding a line and its conveyor type. */
class Line extends pulumi.ComponentResource {
  readonly asset: svc.Asset;
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("upgrade:index:Line", name, {}, opts);
    const type = new svc.AssetType(`${name}-conveyor`, { name: "conveyor", title: "Conveyor" }, { parent: this });
    this.asset = new svc.Asset(name, { name, title: "Line 2", assetTypeName: type.name }, { parent: this });
    this.registerOutputs({ asset: this.asset.name });
  }
}

function options(phase: 0 | 1): () => Record<string, unknown> {
  return () => {
    const motors = new svc.AssetClass("motors", { name: "motors", title: "Motors", adopt: true });
    new svc.Label("maintenance", { name: "maintenance", title: "Maintenance", adopt: true });
    new svc.AppVersion("gauge-1.0.0", { appName: "gauge", version: "1.0.0", type: "app", title: "Gauge", image: "registry.local/gauge:1.0.0", adopt: true });
    new svc.AssetClass("archive", { name: "archive", title: "Archive" }, { protect: true, additionalSecretOutputs: ["createdBy"] });
    new svc.AssetClass("legacy", { name: "legacy", title: "Legacy" }, { retainOnDelete: true });
    const line = new Line("line-2");
    new svc.AssetMetadata("line-2-access", { assetName: line.asset.name, name: "access", payload: { user: "ops", token: pulumi.secret("line-2-token") } }, { parent: line });
    // Renamed by the second up: the alias keeps it the same object.
    const renamed = phase === 0 ? "defect-label" : "defect-labels";
    new svc.Label(renamed, { name: "defects", title: "Defects" }, phase === 0 ? {} : { aliases: [{ name: "defect-label" }] });
    // Replaced by the second up (its name changes).
    new svc.Label("shift", { name: phase === 0 ? "shift-a" : "shift-b", title: "Shift" }, { deleteBeforeReplace: true });
    // Updated in place by the second up (its image is patched).
    const meter = new svc.AppVersion("meter-1.0.0", { appName: "meter", version: "1.0.0", type: "app", title: "Meter", image: `registry.local/meter:1.0.${phase}` });
    return { motors: motors.name, line: line.asset.name, meter: meter.version };
  };
}

export const scenarios: Record<string, Scenario> = {
  "all-kinds": { program: allKinds, phases: [allKinds] },
  options: {
    program: options(1),
    phases: [options(0), options(1)],
    beforeFirstUp: async (client) => {
      await client.assets.classCreate({ body: { name: "motors", title: "Motors" } });
      await client.datalabels.labelCreate({ body: { name: "maintenance", title: "Maintenance by hand" } });
      await client.apps.create({ body: { name: "gauge", version: "1.0.0", type: "app", title: "Gauge", description: "", image: "registry.local/gauge:1.0.0" } });
    },
  },
};
