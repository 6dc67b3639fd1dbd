import { createHash } from "node:crypto";
import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf, type Json } from "../helpers/emulator";

const emu = useEmulator();

const register = (payload: Record<string, unknown>) => emu.post(pathOf(areas.appregistry.create), { payload });
const definition = (name: string, version: string, extra: Record<string, unknown> = {}) => ({ name, version, type: "svc", ...extra });

function packageForm(data: Buffer, filename = "pkg.tar.gz"): FormData {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(data)]), filename);
  return form;
}
const upload = (app: string, version: string, data: Buffer, filename?: string) =>
  emu.call("POST", pathOf(areas.appregistry.versionUpload, { app_name: app, app_version: version }), { raw: packageForm(data, filename) });

const names = (a: { body: { data: Array<{ name: string }> } }) => a.body.data.map((x) => x.name);

describe("POST /appregistry/create (AppCreate: payload is the whole app definition)", () => {
  test("answers 201 with the app, its versions and latest_version; the definition is kept as sent", async () => {
    const a = await register(definition("motor-monitor", "1.0.0", { title: "Motor monitor", description: "Watches motors", spec_version: "4.12.0", app: { x: 1 } }));
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ name: "motor-monitor", title: "Motor monitor", description: "Watches motors", type: "svc", latest_version: "1.0.0" });
    expect(a.body.versions).toHaveLength(1);
    const v = a.body.versions[0];
    expect(v.id).toBe(createHash("sha256").update("motor-monitor:1.0.0").digest("hex"));
    expect(v.payload).toEqual({
      name: "motor-monitor",
      version: "1.0.0",
      type: "svc",
      title: "Motor monitor",
      description: "Watches motors",
      spec_version: "4.12.0",
      app: { x: 1 },
    });
  });

  test("for an existing app the version is appended; latest_version is the highest by semver", async () => {
    await register(definition("motor-monitor", "1.9.0", { title: "First" }));
    const a = await register(definition("motor-monitor", "1.10.0", { title: "Ignored" }));
    expect(a.status).toBe(201);
    expect(a.body.versions.map((v: Json) => v.version)).toEqual(["1.9.0", "1.10.0"]);
    expect(a.body.latest_version).toBe("1.10.0");
    expect(a.body.title).toBe("First");
    await register(definition("motor-monitor", "1.2.0"));
    expect((await emu.get(pathOf(areas.appregistry.get, { app_name: "motor-monitor" }))).body.latest_version).toBe("1.10.0");
  });

  test("a duplicate version answers 409 and changes nothing", async () => {
    await register(definition("motor-monitor", "1.0.0"));
    expectErrorBody(await register(definition("motor-monitor", "1.0.0")), 409);
    expect((await emu.get(pathOf(areas.appregistry.get, { app_name: "motor-monitor" }))).body.versions).toHaveLength(1);
  });

  test("AppType values are accepted and mapped to the registry's types (app → svc, importer/exporter → bridge, docker → docker)", async () => {
    expect((await register({ name: "a1", version: "1.0.0", type: "app" })).body.type).toBe("svc");
    expect((await register({ name: "a2", version: "1.0.0", type: "importer" })).body.type).toBe("bridge");
    expect((await register({ name: "a3", version: "1.0.0", type: "exporter" })).body.type).toBe("bridge");
    expect((await register({ name: "a4", version: "1.0.0", type: "docker" })).body.type).toBe("docker");
    expect((await register({ name: "a5", version: "1.0.0" })).body.type).toBe("svc");
  });

  test("a version whose type differs from its app's answers 409", async () => {
    await register({ name: "a1", version: "1.0.0", type: "bridge" });
    expectErrorBody(await register({ name: "a1", version: "2.0.0", type: "svc" }), 409);
    expect((await register({ name: "a1", version: "2.0.0", type: "importer" })).status).toBe(201);
  });

  test("a missing name, a version that is not semver, an unknown type or unknown top-level fields answer 400 naming the field", async () => {
    const noName = await register({ version: "1.0.0" });
    expectErrorBody(noName, 400);
    expect(messages(noName)).toMatch(/body\.payload\.name/);
    const badVersion = await register({ name: "a", version: "one" });
    expect(messages(badVersion)).toMatch(/body\.payload\.version: must be a semantic version/);
    const badType = await register({ name: "a", version: "1.0.0", type: "lambda" });
    expect(messages(badType)).toMatch(/body\.payload\.type/);
    const extra = await emu.post(pathOf(areas.appregistry.create), { payload: { name: "a", version: "1.0.0" }, name: "a" });
    expectErrorBody(extra, 400);
    expect(emu.store.table("registry_apps").size).toBe(0);
  });

  test("the viewer may not register (403)", async () => {
    expectErrorBody(await emu.post(pathOf(areas.appregistry.create), { payload: definition("a", "1.0.0") }, { as: "viewer" }), 403);
  });
});

