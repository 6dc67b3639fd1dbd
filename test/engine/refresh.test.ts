/**
 * Refresh reads every object back through the provider: changes made behind the stack's back are
 * recorded, a vanished object leaves the state; `expectNoDrift()` is refresh followed by a preview.
 * A resource's state holds nothing that other resources of the stack move (an App and its versions).
 */
import * as svc from "../../src";
import { apps } from "../../src/api/apps";
import { SvcClient } from "../../src/client";
import * as testing from "../../src/testing";
import { Record } from "./fixtures/record";
import { backend, closeStacks, fixtureStack } from "./fixtures/harness";

testing.registerMatchers();
afterEach(closeStacks);

const program = () => {
  new Record("a", { key: "a", value: "one" });
  new Record("b", { key: "b", value: "two" });
};

describe("refresh", () => {
  test("with nothing changed on the platform, every resource is the same and expectNoDrift passes", async () => {
    const f = await fixtureStack(program);
    await f.stack.up();
    expect(await f.stack.refresh()).toHaveActions({ a: "same", b: "same" });
    await expect(f.stack.expectNoDrift()).resolves.toBeUndefined();
  });

  test("an object changed behind the stack's back is read into the state, and expectNoDrift reports it", async () => {
    const f = await fixtureStack(program);
    await f.stack.up();
    const id = f.stack.resource("a").id!;
    backend.drift(f.storeDir, id, { value: "tampered" });

    const refreshed = await f.stack.refresh();
    expect(refreshed).toHaveActions({ a: "update", b: "same" });
    expect(refreshed.operations.find((o) => o.name === "a")?.diffs).toEqual(["value"]);
    expect(f.stack.resource("a").outputs.value).toBe("tampered");
    // The program still wants "one": the next preview plans to put it back.
    expect(await f.stack.preview()).toHaveActions({ a: "update" });

    backend.drift(f.storeDir, id, { value: "tampered again" });
    await expect(f.stack.expectNoDrift()).rejects.toThrow(
      'drift detected: refresh found 1 resource(s) changed on the platform:\n  update pulumi-nodejs:dynamic/fixture:Record "a" (value)',
    );
    await f.stack.up();
    expect(f.records()[id].value).toBe("one");
    await expect(f.stack.expectNoDrift()).resolves.toBeUndefined();
  });

  test("an object that no longer exists (Read returns no id) leaves the state, and the next up creates it again", async () => {
    const f = await fixtureStack(program);
    await f.stack.up();
    const gone = f.stack.resource("b").id!;
    backend.vanish(f.storeDir, gone);

    expect(await f.stack.refresh()).toHaveActions({ a: "same", b: "delete" });
    expect(f.stack.resources().map((r) => r.name)).toEqual(["a"]);
    expect(await f.stack.up()).toHaveActions({ a: "same", b: "create" });
    expect(f.stack.resource("b").id).not.toBe(gone);
  });
});

describe("refresh of an App whose versions change", () => {
  const manifest = { parameters: [{ name: "threshold", data_type: "number" as const, default: 80 }] };
  const app = (versions: string[]) => async () => {
    const [first, ...later] = versions.map((version) => new svc.AppVersion(`monitor-${version}`, { appName: "monitor", version, type: "app", manifest }));
    new svc.App("monitor", { name: first.appName, title: "Monitor" });
    return { later: later.map((v) => v.version) };
  };

  test("publishing or removing a version (another resource) leaves the App's state true: the refresh right after is empty", async () => {
    const stack = await testing.stack(app(["1.0.0"]), { emulator: true });
    try {
      await stack.up();
      expect(await stack.refresh()).toHaveNoChanges();
      // The app's latest version and update time move with the new version; the App's state does not hold them.
      expect(await stack.up(app(["1.0.0", "1.1.0"]))).toHaveActions({ monitor: "same", "monitor-1.1.0": "create" });
      expect(await stack.refresh()).toHaveNoChanges();
      expect(await stack.up(app(["1.0.0"]))).toHaveActions({ monitor: "same", "monitor-1.1.0": "delete" });
      expect(await stack.refresh()).toHaveNoChanges();
      expect(Object.keys(stack.resource("monitor").outputs).sort()).toEqual(["createdAt", "createdBy", "name", "title", "type"]);
      await stack.destroy();
    } finally {
      await stack.close();
    }
  });
});

describe("refresh keeps what the program declared where the platform states it in its own form (issue 25)", () => {
  // The manifest says one image; the explicit `image` arg, which wins, another. The platform fills the
  // IO's way and storage in.
  const manifest = { image: "reg/app:1.0.0", io: [{ name: "pressure", data_type: "number" }] };
  const program = (image: string | undefined) => () => {
    const v = new svc.AppVersion("monitor", { appName: "monitor", version: "1.0.0", type: "app", image, manifest });
    const c = new svc.Cluster("edge", { name: "edge" });
    new svc.Workload("monitor-1", { name: "monitor-1", appName: v.appName, appVersion: v.version, clusterName: c.name });
  };
  const patchVersion = (stack: testing.TestStack, body: { image: string }) =>
    new SvcClient({ baseUrl: stack.emulator!.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" }).call(apps.versionPatch, {
      params: { app_name: "monitor", app_version: "1.0.0" },
      body,
    });

  test("an app version whose manifest an explicit arg overrides: the refresh after the up is empty, and the next up changes nothing", async () => {
    const stack = await testing.stack(program("reg/app:1.1.0"), { emulator: true });
    try {
      await stack.up();
      expect(await stack.refresh()).toHaveNoChanges();
      expect(await stack.preview()).toHaveNoChanges();
      expect(await stack.up()).toHaveNoChanges();
    } finally {
      await stack.close();
    }
  });

  test("a real drift of the image is reported with its values and put back in place, replacing nothing", async () => {
    const stack = await testing.stack(program("reg/app:1.1.0"), { emulator: true });
    try {
      await stack.up();
      await patchVersion(stack, { image: "reg/app:9.9.9" });
      const refreshed = await stack.refresh();
      expect(refreshed).toHaveActions({ monitor: "update", edge: "same", "monitor-1": "same" });
      expect(refreshed.render()).toContain('~ svc:AppVersion monitor update\n    ~ image: "reg/app:1.1.0" => "reg/app:9.9.9"\n');
      const planned = await stack.preview();
      expect(planned).toHaveActions({ monitor: "update", edge: "same", "monitor-1": "same" });
      expect(planned.render()).toContain('    ~ image: "reg/app:9.9.9" => "reg/app:1.1.0"\n');
      await stack.up();
      expect(await stack.refresh()).toHaveNoChanges();
    } finally {
      await stack.close();
    }
  });

  test("a drift of an image the manifest sets (no image arg) is patched back, not a replacement", async () => {
    const stack = await testing.stack(program(undefined), { emulator: true });
    try {
      await stack.up();
      expect(await stack.refresh()).toHaveNoChanges();
      await patchVersion(stack, { image: "reg/app:9.9.9" });
      expect((await stack.refresh()).render()).toContain('    ~ manifest.image: "reg/app:1.0.0" => "reg/app:9.9.9"\n');
      expect(await stack.preview()).toHaveActions({ monitor: "update", edge: "same", "monitor-1": "same" });
      await stack.up();
      expect(await stack.refresh()).toHaveNoChanges();
    } finally {
      await stack.close();
    }
  });
});
