/**
 * The typed client over real HTTP against the emulator. A small "front" server sits between the
 * client and the emulator where a test must see or shape the traffic: it records every request,
 * and a script can answer a request itself (401, 503, a reset, a hang, a corrupted body) instead of
 * forwarding it.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { types } from "node:util";
import { request } from "undici";
import { z } from "zod";
import { area, endpoint } from "../../src/api/endpoint";
import { areas } from "../../src/api/endpoints";
import {
  SvcApiError,
  SvcClient,
  SvcConnectionResetError,
  SvcNetworkError,
  SvcRequestError,
  SvcResponseError,
  SvcTimeoutError,
  type ClientEvent,
  type SvcClientOptions,
} from "../../src/client";
import { useEmulator } from "../helpers/emulator";

// ---------------------------------------------------------------------------------------------
// The front server

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** The emulator's answer, when the request was forwarded. */
  answer?: { status: number; body: string };
}

type Reply = { status: number; headers?: Record<string, string>; body?: unknown };
/** What the front does with a request: answer it, reset it, hold it, or forward it (the default). */
type Action = Reply | "reset" | "hang" | "forward" | { forwardThen: (answer: { status: number; body: string }) => Reply | "reset" };
type Script = (req: Seen, index: number) => Action | undefined;

interface Front {
  baseUrl: string;
  seen: Seen[];
  script: Script;
  tokenRequests(): Seen[];
  apiRequests(): Seen[];
  close(): Promise<void>;
}

const TOKEN_PATHS = ["/auth/realms/svc/protocol/openid-connect/token", "/api/v4/auth/token/get"];

async function startFront(target: string): Promise<Front> {
  const front: Front = {
    baseUrl: "",
    seen: [],
    script: () => undefined,
    tokenRequests: () => front.seen.filter((s) => TOKEN_PATHS.includes(s.path)),
    apiRequests: () => front.seen.filter((s) => !TOKEN_PATHS.includes(s.path)),
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
  const send = (res: http.ServerResponse, r: Reply) => {
    const body = r.body === undefined ? "" : typeof r.body === "string" ? r.body : JSON.stringify(r.body);
    res.writeHead(r.status, { "content-type": "application/json", ...(r.headers ?? {}) });
    res.end(body);
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? "/", "http://front");
    const seen: Seen = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
    front.seen.push(seen);
    const action = front.script(seen, front.seen.length - 1) ?? "forward";
    if (action === "reset") return req.socket.resetAndDestroy();
    if (action === "hang") return;
    if (action !== "forward" && !("forwardThen" in action)) return send(res, action);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    const answer = await request(`${target}${req.url}`, { method: req.method as "GET" | "POST", headers, body: seen.body || undefined });
    const body = await answer.body.text();
    seen.answer = { status: answer.statusCode, body };
    if (action !== "forward") {
      const next = action.forwardThen(seen.answer);
      if (next === "reset") return req.socket.resetAndDestroy();
      return send(res, next);
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(answer.headers)) if (typeof v === "string" && k !== "transfer-encoding" && k !== "connection") out[k] = v;
    res.writeHead(answer.statusCode, out);
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  front.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return front;
}

// ---------------------------------------------------------------------------------------------
// Setup

const ADMIN = { username: "admin@example.com", password: "admin" };
const SERVICE = { clientId: "svc-admin", clientSecret: "svc-admin-secret" };
const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20 };

const emu = useEmulator();
let front: Front;
const clients: SvcClient[] = [];
let events: ClientEvent[] = [];

/** A client talking to the front (and through it to the emulator), with its events collected. */
function client(options: SvcClientOptions = {}, base: { baseUrl: string } = front): SvcClient {
  const c = SvcClient.fromEnv({}, { baseUrl: base.baseUrl, ...ADMIN, retry: FAST_RETRY, logger: (e) => events.push(e), ...options });
  clients.push(c);
  return c;
}

const errorOf = async (p: Promise<unknown>): Promise<Error> => {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the call to fail");
};

const apiError = (status: number, message: string) => ({ status, body: { errors: [{ error_code: status * 100 + 1, http_status_code: status, message: [message] }] } });
const form = (s: Seen) => Object.fromEntries(new URLSearchParams(s.body));
const clusterCount = () => emu.store.table("clusters").size;

beforeAll(async () => {
  front = await startFront(emu.baseUrl);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await front.close();
});
beforeEach(() => {
  emu.faults.configure({});
  front.seen = [];
  front.script = () => undefined;
  events = [];
});

// ---------------------------------------------------------------------------------------------

