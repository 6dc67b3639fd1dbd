/**
 * Outputs are declared once, in each kind's output map: every output the provider puts in the state
 * is a typed, readable property of the resource class (in the built `.d.ts`), and the class registers
 * it, so a program reads the value the provider returned.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "../../src";
import { kinds } from "../../src/provider/kinds";
import { KIND_TESTS, type KindName } from "../kinds";
import { readPublicApi, type PublicApi } from "./dts";

/**
 * Source compatibility, checked by the type-check (`tsc -p tsconfig.json`): the properties the classes
 * declared before their outputs came from the output maps keep types a program written against them
 * accepts.
 */
interface DeclaredBefore {
  App: { name: pulumi.Output<string>; type: pulumi.Output<string>; createdAt: pulumi.Output<string>; createdBy: pulumi.Output<string> };
  AppParameterValues: { values: pulumi.Output<Record<string, string | number | boolean>> };
  AppVersion: {
    appName: pulumi.Output<string>;
    version: pulumi.Output<string>;
    type: pulumi.Output<string>;
    createdAt: pulumi.Output<string>;
    createdBy: pulumi.Output<string>;
    updatedAt: pulumi.Output<string>;
    updatedBy: pulumi.Output<string>;
    parameterNames: pulumi.Output<string[]>;
    flags: pulumi.Output<Record<string, unknown>>;
  };
  Asset: {
    name: pulumi.Output<string>;
    title: pulumi.Output<string>;
    assetTypeName: pulumi.Output<string>;
    path: pulumi.Output<string>;
    assetTypeTitle: pulumi.Output<string>;
    state: pulumi.Output<string>;
    lastSeen: pulumi.Output<string | undefined>;
    created: pulumi.Output<string>;
    updated: pulumi.Output<string>;
  };
  AssetMetadata: { created: pulumi.Output<string>; updated: pulumi.Output<string> };
  AssetProperty: { storedValue: pulumi.Output<string>; storedTitle: pulumi.Output<string>; created: pulumi.Output<string> };
  AssetClass: { name: pulumi.Output<string>; title: pulumi.Output<string>; created: pulumi.Output<string>; updated: pulumi.Output<string> };
  AssetType: { name: pulumi.Output<string>; title: pulumi.Output<string>; created: pulumi.Output<string>; updated: pulumi.Output<string> };
  Bridge: { name: pulumi.Output<string>; workloadName: pulumi.Output<string>; state: pulumi.Output<string>; created: pulumi.Output<string> };
  Cluster: {
    name: pulumi.Output<string>;
    title: pulumi.Output<string | undefined>;
    status: pulumi.Output<string>;
    lastSeen: pulumi.Output<string | undefined>;
    podCidr: pulumi.Output<string>;
    serviceCidr: pulumi.Output<string>;
    k8sVersion: pulumi.Output<string>;
    svcVersion: pulumi.Output<string>;
    created: pulumi.Output<string>;
    updated: pulumi.Output<string>;
  };
  DataType: { type: pulumi.Output<string>; connect: pulumi.Output<boolean>; jsonSchema: pulumi.Output<Record<string, unknown>>; created: pulumi.Output<string> };
  InstanceSettings: { effective: pulumi.Output<{ acp: Record<string, { enabled?: boolean; interval?: number }> }> };
  DataLabel: { labelId: pulumi.Output<number>; created: pulumi.Output<string> };
  Label: { name: pulumi.Output<string>; created: pulumi.Output<string> };
  ParameterSchedule: {
    state: pulumi.Output<string>;
    originalResourceParameters: pulumi.Output<{ resource: string; parameters: Record<string, string | number | boolean> }[]>;
    appliedAt: pulumi.Output<string | undefined>;
    revertedAt: pulumi.Output<string | undefined>;
    createdAt: pulumi.Output<string>;
  };
  Workload: {
    name: pulumi.Output<string>;
    appName: pulumi.Output<string>;
    appVersion: pulumi.Output<string>;
    clusterName: pulumi.Output<string>;
    state: pulumi.Output<string>;
    statusMessage: pulumi.Output<string | undefined>;
    lastSeen: pulumi.Output<string | undefined>;
    downloadStatus: pulumi.Output<string>;
    staged: pulumi.Output<boolean>;
    stagedAppVersion: pulumi.Output<string | undefined>;
    appType: pulumi.Output<string>;
    createdAt: pulumi.Output<string>;
    updatedAt: pulumi.Output<string>;
  };
}
export const sourceCompatible: { [K in keyof DeclaredBefore]: (r: InstanceType<(typeof svc)[K]>) => DeclaredBefore[K] } = {
  App: (r) => r,
  AppParameterValues: (r) => r,
  AppVersion: (r) => r,
  Asset: (r) => r,
  AssetMetadata: (r) => r,
  AssetProperty: (r) => r,
  AssetClass: (r) => r,
  AssetType: (r) => r,
  Bridge: (r) => r,
  Cluster: (r) => r,
  DataType: (r) => r,
  InstanceSettings: (r) => r,
  DataLabel: (r) => r,
  Label: (r) => r,
  ParameterSchedule: (r) => r,
  Workload: (r) => r,
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

test("every kind declares its outputs once: never an arg", () => {
  for (const kind of Object.values(kinds)) {
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
      const res = new Class(`r-${kind.name.toLowerCase()}`, KIND_TESTS[kind.name as KindName].args);
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
