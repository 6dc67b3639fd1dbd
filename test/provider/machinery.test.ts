/**
 * check and diff are pure: these tests run them directly on the kind declarations. Everything that
 * calls the platform is tested end to end through the dynamic-provider host (test/provider/*.e2e).
 */
import { check, diff } from "../../src/provider/machinery";
import { kinds } from "../../src/provider/resources";
import { UNKNOWN } from "../../src/provider/values";

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
    expect(check(schedule, undefined, inputs, NOW).failures.map((f) => f.property)).toEqual(["scheduledFor"]);
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
    ).toMatch(/must be after scheduledFor/);
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
      { property: "values", reason: "threshold: must be a number, string or boolean" },
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

  test("toggling adopt is an update that never replaces, so that the state's outputs (what refresh reads) carry it", () => {
    expect(diff(cluster, "plant-a", olds, { name: "plant-a", title: "Plant A", telemetryBufferSize: 5, adopt: true })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    // Even for kinds that replace on every change of their platform args.
    const b = { name: "br", clusterName: "c", appName: "a", payload: {} };
    expect(diff(kinds.Bridge, "br", b, { ...b, adopt: true })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });
});
