/**
 * A generated plant: a fixture document with every area the snapshot reads, at a chosen size, the
 * same for the same options. Sizes other than `assets` grow slowly with it.
 */
import { mulberry32 } from "../../src/emulator/seeded-random";

export interface PlantOptions {
  /** Number of assets (at least 20). */
  assets: number;
  seed?: number;
}

type Doc = Record<string, unknown[]>;

export function generatePlant(options: PlantOptions): Doc {
  const rnd = mulberry32(options.seed ?? 7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const int = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));

  const asset_classes = [
    { name: "site", title: "Site" },
    { name: "area", title: "Area" },
    { name: "machine", title: "Machine" },
    { name: "sensor", title: "Sensor" },
  ];
  const machineTypes = ["pump", "press", "mixer", "oven", "robot", "conveyor"];
  const sensorTypes = ["temperature", "pressure", "vibration", "flow", "energy"];
  const asset_types = [
    { name: "plant", title: "Plant", asset_class_name: "site" },
    { name: "hall", title: "Hall", asset_class_name: "area", metadata: { layout: { floors: 2, crane: true } } },
    ...machineTypes.map((t, i) => ({
      name: t,
      title: `${t[0].toUpperCase()}${t.slice(1)}`,
      asset_class_name: "machine",
      ...(i % 2 === 0 ? { metadata: { maintenance: { interval_days: 30 + i * 15 }, vendor: { name: `vendor-${i}` } } } : {}),
    })),
    ...sensorTypes.map((t) => ({ name: `${t}-sensor`, title: `${t} sensor`, asset_class_name: "sensor" })),
    { name: "unclassified", title: "Unclassified" },
  ];

  // Two sites, halls under them, machines under halls, sensors under machines, until the count is reached.
  const assets: Array<Record<string, unknown>> = [];
  const add = (a: Record<string, unknown>) => {
    if (assets.length < options.assets) assets.push(a);
  };
  const sites = ["north", "south"];
  for (const s of sites) add({ name: s, title: `${s} site`, asset_type_name: "plant", location: { lat: 48 + rnd(), lon: 11 + rnd() } });
  let m = 0;
  for (let h = 0; assets.length < options.assets; h++) {
    const hall = `hall-${h}`;
    add({ name: hall, title: `Hall ${h}`, asset_type_name: "hall", asset_parent_name: sites[h % 2], metadata: { shift: { pattern: pick(["2x8", "3x8"]) } } });
    for (let k = 0; k < 8 && assets.length < options.assets; k++, m++) {
      const type = pick(machineTypes);
      const machine = `${type}-${m}`;
      add({
        name: machine,
        title: `${type} ${m}`,
        asset_type_name: type,
        asset_parent_name: hall,
        ...(m % 3 === 0
          ? {
              properties: [
                { name: "rated_power_kw", title: "Rated power (kW)", value: int(1, 90) },
                { name: "serial", title: "Serial number", value: `SN-${m}` },
              ],
            }
          : {}),
        ...(m % 4 === 0 ? { metadata: { commissioning: { year: 2000 + (m % 24), by: "ACME" } } } : {}),
        ...(m % 5 === 0 ? { location: { lat: 48 + rnd(), lon: 11 + rnd() } } : {}),
      });
      for (let s = 0; s < 5 && assets.length < options.assets; s++) {
        const st = sensorTypes[s];
        add({
          name: `${machine}-${st}`,
          title: `${type} ${m} ${st}`,
          asset_type_name: `${st}-sensor`,
          asset_parent_name: machine,
          ...(s === 0 ? { properties: [{ name: "range", title: "Measuring range", value: [0, int(100, 500)] }] } : {}),
        });
      }
    }
  }
  const machines = assets.filter((a) => machineTypes.includes(a.asset_type_name as string)).map((a) => a.name as string);
  const krn = (name: string) => `krn:asset:${name}`;

  const clusters = [
    { name: "edge-north", title: "North edge", ready: true, telemetry_scrape_interval: 15, edge_apps: { edge_mqtt: { expose: true } } },
    { name: "edge-south", title: "South edge", type: "kubernetes", api_credentials: { username: "edge-admin" }, upgrade: { pre_download: true } },
    { name: "edge-lab" },
  ];
  const acps = [
    { name: "north-1", title: "North node 1", cluster_name: "edge-north", node_name: "north-1", location: { lat: 48.1, lon: 11.5 }, metadata: { rack: { row: 1, slot: 4 } } },
    {
      name: "north-2",
      cluster_name: "edge-north",
      node_name: "north-2",
      metrics_scrape_interval: 120,
      status: { state: "warning", message: "disk 85% full", warnings: ["disk usage above 80%"] },
    },
    { name: "south-1", cluster_name: "edge-south", node_name: "south-1", edge_app_version: "3.9.0", metadata: { rack: { row: 2 }, owner: { team: "ot" } } },
    { name: "lab-1", cluster_name: "edge-lab", status: { state: "offline", message: "powered off", last_seen: null } },
  ];
  const labels = [
    { name: "anomaly", title: "Anomaly" },
    { name: "maintenance", title: "Maintenance", metadata: { colour: { hex: "#ffaa00" } } },
    { name: "quality", title: "Quality issue", metadata: { severity: { levels: ["minor", "major"] }, owner: { team: "qa" } } },
  ];
  const data_labels = Array.from({ length: 12 }, (_, i) => {
    const start = Date.UTC(2030, 0, 1 + i, int(0, 20));
    return {
      label_name: pick(["anomaly", "maintenance", "quality", "implicit-label"]),
      start_date: new Date(start).toISOString().replace("Z", "000Z"),
      end_date: new Date(start + int(1, 8) * 3600_000).toISOString().replace("Z", "000Z"),
      metrics: [{ asset_name: pick(machines), name: "vibration" }],
      ...(i % 2 === 0 ? { description: `event ${i}`, confidence: int(10, 99), validation: i % 4 === 0 } : {}),
      ...(i % 3 === 0 ? { source: { type: "workload", info: { workload: "vibration-watch" } }, info: { note: `n${i}` } } : {}),
    };
  });
  const data_types = [
    {
      icd: {
        name: "plant.reading",
        class_name: "Reading",
        version: "1.0.0",
        fields: [
          { name: "value", type: "float64" },
          { name: "at", type: "timestamp" },
        ],
      },
    },
    {
      icd: {
        name: "plant.reading",
        class_name: "Reading",
        version: "1.1.0",
        description: "with unit",
        fields: [
          { name: "value", type: "float64" },
          { name: "unit", type: "string" },
        ],
      },
    },
    {
      icd: {
        name: "plant.batch",
        class_name: "Batch",
        fields: [
          { name: "readings", type: "plant.reading:1.1.0", array: true },
          { name: "latest", type: "plant.reading" },
        ],
      },
      source: "connect",
    },
  ];
  const apps = [
    {
      name: "oee",
      title: "OEE monitor",
      description: "Availability, performance, quality",
      type: "app",
      category: "analytics",
      versions: [
        {
          version: "1.0.0",
          title: "OEE (first engine)",
          image: "registry.example.com/oee:1.0.0",
          parameters: [
            { name: "cycle_ms", data_type: "number", default: 450 },
            { name: "shift", default: "3x8" },
          ],
        },
        {
          version: "1.1.0",
          title: "OEE monitor (new engine)",
          image: "registry.example.com/oee:1.1.0",
          parameters: [
            { name: "cycle_ms", title: "Cycle time (ms)", data_type: "number", default: 420 },
            { name: "shift", default: "3x8" },
            { name: "rework_ok", data_type: "boolean", default: false },
          ],
          io: [{ name: "count", data_type: "number" }],
          defaults: { deployment: { max_resources: 10, target: { cluster: { name: "edge-north" } } }, app: { configuration: { window_s: 60 } } },
        },
      ],
    },
    {
      name: "vibration",
      title: "Vibration watch",
      description: "Flags machines that vibrate too much",
      type: "app",
      versions: [
        {
          version: "2.0.0",
          category: "condition",
          parameters: [
            { name: "limit", data_type: "number", default: 7.1 },
            { name: "alarm", data_type: "boolean", default: true },
          ],
        },
      ],
    },
    {
      name: "opcua-bridge",
      title: "OPC UA bridge",
      description: "Reads OPC UA servers",
      type: "importer",
      version: "0.9.0",
      flags: { enable_runtime_update: { configuration: true } },
    },
  ];
  const parameter_defaults = [{ app_name: "vibration", app_version: "2.0.0", parameters: [{ name: "limit", value: 6.5 }] }];
  const valueTargets = machines.slice(0, Math.max(4, Math.floor(machines.length / 3)));
  const parameter_values = [
    {
      app_name: "oee",
      app_version: "1.1.0",
      resource_parameters: valueTargets.map((name, i) => ({
        resource: krn(name),
        parameters: [{ name: "cycle_ms", value: 400 + (i % 50) }, ...(i % 4 === 0 ? [{ name: "shift", value: "2x8", comment: "weekend crew" }] : [])],
      })),
    },
    { app_name: "oee", app_version: "1.0.0", resource_parameters: [{ resource: krn(machines[0]), parameters: [{ name: "cycle_ms", value: 500 }] }] },
    {
      app_name: "vibration",
      app_version: "2.0.0",
      source: "krn:app:etl",
      resource_parameters: valueTargets.slice(0, 5).map((n) => ({ resource: krn(n), parameters: [{ name: "limit", value: 4.5 }] })),
    },
  ];
  const schedules = [
    {
      app_name: "oee",
      app_version: "1.1.0",
      scheduled_for: "2031-01-01T22:00:00Z",
      resources: [krn(machines[1]), krn(machines[2])],
      parameters: { shift: "2x8" },
      comment: "holiday",
    },
    {
      app_name: "vibration",
      app_version: "2.0.0",
      scheduled_for: "2031-02-01T06:00:00Z",
      resources: [krn(machines[3])],
      parameters: { limit: 3 },
      revert: { scheduled_for: "2031-02-02T06:00:00Z", resource_parameters: [{ resource: krn(machines[3]), parameters: { limit: 6.5 } }] },
    },
  ];
  const workloads = [
    {
      name: "oee-north",
      title: "OEE north",
      app_name: "oee",
      app_version: "1.1.0",
      cluster_name: "edge-north",
      node_name: "north-1",
      runtime: { resources: valueTargets.slice(0, 6).map((n) => ({ resource: krn(n) })), configuration: { window_s: 30 } },
    },
    {
      name: "oee-south",
      app_name: "oee",
      app_version: "1.0.0",
      cluster_name: "edge-south",
      stopped: true,
      runtime: { resources: [{ resource: krn(machines[machines.length - 1]), parameters: { cycle_ms: 480 } }] },
    },
    { name: "vibration-lab", app_name: "vibration", app_version: "2.0.0", cluster_name: "edge-lab", enabled: false },
    {
      name: "vibration-north",
      app_name: "vibration",
      app_version: "2.0.0",
      cluster_name: "edge-north",
      deployment_type: "staged+instant-apply",
      system: { cpu: "500m" },
      api_permissions: { read: ["assets"] },
    },
    {
      name: "vibration-staged",
      app_name: "vibration",
      app_version: "2.0.0",
      cluster_name: "edge-south",
      deployment_type: "staged-only",
      runtime: { resources: [{ resource: krn(machines[4]) }], datastreams: [{ name: "rms", data_type_name: "plant.reading" }] },
    },
  ];
  const bridges = [
    {
      name: "opcua-north",
      cluster_name: "edge-north",
      app_name: "opcua-bridge",
      app_version: "0.9.0",
      title: "OPC UA north",
      protocol: "opcua",
      payload: {
        endpoint: "opc.tcp://plc-north:4840",
        metrics_map: [
          { name: "vibration", asset_name: machines[0] },
          { name: "temp", asset_name: machines[1], data_type: "number", access: "RW" },
        ],
      },
    },
    { name: "opcua-lab", cluster_name: "edge-lab", app_name: "opcua-bridge", app_version: "0.9.0", payload: { endpoint: "opc.tcp://plc-lab:4840" } },
  ];
  const app_resources = [
    { app_name: "vibration", resources: [krn(machines[5]), krn(machines[6])] },
    { app_name: "oee", enabled: false, resources: [krn(valueTargets[0]), krn(machines[7])] },
  ];
  const instance_settings = [{ acp: { metrics: { interval: 120 }, auto_update: { enabled: true } } }];

  return {
    asset_classes,
    asset_types,
    assets,
    clusters,
    acps,
    labels,
    data_labels,
    data_types,
    apps,
    parameter_defaults,
    parameter_values,
    schedules,
    workloads,
    bridges,
    app_resources,
    instance_settings,
  };
}
