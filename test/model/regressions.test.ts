/**
 * Bugs the model tests found (test/robustness/model.test.ts), each kept as its shrunk reproduction:
 * a sequence of programs and operations replayed through the same runner, which checks every
 * promise after each step (empty preview after up, the platform equal to the program, a refresh
 * without drift, destroy leaving only what the platform cannot delete, nothing lost or duplicated,
 * no secret in the state or the logs).
 */
import { SvcApiError } from "../../src/client";
import { defineKind, type KindContext } from "../../src/provider/kind";
import * as lifecycle from "../../src/provider/lifecycle";
import { kinds } from "../../src/provider/kinds";
import type { Decl, ProgramSpec } from "./program";
import { runSequence, type Sequence } from "./run";
import { codeOf, rejection } from "../helpers/codes";

jest.setTimeout(120_000);

const replay = (steps: Sequence["steps"], parallel = 1) => runSequence({ parallel, steps });
const up = (program: ProgramSpec) => ({ op: "up" as const, program });
const with_ = (program: ProgramSpec, name: string, change: (d: Decl) => void): ProgramSpec =>
  program.map((d) => {
    if (d.name !== name) return d;
    const copy = JSON.parse(JSON.stringify(d)) as Decl;
    change(copy);
    return copy;
  });

const MANIFEST = {
  parameters: [
    { name: "threshold", data_type: "number", default: 80 },
    { name: "mode", data_type: "string", default: "standard" },
  ],
};
/** A cluster, an app version with its App, on which workloads run. */
const appOnCluster: ProgramSpec = [
  { kind: "Cluster", name: "cluster-1", args: { name: "cluster-1" } },
  { kind: "AppVersion", name: "version-1", args: { appName: "app-1", version: "1.0.0", type: "app", manifest: MANIFEST } },
  { kind: "App", name: "app-1", args: { name: { $ref: "version-1", out: "appName" }, title: "App 1" } },
];
const workload = (args: Decl["args"]): Decl => ({
  kind: "Workload",
  name: "wl-1",
  args: {
    name: "wl-1",
    appName: { $ref: "version-1", out: "appName" },
    appVersion: { $ref: "version-1", out: "version" },
    clusterName: { $ref: "cluster-1", out: "name" },
    ...args,
  },
});

const rename = (program: ProgramSpec, from: string, to: string): ProgramSpec =>
  JSON.parse(JSON.stringify(program).replaceAll(`"$ref":"${from}"`, `"$ref":"${to}"`)).map((d: Decl) => (d.name === from ? { ...d, name: to, aliases: [from] } : d));

