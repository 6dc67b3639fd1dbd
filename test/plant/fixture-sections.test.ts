/**
 * The fixture sections and fields a snapshot writes (src/emulator/fixtures.ts), loaded through the
 * operations they name: what each one makes, and errors naming the entry and the field.
 */
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

async function withSeed(seed: Record<string, unknown>, fn: (emu: TestEmulator) => Promise<void>): Promise<void> {
  const emu = await startTestEmulator({ seed });
  try {
    await fn(emu);
  } finally {
    await emu.close();
  }
}

const base = {
  asset_classes: [{ name: "machine", title: "Machine" }],
  asset_types: [{ name: "pump", title: "Pump", asset_class_name: "machine", metadata: { vendor: { make: "ACME" }, service: { days: 90 } } }],
  assets: [
    { name: "pump-1", title: "Pump 1", asset_type_name: "pump" },
    { name: "pump-2", title: "Pump 2", asset_type_name: "pump" },
  ],
  clusters: [{ name: "edge", title: "Edge", ready: true, telemetry_scrape_interval: 15, api_credentials: { username: "ops" }, edge_options: { image_pull_policy: "Always" } }],
  acps: [{ name: "node-1", cluster_name: "edge", metadata: { rack: { row: 3 } } }],
  apps: [
    {
      name: "oee",
      title: "OEE monitor",
      description: "per line",
      type: "app",
      category: "analytics",
      versions: [
        { version: "1.0.0", title: "OEE (first engine)", parameters: [{ name: "cycle_ms", data_type: "number", default: 450 }] },
        { version: "1.1.0", category: null, parameters: [{ name: "cycle_ms", data_type: "number", default: 420 }] },
      ],
    },
  ],
};

test("asset type and ACP metadata, cluster settings and the app-level fields are loaded through their operations", async () => {
  await withSeed(base, async (emu) => {
    expect((await emu.get("/assets/types/pump/metadata/vendor/get")).body.payload).toEqual({ make: "ACME" });
    expect((await emu.get("/assets/types/pump/metadata/list")).body.data.map((m: { name: string }) => m.name)).toEqual(["service", "vendor"]);
    expect((await emu.get("/acps/node-1/metadata/rack/get")).body.payload).toEqual({ row: 3 });
    const cluster = (await emu.get("/orchestration/clusters/edge/get")).body;
    expect(cluster).toMatchObject({
      title: "Edge",
      ready: true,
      status: "online",
      telemetry_scrape_interval: 15,
      api_credentials: { username: "ops" },
      edge_options: { image_pull_policy: "Always" },
    });
    // The app keeps its own title although its first version has another; each version keeps its own.
    expect((await emu.get("/apps/oee/get")).body).toMatchObject({ title: "OEE monitor", category: "analytics" });
    expect((await emu.get("/apps/oee/v/1.0.0/get")).body).toMatchObject({ title: "OEE (first engine)", category: "analytics" });
    const v11 = (await emu.get("/apps/oee/v/1.1.0/get")).body;
    expect(v11.title).toBe("OEE monitor");
    expect(v11.category).toBeUndefined();
    expect(emu.store.table("audit_log").size).toBe(0);
  });
});