describe("GET /appregistry/list", () => {
  beforeEach(async () => {
    await register({ name: "alpha", version: "1.9.0", type: "svc", title: "Zeta monitor" });
    await register({ name: "beta", version: "1.10.0", type: "bridge", title: "OPC UA bridge" });
    await register({ name: "gamma", version: "0.1.0", type: "docker", title: "Monitor helper" });
  });

  test("items carry the list fields without versions", async () => {
    const a = await emu.get(pathOf(areas.appregistry.list));
    expect(a.status).toBe(200);
    expect(a.body.data[0]).toEqual({
      name: "alpha",
      title: "Zeta monitor",
      description: "",
      type: "svc",
      latest_version: "1.9.0",
      created: expect.any(String),
      updated: expect.any(String),
    });
  });

  test("type[] filters (AppType values map too); search[] matches name or title", async () => {
    expect(names(await emu.get(pathOf(areas.appregistry.list), { type: ["bridge", "docker"] }))).toEqual(["beta", "gamma"]);
    expect(names(await emu.get(pathOf(areas.appregistry.list), { type: ["importer"] }))).toEqual(["beta"]);
    expect(names(await emu.get(pathOf(areas.appregistry.list), { search: ["monitor"] }))).toEqual(["alpha", "gamma"]);
    expectErrorBody(await emu.get(pathOf(areas.appregistry.list), { type: ["lambda"] }), 400);
  });

  test("sortable: app.name, app.title, app.type, app.latest_version (by semver), app.created, app.updated, status", async () => {
    expect(names(await emu.get(pathOf(areas.appregistry.list), { sort_by: "app.title" }))).toEqual(["gamma", "beta", "alpha"]);
    expect(names(await emu.get(pathOf(areas.appregistry.list), { sort_by: "app.type" }))).toEqual(["beta", "gamma", "alpha"]);
    expect(names(await emu.get(pathOf(areas.appregistry.list), { sort_by: "app.latest_version", sort_asc: false }))).toEqual(["beta", "alpha", "gamma"]);
    await upload("gamma", "0.1.0", Buffer.from("pkg"));
    expect(names(await emu.get(pathOf(areas.appregistry.list), { sort_by: "status" }))[0]).toBe("gamma");
    for (const s of ["app.created", "app.updated"]) expect((await emu.get(pathOf(areas.appregistry.list), { sort_by: s })).status).toBe(200);
    expectErrorBody(await emu.get(pathOf(areas.appregistry.list), { sort_by: "app.description" }), 400);
  });

  test("page_size and starting_after walk the pages", async () => {
    const p1 = await emu.get(pathOf(areas.appregistry.list), { page_size: 2 });
    expect(names(p1)).toEqual(["alpha", "beta"]);
    const p2 = await emu.get(pathOf(areas.appregistry.list), { page_size: 2, starting_after: p1.body.pagination.next_page });
    expect(names(p2)).toEqual(["gamma"]);
  });
});

