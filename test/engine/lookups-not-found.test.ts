/**
 * A lookup of an object the platform does not have fails with a LookupNotFoundError (isLookupNotFound) that names the
 * lookup, the object and what to do (declare it in the stack that owns the shared objects and bring
 * that stack up first), with the platform's 404 as its cause; every other failure passes through.
 */
import * as svc from "../../src";
import { SvcApiError } from "../../src/client";
import { shutdown } from "../../src/provider/runtime";
import * as testing from "../../src/testing";

afterEach(() => shutdown());

test("each lookup names the missing object; an app version's names the versions the app has", async () => {
  const failures: Record<string, unknown> = {};
  const program = async () => {
    // The app exists with one version; everything else looked up does not.
    const v = new svc.AppVersion("v1", { appName: "pump-monitor", version: "1.0.0", type: "app" });
    const lookups: Record<string, () => Promise<unknown>> = {
      getApp: () => svc.getApp("no-app"),
      getAppVersion: () => svc.getAppVersion("pump-monitor", "2.0.0"),
      getAppVersionNoApp: () => svc.getAppVersion("no-app", "1.0.0"),
      getWorkload: () => svc.getWorkload("no-workload"),
      getAsset: () => svc.getAsset("no-asset"),
      getCluster: () => svc.getCluster("no-cluster"),
      getAssetClass: () => svc.getAssetClass("no-class"),
      getAssetType: () => svc.getAssetType("no-type"),
      getLabel: () => svc.getLabel("no-label"),
      getDataType: () => svc.getDataType("plant.no_type"),
      getDataTypeVersion: () => svc.getDataType("plant.no_type", "1.0.0"),
    };
    // Once the app version exists (an output the run waits for).
    const looked = v.version.apply(async () => {
      for (const [name, lookup] of Object.entries(lookups))
        failures[name] = await lookup().then(
          () => undefined,
          (e: unknown) => e,
        );
      return Object.keys(failures).length;
    });
    return { looked };
  };
  const stack = await testing.stack(program, { emulator: true, expectEmptyPlanAfterUp: false, skipPreview: true });
  try {
    await stack.up();
    expect(stack.outputs.looked).toBe(11);
  } finally {
    await stack.close();
  }
  const objects: Record<string, [string, string]> = {
    getApp: ['getApp("no-app")', 'app "no-app"'],
    getAppVersion: ['getAppVersion("pump-monitor", "2.0.0")', 'version "2.0.0" of app "pump-monitor" (the app has 1.0.0)'],
    getAppVersionNoApp: ['getAppVersion("no-app", "1.0.0")', 'version "1.0.0" of app "no-app" (there is no app "no-app" either)'],
    getWorkload: ['getWorkload("no-workload")', 'workload "no-workload"'],
    getAsset: ['getAsset("no-asset")', 'asset "no-asset"'],
    getCluster: ['getCluster("no-cluster")', 'cluster "no-cluster"'],
    getAssetClass: ['getAssetClass("no-class")', 'asset class "no-class"'],
    getAssetType: ['getAssetType("no-type")', 'asset type "no-type"'],
    getLabel: ['getLabel("no-label")', 'label "no-label"'],
    getDataType: ['getDataType("plant.no_type")', 'data type "plant.no_type"'],
    getDataTypeVersion: ['getDataType("plant.no_type", "1.0.0")', 'version "1.0.0" of data type "plant.no_type"'],
  };
  for (const [name, [call, object]] of Object.entries(objects)) {
    const e = failures[name] as svc.LookupNotFoundError;
    expect(svc.isLookupNotFound(e)).toBe(true);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("LookupNotFoundError");
    expect([e.lookup, e.object]).toEqual([call, object.replace(/ \(.*\)$/, "")]);
    expect(e.message).toContain(`${call}: the platform has no ${object}. `);
    expect(e.message).toMatch(
      /in the stack that owns the objects your stacks share and run that stack's `pulumi up` first, or correct the name\. The platform answered: GET \/.* → 404/,
    );
    expect(e.cause).toBeInstanceOf(SvcApiError);
    expect((e.cause as SvcApiError).status).toBe(404);
  }
});

test("a failure other than a 404 is the client's own error", async () => {
  let failure: unknown;
  const stack = await testing.stack(
    async () => {
      failure = await svc.getAssetType("Not A Name").then(
        () => undefined,
        (e: unknown) => e,
      );
    },
    { emulator: true, skipPreview: true },
  );
  try {
    await stack.up();
  } finally {
    await stack.close();
  }
  expect(svc.isLookupNotFound(failure)).toBe(false);
  expect(failure).toBeInstanceOf(Error);
});
