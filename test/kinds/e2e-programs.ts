/** What the kinds' lifecycle cases (test/provider/resources.e2e.test.ts) declare besides their subject. */
import * as svc from "../../src";

export const cluster = () => new svc.Cluster("cluster", { name: "plant-e2e" });
export const pumpType = () => new svc.AssetType("type", { name: "pump", title: "Pump" });
export const pumpAsset = () => new svc.Asset("asset", { name: "pump-1", title: "Pump 1", assetTypeName: pumpType().name });
export const manifest = {
  parameters: [
    { name: "threshold", data_type: "number" as const, default: 80 },
    { name: "mode", data_type: "string" as const, default: "std" },
  ],
};
export const appVersion = (version = "1.0.0") => new svc.AppVersion(`app-${version}`, { appName: "monitor", version, type: "app", manifest });