describe("GET /appregistry/{app_name}/get and POST …/update (AppUpdate: title?, description?)", () => {
  test("get answers the app with its versions; an unknown app answers 404", async () => {
    await register(definition("a", "1.0.0"));
    expect((await emu.get(pathOf(areas.appregistry.get, { app_name: "a" }))).body.versions[0].version).toBe("1.0.0");
    expectErrorBody(await emu.get(pathOf(areas.appregistry.get, { app_name: "nope" })), 404);
  });

  test("update changes the sent fields; omitted (or null) fields stay unchanged", async () => {
    await register(definition("a", "1.0.0", { title: "A", description: "first" }));
    const u = await emu.post(pathOf(areas.appregistry.update, { app_name: "a" }), { description: "second" });
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({ title: "A", description: "second", latest_version: "1.0.0" });
    expect(u.body.versions).toHaveLength(1);
    expect((await emu.post(pathOf(areas.appregistry.update, { app_name: "a" }), { title: "B", description: null })).body).toMatchObject({ title: "B", description: "second" });
  });

  test("update rejects unknown fields and a too long description (400); an unknown app answers 404", async () => {
    await register(definition("a", "1.0.0"));
    expectErrorBody(await emu.post(pathOf(areas.appregistry.update, { app_name: "a" }), { type: "docker" }), 400);
    const long = await emu.post(pathOf(areas.appregistry.update, { app_name: "a" }), { description: "x".repeat(257) });
    expect(messages(long)).toMatch(/body\.description: must be at most 256/);
    expectErrorBody(await emu.post(pathOf(areas.appregistry.update, { app_name: "nope" }), { title: "x" }), 404);
  });
});

describe("POST /appregistry/{app_name}/delete (deletes all of the app's versions)", () => {
  test("answers 200 with an empty body and removes the app, its versions and packages", async () => {
    await register(definition("a", "1.0.0"));
    await register(definition("a", "2.0.0"));
    await upload("a", "1.0.0", Buffer.from("pkg"));
    const d = await emu.post(pathOf(areas.appregistry.delete, { app_name: "a" }));
    expect(d.status).toBe(200);
    expect(d.text).toBe("");
    expectErrorBody(await emu.get(pathOf(areas.appregistry.get, { app_name: "a" })), 404);
    expectErrorBody(await emu.get(pathOf(areas.appregistry.versionGet, { app_name: "a", app_version: "1.0.0" })), 404);
    expect(emu.store.table("registry_versions").size).toBe(0);
    expect(emu.store.table("registry_packages").size).toBe(0);
    expectErrorBody(await emu.post(pathOf(areas.appregistry.delete, { app_name: "a" })), 404);
  });
});

