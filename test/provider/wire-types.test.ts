/**
 * The value side of the typed args: nested values reach the wire through the shared key mapping and
 * are checked against the schema they are sent under; a kind's typed members see the engine's props
 * only once they hold the kind's inputs.
 */
import { deploymentRuntime, appDefaults } from "../../src/api/apps";
import { defineKind, type KindContext } from "../../src/provider/kind";
import { toWire } from "../../src/provider/lifecycle";
import { kinds } from "../../src/provider/kinds";
import { DEFAULTS_FREE, RUNTIME_FREE, type AppVersionDefaults, type WorkloadRuntime } from "../../src/provider/resources/contract-types";
import { conformed, wireOf } from "../../src/provider/wire-types";
import { codeOf, thrown } from "../helpers/codes";

const runtime: WorkloadRuntime = {
  resources: [
    {
      resource: "krn:asset:pump-1",
      parameters: { alarmThreshold: 4 },
      datastreams: { inletPressure: { way: "input", configuration: { sampleRate: 1 } } },
      asset: { name: "pump-1", type: { title: "Pump" } },
    },
  ],
  configuration: { sampleRateHz: 10, nestedKey: { innerKey: 1 } },
  datastreams: [{ name: "rms", dataTypeName: "plant.reading", semanticTypeName: "vibration", unitName: "mm/s" }],
};

describe("wireOf: a nested arg as the wire carries it", () => {
  test("keys are snake_cased except inside the free-form paths, as check's mapping does", () => {
    const wire = wireOf(deploymentRuntime, runtime, RUNTIME_FREE);
    expect(wire).toEqual({
      resources: [
        {
          resource: "krn:asset:pump-1",
          parameters: { alarmThreshold: 4 },
          datastreams: { inletPressure: { way: "input", configuration: { sampleRate: 1 } } },
          asset: { name: "pump-1", type: { title: "Pump" } },
        },
      ],
      configuration: { sampleRateHz: 10, nestedKey: { innerKey: 1 } },
      datastreams: [{ name: "rms", data_type_name: "plant.reading", semantic_type_name: "vibration", unit_name: "mm/s" }],
    });
    // The body's runtime is what check validated: the same mapping the kind's declaration drives.
    expect(toWire(kinds.Workload, { runtime }).runtime).toEqual(wire);
  });

  test("defaults: camelCase keys converted, app.configuration, system and apiPermissions untouched", () => {
    const defaults: AppVersionDefaults = {
      deployment: { maxResources: 3, deploymentType: "staged-only" },
      app: { configuration: { keepMe: 1 }, ioDatastreamMapping: [{ io: "a", datastream: "b" }] },
      system: { cpuLimit: "1" },
      apiPermissions: { readAll: true },
    };
    expect(wireOf(appDefaults, defaults, DEFAULTS_FREE)).toEqual({
      deployment: { max_resources: 3, deployment_type: "staged-only" },
      app: { configuration: { keepMe: 1 }, io_datastream_mapping: [{ io: "a", datastream: "b" }] },
      system: { cpuLimit: "1" },
      api_permissions: { readAll: true },
    });
  });

  test("a value the schema refuses never reaches the platform: the error names the field, the rule and the value", () => {
    const bad = { resources: [{ resource: "pump-1" }] };
    const refused = thrown(() => wireOf(deploymentRuntime, bad, RUNTIME_FREE));
    expect(codeOf(refused)).toBe("SVC_BODY_INVALID");
    for (const named of ["resources[0].resource", "KRN", '"pump-1"']) expect(refused.message).toContain(named);
    const notObject = thrown(() => conformed(deploymentRuntime, { configuration: 5 }));
    expect(codeOf(notObject)).toBe("SVC_BODY_INVALID");
    expect(notObject.message).toContain("configuration");
  });
});

describe("defineKind: the typed members see the kind's inputs", () => {
  const ctx = { client: {}, settings: { operationTimeoutSeconds: 1 } } as KindContext;
  type Inputs = { name: string; title?: string; adopt?: boolean };
  const seen: unknown[] = [];
  const kind = defineKind<Inputs>({
    name: "Fake",
    platformTerm: "fake",
    args: { name: { required: true, replaces: true }, title: {}, adopt: { local: true } },
    id: (i) => i.name,
    replaceWhen: (olds, news) => (seen.push({ olds, news }), false),
    create: async (_ctx, i) => (seen.push(i), { name: i.name }),
    read: async (_ctx, _id, i) => (seen.push(i), undefined),
    delete: async (_ctx, _id, i) => void seen.push(i),
    outputs: {},
  });

  beforeEach(() => (seen.length = 0));

  test("only declared args are passed on (the engine's own keys are not)", async () => {
    await kind.create(ctx, { name: "a", title: "t", __provider: "exports.handler = ..." });
    expect(seen).toEqual([{ name: "a", title: "t" }]);
    expect(kind.id!({ name: "a", __provider: "x" })).toBe("a");
  });

  test("inputs without a required arg are refused before the member runs, naming the kind and the arg", async () => {
    await expect(kind.create(ctx, { title: "t" })).rejects.toThrow("Fake: create needs the required arg(s) name, which the inputs lack");
    await expect(kind.delete!(ctx, "a", {})).rejects.toThrow(/Fake: delete needs the required arg\(s\) name/);
    expect(() => kind.id!({})).toThrow(/Fake: id needs/);
    expect(seen).toEqual([]);
  });

  test("a read by id alone (an import) and diff get what there is, unchecked", async () => {
    await kind.read(ctx, "a", {});
    expect(kind.replaceWhen!({}, { name: "b", other: 1 })).toBe(false);
    expect(seen).toEqual([{}, { olds: {}, news: { name: "b" } }]);
  });
});
