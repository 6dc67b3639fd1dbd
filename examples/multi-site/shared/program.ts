/**
 * The shared stack: the objects every site uses, declared once. The asset classes and types, the
 * app with its versions and the labels are platform-wide (one name, one object), so exactly one
 * stack owns them: this one. The site stacks (../site) look them up and never declare them, so
 * destroying a site leaves them, and the other sites, as they are.
 *
 * Its outputs are the names the sites read through a stack reference.
 */
import * as svc from "pulumi-svc";

export function shared() {
  const pumps = new svc.AssetClass("pumps", { name: "pumps", title: "Pumps" });
  const lineType = new svc.AssetType("production-line", { name: "production-line", title: "Production line" });
  const pumpType = new svc.AssetType("centrifugal-pump", { name: "centrifugal-pump", title: "Centrifugal pump", assetClassName: pumps.name });

  const manifest = {
    description: "Watches pump pressure and vibration",
    io: [{ name: "pressure", data_type: "number", unit: "bar" }],
    parameters: [{ name: "threshold", title: "Alarm threshold", data_type: "number" as const, default: 80 }],
  };
  const v1 = new svc.AppVersion("pump-monitor-1.0.0", {
    appName: "pump-monitor",
    version: "1.0.0",
    type: "app",
    title: "Pump monitor",
    manifest,
    image: "registry.local/pump-monitor:1.0.0",
  });
  const v2 = new svc.AppVersion(
    "pump-monitor-1.1.0",
    { appName: v1.appName, version: "1.1.0", type: "app", title: "Pump monitor", manifest, image: "registry.local/pump-monitor:1.1.0" },
    { dependsOn: v1 },
  );
  // Destroying an App deletes the app with all its versions: only this stack may declare it.
  const app = new svc.App("pump-monitor", { name: v1.appName, title: "Pump monitor", description: manifest.description });

  const commissioning = new svc.Label("commissioning", { name: "commissioning", title: "Commissioning" });

  return {
    assetClass: pumps.name,
    lineType: lineType.name,
    pumpType: pumpType.name,
    app: app.name,
    // The version the sites run.
    appVersion: v2.version,
    label: commissioning.name,
  };
}
