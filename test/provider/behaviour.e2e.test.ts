/**
 * Provider behaviour through the real dynamic-provider host, against the emulator: drift on refresh,
 * adoption (the import route), previews with unknown inputs, check failures before any call, error
 * wording, consistency after a failed run, and no secret in the state.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as svc from "../../src";
import * as testing from "../../src/testing";
import { SvcClient } from "../../src/client";
import { codeOf, rejection } from "../helpers/codes";

testing.registerMatchers();

const adminClient = (baseUrl: string) => new SvcClient({ baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });

const assetProgram =
  (title = "Pump 1", adopt?: boolean) =>
  async () => {
    const t = new svc.AssetType("type", { name: "pump", title: "Pump" });
    const a = new svc.Asset("pump", { name: "pump-1", title, assetTypeName: t.name, adopt });
    return { path: a.path };
  };

describe("refresh", () => {
  test("reports drift made behind the program's back, the next up repairs it, then no drift", async () => {
    const stack = await testing.stack(assetProgram(), { emulator: true });
    try {
      await stack.up();
      const client = adminClient(stack.emulator!.baseUrl);
      await client.assets.update({ params: { asset_name: "pump-1" }, body: { title: "Renamed by hand" } });
      const refreshed = await stack.refresh();
      expect(refreshed.operations.find((o) => o.name === "pump")).toMatchObject({ op: "update" });
      expect(stack.resource("pump").inputs.title).toBe("Renamed by hand");
      expect(await stack.preview()).toHaveActions({ pump: "update", type: "same" });
      await stack.up();
      expect((await client.assets.get({ params: { asset_name: "pump-1" } })).title).toBe("Pump 1");
      await stack.expectNoDrift();
      await client.close();
    } finally {
      await stack.close();
    }
  });

  test("an object deleted behind the program's back leaves the state on refresh and is created again by up", async () => {
    const stack = await testing.stack(assetProgram(), { emulator: true });
    try {
      await stack.up();
      const client = adminClient(stack.emulator!.baseUrl);
      await client.assets.delete({ params: { asset_name: "pump-1" } });
      await stack.refresh();
      expect(stack.resources().map((r) => r.name)).toEqual(["type"]);
      expect(await stack.up()).toHaveActions({ pump: "create" });
      await client.close();
    } finally {
      await stack.close();
    }
  });
});

describe("adoption (the import route)", () => {
  test("without adopt, an existing object fails the create with a message that says how to take it over", async () => {
    const stack = await testing.stack(assetProgram(), { emulator: true, checkDestroy: false });
    try {
      const client = adminClient(stack.emulator!.baseUrl);
      await client.assets.typeCreate({ body: { name: "pump", title: "Pump" } });
      const err = await rejection(stack.up());
      expect(codeOf(err)).toBe("SVC_ALREADY_EXISTS");
      for (const named of ["AssetType 'pump'", "adopt: true"]) expect(err.message).toContain(named);
      await client.close();
    } finally {
      await stack.close();
    }
  });

  test("with adopt: true, up takes the existing objects over and brings them to the declared state", async () => {
    const stack = await testing.stack(assetProgram("Pump one", true), { emulator: true });
    try {
      const client = adminClient(stack.emulator!.baseUrl);
      await client.assets.typeCreate({ body: { name: "pump", title: "Pump" } });
      await client.assets.create({ body: { name: "pump-1", title: "Old title", asset_type_name: "pump" } });
      const result = await stack.up(async () => {
        const t = new svc.AssetType("type", { name: "pump", title: "Pump", adopt: true });
        new svc.Asset("pump", { name: "pump-1", title: "Pump one", assetTypeName: t.name, adopt: true });
      });
      expect(result).toHaveActions({ type: "create", pump: "create" });
      expect((await client.assets.get({ params: { asset_name: "pump-1" } })).title).toBe("Pump one");
      expect(await client.assets.list({ query: {} }).then((l) => l.data.length)).toBe(1);
      await stack.destroy();
      await client.close();
    } finally {
      await stack.close();
    }
  });

  test("removing adopt: true after the adoption changes nothing: the preview and the up are quiet, and so is the refresh after (issue 25)", async () => {
    const adopting = (adopt?: boolean) => async () => {
      const t = new svc.AssetType("type", { name: "pump", title: "Pump", adopt });
      new svc.Asset("pump", { name: "pump-1", title: "Pump one", assetTypeName: t.name, adopt });
    };
    const stack = await testing.stack(adopting(true), { emulator: true });
    try {
      const client = adminClient(stack.emulator!.baseUrl);
      await client.assets.typeCreate({ body: { name: "pump", title: "Pump" } });
      await client.close();
      await stack.up();
      expect(await stack.refresh()).toHaveNoChanges();
      expect(await stack.preview(adopting())).toHaveNoChanges();
      expect(await stack.up(adopting())).toHaveNoChanges();
      expect(await stack.refresh()).toHaveNoChanges();
      expect(await stack.preview(adopting())).toHaveNoChanges();
      // Setting it again on objects that exist changes nothing either.
      expect(await stack.up(adopting(true))).toHaveNoChanges();
      expect(await stack.refresh()).toHaveNoChanges();
    } finally {
      await stack.close();
    }
  });

  // An import states what the platform holds, defaults the program never wrote included (Terraform's
  // ImportStateVerifyIgnore): those fields are named per kind.
  test.each([
    ["Asset", "pump", assetProgram(), []],
    [
      "Workload",
      "workload",
      async () => {
        const c = new svc.Cluster("cluster", { name: "plant" });
        const v = new svc.AppVersion("v1", { appName: "monitor", version: "1.0.0", type: "app" });
        new svc.Workload("workload", { name: "monitor-1", appName: v.appName, appVersion: v.version, clusterName: c.name, runtime: { configuration: { Rate: 1 } } });
      },
      ["title", "enabled", "runtime.resources"],
    ],
    [
      "AppParameterValues",
      "values",
      async () => {
        const v = new svc.AppVersion("v1", {
          appName: "monitor",
          version: "1.0.0",
          type: "app",
          manifest: { parameters: [{ name: "threshold", data_type: "number", default: 1 }] },
        });
        new svc.AppParameterValues("values", { appName: v.appName, appVersion: v.version, resource: "pump-1", values: { threshold: 5 } });
      },
      [],
    ],
  ] as Array<[string, string, () => Promise<unknown>, string[]]>)(
    "reading an existing %s by its id gives the state a fresh create produced",
    async (_kind, name, program, defaults) => {
      const stack = await testing.stack(program, { emulator: true, checkDestroy: false });
      try {
        await stack.up();
        await testing.expectAdoptionMatchesCreate(stack, name, { ignore: ["adopt", ...defaults] });
      } finally {
        await stack.close();
      }
    },
  );
});

describe("preview", () => {
  test("inputs not known yet (outputs of resources still to be created) pass check and diff", async () => {
    const stack = await testing.stack(
      async () => {
        const cls = new svc.AssetClass("class", { name: "pumps", title: "Pumps" });
        // Every input of the type and the asset depends on outputs that do not exist during a first preview.
        const t = new svc.AssetType("type", { name: cls.name.apply((n) => `${n}-type`), title: cls.created, assetClassName: cls.name });
        new svc.Asset("asset", { name: t.name.apply((n) => `${n}-1`), title: t.created, assetTypeName: t.name, location: { lat: cls.created.apply(() => 1), lon: 2 } });
      },
      { emulator: true },
    );
    try {
      const preview = await stack.preview();
      expect(preview).toHaveActions({ class: "create", type: "create", asset: "create" });
      expect(stack.resources()).toEqual([]);
      const client = adminClient(stack.emulator!.baseUrl);
      expect((await client.assets.classList({ query: {} })).data).toEqual([]);
      await client.close();
    } finally {
      await stack.close();
    }
  });
});

describe("check and errors", () => {
  test("check failures name the property and stop before any call", async () => {
    const stack = await testing.stack(
      async () => {
        new svc.AssetClass("bad", { name: "Bad Name", title: "" });
      },
      { emulator: true },
    );
    try {
      const err = await stack.up().catch((e: Error) => e);
      expect(String(err)).toMatch(/name: .*lowercase letters, digits/);
      expect(String(err)).toMatch(/title/);
      const client = adminClient(stack.emulator!.baseUrl);
      expect((await client.assets.classList({ query: {} })).data).toEqual([]);
      await client.close();
    } finally {
      await stack.close();
    }
  });

  test("unknown args, at any depth, fail the check naming the resource, the path and the nearest known field; nothing is created (issue 25)", async () => {
    // As a program built from parsed data would pass them: the types cannot catch these.
    const fromData = (args: Record<string, unknown>) => args as never;
    const stack = await testing.stack(
      async () => {
        new svc.Cluster("edge", fromData({ name: "edge", telemetryScrapeIntervall: 5, edgeOptions: { imagePulPolicy: "Always" } }));
        const t = new svc.AssetType("type", { name: "pump", title: "Pump" });
        new svc.Asset("pump", fromData({ name: "pump-1", title: "Pump 1", assetTypeName: t.name, locaton: { lat: 1, lon: 2 } }));
      },
      { emulator: true, checkDestroy: false },
    );
    try {
      const err = (await stack.preview().catch((e: Error) => e)) as testing.RunError;
      const messages = err.failures.map((f) => f.message).join("\n");
      expect(messages).toContain(
        'check of pulumi-nodejs:dynamic/svc:Cluster "edge" failed: telemetryScrapeIntervall: is not an arg of Cluster; did you mean telemetryScrapeInterval?',
      );
      expect(messages).toContain("edgeOptions: imagePulPolicy: unknown field; did you mean imagePullPolicy? (fields there: imagePullPolicy)");
      // As in the engine, the first failed step ends the run: the asset's check is told by a run without the cluster.
      const assetOnly = async () => {
        const t = new svc.AssetType("type", { name: "pump", title: "Pump" });
        new svc.Asset("pump", fromData({ name: "pump-1", title: "Pump 1", assetTypeName: t.name, locaton: { lat: 1, lon: 2 } }));
      };
      const assetErr = (await stack.preview(assetOnly).catch((e: Error) => e)) as testing.RunError;
      expect(assetErr.failures.map((f) => f.message).join("\n")).toContain(
        'check of pulumi-nodejs:dynamic/svc:Asset "pump" failed: locaton: is not an arg of Asset; did you mean location?',
      );
      await expect(stack.up()).rejects.toThrow(/is not an arg of/);
      const client = adminClient(stack.emulator!.baseUrl);
      expect((await client.clusters.list({ query: {} })).data).toEqual([]);
      await client.close();
    } finally {
      await stack.close();
    }
  });

  test("an API error reaches the user as one line naming the resource, the operation and the platform's message", async () => {
    const stack = await testing.stack(
      async () => {
        const v = new svc.AppVersion("v1", { appName: "monitor", version: "1.0.0", type: "app" });
        new svc.Workload("workload", { name: "monitor-1", appName: v.appName, appVersion: v.version, clusterName: "no-such-cluster" });
      },
      { emulator: true, checkDestroy: false },
    );
    try {
      const err = (await stack.up().catch((e: Error) => e)) as testing.RunError;
      expect(codeOf(err)).toBe("SVC_PLATFORM_REFUSED");
      for (const named of ["Workload 'monitor-1'", "POST /apps/workloads/create", "cluster 'no-such-cluster' not found"])
        expect(err.providerMessage ?? err.message).toContain(named);
      // What succeeded before the failure is in the state; fixing the program creates only the rest.
      expect(stack.resources().map((r) => r.name)).toEqual(["v1"]);
      const fixed = await stack.up(async () => {
        const c = new svc.Cluster("cluster", { name: "plant" });
        const v = new svc.AppVersion("v1", { appName: "monitor", version: "1.0.0", type: "app" });
        new svc.Workload("workload", { name: "monitor-1", appName: v.appName, appVersion: v.version, clusterName: c.name });
      });
      expect(fixed).toHaveActions({ v1: "same", cluster: "create", workload: "create" });
    } finally {
      await stack.close();
    }
  });
});

describe("destroy order the platform needs but the program does not state", () => {
  /** An app whose version runs as a workload made outside the stack; the stack holds only the App. */
  const appOnly = async () => {
    new svc.App("app", { name: "monitor", title: "Monitor" });
  };
  async function deployOutside(client: SvcClient): Promise<void> {
    await client.apps.create({ body: { name: "monitor", title: "Monitor", description: "", type: "app", version: "1.0.0" } });
    await client.clusters.create({ body: { name: "plant" } });
    await client.workloads.create({ body: { name: "monitor-1", app_name: "monitor", app_version: "1.0.0", cluster_name: "plant" } });
  }

  test("an App's delete waits while its app still runs as a workload, and deletes it once the workload is gone", async () => {
    const stack = await testing.stack(appOnly, { emulator: true });
    const client = adminClient(stack.emulator!.baseUrl);
    try {
      await deployOutside(client);
      await stack.up();
      // The workload goes a second after the destroy starts, as a workload deleted in parallel would.
      const removal = new Promise((r) => setTimeout(r, 1000)).then(() => client.workloads.delete({ body: { workload_names: ["monitor-1"] } }));
      const down = await stack.destroy();
      await removal;
      expect(down.operations.map((o) => `${o.op} ${o.name}`)).toEqual(["delete app"]);
      expect(await client.apps.get({ params: { app_name: "monitor" } }).catch((e: { status: number }) => e.status)).toBe(404);
    } finally {
      await client.close();
      await stack.close();
    }
  });

  test("the wait ends at svc:operationTimeoutSeconds with a message naming the workload that keeps the app", async () => {
    const stack = await testing.stack(appOnly, { emulator: true, config: { "svc:operationTimeoutSeconds": "1" } });
    const client = adminClient(stack.emulator!.baseUrl);
    try {
      await deployOutside(client);
      await stack.up();
      const err = (await stack.destroy().catch((e: Error) => e)) as testing.RunError;
      expect(err.providerMessage ?? err.message).toMatch(
        /App 'monitor': delete failed: app 'monitor' still runs as workload\(s\) monitor-1 after 1 s: delete them first \(a workload outside this stack keeps the app\), or raise svc:operationTimeoutSeconds/,
      );
      expect(stack.resources().map((r) => r.name)).toEqual(["app"]);
    } finally {
      await client.close();
      await stack.close();
    }
  });
});