test("data labels, data types, schedules, bridges, app bindings and instance settings load; default settings leave the settings unset", async () => {
  const seed = {
    ...base,
    labels: [{ name: "anomaly", title: "Anomaly" }],
    data_labels: [{ label_name: "anomaly", start_date: "2030-01-01T00:00:00Z", end_date: "2030-01-01T01:00:00Z", metrics: [{ asset_name: "pump-1", name: "rpm" }] }],
    data_types: [{ icd: { name: "plant.reading", class_name: "Reading", version: "1.0.0", fields: [{ name: "v", type: "float64" }] } }],
    schedules: [{ app_name: "oee", app_version: "1.1.0", scheduled_for: "2031-01-01T00:00:00Z", resources: ["krn:asset:pump-1"], parameters: { cycle_ms: 400 } }],
    bridges: [{ name: "opcua-1", cluster_name: "edge", app_name: "oee", app_version: "1.1.0", payload: { endpoint: "opc.tcp://plc:4840" } }],
    app_resources: [
      { app_name: "oee", resources: ["krn:asset:pump-1"] },
      { app_name: "oee", enabled: false, resources: ["krn:asset:pump-2"] },
    ],
    instance_settings: [{ acp: { auto_update: { enabled: false, interval: 86400 }, metrics: { enabled: true, interval: 60 }, status: { enabled: true, interval: 30 } } }],
  };
  await withSeed(seed, async (emu) => {
    expect((await emu.get("/datalabels/1/get")).body).toMatchObject({ label_name: "anomaly", start_date: "2030-01-01T00:00:00.000000Z" });
    expect((await emu.get("/datatypes/plant.reading/versions/1.0.0/get")).status).toBe(200);
    expect((await emu.post("/apps/parameters/schedules/list", {})).body.data).toMatchObject([{ app_name: "oee", state: "scheduled" }]);
    expect((await emu.get("/bridges/opcua-1/get")).body).toMatchObject({ workload_name: "opcua-1", app_version: "1.1.0" });
    const bindings = (await emu.get("/apps/oee/resources/list")).body.data.map((r: { resource: string; enabled: boolean }) => [r.resource, r.enabled]);
    expect(bindings).toEqual([
      ["krn:asset:pump-1", true],
      ["krn:asset:pump-2", false],
    ]);
    expect(emu.store.table("instance_settings").size).toBe(0);
  });
  await withSeed({ instance_settings: [{ acp: { metrics: { interval: 120 } } }] }, async (emu) => {
    expect((await emu.get("/instance/settings/get")).body.acp.metrics).toEqual({ enabled: true, interval: 120 });
  });
});

test("a bad entry of the new sections and fields names the entry, the step and the field", async () => {
  const bad = (patch: Record<string, unknown>) => startTestEmulator({ seed: { ...base, ...patch } });
  await expect(bad({ asset_types: [{ name: "pump", title: "Pump", metadata: { vendor: "ACME" } }] })).rejects.toThrow(
    /asset_types\[0\] \(pump\)\.metadata\.vendor: payload: must be a JSON object/,
  );
  await expect(bad({ clusters: [{ name: "edge", telemetry_scrape_interval: 0 }] })).rejects.toThrow(/clusters\[0\] \(edge\): telemetry_scrape_interval: /);
  await expect(bad({ clusters: [{ name: "edge", colour: "red" }] })).rejects.toThrow(/clusters\[0\] \(edge\): unknown field\(s\) 'colour'/);
  await expect(bad({ acps: [{ name: "node-1", metadata: { rack: [1] } }] })).rejects.toThrow(/acps\[0\] \(node-1\)\.metadata\.rack: payload: must be a JSON object/);
  await expect(bad({ app_resources: [{ app_name: "oee", enabled: "yes", resources: ["krn:asset:pump-1"] }] })).rejects.toThrow(
    /app_resources\[0\] \(oee\): enabled: must be true or false, got "yes"/,
  );
  await expect(bad({ data_types: [{ icd: { name: "Bad", class_name: "X" } }] })).rejects.toThrow(/data_types\[0\] \(Bad\): icd\.name: must match/);
  await expect(
    bad({ schedules: [{ app_name: "oee", app_version: "1.1.0", scheduled_for: "2020-01-01T00:00:00Z", resources: ["krn:asset:pump-1"], parameters: { cycle_ms: 1 } }] }),
  ).rejects.toThrow(/schedules\[0\] \(oee 1\.1\.0\): scheduled_for: must be in the future/);
  await expect(bad({ instance_settings: [{ acp: { metrics: { interval: 0 } } }] })).rejects.toThrow(/instance_settings\[0\]: acp\.metrics\.interval: must be at least 1 second/);
});
