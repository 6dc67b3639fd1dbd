/**
 * The program of the consumer project: what a user's index.ts declares, written as a function so that
 * the testing kit can run it again (and edited) in one process.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

export interface PlantOptions {
  /** The edit: a new title for the line asset and a new value for the pump's rated power. */
  edited?: boolean;
}

export function plant(options: PlantOptions = {}) {
  const edited = options.edited ?? false;
  const pumps = new svc.AssetClass("pumps", { name: "pumps", title: "Pumps" });
  const pumpType = new svc.AssetType("centrifugal-pump", { name: "centrifugal-pump", title: "Centrifugal pump", assetClassName: pumps.name });
  const line = new svc.Asset("line-1", { name: "line-1", title: edited ? "Line 1 (north hall)" : "Line 1", assetTypeName: pumpType.name });
  const pump = new svc.Asset("pump-1", { name: "pump-1", title: "Pump 1", assetTypeName: pumpType.name, parentName: line.name });
  const power = new svc.AssetProperty("pump-1-power", { assetName: pump.name, name: "rated_power_kw", value: edited ? 9 : 7.5 });
  const label = new svc.Label("anomaly", { name: "anomaly", title: "Anomaly" });
  const v1 = new svc.AppVersion("monitor-1.0.0", {
    appName: "pump-monitor",
    version: "1.0.0",
    type: "app",
    title: "Pump monitor",
    manifest: { description: "Watches pump pressure", parameters: [{ name: "threshold", title: "Alarm threshold", data_type: "number", default: 80 }] },
  });
  const app = new svc.App("pump-monitor", { name: v1.appName, title: "Pump monitor" });

  // Outputs read from the classes, with the types the declarations give them.
  const pumpPath: pulumi.Output<string> = pump.path;
  const appType: pulumi.Output<string> = app.type;
  const storedPower = power.storedValue;
  return { pumpPath, appType, storedPower, assetTypeTitle: pump.assetTypeTitle, labelCreated: label.created };
}
