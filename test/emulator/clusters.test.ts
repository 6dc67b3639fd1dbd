import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf, type Json } from "../helpers/emulator";

const emu = useEmulator();

describe("Clusters (spec Part 2, Clusters)", () => {
  test("create answers 201 with the record and the platform's defaults filled in", async () => {
    const a = await emu.post(pathOf(areas.clusters.create), { name: "plant-a", title: "Plant A" });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      name: "plant-a",
      title: "Plant A",
      type: "k3s",
      ready: false,
      status: "pending_provision",
      forward_logs_buffer_size: 5,
      manifests_scrape_interval: 86400,
      telemetry_scrape_interval: 30,
      edge_options: { image_pull_policy: "IfNotPresent" },
    });
    expect(a.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  test("a duplicate name answers 409; a bad name answers 400 naming the field", async () => {
    await emu.post(pathOf(areas.clusters.create), { name: "plant-a" });
    expectErrorBody(await emu.post(pathOf(areas.clusters.create), { name: "plant-a" }), 409);
    const bad = await emu.post(pathOf(areas.clusters.create), { name: "Plant A" });
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/body\.name/);
  });

  test("update changes only the sent settings, validates ranges, and never echoes a password", async () => {
    await emu.post(pathOf(areas.clusters.create), { name: "plant-a" });
    const a = await emu.post(pathOf(areas.clusters.update, { cluster_name: "plant-a" }), {
      telemetry_buffer_size: 7,
      api_credentials: { username: "edge", password: "Secr3tPass" },
    });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ telemetry_buffer_size: 7, forward_logs_buffer_size: 5, api_credentials: { username: "edge", password_set: true } });
    expect(a.text).not.toContain("Secr3tPass");
    const audit = JSON.stringify([...emu.store.table("audit_log").values()]);
    expect(audit).not.toContain("Secr3tPass");
    const tooBig = await emu.post(pathOf(areas.clusters.update, { cluster_name: "plant-a" }), { telemetry_buffer_size: 21 });
    expectErrorBody(tooBig, 400);
    expect(messages(tooBig)).toMatch(/telemetry_buffer_size/);
    const weak = await emu.post(pathOf(areas.clusters.update, { cluster_name: "plant-a" }), { api_credentials: { password: "short" } });
    expectErrorBody(weak, 400);
  });

  test("update and get of an unknown cluster answer 404", async () => {
    expectErrorBody(await emu.post(pathOf(areas.clusters.update, { cluster_name: "nope" }), { title: "x" }), 404);
    expectErrorBody(await emu.get(pathOf(areas.clusters.get, { cluster_name: "nope" })), 404);
  });

  test("manifests get: the revision changes when the cluster changes", async () => {
    await emu.post(pathOf(areas.clusters.create), { name: "plant-a" });
    const r1 = (await emu.get(pathOf(areas.clusters.manifestsGet, { cluster_name: "plant-a" }))).body.revision;
    expect((await emu.get(pathOf(areas.clusters.manifestsGet, { cluster_name: "plant-a" }))).body.revision).toBe(r1);
    await emu.post(pathOf(areas.clusters.update, { cluster_name: "plant-a" }), { telemetry_enabled: false });
    const m = await emu.get(pathOf(areas.clusters.manifestsGet, { cluster_name: "plant-a" }));
    expect(m.body.revision).not.toBe(r1);
    expect(Buffer.from(m.body.manifests[0].content, "base64").toString()).toContain('telemetry_enabled: "false"');
    // An image's arguments are one string, as the vendor's clients read them.
    expect(m.body.images).toEqual([{ path: expect.stringMatching(/edge-agent/), args: "--cluster plant-a" }]);
    // The same update again (a repeated request) changes nothing, so the revision stays.
    await emu.post(pathOf(areas.clusters.update, { cluster_name: "plant-a" }), { telemetry_enabled: false });
    expect((await emu.get(pathOf(areas.clusters.manifestsGet, { cluster_name: "plant-a" }))).body.revision).toBe(m.body.revision);
  });

  test("an explicit null counts as the field left out (facts §1.1): the vendor's previous client sends every unset field so", async () => {
    await emu.post(pathOf(areas.clusters.create), { name: "plant-a", title: "Plant A" });
    const a = await emu.post(pathOf(areas.clusters.update, { cluster_name: "plant-a" }), {
      title: "Plant A2",
      ready: null,
      telemetry_buffer_size: null,
      edge_options: { image_pull_policy: null },
      // A field the operation does not know, sent as null, is left out too (the previous client's extra fields).
      cluster_name: null,
    });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ title: "Plant A2", telemetry_buffer_size: 5, edge_options: { image_pull_policy: "IfNotPresent" } });
    // A required field sent as null is still missing, and an unknown field with a value still refused.
    const noName = await emu.post(pathOf(areas.clusters.create), { name: null, title: "x" });
    expectErrorBody(noName, 400);
    expectErrorBody(await emu.post(pathOf(areas.clusters.update, { cluster_name: "plant-a" }), { cluster_name: "x" }), 400);
  });

  test("list: the vendor clients' Part 1 paging works too: next/previous, direction, limits and stream", async () => {
    for (const n of ["c1", "c2", "c3"]) await emu.post(pathOf(areas.clusters.create), { name: n });
    const list = (query: Record<string, string | number>) => emu.get(pathOf(areas.clusters.list), query);
    const p1 = await list({ page_size: 2 });
    const p2 = await list({ page_size: 2, next: p1.body.pagination.next_page });
    expect(p2.body.data.map((c: Json) => c.name)).toEqual(["c3"]);
    expect((await list({ page_size: 2, previous: p2.body.pagination.previous_page })).body.data.map((c: Json) => c.name)).toEqual(["c1", "c2"]);
    expect((await list({ direction: "desc" })).body.data.map((c: Json) => c.name)).toEqual(["c3", "c2", "c1"]);
    const limits = await list({ pagination_type: "limits", page_size: 2, page: 2 });
    expect(limits.headers.get("content-type")).toMatch(/^application\/x-json-limits/);
    expect(limits.body).toEqual({ data: [expect.objectContaining({ name: "c3" })], pagination: { page: 2, total_pages: 2, total_items: 3 } });
    const stream = await list({ pagination_type: "stream" });
    expect(
      stream.text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).name),
    ).toEqual(["c1", "c2", "c3"]);
    // The same cursor under both names is fine; two different ones are refused, naming them.
    const both = await list({ page_size: 2, next: p1.body.pagination.next_page, starting_after: p2.body.pagination.previous_page });
    expectErrorBody(both, 400);
    expect(messages(both)).toMatch(/query\.next: names another cursor than starting_after/);
    // The spec's page size limit stays: the clients' default of 10000 is refused.
    expectErrorBody(await list({ page_size: 10000 }), 400);
  });

  test("list: search on name or title, sort by cluster.name, starting_after/ending_before cursors", async () => {
    for (const n of ["c1", "c2", "c3", "c4", "c5"]) await emu.post(pathOf(areas.clusters.create), { name: n, title: n === "c3" ? "Main Plant" : `T ${n}` });
    expect((await emu.get(pathOf(areas.clusters.list), { search: ["main"] })).body.data.map((c: Json) => c.name)).toEqual(["c3"]);
    const p1 = await emu.get(pathOf(areas.clusters.list), { page_size: 2 });
    expect(p1.body.data.map((c: Json) => c.name)).toEqual(["c1", "c2"]);
    const p2 = await emu.get(pathOf(areas.clusters.list), { page_size: 2, starting_after: p1.body.pagination.next_page });
    expect(p2.body.data.map((c: Json) => c.name)).toEqual(["c3", "c4"]);
    const back = await emu.get(pathOf(areas.clusters.list), { page_size: 2, ending_before: p2.body.pagination.previous_page });
    expect(back.body.data.map((c: Json) => c.name)).toEqual(["c1", "c2"]);
    const desc = await emu.get(pathOf(areas.clusters.list), { sort_asc: false, page_size: 1 });
    expect(desc.body.data[0].name).toBe("c5");
    expectErrorBody(await emu.get(pathOf(areas.clusters.list), { page_size: 1001 }), 400);
    expectErrorBody(await emu.get(pathOf(areas.clusters.list), { sort_by: "cluster.title" }), 400);
  });

  test("downloads: registry credentials as YAML, provisioning binary as bytes, provisioning script as JSON", async () => {
    await emu.post(pathOf(areas.clusters.create), { name: "plant-a" });
    const creds = await emu.get(pathOf(areas.clusters.privateRegistryDownload, { cluster_name: "plant-a" }));
    expect(creds.status).toBe(200);
    expect(creds.headers.get("content-type")).toBe("application/yaml");
    expect(creds.text).toMatch(/username: cluster-plant-a/);
    const bin = await emu.get(pathOf(areas.clusters.provisionBinDownload));
    expect(bin.headers.get("content-type")).toBe("application/octet-stream");
    expect((await emu.get(pathOf(areas.clusters.provisionScriptDownload))).body.script).toMatch(/^#!\/bin\/sh/);
  });

  test("CIDR list: one entry per cluster, searchable by range or cluster name", async () => {
    await emu.post(pathOf(areas.clusters.create), { name: "plant-a" });
    await emu.post(pathOf(areas.clusters.create), { name: "plant-b" });
    const all = await emu.get(pathOf(areas.clusters.cidrList));
    expect(all.body.data).toHaveLength(2);
    const pod = all.body.data[1].kube_pod_cidr;
    expect((await emu.get(pathOf(areas.clusters.cidrList), { search: [pod] })).body.data.map((c: Json) => c.cluster_name)).toEqual(["plant-b"]);
  });

  test("permissions: the viewer reads but cannot create (403)", async () => {
    expect((await emu.get(pathOf(areas.clusters.list), undefined, { as: "viewer" })).status).toBe(200);
    expectErrorBody(await emu.post(pathOf(areas.clusters.create), { name: "x" }, { as: "viewer" }), 403);
  });
});
