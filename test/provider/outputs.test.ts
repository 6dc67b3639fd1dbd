/**
 * Outputs are declared once, in each kind's output map: every output the provider puts in the state
 * is a typed, readable property of the resource class (in the built `.d.ts`), and the class registers
 * it, so a program reads the value the provider returned.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "../../src";
import { kinds } from "../../src/provider/resources";
import { readPublicApi, type PublicApi } from "./dts";

/** Enough args for each class's constructor; the mocks below never call the provider. */
const ARGS: Record<string, object> = {
  App: { name: "a" },
  AppVersion: { appName: "a", version: "1.0.0", type: "app" },
  AppParameterValues: { appName: "a", appVersion: "1.0.0", resource: "pump", values: { x: 1 } },
  Asset: { name: "pump", title: "Pump", assetTypeName: "t" },
  AssetClass: { name: "c", title: "C" },
  AssetMetadata: { assetName: "pump", name: "m", payload: {} },
  AssetProperty: { assetName: "pump", name: "p", value: 1 },
  AssetType: { name: "t", title: "T" },
  Bridge: { name: "b", clusterName: "c", appName: "a", payload: {} },
  Cluster: { name: "c" },
  DataLabel: { labelName: "l", startDate: "2030-01-01T00:00:00Z", endDate: "2030-01-02T00:00:00Z" },
  DataType: { icd: { name: "plant.reading", className: "Reading", fields: [] } },
  InstanceSettings: { acp: {} },
  Label: { name: "l", title: "L" },
  ParameterSchedule: { appName: "a", appVersion: "1.0.0", scheduledFor: "2030-01-01T00:00:00Z", resources: ["pump"], parameters: { x: 1 } },
  Workload: { name: "w", appName: "a", appVersion: "1.0.0", clusterName: "c" },
};

/** A value per output that says which output it is, so a mix-up shows. */
const marker = (kind: string, output: string) => `${kind}.${output}`;

let api: PublicApi;
const registered: Array<{ type: string; inputs: Record<string, unknown> }> = [];
beforeAll(() => {
  api = readPublicApi();
  void pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, inputs: args.inputs });
        const kind = kinds[args.type.slice(args.type.lastIndexOf(":") + 1)];
        // The state as the provider returns it: the args and the computed outputs.
        const outputs = Object.fromEntries(kind.outputNames.map((o) => [o, marker(kind.name, o)]));
        return { id: `${args.name}-id`, state: { ...args.inputs, ...outputs } };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
});

test("every kind declares its outputs once: outputs() returns exactly the declared names, never an arg", () => {
  for (const kind of Object.values(kinds)) {
    expect(Object.keys(kind.outputs({})).sort()).toEqual([...kind.outputNames].sort());
    expect(kind.outputNames.filter((o) => o in kind.args)).toEqual([]);
  }
});

describe("every output in the state is a typed, documented property of the class (.d.ts)", () => {
  for (const kind of Object.values(kinds)) {
    test(kind.name, () => {
      const cls = api.classes.find((c) => c.name === kind.name);
      expect(cls).toBeDefined();
      const missing = kind.outputNames.filter((o) => !(o in cls!.properties));
      expect(missing).toEqual([]);
      for (const o of kind.outputNames) expect(cls!.propertyTypes[o]).toMatch(/^Output(Instance)?</);
    });
  }
});

describe("the class registers every output, and the program reads the provider's value", () => {
  for (const kind of Object.values(kinds)) {
    test(kind.name, async () => {
      const Class = (svc as unknown as Record<string, new (name: string, args: object) => Record<string, unknown>>)[kind.name];
      const res = new Class(`r-${kind.name.toLowerCase()}`, ARGS[kind.name]);
      for (const o of kind.outputNames) {
        const out = res[o];
        expect(pulumi.Output.isInstance(out)).toBe(true);
        await expect(new Promise((resolve) => (out as pulumi.Output<unknown>).apply(resolve))).resolves.toBe(marker(kind.name, o));
      }
      await new Promise((resolve) => (res.urn as pulumi.Output<string>).apply(resolve));
      // Registered under the kind's type token, as the dynamic-provider host expects.
      expect(registered.map((r) => r.type)).toContain(`pulumi-nodejs:dynamic/svc:${kind.name}`);
    });
  }
});