describe("Typed methods derived from the endpoint table", () => {
  test("client.<area>.<operation> exists for every endpoint, as plain functions on plain objects", () => {
    const c = client();
    for (const [area, ops] of Object.entries(areas)) {
      const methods = (c as unknown as Record<string, Record<string, unknown>>)[area];
      expect(types.isProxy(methods)).toBe(false);
      expect(Object.keys(methods).sort()).toEqual(Object.keys(ops).sort());
      for (const op of Object.keys(ops)) expect(typeof methods[op]).toBe("function");
    }
    expect(c.clusters.create.name).toBe("clusters.create");
  });

  test("create, get and update go to the table's paths with JSON bodies and typed answers", async () => {
    const c = client();
    const created = await c.clusters.create({ body: { name: "plant-a", title: "Plant A" } });
    expect(created).toMatchObject({ name: "plant-a", title: "Plant A", type: "k3s" });
    const updated = await c.clusters.update({ params: { cluster_name: "plant-a" }, body: { telemetry_buffer_size: 7 } });
    expect(updated.telemetry_buffer_size).toBe(7);
    const got = await c.clusters.get({ params: { cluster_name: "plant-a" } });
    expect(got.telemetry_buffer_size).toBe(7);
    const create = front.apiRequests()[0];
    expect(create).toMatchObject({ method: "POST", path: "/api/v4/orchestration/clusters/create" });
    expect(create.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(create.body)).toEqual({ name: "plant-a", title: "Plant A" });
    expect(front.apiRequests()[2].path).toBe("/api/v4/orchestration/clusters/plant-a/get");
  });

  test("every path value is percent-encoded in full", async () => {
    const c = client();
    const err = await errorOf(c.clusters.get({ params: { cluster_name: "a/b?c#d e" } }));
    expect(front.apiRequests()[0].path).toBe("/api/v4/orchestration/clusters/a%2Fb%3Fc%23d%20e/get");
    // The server decoded the one segment and refused the name (it did not route elsewhere).
    expect(err).toBeInstanceOf(SvcApiError);
    expect((err as SvcApiError).status).toBe(400);
    expect(err.message).toMatch(/cluster_name/);
  });

  test("query arrays are sent as repeated key[] entries; numbers and booleans as text", async () => {
    const c = client();
    for (const name of ["line-1", "line-2", "press-1"]) await c.clusters.create({ body: { name } });
    front.seen = [];
    const page = await c.clusters.list({ query: { search: ["line-1", "press"], page_size: 10, sort_asc: false } });
    expect(front.apiRequests()[0].query.getAll("search[]")).toEqual(["line-1", "press"]);
    expect(front.apiRequests()[0].query.get("page_size")).toBe("10");
    expect(page.data.map((d) => d.name)).toEqual(["press-1", "line-1"]);
  });

  test("binary and YAML answers come back as a Buffer and a string", async () => {
    const c = client();
    await c.clusters.create({ body: { name: "plant-a" } });
    const bin = await c.clusters.provisionBinDownload();
    expect(Buffer.isBuffer(bin)).toBe(true);
    expect((bin as Buffer).length).toBeGreaterThan(0);
    const yaml = await c.clusters.privateRegistryDownload({ params: { cluster_name: "plant-a" } });
    expect(typeof yaml).toBe("string");
  });

  test("uploads go as multipart/form-data with the file in field 'file'", async () => {
    const c = client();
    await c.appregistry.create({ body: { payload: { name: "sim", version: "1.0.0" } } });
    const data = Buffer.from("package bytes \u0000\u0001");
    await c.appregistry.versionUpload({ params: { app_name: "sim", app_version: "1.0.0" }, file: { name: "sim-1.0.0.tgz", data, contentType: "application/gzip" } });
    const upload = front.apiRequests().at(-1)!;
    expect(upload.path).toBe("/api/v4/appregistry/sim/versions/1.0.0/upload");
    expect(upload.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.body).toMatch(/name="file"; filename="sim-1.0.0.tgz"/);
    const params = { app_name: "sim", app_version: "1.0.0" };
    expect((await c.appregistry.versionStatusGet({ params })).status).toBe("built");
    expect(await c.appregistry.versionDownload({ params })).toEqual(data);
  });

  test("an NDJSON answer is a list with each line checked against the endpoint's schema", async () => {
    const c = client();
    for (const day of ["01", "02", "03"]) {
      await c.datalabels.create({ body: { label_name: "maintenance", start_date: `2024-05-${day}T00:00:00Z`, end_date: `2024-05-${day}T01:00:00Z` } });
    }
    const lines = (await c.datalabels.rangeGet({ body: {} })) as unknown as Array<{ label_name: string; start_date: string }>;
    expect(lines.map((l) => l.start_date.slice(0, 10))).toEqual(["2024-05-01", "2024-05-02", "2024-05-03"]);
    front.script = (s) =>
      s.path.endsWith("/range/get")
        ? { forwardThen: (a) => ({ status: a.status, headers: { "content-type": "application/x-json-stream" }, body: a.body.replace(/"label_name":"[^"]*"/, '"label_name":7') }) }
        : undefined;
    const err = await errorOf(c.datalabels.rangeGet({ body: {} }));
    expect(err.message).toMatch(/^datalabels\.rangeGet: response field line 1 label_name: expected string, received number/);
  });

  test("a missing path parameter is refused before anything is sent", async () => {
    const c = client();
    const err = await errorOf(c.clusters.get({ params: {} as never }));
    expect(err.message).toBe("clusters.get: missing path parameter 'cluster_name' (pass input.params.cluster_name; needs cluster_name)");
    expect(front.seen).toHaveLength(0);
  });
});

describe("Authentication (spec Part 1 Authentication; facts §2)", () => {
  test("password grant: username, password and client_id svc-cli, form-encoded, to the OIDC token endpoint", async () => {
    const c = client();
    await c.clusters.create({ body: { name: "plant-a" } });
    const [token] = front.tokenRequests();
    expect(token.path).toBe("/auth/realms/svc/protocol/openid-connect/token");
    expect(token.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(form(token)).toEqual({ grant_type: "password", username: "admin@example.com", password: "admin", client_id: "svc-cli" });
    expect(front.apiRequests()[0].headers.authorization).toBe(`Bearer ${JSON.parse(token.answer!.body).access_token}`);
    expect(c.stats).toMatchObject({ requests: 1, tokenRequests: 1 });
  });

  test("client_credentials grant when a client secret is given without a username", async () => {
    const c = client({ username: undefined, password: undefined, ...SERVICE });
    const created = await c.clusters.create({ body: { name: "plant-a" } });
    expect(created.name).toBe("plant-a");
    expect(form(front.tokenRequests()[0])).toEqual({ grant_type: "client_credentials", client_id: "svc-admin", client_secret: "svc-admin-secret" });
    const audit = [...emu.store.table<{ username: string }>("audit_log").values()];
    expect(audit.map((a) => a.username)).toEqual(["svc-admin"]);
  });

  test("a static bearer token is sent as is and no token is requested", async () => {
    const token = await emu.token("admin");
    const c = client({ username: undefined, password: undefined, token });
    await c.clusters.list();
    expect(front.tokenRequests()).toHaveLength(0);
    expect(front.apiRequests()[0].headers.authorization).toBe(`Bearer ${token}`);
    expect(c.stats.tokenRequests).toBe(0);
  });

  test("edge API: POST /api/v4/auth/token/get with the edge user's username and password", async () => {
    const c = client({ username: "edge", password: "edge", edge: true });
    const page = await c.clusters.list();
    expect(page.data).toEqual([]);
    const [token] = front.tokenRequests();
    expect(token.path).toBe("/api/v4/auth/token/get");
    expect(form(token)).toEqual({ username: "edge", password: "edge" });
    expect(c.stats.tokenRequests).toBe(1);
  });

  test("50 concurrent calls on a fresh client cost exactly one token request", async () => {
    const c = client();
    await Promise.all(Array.from({ length: 50 }, () => c.clusters.list()));
    expect(c.stats.tokenRequests).toBe(1);
    expect(front.tokenRequests()).toHaveLength(1);
    expect(c.stats.requests).toBe(50);
    // The token is reused afterwards too.
    await c.clusters.list();
    expect(front.tokenRequests()).toHaveLength(1);
  });

  test("a 401 invalidates the token: one new token is fetched and the request repeated once", async () => {
    const c = client();
    await c.clusters.list();
    let refused = 0;
    front.script = (s) => (s.path.endsWith("/clusters/list") && refused++ === 0 ? apiError(401, "access token expired") : undefined);
    const page = await c.clusters.list();
    expect(page.data).toEqual([]);
    expect(c.stats.tokenRequests).toBe(2);
    const lists = front.apiRequests();
    expect(lists).toHaveLength(3);
    expect(lists[2].headers.authorization).not.toBe(lists[1].headers.authorization);
  });

  test("a 401 that persists after the new token is not chased further: it is thrown", async () => {
    const c = client();
    front.script = (s) => (s.path.endsWith("/clusters/list") ? apiError(401, "access token is invalid") : undefined);
    const err = (await errorOf(c.clusters.list())) as SvcApiError;
    expect(err.status).toBe(401);
    expect(c.stats.tokenRequests).toBe(2);
    expect(front.apiRequests()).toHaveLength(2);
  });

  test("a static token refused with 401 is thrown at once (no token to fetch)", async () => {
    const c = client({ username: undefined, password: undefined, token: "not-a-valid-token" });
    const err = (await errorOf(c.clusters.list())) as SvcApiError;
    expect(err.status).toBe(401);
    expect(front.apiRequests()).toHaveLength(1);
  });

  test("wrong credentials: a 401 naming the grant, the user and the options to check", async () => {
    const c = client({ password: "Wr0ng-Passw0rd!" });
    const err = (await errorOf(c.clusters.list())) as SvcApiError;
    expect(err).toBeInstanceOf(SvcApiError);
    expect(err.status).toBe(401);
    expect(err.message).toMatch(
      /^POST \/auth\/realms\/svc\/protocol\/openid-connect\/token → 401: login refused \(password grant for admin@example.com\): invalid user credentials; check username, password and clientId \(SVC_USERNAME, SVC_PASSWORD, SVC_CLIENT_ID\)/,
    );
    expect(err.message).not.toContain("Wr0ng-Passw0rd!");
    expect(front.apiRequests()).toHaveLength(0);
  });
});

describe("Token renewal (facts §2)", () => {
  test("a refused refresh is answered by logging in again", async () => {
    // The front shortens the lifetimes the client is told, and the client's clock is moved past 90 % of the access token's.
    const shorten = (a: { status: number; body: string }) => ({ status: a.status, body: { ...JSON.parse(a.body), expires_in: 1, refresh_expires_in: 60 } });
    let now = Date.now();
    front.script = (s) =>
      s.body.includes("grant_type=refresh_token")
        ? { status: 400, body: { error: "invalid_grant", error_description: "session not active" } }
        : s.path.endsWith("/token")
          ? { forwardThen: shorten }
          : undefined;
    const c = client({ clock: () => now });
    await c.clusters.list();
    now += 950;
    const page = await c.clusters.list();
    expect(page.data).toEqual([]);
    expect(front.tokenRequests().map((s) => form(s).grant_type)).toEqual(["password", "refresh_token", "password"]);
    expect(events.filter((e) => e.type === "token").map((e) => e.message)).toContain("refresh was refused (400); logging in again");
  });
});

describe("Errors (spec Errors; facts §1.3)", () => {
  test("a non-2xx answer throws SvcApiError with a one-line message: method, path, status, the server's message, request id", async () => {
    const c = client();
    await c.clusters.create({ body: { name: "a" } });
    const err = (await errorOf(c.clusters.create({ body: { name: "a" } }, { requestId: "req-1234" }))) as SvcApiError;
    expect(err).toBeInstanceOf(SvcApiError);
    expect(err.message).toBe("POST /orchestration/clusters/create → 409: cluster 'a' already exists (request req-1234)");
    expect(err).toMatchObject({ status: 409, method: "POST", path: "/orchestration/clusters/create", requestId: "req-1234", retryable: false, code: 40901 });
    expect(err.errors).toEqual([{ error_code: 40901, http_status_code: 409, message: ["cluster 'a' already exists"] }]);
    expect(front.apiRequests().at(-1)!.headers["x-request-id"]).toBe("req-1234");
  });

  test("a 404 names the record; a 500 is not retried", async () => {
    const c = client();
    const missing = (await errorOf(c.clusters.get({ params: { cluster_name: "nope" } }))) as SvcApiError;
    expect(missing.status).toBe(404);
    expect(missing.message).toMatch(/^GET \/orchestration\/clusters\/nope\/get → 404: .*nope/);
    front.script = () => apiError(500, "internal error");
    const internal = (await errorOf(c.clusters.list())) as SvcApiError;
    expect(internal.status).toBe(500);
    expect(front.apiRequests()).toHaveLength(2);
  });

  test("an error page that is not the spec's body is described in one line", async () => {
    const c = client();
    await c.clusters.list();
    front.script = () => ({ status: 502, headers: { "content-type": "text/html" }, body: "<html><body><h1>502 Bad Gateway</h1>\n<p>nginx</p></body></html>" });
    const err = (await errorOf(c.clusters.list(undefined, { requestId: "r-9" }))) as SvcApiError;
    expect(err.message).toBe("GET /orchestration/clusters/list → 502: bad gateway: 502 Bad Gateway nginx (request r-9)");
    expect(err.retryable).toBe(true);
  });
});

describe("Failures without an answer: a class and a stable code for each", () => {
  test("a read reset every time: SvcConnectionResetError (SVC_ERR_CONNECTION_RESET) after the retries, not an SvcApiError", async () => {
    const c = client({ retry: { ...FAST_RETRY, maxAttempts: 2 } });
    await c.clusters.list();
    front.script = () => "reset";
    const err = await errorOf(c.clusters.list(undefined, { requestId: "r-1" }));
    expect(err).toBeInstanceOf(SvcConnectionResetError);
    expect(err).toBeInstanceOf(SvcNetworkError);
    expect(err).not.toBeInstanceOf(SvcApiError);
    expect(err).toMatchObject({
      name: "SvcConnectionResetError",
      code: "SVC_ERR_CONNECTION_RESET",
      maybeSent: true,
      retryable: true,
      causeCode: "ECONNRESET",
      method: "GET",
      path: "/orchestration/clusters/list",
      endpointId: "clusters.list",
      requestId: "r-1",
    });
    expect(err.message).toBe(`GET /orchestration/clusters/list → no answer: connection to ${front.baseUrl} reset (ECONNRESET) (request r-1)`);
    expect("status" in err).toBe(false);
    expect(front.apiRequests()).toHaveLength(3);
  });

  test("a read that hangs: SvcTimeoutError (SVC_ERR_TIMEOUT)", async () => {
    const c = client({ timeoutMs: 200, retry: { ...FAST_RETRY, maxAttempts: 1 } });
    await c.clusters.list();
    front.script = () => "hang";
    const err = await errorOf(c.clusters.list());
    expect(err).toBeInstanceOf(SvcTimeoutError);
    expect(err).toMatchObject({ code: "SVC_ERR_TIMEOUT", maybeSent: true, retryable: true });
  });

  test("a create whose answer is lost and which no read can confirm keeps its class, with the advice, no longer retryable", async () => {
    const c = client();
    front.script = (s) => (s.path.endsWith("/datalabels/create") ? { forwardThen: () => "reset" } : undefined);
    const body = { label_name: "anomaly", start_date: "2024-05-01T12:00:00Z", end_date: "2024-05-01T13:00:00Z" };
    const err = await errorOf(c.datalabels.create({ body }));
    expect(err).toBeInstanceOf(SvcConnectionResetError);
    expect(err).toMatchObject({ code: "SVC_ERR_CONNECTION_RESET", retryable: false, causeCode: "ECONNRESET" });
    expect(err.message).toMatch(/→ no answer: connection to .* reset \(ECONNRESET\); the create may or may not have been applied/);
    expect(front.apiRequests().filter((s) => s.path.endsWith("/datalabels/create"))).toHaveLength(1);
  });

  test("a call on a closed client: SvcRequestError (SVC_ERR_REQUEST), sent nowhere and not retried", async () => {
    const c = client();
    await c.close();
    const err = await errorOf(c.clusters.list());
    expect(err).toBeInstanceOf(SvcRequestError);
    expect(err).toMatchObject({ code: "SVC_ERR_REQUEST", maybeSent: false, retryable: false });
    expect(c.stats.retries).toBe(0);
  });
});

describe("Response validation against the table's success schema", () => {
  test("a record field of the wrong type is named with its path and the endpoint", async () => {
    const c = client();
    await c.clusters.create({ body: { name: "a" } });
    front.script = (s) => (s.path.endsWith("/get") ? { forwardThen: (a) => ({ status: a.status, body: { ...JSON.parse(a.body), created: 5 } }) } : undefined);
    const err = await errorOf(c.clusters.get({ params: { cluster_name: "a" } }));
    expect(err).toBeInstanceOf(SvcResponseError);
    expect(err.message).toMatch(/^clusters\.get: response field created: expected string, received number/);
  });

  test("a Part 1 list's limits and stream answers are checked too: a limits page without total_items, a stream line of the wrong shape", async () => {
    const c = client();
    front.script = (s) =>
      s.path.endsWith("/apps/list")
        ? { status: 200, headers: { "content-type": "application/x-json-limits" }, body: { data: [], pagination: { page: 1, total_pages: 1 } } }
        : undefined;
    const limits = await errorOf(c.apps.list({ query: { pagination_type: "limits" } }));
    expect(limits).toBeInstanceOf(SvcResponseError);
    expect(limits.message).toMatch(/^apps\.list: response field pagination\.total_items: expected number/);
    front.script = (s) =>
      s.path.endsWith("/apps/list") ? { status: 200, headers: { "content-type": "application/x-json-stream" }, body: '{"name":"a"}\n{"name":7}\n' } : undefined;
    const stream = await errorOf(c.apps.list({ query: { pagination_type: "stream" } }));
    expect(stream).toBeInstanceOf(SvcResponseError);
    expect(stream.message).toMatch(/^apps\.list: response field line 1/);
  });

  test("a list item's field is named with its index", async () => {
    const c = client();
    for (const name of ["a", "b", "c", "d"]) await c.clusters.create({ body: { name } });
    front.script = (s) =>
      s.path.endsWith("/list")
        ? {
            forwardThen: (a) => {
              const body = JSON.parse(a.body);
              body.data[3].created = null;
              return { status: a.status, body };
            },
          }
        : undefined;
    const err = await errorOf(c.clusters.list());
    expect(err.message).toMatch(/^clusters\.list: response field data\[3\]\.created: expected string/);
  });
});

describe("Retries (429, 502, 503, 504, resets and timeouts)", () => {
  test("503 twice, then the answer: the call succeeds after two retries", async () => {
    const c = client();
    await c.clusters.list();
    let n = 0;
    front.script = (s) => (s.path.endsWith("/list") && n++ < 2 ? apiError(503, "service unavailable") : undefined);
    const page = await c.clusters.list();
    expect(page.data).toEqual([]);
    expect(c.stats.retries).toBe(2);
    expect(events.filter((e) => e.type === "retry").map((e) => e.message)).toEqual([
      expect.stringMatching(/^GET \/orchestration\/clusters\/list → 503; repeating in \d+ ms \(attempt 2 of 6\)$/),
      expect.stringMatching(/attempt 3 of 6/),
    ]);
  });

  test("Retry-After in seconds is honoured", async () => {
    const c = client();
    await c.clusters.list();
    let n = 0;
    front.script = (s) => (s.path.endsWith("/list") && n++ === 0 ? { ...apiError(429, "slow down"), headers: { "retry-after": "1" } } : undefined);
    const t0 = Date.now();
    await c.clusters.list();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(events.find((e) => e.type === "retry")).toMatchObject({ delayMs: 1000, status: 429 });
  });

  test("Retry-After as an HTTP date is honoured", async () => {
    const c = client();
    await c.clusters.list();
    let n = 0;
    // HTTP dates have whole seconds: the next second boundary at least 300 ms ahead.
    const at = new Date(Math.ceil((Date.now() + 300) / 1000) * 1000);
    front.script = (s) => (s.path.endsWith("/list") && n++ === 0 ? { ...apiError(503, "maintenance"), headers: { "retry-after": at.toUTCString() } } : undefined);
    await c.clusters.list();
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime() - 20);
    expect(events.find((e) => e.type === "retry")?.delayMs).toBeGreaterThanOrEqual(250);
  });

  test("a connection reset and a timeout on a read are retried", async () => {
    const c = client({ timeoutMs: 300 });
    await c.clusters.list();
    let n = 0;
    front.script = (s) => (s.path.endsWith("/list") ? (n++ === 0 ? "reset" : n === 2 ? "hang" : undefined) : undefined);
    const page = await c.clusters.list();
    expect(page.data).toEqual([]);
    expect(front.apiRequests()).toHaveLength(4);
    expect(events.filter((e) => e.type === "request" && e.status === 0).map((e) => e.message)).toEqual([
      `GET /orchestration/clusters/list → no answer: connection to ${front.baseUrl} reset (ECONNRESET)`,
      `GET /orchestration/clusters/list → no answer: no answer from ${front.baseUrl} within 300 ms`,
    ]);
  });

  test("after maxAttempts the last error is thrown, marked retryable", async () => {
    const c = client({ retry: { ...FAST_RETRY, maxAttempts: 3 } });
    await c.clusters.list();
    front.script = () => apiError(504, "gateway timeout");
    const err = (await errorOf(c.clusters.list())) as SvcApiError;
    expect(err).toMatchObject({ status: 504, retryable: true });
    expect(front.apiRequests()).toHaveLength(4);
  });

  test("a wait that would pass maxElapsedMs is not started", async () => {
    const c = client({ retry: { ...FAST_RETRY, maxElapsedMs: 1000 } });
    await c.clusters.list();
    front.script = () => ({ ...apiError(429, "slow down"), headers: { "retry-after": "30" } });
    const t0 = Date.now();
    const err = (await errorOf(c.clusters.list())) as SvcApiError;
    expect(err.status).toBe(429);
    expect(Date.now() - t0).toBeLessThan(500);
  });

  test("a 400 is not retried", async () => {
    const c = client();
    const err = (await errorOf(c.clusters.create({ body: { name: "Not Valid" } }))) as SvcApiError;
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/body\.name/);
    expect(front.apiRequests()).toHaveLength(1);
  });

  test("429 on a create is always retried: the server did nothing", async () => {
    const c = client();
    let n = 0;
    front.script = (s) => (s.path.endsWith("/create") && n++ === 0 ? { ...apiError(429, "slow down"), headers: { "retry-after": "0" } } : undefined);
    const created = await c.clusters.create({ body: { name: "a" } });
    expect(created.name).toBe("a");
    expect(front.apiRequests().map((s) => s.path)).toEqual(["/api/v4/orchestration/clusters/create", "/api/v4/orchestration/clusters/create"]);
  });

  test("the token request is retried like any other safe request", async () => {
    const c = client();
    let n = 0;
    front.script = (s) => (s.path.endsWith("/token") && n++ === 0 ? apiError(503, "identity provider starting") : undefined);
    await c.clusters.list();
    expect(c.stats).toMatchObject({ tokenRequests: 2, requests: 1, retries: 1 });
  });

  test("the caller's signal stops the call at once and nothing is repeated", async () => {
    const c = client();
    await c.clusters.list();
    front.script = () => "hang";
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const t0 = Date.now();
    const err = await errorOf(c.clusters.list(undefined, { signal: controller.signal }));
    expect(err.name).toBe("AbortError");
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(front.apiRequests()).toHaveLength(2);
  });

  test("under the emulator's fault injection (429/502/503/504 and resets) every read and update completes", async () => {
    const c = client({ retry: { ...FAST_RETRY, maxAttempts: 10 } }, emu);
    for (const name of ["a", "b", "c"]) await c.clusters.create({ body: { name } });
    emu.faults.configure({ rate: 0.3, reset_rate: 0.1, statuses: [429, 502, 503, 504], retry_after_s: 0, seed: 42 });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? c.clusters.list() : c.clusters.update({ params: { cluster_name: "b" }, body: { telemetry_buffer_size: 1 + (i % 20) } }))),
    );
    expect(results).toHaveLength(40);
    const { counters } = emu.faults.status();
    expect(counters.total).toBeGreaterThan(5);
    expect(c.stats.retries).toBe(counters.total);
  });
});

