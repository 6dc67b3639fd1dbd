/**
 * check and diff are pure: these tests run them directly on the kind declarations. Everything that
 * calls the platform is tested end to end through the dynamic-provider host (test/provider/*.e2e).
 */
import { check, diff } from "../../src/provider/lifecycle";
import { kinds } from "../../src/provider/kinds";
import { UNKNOWN } from "../../src/pulumi/values";
import fc from "fast-check";
import { KINDS, SCENARIOS } from "../kinds";
import { plainArgs } from "../model/program";

const cluster = kinds.Cluster;
const schedule = kinds.ParameterSchedule;
const appVersion = kinds.AppVersion;
const NOW = Date.parse("2030-01-01T00:00:00Z");

describe("check validates inputs before any call", () => {
  test("a missing required input is named", () => {
    expect(check(cluster, undefined, {}, NOW).failures).toEqual([{ property: "name", reason: "is required" }]);
  });

  test("a value the wire schema refuses is named by its arg and says what is allowed", () => {
    const f = check(cluster, undefined, { name: "Plant A" }, NOW).failures;
    expect(f).toHaveLength(1);
    expect(f[0].property).toBe("name");
    expect(f[0].reason).toMatch(/lowercase letters, digits/);
  });

  test("unknown inputs (preview) pass check, whatever the field's type", () => {
    expect(check(cluster, undefined, { name: UNKNOWN, type: UNKNOWN, ready: UNKNOWN }, NOW).failures).toEqual([]);
    expect(check(schedule, undefined, { appName: "a", appVersion: "1.0.0", scheduledFor: UNKNOWN, resources: UNKNOWN, parameters: { p: 1 } }, NOW).failures).toEqual([]);
  });

  test("a schedule in the past is refused; the same schedule already in the stack is not", () => {
    const inputs = { appName: "a", appVersion: "1.0.0", scheduledFor: "2029-12-31T00:00:00Z", resources: ["pump-1"], parameters: { speed: 5 } };
    // The engine prints the property in front of the reason: the reason does not repeat it (issue 25).
    expect(check(schedule, undefined, inputs, NOW).failures).toEqual([
      { property: "scheduledFor", reason: "must be in the future, got '2029-12-31T00:00:00Z' (now is 2030-01-01T00:00:00.000Z)" },
    ]);
    expect(check(schedule, inputs, inputs, NOW).failures).toEqual([]);
  });

  test("a revert must cover exactly the schedule's resources × parameters and lie after it", () => {
    const base = { appName: "a", appVersion: "1.0.0", scheduledFor: "2030-02-01T00:00:00Z", resources: ["pump-1", "pump-2"], parameters: { speed: 5, mode: "eco" } };
    const ok = {
      ...base,
      revert: {
        scheduledFor: "2030-02-02T00:00:00Z",
        resourceParameters: [
          { resource: "pump-1", parameters: { speed: 1, mode: "std" } },
          { resource: "krn:asset:pump-2", parameters: { speed: 1, mode: "std" } },
        ],
      },
    };
    expect(check(schedule, undefined, ok, NOW).failures).toEqual([]);
    const missing = { ...base, revert: { scheduledFor: "2030-02-02T00:00:00Z", resourceParameters: [{ resource: "pump-1", parameters: { speed: 1 } }] } };
    const reasons = check(schedule, undefined, missing, NOW)
      .failures.map((f) => f.reason)
      .join("\n");
    expect(reasons).toMatch(/exactly the scheduled parameters \[mode, speed\]/);
    expect(reasons).toMatch(/no entry for krn:asset:pump-2/);
    const early = { ...ok, revert: { ...ok.revert, scheduledFor: "2030-01-15T00:00:00Z" } };
    expect(
      check(schedule, undefined, early, NOW)
        .failures.map((f) => f.reason)
        .join(),
    ).toBe("scheduledFor: must be after the schedule's own scheduledFor (2030-02-01T00:00:00Z), got 2030-01-15T00:00:00Z");
  });

  test("an app version manifest is validated with the API's schema and failures name the manifest field", () => {
    const f = check(
      appVersion,
      undefined,
      { appName: "pump-app", version: "1.0.0", type: "app", manifest: { io: [{ name: "t", data_type: "number", way: "sideways" }] } },
      NOW,
    ).failures;
    expect(f.map((x) => x.property)).toContain("manifest");
    expect(f.map((x) => x.reason).join()).toMatch(/^io\[0\]\.way: .*, got "sideways"$/);
  });
});

