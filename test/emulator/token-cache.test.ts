/**
 * The cache of verified access tokens (src/emulator/areas/auth/model.ts): a token is verified once and then
 * served from the cache until it expires; the cache is bounded, and emptied by a reset, by clearing
 * the store and by a new signing key. What it serves must never differ from what verifying again
 * would answer.
 */
import { Auth, BUILTIN_USERS, TOKEN_CACHE_LIMIT } from "../../src/emulator/areas/auth/model";
import { adminRoutes } from "../../src/emulator/admin";
import { FaultInjector } from "../../src/emulator/faults";
import { startServer, type RunningServer } from "../../src/emulator/server";
import { Store } from "../../src/emulator/store/store";

const TOKEN = "/auth/realms/svc/protocol/openid-connect/token";
const ACCESS_LIFETIME = 60;
const T0 = Date.parse("2026-01-01T00:00:00.000Z");

let now = T0;
let store: Store;
let server: RunningServer;

beforeEach(async () => {
  now = T0;
  store = new Store();
  const reset = async () => {
    const { changes } = store.transaction(() => {
      for (const name of store.tableNames()) {
        if (name === "_meta") continue;
        const t = store.table(name);
        for (const [k] of [...t.entries()]) t.delete(k);
      }
    });
    await store.publish(changes);
  };
  server = await startServer({
    store,
    clock: () => now,
    tokenLifetimes: { access: ACCESS_LIFETIME, refresh: 2 * ACCESS_LIFETIME },
    extraRoutes: adminRoutes(store, { reset, faults: new FaultInjector() }),
  });
});
afterEach(() => server.close());

async function login(): Promise<{ access_token: string; refresh_token: string }> {
  const res = await fetch(`${server.baseUrl}${TOKEN}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", username: "admin@example.com", password: "admin", client_id: "svc-cli" }).toString(),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

async function listClusters(token: string): Promise<{ status: number; message: string }> {
  const res = await fetch(`${server.baseUrl}/api/v4/orchestration/clusters/list`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
  const body = (await res.json()) as { errors?: Array<{ message: string[] }> };
  return { status: res.status, message: body.errors?.[0]?.message.join(" ") ?? "" };
}

describe("verified access tokens are cached for their lifetime", () => {
  test("a token is verified once, then answered from the cache", async () => {
    const { access_token } = await login();
    for (let i = 0; i < 3; i++) expect((await listClusters(access_token)).status).toBe(200);
    expect(server.auth.stats()).toEqual({ verifications: 1, cacheHits: 2, cached: 1 });
  });

  test("a cached token is refused from the second of its expiry on, as verifying it would", async () => {
    const { access_token } = await login();
    expect((await listClusters(access_token)).status).toBe(200);
    now = T0 + (ACCESS_LIFETIME - 1) * 1000;
    expect((await listClusters(access_token)).status).toBe(200);
    now = T0 + ACCESS_LIFETIME * 1000;
    const expired = await listClusters(access_token);
    expect(expired.status).toBe(401);
    expect(expired.message).toMatch(/access token expired/);
    // The expired entry is gone, and stays refused.
    expect(server.auth.stats().cached).toBe(0);
    expect((await listClusters(access_token)).status).toBe(401);
  });

  test("POST /emulator/reset empties the cache; the token stays valid and is verified again", async () => {
    const { access_token } = await login();
    expect((await listClusters(access_token)).status).toBe(200);
    expect(server.auth.stats().cached).toBe(1);
    const reset = await fetch(`${server.baseUrl}/emulator/reset`, { method: "POST" });
    expect(reset.status).toBe(204);
    expect(server.auth.stats().cached).toBe(0);
    expect((await listClusters(access_token)).status).toBe(200);
    expect(server.auth.stats()).toMatchObject({ verifications: 2, cached: 1 });
  });

  test("clearing the store (a state loaded anew) empties the cache", async () => {
    const { access_token } = await login();
    expect((await listClusters(access_token)).status).toBe(200);
    const meta = store.snapshot()._meta;
    store.load({ _meta: meta });
    expect(server.auth.stats().cached).toBe(0);
    expect((await listClusters(access_token)).status).toBe(200);
    expect(server.auth.stats().verifications).toBe(2);
  });

  test("a new signing key invalidates every cached token", async () => {
    const { access_token } = await login();
    expect((await listClusters(access_token)).status).toBe(200);
    store.table<string>("_meta").restore("jwt_key", "a-different-signing-key-for-this-test");
    const refused = await listClusters(access_token);
    expect(refused.status).toBe(401);
    expect(refused.message).toMatch(/invalid/);
  });

  test("a refresh token is refused as an access token every time, and a changed signature is not a cache hit", async () => {
    const { access_token, refresh_token } = await login();
    expect((await listClusters(access_token)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const r = await listClusters(refresh_token);
      expect(r.status).toBe(401);
      expect(r.message).toMatch(/refresh token cannot be used here/);
    }
    const last = access_token.slice(-1);
    const tampered = access_token.slice(0, -1) + (last === "A" ? "B" : "A");
    expect((await listClusters(tampered)).status).toBe(401);
    expect(server.auth.stats().cached).toBe(1);
  });
});

describe("the cache is bounded", () => {
  test(`it holds at most ${TOKEN_CACHE_LIMIT} tokens and forgets the oldest first`, () => {
    const own = new Store();
    const auth = new Auth(
      own,
      () => "http://emulator/auth/realms/svc",
      { access: 3600, refresh: 7200 },
      () => T0,
    );
    const identity = BUILTIN_USERS["viewer@example.com"].identity;
    const tokens = Array.from({ length: TOKEN_CACHE_LIMIT + 1 }, () => auth.issueEdge(identity).access_token);
    for (const t of tokens) expect(auth.authenticate(`Bearer ${t}`).username).toBe("viewer@example.com");
    expect(auth.stats()).toEqual({ verifications: TOKEN_CACHE_LIMIT + 1, cacheHits: 0, cached: TOKEN_CACHE_LIMIT });
    // The newest is cached; the first one was forgotten and is verified again.
    auth.authenticate(`Bearer ${tokens[TOKEN_CACHE_LIMIT]}`);
    expect(auth.stats().cacheHits).toBe(1);
    auth.authenticate(`Bearer ${tokens[0]}`);
    expect(auth.stats().verifications).toBe(TOKEN_CACHE_LIMIT + 2);
  });
});
