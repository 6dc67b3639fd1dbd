/**
 * Updates that send only some args (Cluster's settings, Workload's patch) build their bodies through
 * the shared mapping (`wireArgs` with an endpoint and `only`). The bodies below are the ones the
 * kinds sent when each wrote its mapping by hand: wire names, nested keys snake_cased, only the
 * chosen args, edge options only with an image pull policy, and no call when nothing is sent.
 */
import { clusters } from "../../src/api/clusters";
import type { AnyEndpoint } from "../../src/api/endpoint";
import { workloads } from "../../src/api/workloads";
import type { SvcClient } from "../../src/client";
import type { Kind, KindContext } from "../../src/provider/kind";
import { kinds } from "../../src/provider/kinds";

/** A client that records each call and answers a running workload / an online cluster. */
function recording() {
  const calls: Array<{ id: string; input: unknown }> = [];
  const client = {
    async call(ep: AnyEndpoint, input: unknown) {
      calls.push({ id: ep.id, input });
      return { name: "answered", status: { state: "running" } };
    },
  };
  const ctx: KindContext = { client: client as unknown as SvcClient, settings: { operationTimeoutSeconds: 60 } };
  return { calls, ctx };
}

/** The JSON the request carries (fields left undefined are not sent). */
const sent = (calls: Array<{ id: string; input: unknown }>) => calls.map((c) => ({ id: c.id, input: JSON.parse(JSON.stringify(c.input)) as unknown }));

const update = async (kind: Kind, id: string, news: Record<string, unknown>, olds: Record<string, unknown> | undefined, changed: string[]) => {
  const { calls, ctx } = recording();
  if (!kind.update) throw new Error(`${kind.name} has no update`);
  await kind.update(ctx, id, news, olds, changed);
  return sent(calls);
};

describe("Cluster: the settings update sends the changed settings", () => {
  const cluster = {
    name: "edge-1",
    title: "Edge 1",
    type: "k3s",
    ready: true,
    forwardLogsBufferSize: 7,
    telemetryAlertsEnabled: false,
    edgeOptions: { imagePullPolicy: "Always" },
    adopt: true,
  };

  test("only the changed args, under their wire names, nested keys snake_cased; never name, type or adopt", async () => {
    const calls = await update(kinds.Cluster, "edge-1", cluster, { ...cluster, title: "Old" }, ["name", "type", "title", "forwardLogsBufferSize", "edgeOptions", "adopt"]);
    expect(calls).toEqual([
      {
        id: clusters.update.id,
        input: { params: { cluster_name: "edge-1" }, body: { title: "Edge 1", forward_logs_buffer_size: 7, edge_options: { image_pull_policy: "Always" } } },
      },
    ]);
    // The fields in the order of the body's schema, as before.
    expect(Object.keys((calls[0].input as { body: object }).body)).toEqual(["title", "forward_logs_buffer_size", "edge_options"]);
  });

  test("a changed arg that is now unset, or edge options without a policy, send nothing: the cluster is read instead", async () => {
    const news = { ...cluster, telemetryAlertsEnabled: undefined, edgeOptions: {} };
    expect(await update(kinds.Cluster, "edge-1", news, cluster, ["telemetryAlertsEnabled", "edgeOptions"])).toEqual([
      { id: clusters.get.id, input: { params: { cluster_name: "edge-1" } } },
    ]);
  });

  test("create sends name, title and type, then every set setting (not the title) in one update", async () => {
    const { calls, ctx } = recording();
    await kinds.Cluster.create(ctx, { ...cluster, syncScrapeInterval: 60 });
    expect(sent(calls)).toEqual([
      { id: clusters.create.id, input: { body: { name: "edge-1", title: "Edge 1", type: "k3s" } } },
      {
        id: clusters.update.id,
        input: {
          params: { cluster_name: "edge-1" },
          body: { ready: true, forward_logs_buffer_size: 7, sync_scrape_interval: 60, telemetry_alerts_enabled: false, edge_options: { image_pull_policy: "Always" } },
        },
      },
    ]);
  });

  test("a create without settings makes no update", async () => {
    const { calls, ctx } = recording();
    await kinds.Cluster.create(ctx, { name: "edge-2", edgeOptions: {} });
    expect(sent(calls).map((c) => c.id)).toEqual([clusters.create.id]);
  });
});

describe("Workload: the patch sends the changed keys", () => {
  const workload = {
    name: "w-1",
    appName: "pump-app",
    appVersion: "1.2.0",
    clusterName: "edge-1",
    nodeName: "node-a",
    title: "W 1",
    runtime: {
      resources: [{ resource: "krn:asset:pump-1", parameters: { maxRpm: 3000 }, datastreams: { inFlow: { way: "input", configuration: { sampleRate: 1 } } } }],
      configuration: { logLevel: "debug" },
      datastreams: [{ name: "rms", dataTypeName: "plant.reading", unitName: "mm/s" }],
    },
    system: { cpuLimit: "1" },
    apiPermissions: { readAssets: true },
    deploymentType: "staged-only",
    running: true,
    adopt: true,
  };
  // The runtime as the patch sends it, written out by hand: snake_case keys except in its free-form
  // parts (a resource's parameters and datastreams, the configuration).
  const runtimeOnWire = {
    resources: [{ resource: "krn:asset:pump-1", parameters: { maxRpm: 3000 }, datastreams: { inFlow: { way: "input", configuration: { sampleRate: 1 } } } }],
    configuration: { logLevel: "debug" },
    datastreams: [{ name: "rms", data_type_name: "plant.reading", unit_name: "mm/s" }],
  };

  test("only the changed keys, under their wire names; runtime snake_cased except its free-form parts", async () => {
    const calls = await update(kinds.Workload, "w-1", workload, { ...workload, appVersion: "1.1.0" }, ["appVersion", "runtime", "apiPermissions", "running", "adopt"]);
    expect(calls).toEqual([
      {
        id: workloads.patch.id,
        input: {
          params: { workload_name: "w-1" },
          body: {
            app_version: "1.2.0",
            runtime: runtimeOnWire,
            api_permissions: { readAssets: true },
          },
        },
      },
    ]);
  });

  test("on adoption (no olds) every patchable key is sent, in the body's order", async () => {
    const calls = await update(kinds.Workload, "w-1", workload, undefined, []);
    expect(calls).toEqual([
      {
        id: workloads.patch.id,
        input: {
          params: { workload_name: "w-1" },
          body: {
            title: "W 1",
            app_version: "1.2.0",
            cluster_name: "edge-1",
            node_name: "node-a",
            deployment_type: "staged-only",
            runtime: runtimeOnWire,
            system: { cpuLimit: "1" },
            api_permissions: { readAssets: true },
          },
        },
      },
    ]);
    expect(Object.keys((calls[0].input as { body: object }).body)).toEqual([
      "title",
      "app_version",
      "cluster_name",
      "node_name",
      "deployment_type",
      "runtime",
      "system",
      "api_permissions",
    ]);
  });

  test("a changed key that is now unset is still a patch (an empty one); changes outside the patch only read", async () => {
    const { nodeName: _, ...news } = workload;
    expect(await update(kinds.Workload, "w-1", news, workload, ["nodeName"])).toEqual([{ id: workloads.patch.id, input: { params: { workload_name: "w-1" }, body: {} } }]);
    expect(await update(kinds.Workload, "w-1", workload, workload, ["running", "adopt"])).toEqual([{ id: workloads.get.id, input: { params: { workload_name: "w-1" } } }]);
  });
});