describe("check messages state the rule and the value, once, for every field at once", () => {
  const dataLabel = kinds.DataLabel;
  const label = { labelName: "anomaly", startDate: "2030-05-01T12:00:00Z", endDate: "2030-05-01T13:00:00Z" };

  test("a name error names the value and the whole rule, without the arg's name in the reason (the engine prints it)", () => {
    expect(check(cluster, undefined, { name: "Pump 1" }, NOW).failures).toEqual([
      { property: "name", reason: `may contain only lowercase letters, digits and '.', '_', '-' and be 1-64 characters long, got "Pump 1"` },
    ]);
    const long = "p".repeat(70);
    expect(check(cluster, undefined, { name: long }, NOW).failures).toEqual([{ property: "name", reason: `must be at most 64 characters, got 70: "${"p".repeat(57)}…"` }]);
  });

  test("every field's failures come in one answer, all problems of a field in one entry", () => {
    const f = check(
      dataLabel,
      undefined,
      { labelName: "Bad Label", startDate: "yesterday", endDate: "2030-05-01T13:00:00Z", confidence: 150.5, metrics: [{ assetName: "Pump 1", name: "" }] },
      NOW,
    ).failures;
    expect(f.map((x) => x.property).sort()).toEqual(["confidence", "labelName", "metrics", "startDate"]);
    const metrics = f.find((x) => x.property === "metrics")!.reason;
    expect(metrics).toMatch(/^\[0\]\.assetName: may contain only .*, got "Pump 1"; \[0\]\.name: must not be empty$/);
    expect(f.find((x) => x.property === "startDate")!.reason).toMatch(/RFC 3339 .*, got "yesterday"$/);
    for (const x of f) expect(x.reason.startsWith(x.property)).toBe(false);
  });

  test.each([150.5, 150, -1, 2.5])("a DataLabel confidence of %p is refused with the whole rule at once", (confidence) => {
    expect(check(dataLabel, undefined, { ...label, confidence }, NOW).failures).toEqual([
      { property: "confidence", reason: `must be an integer from 0 to 100, got ${confidence}` },
    ]);
  });

  test("a DataLabel confidence from 0 to 100 passes, and the API's own rules still apply", () => {
    for (const confidence of [0, 42, 100]) expect(check(dataLabel, undefined, { ...label, confidence }, NOW).failures).toEqual([]);
    const backwards = check(dataLabel, undefined, { ...label, endDate: "2030-05-01T11:00:00Z" }, NOW).failures;
    expect(backwards).toEqual([{ property: "endDate", reason: expect.stringMatching(/^must be after start_date/) }]);
  });

  test("a kind's own rules are reported without the arg's name in front, next to the schema's", () => {
    const values = kinds.AppParameterValues;
    const f = check(values, undefined, { appName: "a", appVersion: "1.0.0", resource: "Pump 1", values: { threshold: { nested: 1 } } }, NOW).failures;
    expect(f).toEqual([
      { property: "resource", reason: "'Pump 1' is neither an asset name nor a KRN 'krn:asset:<name>'" },
      { property: "values", reason: "threshold: must be a number, string or boolean, got an object" },
    ]);
  });
});

