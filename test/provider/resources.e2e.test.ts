/**
 * Every resource kind through the real dynamic-provider host (the engine kit), against the emulator:
 * create; a re-run plans nothing (the kit checks an empty plan after every up); update in place;
 * replace; destroy leaves nothing behind (checked through the provider's Read).
 */
import * as svc from "../../src";
import * as testing from "../../src/testing";

testing.registerMatchers();

type Variant = 0 | 1 | 2;

interface Case {
  kind: string;
  /** Declares the subject (named "subject") and what it needs, in variant 0 (base), 1 (update) or 2 (replace). */
  program(v: Variant): void;
  /** Expected action on "subject" for variants 1 and 2. */
  actions: [svc_action: "update" | "replace" | "none", "update" | "replace" | "none"];
  /** The stack holds something API v4 cannot delete (a cluster, a data type) or a singleton: destroy is checked by hand. */
  retained?: boolean;
}

const cluster = () => new svc.Cluster("cluster", { name: "plant-e2e" });
const pumpType = () => new svc.AssetType("type", { name: "pump", title: "Pump" });
const pumpAsset = () => new svc.Asset("asset", { name: "pump-1", title: "Pump 1", assetTypeName: pumpType().name });
const manifest = {
  parameters: [
    { name: "threshold", data_type: "number" as const, default: 80 },
    { name: "mode", data_type: "string" as const, default: "std" },
  ],
};
const appVersion = (version = "1.0.0") => new svc.AppVersion(`app-${version}`, { appName: "monitor", version, type: "app", manifest });