describe("App registry versions", () => {
  beforeEach(async () => {
    await register(definition("a", "1.0.0", { note: "one" }));
  });

  test("version get answers { id, version, payload, created, updated }; unknown app or version 404", async () => {
    const v = await emu.get(pathOf(areas.appregistry.versionGet, { app_name: "a", app_version: "1.0.0" }));
    expect(Object.keys(v.body).sort()).toEqual(["created", "id", "payload", "updated", "version"]);
    expect(v.body.payload.note).toBe("one");
    expectErrorBody(await emu.get(pathOf(areas.appregistry.versionGet, { app_name: "a", app_version: "9.9.9" })), 404);
    expectErrorBody(await emu.get(pathOf(areas.appregistry.versionGet, { app_name: "b", app_version: "1.0.0" })), 404);
  });

  test("download answers 404 before any upload; afterwards exactly the uploaded bytes as application/octet-stream", async () => {
    const none = await emu.get(pathOf(areas.appregistry.versionDownload, { app_name: "a", app_version: "1.0.0" }));
    expectErrorBody(none, 404);
    expect(messages(none)).toMatch(/upload/);
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13, 0, 42]);
    const up = await upload("a", "1.0.0", bytes, "a-1.0.0.tar.gz");
    expect(up.status).toBe(200);
    expect(up.text).toBe("");
    const res = await fetch(`${emu.baseUrl}/api/v4/appregistry/a/versions/1.0.0/download`, { headers: { authorization: `Bearer ${await emu.token("admin")}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toContain("a-1.0.0.tar.gz");
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  test("upload needs exactly one non-empty file sent as multipart/form-data, to a version that exists", async () => {
    const json = await emu.post(pathOf(areas.appregistry.versionUpload, { app_name: "a", app_version: "1.0.0" }), { file: "x" });
    expectErrorBody(json, 415);
    const none = await emu.call("POST", pathOf(areas.appregistry.versionUpload, { app_name: "a", app_version: "1.0.0" }), { raw: new FormData() });
    expect(none.status).toBe(400);
    expectErrorBody(await upload("a", "1.0.0", Buffer.alloc(0)), 400);
    expectErrorBody(await upload("a", "2.0.0", Buffer.from("x")), 404);
    expectErrorBody(
      await emu.call("POST", pathOf(areas.appregistry.versionUpload, { app_name: "a", app_version: "1.0.0" }), { raw: packageForm(Buffer.from("x")), as: "viewer" }),
      403,
    );
    expect(emu.store.table("registry_packages").size).toBe(0);
  });

  test("build status: pending before upload, built after, with a build log", async () => {
    const before = await emu.get(pathOf(areas.appregistry.versionStatusGet, { app_name: "a", app_version: "1.0.0" }));
    expect(before.body).toEqual({ id: createHash("sha256").update("a:1.0.0").digest("hex"), name: "a", version: "1.0.0", status: "pending", build_log: expect.any(String) });
    await upload("a", "1.0.0", Buffer.from("package"));
    const after = await emu.get(pathOf(areas.appregistry.versionStatusGet, { app_name: "a", app_version: "1.0.0" }));
    expect(after.body.status).toBe("built");
    expect(after.body.build_log).toContain("7 bytes");
    expectErrorBody(await emu.get(pathOf(areas.appregistry.versionStatusGet, { app_name: "a", app_version: "2.0.0" })), 404);
  });

  test("version delete answers 200 empty, removes the package and recomputes latest_version by semver", async () => {
    await register(definition("a", "1.10.0"));
    await register(definition("a", "1.9.0"));
    await upload("a", "1.10.0", Buffer.from("x"));
    const d = await emu.post(pathOf(areas.appregistry.versionDelete, { app_name: "a", app_version: "1.10.0" }));
    expect(d.status).toBe(200);
    expect(d.text).toBe("");
    const app = (await emu.get(pathOf(areas.appregistry.get, { app_name: "a" }))).body;
    expect(app.latest_version).toBe("1.9.0");
    expect(app.versions.map((v: Json) => v.version)).toEqual(["1.0.0", "1.9.0"]);
    expect(emu.store.table("registry_packages").size).toBe(0);
    expectErrorBody(await emu.post(pathOf(areas.appregistry.versionDelete, { app_name: "a", app_version: "1.10.0" })), 404);
  });

  test("deleting the last version keeps the app with latest_version null", async () => {
    await emu.post(pathOf(areas.appregistry.versionDelete, { app_name: "a", app_version: "1.0.0" }));
    expect((await emu.get(pathOf(areas.appregistry.get, { app_name: "a" }))).body).toMatchObject({ latest_version: null, versions: [] });
  });
});

describe("GET /appregistry/versions/status/list (app_versions[] as <app_name>:<version>)", () => {
  beforeEach(async () => {
    await register(definition("a", "1.0.0"));
    await register(definition("a", "2.0.0"));
    await register(definition("b", "1.0.0"));
    await upload("b", "1.0.0", Buffer.from("x"));
  });

  test("without a filter lists every version's status, sorted by app_version.id", async () => {
    const a = await emu.get(pathOf(areas.appregistry.versionStatusList));
    expect(a.body.data).toHaveLength(3);
    const ids = a.body.data.map((s: Json) => s.id);
    expect(ids).toEqual([...ids].sort());
    expect((await emu.get(pathOf(areas.appregistry.versionStatusList), { sort_asc: false })).body.data.map((s: Json) => s.id)).toEqual([...ids].reverse());
  });

  test("app_versions[] selects the named versions; unknown ones are simply absent", async () => {
    const a = await emu.get(pathOf(areas.appregistry.versionStatusList), { app_versions: ["a:2.0.0", "b:1.0.0", "c:1.0.0"] });
    expect(a.body.data.map((s: Json) => `${s.name}:${s.version}:${s.status}`).sort()).toEqual(["a:2.0.0:pending", "b:1.0.0:built"]);
  });

  test("a malformed entry answers 400 naming it", async () => {
    const bad = await emu.get(pathOf(areas.appregistry.versionStatusList), { app_versions: ["a:1.0.0", "a-1.0.0"] });
    expectErrorBody(bad, 400);
    expect(messages(bad)).toMatch(/query\.app_versions\[1\]: must look like <app_name>:<version>/);
    expectErrorBody(await emu.get(pathOf(areas.appregistry.versionStatusList), { sort_by: "app_version.name" }), 400);
  });
});
