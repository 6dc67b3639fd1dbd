/**
 * Secrets: the token endpoints never echo a password, client secret or token they were sent (in the
 * body or the headers of any answer), and the audit log redacts password, secret, token and
 * credential fields of the records it snapshots, at any depth and wherever such a value is repeated.
 */
import { randomBytes } from "node:crypto";
import { OIDC_TOKEN_PATH } from "../../src/api/auth";
import { useEmulator } from "../helpers/emulator";
import { errorBodyProblem, MODE, sendRaw, type RawAnswer } from "./helpers";
import { Figures, report } from "./reliability";

const emu = useEmulator();
const figures = new Figures();
afterAll(() => report(__filename, MODE, figures));

/** A value no answer could contain by chance. */
const marker = (label: string) => `${label}-${randomBytes(9).toString("base64url")}-Zz9`;

/** The answer's body and headers, as one text to search. */
const everything = (a: RawAnswer) => `${a.text}\n${JSON.stringify(a.headers)}`;

/** Expects none of the secrets in the text; counts each one found. */
function expectNoLeak(text: string, ...secrets: string[]): void {
  const found = secrets.filter((s) => text.includes(s));
  figures.secretLeaks += found.length;
  expect(found).toEqual([]);
}

async function form(path: string, fields: Record<string, string>, contentType = "application/x-www-form-urlencoded"): Promise<RawAnswer> {
  figures.requests++;
  const body = contentType.includes("json") ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
  return sendRaw(emu.baseUrl, { method: "POST", path, headers: { "content-type": contentType }, body });
}

function expectError(a: RawAnswer, status: number): void {
  expect(a.status).toBe(status);
  expect(errorBodyProblem(a)).toBeUndefined();
}