const cases: Case[] = [
  {
    kind: "Cluster",
    retained: true,
    actions: ["update", "replace"],
    program: (v) => void new svc.Cluster("subject", { name: v === 2 ? "c-2" : "c-1", title: v === 0 ? "One" : "Uno" }),
  },
  {
    kind: "AssetClass",
    actions: ["update", "replace"],
    program: (v) => void new svc.AssetClass("subject", { name: v === 2 ? "valves" : "pumps", title: v === 0 ? "Pumps" : "All pumps" }),
  },
  {
    kind: "AssetType",
    actions: ["update", "replace"],
    program: (v) => {
      const cls = new svc.AssetClass("class", { name: "pumps", title: "Pumps" });
      new svc.AssetType("subject", { name: v === 2 ? "screw-pump" : "pump", title: v === 0 ? "Pump" : "Centrifugal pump", assetClassName: cls.name });
    },
  },
  {
    kind: "Asset",
    actions: ["update", "replace"],
    program: (v) => {
      const t = pumpType();
      new svc.Asset("subject", { name: v === 2 ? "pump-2" : "pump-1", title: v === 0 ? "Pump 1" : "Pump one", assetTypeName: t.name, location: { lat: 48.1, lon: 11.5 } });
    },
  },
  {
    kind: "AssetProperty",
    actions: ["update", "replace"],
    program: (v) => {
      const a = pumpAsset();
      new svc.AssetProperty("subject", {
        assetName: a.name,
        name: v === 2 ? "rated_flow" : "rated_power",
        title: v === 2 ? "Rated flow" : "Rated power",
        value: v === 0 ? 7.5 : 9,
      });
    },
  },
  {
    kind: "AssetMetadata",
    actions: ["update", "replace"],
    program: (v) => {
      const a = pumpAsset();
      new svc.AssetMetadata("subject", { assetName: a.name, name: v === 2 ? "service" : "vendor", payload: { make: v === 0 ? "ACME" : "Globex", nested: { keep: [1, 2] } } });
    },
  },
  {
    kind: "Label",
    actions: ["update", "replace"],
    program: (v) => void new svc.Label("subject", { name: v === 2 ? "normal" : "anomaly", title: v === 0 ? "Anomaly" : "Anomalous" }),
  },
  {
    kind: "DataLabel",
    actions: ["update", "update"],
    program: (v) =>
      void new svc.DataLabel("subject", {
        labelName: "anomaly",
        startDate: "2030-05-01T12:00:00.123456Z",
        endDate: v === 2 ? "2030-05-01T14:00:00Z" : "2030-05-01T13:00:00Z",
        description: v === 0 ? "bearing noise" : "bearing noise, confirmed",
        metrics: [{ assetName: "pump-1", name: "vibration" }],
        source: { type: "user" },
      }),
  },
  {
    kind: "DataType",
    retained: true,
    actions: ["none", "replace"],
    program: (v) =>
      void new svc.DataType("subject", {
        icd: { name: "plant.pump_reading", className: "PumpReading", version: v === 2 ? "1.1.0" : "1.0.0", fields: [{ name: "pressure", type: "number", description: "bar" }] },
      }),
  },
  {
    kind: "AppVersion",
    actions: ["update", "replace"],
    program: (v) =>
      void new svc.AppVersion("subject", {
        appName: "monitor",
        version: v === 2 ? "2.0.0" : "1.0.0",
        type: "app",
        manifest,
        image: v === 0 ? "registry.local/monitor:1" : "registry.local/monitor:1b",
        defaults: { deployment: { maxResources: 5 }, app: { configuration: { SampleRate: 10 } } },
      }),
  },
  {
    kind: "App",
    actions: ["update", "update"],
    program: (v) => {
      const ver = appVersion();
      new svc.App("subject", { name: ver.appName, title: v === 0 ? "Monitor" : "Pump monitor", description: v === 2 ? "watches pumps" : undefined });
    },
  },
  {
    kind: "Workload",
    retained: true,
    actions: ["update", "replace"],
    program: (v) => {
      const c = cluster();
      const v1 = appVersion("1.0.0");
      const v2 = appVersion("1.1.0");
      new svc.Workload("subject", {
        name: v === 2 ? "monitor-b" : "monitor-a",
        appName: v1.appName,
        appVersion: v === 0 ? v1.version : v2.version,
        clusterName: c.name,
        runtime: { resources: [{ resource: "krn:asset:pump-1" }], configuration: { ThresholdBar: 4 } },
      });
    },
  },
  {
    kind: "AppParameterValues",
    actions: ["update", "replace"],
    program: (v) => {
      const ver = appVersion();
      pumpAsset();
      new svc.AppParameterValues("subject", {
        appName: ver.appName,
        appVersion: ver.version,
        resource: v === 2 ? "pump-9" : "pump-1",
        values: v === 0 ? { threshold: 70 } : { threshold: 75, mode: "eco" },
      });
    },
  },
  {
    kind: "ParameterSchedule",
    actions: ["replace", "replace"],
    program: (v) => {
      const ver = appVersion();
      new svc.ParameterSchedule("subject", {
        appName: ver.appName,
        appVersion: ver.version,
        scheduledFor: "2031-01-01T22:00:00Z",
        resources: ["pump-1"],
        parameters: { mode: v === 2 ? "off" : "eco" },
        comment: v === 0 ? "night" : "night shift",
        revert: { scheduledFor: "2031-01-02T06:00:00Z", resourceParameters: [{ resource: "krn:asset:pump-1", parameters: { mode: "std" } }] },
      });
    },
  },
  {
    kind: "Bridge",
    retained: true,
    actions: ["replace", "replace"],
    program: (v) => {
      const c = cluster();
      const ver = appVersion();
      new svc.Bridge("subject", {
        name: "opcua-1",
        clusterName: c.name,
        appName: ver.appName,
        appVersion: ver.version,
        protocol: "opcua",
        payload: { endpoint: v === 0 ? "opc.tcp://plc:4840" : "opc.tcp://plc2:4840", Retries: v === 2 ? 5 : 3 },
      });
    },
  },
  {
    kind: "InstanceSettings",
    retained: true,
    actions: ["update", "update"],
    program: (v) => void new svc.InstanceSettings("subject", { acp: { metrics: { enabled: true, interval: v === 0 ? 30 : v === 1 ? 45 : 60 } } }),
  },
];

const program = (c: Case, v: Variant) => async () => {
  c.program(v);
};

describe("every resource kind goes up, re-runs clean, updates, replaces and is destroyed", () => {
  test.each(cases.map((c) => [c.kind, c] as const))("%s", async (_kind, c) => {
    const stack = await testing.stack(program(c, 0), { emulator: true, checkDestroy: !c.retained });
    try {
      const created = await stack.up();
      expect(created).toHaveActions({ subject: "create" });
      expect(await stack.up()).toHaveNoChanges();
      expect(await stack.up(program(c, 1))).toHaveActions({ subject: c.actions[0] === "none" ? "same" : c.actions[0] });
      expect(await stack.up(program(c, 2))).toHaveActions({ subject: c.actions[1] === "none" ? "same" : c.actions[1] });
      await stack.expectNoDrift();
      const destroyed = await stack.destroy();
      expect(destroyed.operations.find((o) => o.name === "subject")?.op).toBe("delete");
      expect(stack.resources()).toEqual([]);
      if (c.kind === "InstanceSettings") {
        const settings = (await fetch(`${stack.emulator!.baseUrl}/emulator/state`).then((r) => r.json())) as { instance_settings?: unknown };
        expect(JSON.stringify(settings.instance_settings ?? [])).toContain('"metrics":{"enabled":true,"interval":60}');
      }
    } finally {
      await stack.close();
    }
  });
});