describe("Creates that fail ambiguously are not blindly repeated", () => {
  test("answer lost after the create was applied (reset): the derived read returns the record, nothing is created twice", async () => {
    const c = client({}, emu);
    emu.faults.configure({ rate: 1, mode: "after_apply", after_apply_action: "reset", paths: ["/api/v4/orchestration/clusters/create"] });
    const created = await c.clusters.create({ body: { name: "plant-a", title: "Plant A" } });
    expect(created).toMatchObject({ name: "plant-a", title: "Plant A" });
    expect(clusterCount()).toBe(1);
    expect(events.filter((e) => e.type === "ambiguous").map((e) => e.message)).toEqual([
      "POST /orchestration/clusters/create failed without a clear answer; checking with clusters.get whether it was applied",
    ]);
    expect(emu.faults.status().counters.by_kind).toEqual({ after_apply_reset: 1 });
  });

  test("answer lost as a 502 after the create was applied: same outcome", async () => {
    const c = client({}, emu);
    emu.faults.configure({ rate: 1, mode: "after_apply", after_apply_action: "502", paths: ["/api/v4/orchestration/clusters/create"] });
    const created = await c.clusters.create({ body: { name: "plant-a" } });
    expect(created.name).toBe("plant-a");
    expect(clusterCount()).toBe(1);
  });

  test("a 503 before anything happened: the read answers 404, so the create is repeated", async () => {
    const c = client();
    let n = 0;
    front.script = (s) => (s.path.endsWith("/create") && n++ === 0 ? apiError(503, "unavailable") : undefined);
    const created = await c.clusters.create({ body: { name: "plant-a" } });
    expect(created.name).toBe("plant-a");
    expect(front.apiRequests().map((s) => `${s.method} ${s.path} ${s.answer?.status ?? "-"}`)).toEqual([
      "POST /api/v4/orchestration/clusters/create -",
      "GET /api/v4/orchestration/clusters/plant-a/get 404",
      "POST /api/v4/orchestration/clusters/create 201",
    ]);
  });

  test("the caller's ambiguityCheck decides when given: a value is the result", async () => {
    const c = client();
    front.script = (s) => (s.path.endsWith("/create") ? { forwardThen: () => "reset" } : undefined);
    const check = jest.fn(async () => ({ found: true }));
    const result = await c.clusters.create({ body: { name: "plant-a" } }, { ambiguityCheck: check });
    expect(result).toEqual({ found: true });
    expect(check).toHaveBeenCalledTimes(1);
    expect(front.apiRequests().map((s) => s.path)).toEqual(["/api/v4/orchestration/clusters/create"]);
  });

  test("the caller's ambiguityCheck answering undefined means not applied: the create is repeated", async () => {
    const c = client();
    let n = 0;
    front.script = (s) => (s.path.endsWith("/create") && n++ === 0 ? "reset" : undefined);
    const created = await c.clusters.create({ body: { name: "plant-a" } }, { ambiguityCheck: async () => undefined });
    expect(created.name).toBe("plant-a");
    expect(front.apiRequests().map((s) => s.path)).toEqual(["/api/v4/orchestration/clusters/create", "/api/v4/orchestration/clusters/create"]);
  });

  test("withDefaults: a view whose calls (typed methods and call) start from the given options, sharing the token and the stats", async () => {
    const c = client();
    const check = jest.fn(async () => ({ found: true }));
    const view = c.withDefaults({ ambiguityCheck: check });
    front.script = (s) => (s.path.endsWith("/create") ? { forwardThen: () => "reset" } : undefined);
    expect(await view.clusters.create({ body: { name: "plant-a" } })).toEqual({ found: true });
    expect(await view.call(areas.clusters.create, { body: { name: "plant-b" } })).toEqual({ found: true });
    expect(check).toHaveBeenCalledTimes(2);
    // The client it came from is unchanged: its create, answered the same way, reads the record back itself.
    const own = await c.clusters.create({ body: { name: "plant-c" } });
    expect(own.name).toBe("plant-c");
    expect(check).toHaveBeenCalledTimes(2);
    // An option given to the call wins over the view's default.
    expect(await view.clusters.create({ body: { name: "plant-d" } }, { ambiguityCheck: async () => "mine" })).toBe("mine");
    expect(front.tokenRequests()).toHaveLength(1);
    expect(view.stats).toBe(c.stats);
  });

  test("withDefaults makes no methods: a view's typed methods are made at the first use of their area, once, and call through the view", async () => {
    const c = client();
    const view = c.withDefaults({ ambiguityCheck: async () => "checked" });
    // Nothing of the table is copied onto the view (the provider makes one for every create).
    expect(Object.getOwnPropertyNames(view)).toEqual(["defaults"]);
    expect(view.clusters).toBe(view.clusters);
    expect(view.clusters).not.toBe(c.clusters);
    expect(view.clusters.create.name).toBe("clusters.create");
    front.script = (s) => (s.path.endsWith("/create") ? { forwardThen: () => "reset" } : undefined);
    expect(await view.clusters.create({ body: { name: "plant-v" } })).toBe("checked");
  });

  test("a timeout on a create is ambiguous too", async () => {
    const c = client({ timeoutMs: 300 });
    let n = 0;
    front.script = (s) => (s.path.endsWith("/create") && n++ === 0 ? "hang" : undefined);
    const created = await c.clusters.create({ body: { name: "plant-a" } });
    expect(created.name).toBe("plant-a");
    expect(front.apiRequests().map((s) => s.method)).toEqual(["POST", "GET", "POST"]);
  });

  test("apps.create confirms with the version it makes (apps.versionGet): a lost answer returns the version, made once", async () => {
    const c = client({}, emu);
    emu.faults.configure({ rate: 1, mode: "after_apply", after_apply_action: "502", paths: ["/api/v4/apps/create"] });
    const manifest = { name: "sim", title: "Simulator", description: "d", type: "app" as const, version: "1.0.0" };
    const created = await c.apps.create({ body: manifest });
    expect(created).toMatchObject({ name: "sim", version: "1.0.0" });
    expect(events.filter((e) => e.type === "ambiguous").map((e) => e.message)).toEqual([
      "POST /apps/create failed without a clear answer; checking with apps.versionGet whether it was applied",
    ]);
    expect(emu.faults.status().counters.matched).toBe(1);
    expect(emu.store.table("app_versions").size).toBe(1);
  });

  test("appregistry.create finds the version in the app it registers: applied is returned, not applied is repeated", async () => {
    const c = client({}, emu);
    emu.faults.configure({ rate: 1, mode: "after_apply", after_apply_action: "reset", paths: ["/api/v4/appregistry/create"] });
    const first = await c.appregistry.create({ body: { payload: { name: "sim", version: "1.0.0" } } });
    expect(first.versions.map((v) => v.version)).toEqual(["1.0.0"]);
    // The app exists, the version does not: a 503 before anything happened is repeated, not taken as applied.
    emu.faults.configure({});
    const c2 = client();
    let n = 0;
    front.script = (s) => (s.path.endsWith("/appregistry/create") && n++ === 0 ? apiError(503, "unavailable") : undefined);
    const second = await c2.appregistry.create({ body: { payload: { name: "sim", version: "2.0.0" } } });
    expect(second.versions.map((v) => v.version).sort()).toEqual(["1.0.0", "2.0.0"]);
    expect(front.apiRequests().map((s) => `${s.method} ${s.path} ${s.answer?.status ?? "-"}`)).toEqual([
      "POST /api/v4/appregistry/create -",
      "GET /api/v4/appregistry/sim/get 200",
      "POST /api/v4/appregistry/create 201",
    ]);
  });

  test("no confirm tells (datalabels.create: the platform numbers labels): the error says it may or may not have been applied", async () => {
    const c = client({}, emu);
    emu.faults.configure({ rate: 1, mode: "after_apply", after_apply_action: "502", paths: ["/api/v4/datalabels/create"] });
    const body = { label_name: "anomaly", start_date: "2024-05-01T12:00:00Z", end_date: "2024-05-01T13:00:00Z" };
    const err = (await errorOf(c.datalabels.create({ body }, { requestId: "req-77" }))) as SvcApiError;
    expect(err).toBeInstanceOf(SvcApiError);
    expect(err.message).toMatch(
      /^POST \/datalabels\/create → 502: bad gateway .*; the create may or may not have been applied \(no read operation tells whether it was\); read the resource before repeating the create \(request req-77\)$/,
    );
    expect(err.retryable).toBe(false);
    expect(emu.faults.status().counters.matched).toBe(1);
  });

  test("whether an operation is a create is read from its row, not its id: a create named otherwise is not repeated after a lost answer", async () => {
    const thing = z.object({ name: z.string() });
    const { make } = area("things", "facts", {
      make: endpoint({
        method: "POST",
        effect: "create",
        path: "/things/make",
        permission: "thing.create",
        summary: "Make a thing",
        body: thing,
        success: { status: 201, body: thing },
      }),
    });
    const c = client();
    front.script = (s) => (s.path.endsWith("/things/make") ? (front.apiRequests().length === 1 ? apiError(503, "unavailable") : { status: 201, body: { name: "a" } }) : undefined);
    const err = (await errorOf(c.call(make, { body: { name: "a" } }))) as SvcApiError;
    expect(err.message).toMatch(/the create may or may not have been applied \(no read operation tells whether it was\)/);
    expect(front.apiRequests().map((s) => s.path)).toEqual(["/api/v4/things/make"]);
  });

  test("an update named like a create (its row says update) is repeated after a lost answer", async () => {
    const thing = z.object({ name: z.string() });
    const { touchCreate: touch } = area("things", "facts", {
      touchCreate: endpoint({
        method: "POST",
        effect: "update",
        path: "/things/touch",
        permission: "thing.update",
        summary: "Touch a thing",
        body: thing,
        success: { status: 200, body: thing },
      }),
    });
    const c = client();
    front.script = (s) => (s.path.endsWith("/things/touch") ? (front.apiRequests().length === 1 ? apiError(503, "unavailable") : { status: 200, body: { name: "a" } }) : undefined);
    expect(await c.call(touch, { body: { name: "a" } })).toEqual({ name: "a" });
    expect(front.apiRequests().map((s) => s.path)).toEqual(["/api/v4/things/touch", "/api/v4/things/touch"]);
  });

  test("creates under random faults (before and after apply) each happen exactly once", async () => {
    const c = client({ retry: { ...FAST_RETRY, maxAttempts: 10 } }, emu);
    emu.faults.configure({ rate: 0.3, reset_rate: 0.1, statuses: [429, 502, 503], retry_after_s: 0, seed: 7, paths: ["/api/v4/orchestration/clusters/create"] });
    await Promise.all(Array.from({ length: 20 }, (_, i) => c.clusters.create({ body: { name: `before-${i}` } })));
    emu.faults.configure({ rate: 0.4, mode: "after_apply", seed: 8, paths: ["/api/v4/orchestration/clusters/create"] });
    await Promise.all(Array.from({ length: 20 }, (_, i) => c.clusters.create({ body: { name: `after-${i}` } })));
    expect(clusterCount()).toBe(40);
    expect(emu.faults.status().counters.total).toBeGreaterThan(0);
  });
});