describe("state", () => {
  test("holds no credential, and each resource's serialized providers (Pulumi keeps one in the inputs and one in the outputs) take under 200 bytes together", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-state-"));
    const statePath = path.join(dir, "stack.json");
    const stack = await testing.stack(assetProgram(), { emulator: true, statePath });
    try {
      await stack.up();
      const text = fs.readFileSync(statePath, "utf8");
      expect(text).not.toContain("svc-admin-secret");
      expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/); // no JWT
      // The provider module names the kind and loads the implementation from the installed package by name.
      for (const r of stack.resources()) expect(r.provider).toBe(`exports.handler = () => require("pulumi-svc/provider").shim("${r.type.split(":").pop()}");\n`);
      const sizes = stack.resources().map((r) => Buffer.byteLength(r.provider ?? ""));
      const stored = (JSON.parse(text) as { resources: Array<{ inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> }).resources
        .filter((r) => r.inputs?.__provider !== undefined)
        .map((r) => Buffer.byteLength(JSON.stringify(r.inputs?.__provider ?? "")) + Buffer.byteLength(JSON.stringify(r.outputs?.__provider ?? "")));
      expect(stored).toHaveLength(sizes.length);
      expect(Math.max(...stored)).toBeLessThanOrEqual(200);
    } finally {
      await stack.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a workload's lifecycle calls under a lost answer", () => {
  const program = (enabled: boolean) => async () => {
    const c = new svc.Cluster("cluster", { name: "plant" });
    const v = new svc.AppVersion("v1", { appName: "monitor", version: "1.0.0", type: "app" });
    new svc.Workload("workload", { name: "monitor-1", appName: v.appName, appVersion: v.version, clusterName: c.name, enabled });
  };

  test("an enable applied whose answer was lost is not refused on its repeat (the platform answers 409 to enabling a workload that is no longer pending)", async () => {
    const stack = await testing.stack(program(false), { emulator: true });
    try {
      await stack.up();
      const client = adminClient(stack.emulator!.baseUrl);
      expect((await client.workloads.get({ params: { workload_name: "monitor-1" } })).status.state).toBe("pending_deploy");
      // Every enable is applied, then its answer lost: the client repeats it, and the repeat is refused.
      stack.emulator!.faults.configure({ rate: 1, mode: "after_apply", after_apply_action: "502", paths: ["/api/v4/apps/workloads/enable"], retry_after_s: 0, latency_ms: 0 });
      expect(await stack.up(program(true))).toHaveActions({ workload: "update" });
      expect(stack.emulator!.faults.status().counters.by_kind.after_apply_502).toBe(1);
      stack.emulator!.faults.configure({ rate: 0 });
      expect((await client.workloads.get({ params: { workload_name: "monitor-1" } })).status.state).not.toBe("pending_deploy");
      await stack.expectNoDrift();
      await client.close();
    } finally {
      await stack.close();
    }
  });
});