describe("shrunk reproductions of what the model tests found", () => {
  test("an app version replaced under the same version (new title): the platform dropped its parameter values and the AppParameterValues on it stayed 'same' (the kit had no dependent replacements)", async () => {
    const values = (title: string): ProgramSpec => [
      { kind: "AppVersion", name: "version-1", args: { appName: "app-1", version: "1.0.0", type: "app", title, manifest: MANIFEST } },
      { kind: "App", name: "app-1", args: { name: { $ref: "version-1", out: "appName" }, title: "App 1" } },
      { kind: "AssetType", name: "type-1", args: { name: "type-1", title: "Type 1" } },
      { kind: "Asset", name: "asset-1", args: { name: "asset-1", title: "Asset 1", assetTypeName: { $ref: "type-1", out: "name" } } },
      {
        kind: "AppParameterValues",
        name: "values-1",
        args: {
          appName: { $ref: "version-1", out: "appName" },
          appVersion: { $ref: "version-1", out: "version" },
          resource: { $ref: "asset-1", out: "name" },
          values: { threshold: 55 },
        },
      },
    ];
    await replay([up(values("Monitor")), up(values("Pump monitor")), { op: "refresh" }, { op: "destroy" }], 4);
  });

  test("one operation at a time, an app whose workload was declared after it: destroy deleted the App first, which waited for the workload that could not start (the kit deletes in reverse state order, as the engine does)", async () => {
    const [cluster, version, app] = appOnCluster;
    await replay([up([version, app]), up([version, app, cluster, workload({})]), { op: "destroy" }], 1);
  }, 90_000);

  test("an asset property given a new name and keeping its title: the replacement was created first, and the platform refused the title the old one held", async () => {
    const property = (name: string): ProgramSpec => [
      { kind: "AssetType", name: "type-1", args: { name: "type-1", title: "Type 1" } },
      { kind: "Asset", name: "asset-1", args: { name: "asset-1", title: "Asset 1", assetTypeName: { $ref: "type-1", out: "name" } } },
      { kind: "AssetProperty", name: "prop-1", args: { assetName: { $ref: "asset-1", out: "name" }, name, title: "Rated power", value: 7.5 } },
    ];
    await replay([up(property("rated_power")), up(property("rated_power_kw")), { op: "refresh" }], 4);
  });

  test("a secret inside an object arg (a metadata payload's key): the state held it in plain text, created and updated", async () => {
    const meta = (key: string): ProgramSpec => [
      { kind: "AssetType", name: "type-1", args: { name: "type-1", title: "Type 1" } },
      { kind: "Asset", name: "asset-1", args: { name: "asset-1", title: "Asset 1", assetTypeName: { $ref: "type-1", out: "name" } } },
      {
        kind: "AssetMetadata",
        name: "meta-1",
        args: { assetName: { $ref: "asset-1", out: "name" }, name: "meta-1", payload: { make: "ACME", apiKey: { $secret: key }, nested: { token: { $secret: `${key}-nested` } } } },
      },
    ];
    await replay([up(meta("metadata-key-1")), up(meta("metadata-key-2")), { op: "refresh" }]);
  });

  test("a resource renamed with an alias keeps its object: the kit ignored aliases, created the App anew and deleted the old one, which took the app's versions with it", async () => {
    const renamed = rename(appOnCluster, "app-1", "app-1-renamed");
    await replay([up(appOnCluster), up(renamed), { op: "preview" }, { op: "refresh" }, { op: "destroy" }, up(renamed)]);
  });

  test("renaming a resource that others depend on, and a dependent of it, in one up", async () => {
    const program = [...appOnCluster, workload({})];
    await replay([up(program), up(rename(rename(program, "cluster-1", "cluster-1b"), "wl-1", "wl-1b")), { op: "destroy" }], 4);
  });

  test("a workload declared with running: false: its create failed, enabling the stopped workload (409), reported as 'already exists, set adopt'", async () => {
    await replay([up([...appOnCluster, workload({ running: false })]), { op: "refresh" }]);
  });

  test("a workload declared enabled: true and running: false: refresh reported `enabled` as drift (the platform's enabled is false while stopped)", async () => {
    await replay([up([...appOnCluster, workload({ enabled: true, running: false })]), { op: "refresh" }]);
  });

  test("a workload declared enabled: false and running: false: refresh reported `running` as drift (a pending workload is not stopped)", async () => {
    await replay([
      up([...appOnCluster, workload({ enabled: false, running: false })]),
      { op: "refresh" },
      up([...appOnCluster, workload({ enabled: true, running: false })]),
      { op: "refresh" },
    ]);
  });

  test("a stopped workload declared enabled: true and running: true is started, not enabled", async () => {
    await replay([up([...appOnCluster, workload({ running: false })]), up([...appOnCluster, workload({ running: true, enabled: true })])]);
  });

  test("setting adopt on a resource that exists, then a refresh: the refresh reported `adopt` as changed on the platform", async () => {
    const program: ProgramSpec = [{ kind: "Label", name: "label-1", args: { name: "label-1", title: "Label 1" } }];
    await replay([up(program), up(with_(program, "label-1", (d) => (d.args.adopt = true))), { op: "refresh" }]);
  });
});

describe("a cluster's type", () => {
  test("cannot change once the cluster exists: check says so, naming the cluster, the field, both values and what is allowed (a replacement failed half-way, dropping the cluster from the state)", () => {
    const olds = { name: "plant-a", type: "k3s" };
    const { failures } = lifecycle.check(kinds.Cluster, olds, { name: "plant-a", type: "docker" }, Date.now());
    expect(failures).toEqual([
      {
        property: "type",
        reason:
          "cluster 'plant-a' is of type 'k3s', and API v4 can neither delete nor retype a cluster, so its type cannot become 'docker' (allowed: 'k3s'); declare a cluster with another name for a docker cluster",
      },
    ]);
    // No type declared is the default type; a new name may have any type.
    expect(lifecycle.check(kinds.Cluster, { name: "plant-a" }, { name: "plant-a", type: "k3s" }, Date.now()).failures).toEqual([]);
    expect(lifecycle.check(kinds.Cluster, olds, { name: "plant-b", type: "docker" }, Date.now()).failures).toEqual([]);
  });
});

describe("the create's 409 hint", () => {
  const conflict = (endpointId: string) => new SvcApiError({ status: 409, method: "POST", path: "/x", detail: "conflict", retryable: false, endpointId, errors: [] });
  const kindFailingWith = (err: Error) =>
    defineKind<Record<string, unknown>>({
      name: "Fake",
      platformTerm: "fake",
      args: { name: { required: true, replaces: true }, adopt: { local: true } },
      id: (i) => String(i.name),
      create: async () => {
        throw err;
      },
      read: async () => undefined,
      delete: async () => undefined,
      outputs: {},
    });
  const ctx = { client: { withDefaults: () => ({}) }, settings: { operationTimeoutSeconds: 1 } } as unknown as KindContext;

  test("says the object exists only when the create call itself answered 409", async () => {
    const created = await rejection(lifecycle.create(kindFailingWith(conflict("workloads.create")), ctx, { name: "a" }));
    expect(codeOf(created)).toBe("SVC_ALREADY_EXISTS");
    expect(created.message).toContain("adopt: true");
    const later = await rejection(lifecycle.create(kindFailingWith(conflict("workloads.enable")), ctx, { name: "a" }));
    expect(codeOf(later)).toBe("SVC_PLATFORM_REFUSED");
    expect(later.message).toContain("Fake 'a'");
    expect(later.message).not.toContain("adopt");
    expect(later.cause).toBeInstanceOf(SvcApiError);
  });
});