describe("Secrets never appear in messages or logs", () => {
  test("passwords, client secrets and tokens stay out of every error message and logger event", async () => {
    const messages: string[] = [];
    const collect = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (e) {
        messages.push(String(e), JSON.stringify(e));
      }
    };
    const user = client({ retry: { ...FAST_RETRY, maxAttempts: 2 } });
    await collect(user.clusters.create({ body: { name: "a" } }));
    await collect(user.clusters.create({ body: { name: "a" } }));
    // A server that echoes the bearer token it was sent into its error message.
    front.script = (s) => (s.path.endsWith("/list") ? apiError(503, `rejected ${s.headers.authorization}`) : undefined);
    await collect(user.clusters.list());
    front.script = (s) => (s.path.endsWith("/get") ? apiError(400, `bad token ${String(s.headers.authorization).slice(7)}`) : undefined);
    await collect(user.clusters.get({ params: { cluster_name: "a" } }));
    front.script = () => undefined;
    const service = client({ username: undefined, password: undefined, ...SERVICE });
    await collect(service.clusters.list());
    await collect(client({ username: undefined, password: undefined, clientId: "svc-admin", clientSecret: "Wr0ng-Secret-Value" }).clusters.list());
    await collect(client({ password: "Wr0ng-Passw0rd!" }).clusters.list());

    const tokens = front.tokenRequests().flatMap((s) => {
      const a = JSON.parse(s.answer?.body ?? "{}");
      return [a.access_token, a.refresh_token].filter(Boolean) as string[];
    });
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    expect(messages.length).toBeGreaterThanOrEqual(8);
    const text = messages.join("\n") + JSON.stringify(events);
    expect(text).toMatch(/rejected Bearer \[redacted\]/);
    for (const secret of ["svc-admin-secret", "Wr0ng-Secret-Value", "Wr0ng-Passw0rd!", ...tokens]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/password=|client_secret=/);
  });
});
