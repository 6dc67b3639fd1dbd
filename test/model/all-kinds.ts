/**
 * The quickstart plus one resource of each kind it leaves out (AssetMetadata, Label, DataLabel,
 * DataType, Bridge, InstanceSettings): a program holding every kind, with real references between
 * them. The faults test runs its whole life under injected faults, and the upgrade test's recorded
 * state was written by it.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";
import { quickstart } from "../../examples/quickstart/program";

/** How many resources `allKinds` declares (the quickstart's 14 and one of each of the 6 other kinds). */
export const ALL_KINDS_RESOURCES = 20;

export function allKinds() {
  const outputs = quickstart();
  // The quickstart's pump-1, as an output of the pumps (so that what refers to it comes after it).
  const pump1 = pulumi.all(outputs.assetPaths).apply(() => "pump-1");
  new svc.AssetMetadata("pump-1-vendor", { assetName: pump1, name: "vendor", payload: { make: "ACME", serial: { plate: "P-1", year: 2029 } } });
  const label = new svc.Label("anomaly", { name: "anomaly", title: "Anomaly" });
  new svc.DataLabel("bearing-noise", {
    labelName: label.name,
    startDate: "2030-05-01T12:00:00.000000Z",
    endDate: "2030-05-01T13:00:00.000000Z",
    description: "bearing noise on pump 1",
    metrics: [{ assetName: pump1, name: "vibration" }],
    source: { type: "user" },
  });
  const reading = new svc.DataType("pump-reading", {
    icd: { name: "plant.pump_reading", className: "PumpReading", version: "1.0.0", fields: [{ name: "pressure", type: "number", description: "bar" }] },
  });
  const bridge = new svc.Bridge("opcua-line-1", {
    name: "opcua-line-1",
    clusterName: outputs.cluster,
    appName: "opcua-bridge",
    appVersion: "2.0.0",
    protocol: "opcua",
    payload: { endpoint: "opc.tcp://plc:4840", password: pulumi.secret("opcua-line-1-password"), metrics_map: [{ name: "pressure", asset_name: pump1 }] },
  });
  new svc.InstanceSettings("settings", { acp: { metrics: { enabled: true, interval: 45 }, status: { enabled: true, interval: 20 } } });
  return { ...outputs, dataType: reading.id, bridgeWorkload: bridge.workloadName };
}