describe("diff is exact", () => {
  const olds = { __provider: "x", name: "plant-a", title: "Plant A", status: "online", created: "2030", telemetryBufferSize: 5 };

  test("no change when nothing the user wrote changed: computed outputs and key order do not count", () => {
    expect(diff(cluster, "plant-a", olds, { __provider: "y", telemetryBufferSize: 5, title: "Plant A", name: "plant-a" })).toEqual({ changes: false });
  });

  test("an updatable arg changes in place", () => {
    expect(diff(cluster, "plant-a", olds, { name: "plant-a", title: "Plant B", telemetryBufferSize: 5 })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  test("an immutable arg replaces; a new name needs no delete first", () => {
    expect(diff(cluster, "plant-a", olds, { name: "plant-b", title: "Plant A", telemetryBufferSize: 5 })).toEqual({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: false,
    });
  });

  test("a replacement that keeps the platform identity deletes first", () => {
    expect(diff(cluster, "plant-a", { ...olds, type: "k3s" }, { name: "plant-a", title: "Plant A", telemetryBufferSize: 5, type: "docker" })).toEqual({
      changes: true,
      replaces: ["type"],
      deleteBeforeReplace: true,
    });
  });

  test("an unknown input is a change, never a failure", () => {
    expect(diff(cluster, "plant-a", olds, { name: "plant-a", title: UNKNOWN, telemetryBufferSize: 5 })).toMatchObject({ changes: true, replaces: [] });
    expect(diff(cluster, "plant-a", olds, { name: UNKNOWN, title: "Plant A", telemetryBufferSize: 5 })).toMatchObject({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: false,
    });
  });

  test("every change of a schedule replaces it", () => {
    const s = { appName: "a", appVersion: "1.0.0", scheduledFor: "2030-02-01T00:00:00Z", resources: ["p"], parameters: { speed: 5 } };
    expect(diff(schedule, "id", s, { ...s, comment: "now" })).toEqual({ changes: true, replaces: ["comment"], deleteBeforeReplace: true });
  });

  test("an app version's manifest: a change a patch can make (image, defaults, schemas) updates in place, any other replaces (issue 25)", () => {
    const v = { appName: "a", version: "1.0.0", type: "app", manifest: { image: "r/a:1", io: [{ name: "p", data_type: "number" }] } };
    expect(diff(appVersion, "a@1.0.0", v, { ...v, manifest: { ...v.manifest, image: "r/a:2" } })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(diff(appVersion, "a@1.0.0", v, { ...v, manifest: { ...v.manifest, defaults: { system: { x: 1 } } } })).toMatchObject({ replaces: [] });
    expect(diff(appVersion, "a@1.0.0", v, { ...v, manifest: { ...v.manifest, io: [] } })).toEqual({ changes: true, replaces: ["manifest"], deleteBeforeReplace: true });
    // The manifest's image under an explicit image arg never reaches the platform: nothing to replace.
    const own = { ...v, image: "r/a:9" };
    expect(diff(appVersion, "a@1.0.0", own, { ...own, manifest: { ...v.manifest, image: "r/a:3" } })).toMatchObject({ replaces: [] });
    expect(diff(appVersion, "a@1.0.0", v, { ...v, manifest: UNKNOWN })).toMatchObject({ replaces: ["manifest"] });
  });

  test("setting or removing adopt alone is no change: it only steers a create (issue 25)", () => {
    expect(diff(cluster, "plant-a", olds, { name: "plant-a", title: "Plant A", telemetryBufferSize: 5, adopt: true })).toEqual({ changes: false });
    expect(diff(cluster, "plant-a", { ...olds, adopt: true }, { name: "plant-a", title: "Plant A", telemetryBufferSize: 5 })).toEqual({ changes: false });
    // Even for kinds that replace on every change of their platform args.
    const b = { name: "br", clusterName: "c", appName: "a", payload: {} };
    expect(diff(kinds.Bridge, "br", b, { ...b, adopt: true })).toEqual({ changes: false });
    // With another change, it is an update like any other.
    expect(diff(cluster, "plant-a", { ...olds, adopt: true }, { name: "plant-a", title: "Plant B", telemetryBufferSize: 5 })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });
});

describe("unknown args are refused by every kind, at every depth, naming the path and the nearest known field (issue 25)", () => {
  const reasonsOf = (kind: string, inputs: Record<string, unknown>) => check(kinds[kind], undefined, inputs, NOW).failures;
  const cluster1 = { name: "plant-a" };
  const version1 = { appName: "app", version: "1.0.0", type: "app" };
  const workload1 = { name: "w", appName: "app", appVersion: "1.0.0", clusterName: "c" };
  const label1 = { labelName: "l", startDate: "2030-05-01T12:00:00Z", endDate: "2030-05-01T13:00:00Z" };
  const schedule1 = { appName: "a", appVersion: "1.0.0", scheduledFor: "2030-02-01T00:00:00Z", resources: ["p"], parameters: { speed: 5 } };

  test.each([
    [
      "Cluster",
      { ...cluster1, telemetryScrapeIntervall: 5 },
      "telemetryScrapeIntervall",
      /^is not an arg of Cluster; did you mean telemetryScrapeInterval\? \(its args: name, title, type, /,
    ],
    [
      "Cluster",
      { ...cluster1, edgeOptions: { imagePulPolicy: "Always" } },
      "edgeOptions",
      /^imagePulPolicy: unknown field; did you mean imagePullPolicy\? \(fields there: imagePullPolicy\)$/,
    ],
    ["Asset", { name: "a", title: "A", assetTypeName: "t", locaton: { lat: 1, lon: 2 } }, "locaton", /^is not an arg of Asset; did you mean location\?/],
    [
      "Asset",
      { name: "a", title: "A", assetTypeName: "t", location: { lat: 1, lon: 2, alt: 3 } },
      "location",
      /^alt: unknown field; did you mean lat\? \(fields there: lat, lon\)$/,
    ],
    [
      "Workload",
      { ...workload1, runtime: { resourses: [] } },
      "runtime",
      /^resourses: unknown field; did you mean resources\? \(fields there: resources, configuration, datastreams\)$/,
    ],
    [
      "Workload",
      { ...workload1, runtime: { resources: [{ resource: "krn:asset:p", paramters: {} }] } },
      "runtime",
      /^resources\[0\]\.paramters: unknown field; did you mean parameters\?/,
    ],
    [
      "Workload",
      { ...workload1, runtime: { datastreams: [{ name: "d", dataTypeName: "n", unit: "bar" }] } },
      "runtime",
      /^datastreams\[0\]\.unit: unknown field; did you mean unitName\?/,
    ],
    ["AppVersion", { ...version1, manifest: { imag: "r/a:1" } }, "manifest", /^imag: unknown field; did you mean image\?/],
    [
      "AppVersion",
      { ...version1, manifest: { io: [{ name: "p", data_type: "number", stroage: "node" }] } },
      "manifest",
      /^io\[0\]\.stroage: unknown field; did you mean storage\?/,
    ],
    ["AppVersion", { ...version1, defaults: { deployment: { maxResource: 2 } } }, "defaults", /^deployment\.maxResource: unknown field; did you mean maxResources\?/],
    ["AppVersion", { ...version1, schemas: { ioConfiguration: [{ typeName: "t", schema: {}, extra: 1 }] } }, "schemas", /^ioConfiguration\[0\]\.extra: unknown field/],
    ["DataLabel", { ...label1, metrics: [{ assetName: "a", nam: "m" }] }, "metrics", /^\[0\]\.nam: unknown field; did you mean name\?/],
    ["DataLabel", { ...label1, source: { type: "user", inf: {} } }, "source", /^inf: unknown field; did you mean info\?/],
    [
      "DataType",
      { icd: { name: "a.b", className: "B", fields: [{ name: "f", type: "number", arrray: true }] } },
      "icd",
      /^fields\[0\]\.arrray: unknown field; did you mean array\?/,
    ],
    ["ParameterSchedule", { ...schedule1, revert: { scheduledFor: "2030-02-02T00:00:00Z", resourceParameters: [], when: 1 } }, "revert", /^when: unknown field/],
    ["InstanceSettings", { acp: { metric: { enabled: true } } }, "acp", /^metric: unknown field; did you mean metrics\?/],
    ["InstanceSettings", { acp: { metrics: { intervall: 5 } } }, "acp", /^metrics\.intervall: unknown field; did you mean interval\?/],
    [
      "AppParameterValues",
      { appName: "a", appVersion: "1.0.0", resource: "p", values: { t: 1 }, coment: "x" },
      "coment",
      /^is not an arg of AppParameterValues; did you mean comment\?/,
    ],
    ["Label", { name: "l", title: "L", titel: "L" }, "titel", /^is not an arg of Label; did you mean title\?/],
  ])("%s: %j is refused", (kind, inputs, property, reason) => {
    const failures = reasonsOf(kind, inputs);
    expect(failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
  });

  test.each([
    [
      "Workload",
      {
        ...workload1,
        runtime: { configuration: { AnyKey: { deep: [{ x: 1 }] } }, resources: [{ resource: "krn:asset:p", parameters: { any_name: 1 } }] },
        system: { k: 1 },
        apiPermissions: { k: [1] },
      },
    ],
    [
      "AppVersion",
      { ...version1, defaults: { app: { configuration: { Free: 1 } }, system: { s: 1 }, apiPermissions: [{ p: 1 }] }, schemas: { parameters: { type: "object", whatever: 1 } } },
    ],
    ["AssetMetadata", { assetName: "a", name: "m", payload: { anything: { at: ["all", { depths: 1 }] } } }],
    ["Bridge", { name: "b", clusterName: "c", appName: "x", payload: { metrics_map: [{ name: "p", asset_name: "a", whatever: 1 }] } }],
    ["DataLabel", { ...label1, info: { free: 1 }, source: { type: "user", info: { free: { form: 1 } } } }],
    ["AppParameterValues", { appName: "a", appVersion: "1.0.0", resource: "p", values: { any_parameter: 1 } }],
    ["ParameterSchedule", schedule1],
  ])("%s: free-form values (configuration, payloads, JSON Schemas, metadata) take any key", (kind, inputs) => {
    expect(reasonsOf(kind, inputs)).toEqual([]);
  });

  test("several unknown args are all named at once, with the other failures", () => {
    const f = reasonsOf("Cluster", { name: "Plant A", telemetryScrapeIntervall: 5, edgeOptions: { imagePulPolicy: "x" }, forwardLogsBufferSize: 99 });
    expect(f.map((x) => x.property).sort()).toEqual(["edgeOptions", "forwardLogsBufferSize", "name", "telemetryScrapeIntervall"]);
    expect(f.find((x) => x.property === "forwardLogsBufferSize")!.reason).toBe("must be at most 20, got 99");
  });
});

describe("every kind's structured args know their fields (issue 25)", () => {
  /**
   * Args whose values the platform leaves free-form, any key being data: those the declarations
   * compare exactly (objects passed through untouched), so that the declared comparison and the
   * schema's leave the same args free.
   */
  const FREE = KINDS.flatMap((k) =>
    Object.entries(kinds[k].args)
      .filter(([, spec]) => spec.compare === "exact")
      .map(([name]) => `${k}.${name}`),
  );
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  /** The first object inside a value (itself, or the first object item of a list): where a stray key goes. */
  const firstObject = (v: unknown): Record<string, unknown> | undefined => (isObject(v) ? v : Array.isArray(v) ? v.find(isObject) : undefined);

  test.each(KINDS.map((k) => [k]))("%s: valid random args pass; a stray key in any object arg is refused there unless the arg is free-form", (kind) => {
    for (const scenario of fc.sample(SCENARIOS[kind], { seed: 7, numRuns: 25 })) {
      const spec = scenario(1);
      const decl = spec.filter((d) => d.kind === kind).at(-1)!;
      const args = plainArgs(spec, decl);
      expect(check(kinds[kind], undefined, args, NOW).failures).toEqual([]);
      for (const [name, value] of Object.entries(args)) {
        const target = firstObject(value);
        if (!target) continue;
        const bad = structuredClone(args);
        firstObject(bad[name])!.zzStray = 1;
        const failures = check(kinds[kind], undefined, bad, NOW).failures;
        // (A free-form key may break a kind's rule elsewhere: a schedule's revert must set the same parameters.)
        if (FREE.includes(`${kind}.${name}`)) expect(failures.filter((f) => f.property === name)).toEqual([]);
        else expect(failures).toEqual([{ property: name, reason: expect.stringMatching(/^(\[0\]\.)?zzStray: unknown field; did you mean /) }]);
      }
    }
  });
});