describe("Token endpoint: answers never echo the credentials sent", () => {
  test("a wrong password for a known user is 401 (invalid_grant) without the password anywhere in the answer", async () => {
    const password = marker("Wrong-Passw0rd");
    const a = await form(OIDC_TOKEN_PATH, { grant_type: "password", username: "admin@example.com", password, client_id: "svc-cli" });
    expectError(a, 401);
    expect(a.json).toMatchObject({ error: "invalid_grant" });
    expectNoLeak(everything(a), password);
  });

  test("an unknown user is 401 with the same answer as a wrong password (no user enumeration), and no echo", async () => {
    const password = marker("Passw0rd");
    const unknown = await form(OIDC_TOKEN_PATH, { grant_type: "password", username: "nobody@example.com", password, client_id: "svc-cli" });
    const wrong = await form(OIDC_TOKEN_PATH, { grant_type: "password", username: "admin@example.com", password, client_id: "svc-cli" });
    expectError(unknown, 401);
    expect(unknown.json).toEqual(wrong.json);
    expectNoLeak(everything(unknown), password);
  });

  test("a wrong client secret is 401 (invalid_client) without the secret in the answer", async () => {
    const secret = marker("client-secret");
    const a = await form(OIDC_TOKEN_PATH, { grant_type: "client_credentials", client_id: "svc-admin", client_secret: secret });
    expectError(a, 401);
    expect(a.json).toMatchObject({ error: "invalid_client" });
    expectNoLeak(everything(a), secret);
  });

  test("a forged refresh token is refused without echoing it", async () => {
    const token = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ typ: "Refresh", m: marker("refresh") })).toString("base64url")}.c2ln`;
    const a = await form(OIDC_TOKEN_PATH, { grant_type: "refresh_token", refresh_token: token, client_id: "svc-cli" });
    expect([400, 401]).toContain(a.status);
    expect(errorBodyProblem(a)).toBeUndefined();
    expectNoLeak(everything(a), token, token.split(".")[1]);
  });

  test("validation errors name the field without its value: an over-long password, a bad grant type, an unknown field", async () => {
    const long = marker("P").repeat(60);
    const tooLong = await form(OIDC_TOKEN_PATH, { grant_type: "password", username: "admin@example.com", password: long, client_id: "svc-cli" });
    expectError(tooLong, 400);
    expect(tooLong.text).toMatch(/password/);
    const secret = marker("S3cret");
    const badGrant = await form(OIDC_TOKEN_PATH, { grant_type: "implicit", username: "admin@example.com", password: secret, client_secret: secret, client_id: "svc-cli" });
    expectError(badGrant, 400);
    const extra = await form(OIDC_TOKEN_PATH, { grant_type: "client_credentials", client_id: "svc-admin", client_secret: "svc-admin-secret", password: secret });
    expect(extra.status).toBeLessThan(500);
    expectNoLeak([tooLong, badGrant, extra].map(everything).join("\n"), long, secret);
  });

  test("the edge token endpoint: a wrong password, as a form or as JSON, is 401 without echo", async () => {
    const password = marker("edge-Passw0rd");
    for (const type of ["application/x-www-form-urlencoded", "application/json"]) {
      const a = await form("/api/v4/auth/token/get", { username: "edge", password }, type);
      expectError(a, 401);
      expectNoLeak(everything(a), password);
    }
  });

  test("an API call with a malformed or forged bearer token is 401 without the token in the answer", async () => {
    const token = marker("not.a.jwt");
    figures.requests++;
    const a = await sendRaw(emu.baseUrl, { method: "GET", path: "/api/v4/apps/list", headers: { authorization: `Bearer ${token}` } });
    expectError(a, 401);
    expectNoLeak(everything(a), token);
  });
});

describe("Audit log: password, secret, token and credential fields are redacted", () => {
  /** Every audit entry as the API shows it (list and each entry's get). */
  async function auditText(): Promise<string> {
    const list = await emu.get("/instance/auditlog/list", { page_size: 1000 });
    figures.requests++;
    expect(list.status).toBe(200);
    const ids = (list.body.data as Array<{ id: number }>).map((e) => e.id);
    const entries = await Promise.all(ids.map((id) => emu.get(`/instance/auditlog/${id}/get`)));
    figures.requests += ids.length;
    return [list.text, ...entries.map((e) => e.text)].join("\n");
  }

  async function setupApp(): Promise<void> {
    expect((await emu.post("/orchestration/clusters/create", { name: "plant" })).status).toBe(201);
    const app = await emu.post("/apps/create", { name: "sim", title: "Sim", description: "d", type: "app", version: "1.0.0" });
    expect(app.status).toBe(201);
    figures.requests += 2;
  }

  test("secrets in a workload's configuration are redacted at the top and deep inside (eight levels down)", async () => {
    await setupApp();
    const shallow = marker("db-passw0rd");
    const deep = marker("deep-s3cret");
    const apiToken = marker("api-t0ken");
    const configuration = {
      password: shallow,
      a: { b: { c: { d: { e: { f: { g: { client_secret: deep } } } } } } },
      list: [{ auth: { api_token: apiToken } }],
    };
    const w = await emu.post("/apps/workloads/create", { name: "w1", app_name: "sim", app_version: "1.0.0", cluster_name: "plant", runtime: { configuration } });
    figures.requests++;
    expect(w.status).toBe(201);
    // The record keeps the configuration as sent (it is the user's data) ...
    expect((await emu.get("/apps/workloads/w1/get")).body.runtime.configuration).toEqual(configuration);
    // ... but its snapshot in the audit log does not.
    const text = await auditText();
    expect(text).toMatch(/\[redacted\]/);
    expectNoLeak(text, shallow, deep, apiToken);
  });

  test("a cluster's service-account token is redacted from the audit log, also where the provision script repeats it", async () => {
    const c = await emu.post("/orchestration/clusters/create", { name: "plant" });
    figures.requests++;
    expect(c.status).toBe(201);
    const token = c.body.service_account_token as string;
    expect(typeof token).toBe("string");
    expect(c.body.provision_script).toContain(token);
    expectNoLeak(await auditText(), token);
  });

  test("a cluster's API password (api_credentials) never reaches the audit log", async () => {
    expect((await emu.post("/orchestration/clusters/create", { name: "plant" })).status).toBe(201);
    const password = `Aa1${marker("pw")}`;
    const u = await emu.post("/orchestration/clusters/plant/update", { api_credentials: { username: "operator", password } });
    figures.requests += 2;
    expect(u.status).toBe(200);
    expectNoLeak(u.text + (await auditText()), password);
  });

  test("redacted snapshots keep `__proto__` keys as plain data, and nothing leaks through them", async () => {
    await setupApp();
    const secret = marker("proto-s3cret");
    const raw = `{"name":"w2","app_name":"sim","app_version":"1.0.0","cluster_name":"plant","runtime":{"configuration":{"__proto__":{"password":"${secret}","polluted":"yes"},"x":1}}}`;
    const w = await emu.call("POST", "/apps/workloads/create", { raw, contentType: "application/json" });
    figures.requests++;
    expect(w.status).toBe(201);
    expect(JSON.parse(w.text).runtime.configuration).toEqual(JSON.parse('{"__proto__":{"password":"' + secret + '","polluted":"yes"},"x":1}'));
    const text = await auditText();
    expectNoLeak(text, secret);
    expect(text).toMatch(/"__proto__":\{"password":"\[redacted\]","polluted":"yes"\}/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
