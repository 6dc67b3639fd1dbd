import jwt from "jsonwebtoken";
import { areas } from "../../src/api/endpoints";
import { useEmulator, expectErrorBody, messages, pathOf } from "../helpers/emulator";

// The emulator's clock is the test's: a token's expiry is reached by moving it, not by waiting,
// and a busy machine cannot let a one-second token lapse between two requests.
let now = Date.UTC(2026, 0, 1, 12, 0, 0, 250);
const emu = useEmulator({ options: { tokenLifetimes: { access: 1, refresh: 3 }, clock: () => now }, reset: false });

const TOKEN = "/auth/realms/svc/protocol/openid-connect/token";
const form = (fields: Record<string, string>) => ({ raw: new URLSearchParams(fields).toString(), contentType: "application/x-www-form-urlencoded", as: "none" as const });
const login = (fields: Record<string, string>) => emu.call("POST", TOKEN, form(fields));

describe("Authentication (spec Part 1; facts §2)", () => {
  test("password grant answers every field the spec lists, with integer lifetimes", async () => {
    const a = await login({ grant_type: "password", username: "admin@example.com", password: "admin", client_id: "svc-cli" });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      access_token: expect.any(String),
      expires_in: 1,
      refresh_expires_in: 3,
      refresh_token: expect.any(String),
      token_type: "Bearer",
      "not-before-policy": 0,
      session_state: expect.any(String),
      scope: expect.any(String),
    });
  });

  test("client_credentials grant returns the refresh fields too, so callers can cache", async () => {
    const a = await login({ grant_type: "client_credentials", client_id: "svc-admin", client_secret: "svc-admin-secret" });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ refresh_token: expect.any(String), refresh_expires_in: 3 });
  });

  test("wrong credentials answer 401 with the spec's error body plus the OAuth2 error fields, never echoing the password", async () => {
    const a = await login({ grant_type: "password", username: "admin@example.com", password: "hunter2-wrong", client_id: "svc-cli" });
    expect(a.status).toBe(401);
    expect(a.body).toMatchObject({ errors: [{ http_status_code: 401, message: ["invalid user credentials"] }], error: "invalid_grant" });
    expect(a.text).not.toContain("hunter2-wrong");
    const c = await login({ grant_type: "client_credentials", client_id: "svc-admin", client_secret: "nope" });
    expect(c.status).toBe(401);
    expect(c.body).toMatchObject({ error: "invalid_client" });
  });

  test("an unknown grant type answers 400 naming grant_type", async () => {
    const a = await login({ grant_type: "implicit", client_id: "svc-cli" });
    expectErrorBody(a, 400);
    expect(messages(a)).toMatch(/grant_type/);
  });

  test("refresh_token grant issues new tokens; an access token is refused as a refresh token", async () => {
    const first = await login({ grant_type: "password", username: "viewer@example.com", password: "viewer", client_id: "svc-cli" });
    const r = await login({ grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: "svc-cli" });
    expect(r.status).toBe(200);
    expect((await emu.get(pathOf(areas.clusters.list), undefined, { as: { token: r.body.access_token } })).status).toBe(200);
    expect((await login({ grant_type: "refresh_token", refresh_token: first.body.access_token, client_id: "svc-cli" })).status).toBe(400);
  });

  test("missing, malformed, wrongly signed and expired tokens answer 401", async () => {
    expectErrorBody(await emu.get(pathOf(areas.clusters.list), undefined, { as: "none" }), 401);
    expectErrorBody(await emu.get(pathOf(areas.clusters.list), undefined, { as: { token: "not-a-jwt" } }), 401);
    const forged = jwt.sign({ sub: "x", typ: "Bearer", kind: "user", preferred_username: "admin@example.com", permissions: ["svc.permission.*"] }, "another-key");
    expectErrorBody(await emu.get(pathOf(areas.clusters.list), undefined, { as: { token: forged } }), 401);
    const a = await login({ grant_type: "password", username: "admin@example.com", password: "admin", client_id: "svc-cli" });
    now += 2100;
    const expired = await emu.get(pathOf(areas.clusters.list), undefined, { as: { token: a.body.access_token } });
    expectErrorBody(expired, 401);
    expect(messages(expired)).toMatch(/expired/);
  });

  test("instance status needs no token", async () => {
    expect((await emu.get(pathOf(areas.instance.statusGet), undefined, { as: "none" })).status).toBe(200);
  });
});

describe("The instance metadata document and logout (what the vendor's clients read and call)", () => {
  test("GET /metadata names the auth server's URL, base path, realm and logout path, without a token", async () => {
    const a = await emu.call("GET", "/metadata", { as: "none" });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      api: { url: emu.baseUrl, docs: "/api/v4/openapi.json" },
      authentication: { url: emu.baseUrl, path: "auth", realm: "svc", logout_path: "/auth/realms/svc/logout" },
    });
    // The clients build the token endpoint from it: {url}/{path}/realms/{realm}/protocol/openid-connect/token.
    const { url, path, realm } = a.body.authentication;
    const token = await fetch(`${url}/${path}/realms/${realm}/protocol/openid-connect/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "password", username: "admin@example.com", password: "admin", client_id: "svc-cli" }),
    });
    expect(token.status).toBe(200);
  });

  test("logout, at the metadata's path and at the OIDC protocol's, answers 204 for a refresh token and 400 otherwise", async () => {
    for (const path of ["/auth/realms/svc/logout", "/auth/realms/svc/protocol/openid-connect/logout"]) {
      const { refresh_token, access_token } = (await login({ grant_type: "password", username: "admin@example.com", password: "admin", client_id: "svc-cli" })).body;
      const ok = await emu.call("POST", path, form({ client_id: "svc-cli", refresh_token }));
      expect(ok.status).toBe(204);
      const refused = await emu.call("POST", path, form({ client_id: "svc-cli", refresh_token: access_token }));
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: "invalid_grant", error_description: "an access token cannot be used here" });
    }
  });
});

describe("Edge API token endpoint (POST /api/v4/auth/token/get)", () => {
  test("accepts form fields and a JSON body, and answers access_token, expires_in, token_type", async () => {
    const viaForm = await emu.call("POST", pathOf(areas.auth.edgeToken), form({ username: "edge", password: "edge" }));
    expect(viaForm.status).toBe(200);
    expect(viaForm.body).toEqual({ access_token: expect.any(String), expires_in: 1, token_type: "Bearer" });
    const viaJson = await emu.post(pathOf(areas.auth.edgeToken), { username: "edge", password: "edge" }, { as: "none" });
    expect(viaJson.status).toBe(200);
    expect((await emu.get(pathOf(areas.legacyWorkloads.list), undefined, { as: { token: viaJson.body.access_token } })).status).toBe(200);
  });

  test("wrong edge credentials answer 401", async () => {
    expectErrorBody(await emu.post(pathOf(areas.auth.edgeToken), { username: "edge", password: "x" }, { as: "none" }), 401);
  });
});
