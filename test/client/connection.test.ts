/**
 * What the client says when it cannot reach the server or the credentials are refused, naming the
 * server and the settings as the caller named them; the credentials check; and a server that moves.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SvcApiError, SvcClient, SvcConfigError, SvcConnectError, type ClientEvent } from "../../src/client";
import { useEmulator } from "../helpers/emulator";

const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 2 };
const SERVICE = { clientId: "svc-admin", clientSecret: "svc-admin-secret" };

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const errorOf = async (p: Promise<unknown>): Promise<Error> => {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the call to fail");
};

const emu = useEmulator({ reset: false });
const clients: SvcClient[] = [];
const make = (options: ConstructorParameters<typeof SvcClient>[0]) => {
  const c = SvcClient.fromEnv({}, { retry: FAST_RETRY, ...options });
  clients.push(c);
  return c;
};
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe("a server that does not answer is named", () => {
  test("connection refused names the scheme, host and port and what the code means", async () => {
    const port = await deadPort();
    const err = await errorOf(make({ baseUrl: `http://127.0.0.1:${port}`, token: "t" }).clusters.list());
    expect(err).toBeInstanceOf(SvcConnectError);
    expect(err).toMatchObject({ name: "SvcConnectError", code: "SVC_ERR_CONNECT", causeCode: "ECONNREFUSED", maybeSent: false, retryable: true });
    expect(err).not.toBeInstanceOf(SvcApiError);
    expect(err.message).toMatch(
      new RegExp(
        `^GET /orchestration/clusters/list → no answer: could not connect to http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED: nothing listens there\\) \\(request [0-9a-f-]+\\)$`,
      ),
    );
  });
});

describe("settings are named as the caller names them", () => {
  test("no credentials names the caller's keys next to the environment variables", () => {
    const names = { token: "svc:token", username: "svc:username", password: "svc:password", clientId: "svc:clientId", clientSecret: "svc:clientSecret", baseUrl: "svc:baseUrl" };
    let err: unknown;
    try {
      SvcClient.fromEnv({}, { baseUrl: "http://127.0.0.1:1", settingNames: names });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SvcConfigError);
    expect((err as Error).message).toBe(
      "SvcClient: no credentials: set svc:token (SVC_TOKEN), or svc:username and svc:password (SVC_USERNAME, SVC_PASSWORD), or svc:clientId and svc:clientSecret (SVC_CLIENT_ID, SVC_CLIENT_SECRET)",
    );
    expect(() => SvcClient.fromEnv({}, { settingNames: names, token: "t" })).toThrow("no base URL: set svc:baseUrl or the SVC_BASE_URL environment variable");
  });

  test("a refused login names the caller's keys in its hint", async () => {
    const c = make({ baseUrl: emu.baseUrl, clientId: "svc-admin", clientSecret: "wrong", settingNames: { clientId: "svc:clientId", clientSecret: "svc:clientSecret" } });
    const err = await errorOf(c.clusters.list());
    expect(err.message).toMatch(
      /login refused \(client_credentials grant for client svc-admin\): .*; check svc:clientId and svc:clientSecret \(SVC_CLIENT_ID, SVC_CLIENT_SECRET\)/,
    );
    expect(err.message).not.toContain("wrong");
  });
});

describe("verifyCredentials: one request", () => {
  test("a login is one token request, and the token serves the calls that follow", async () => {
    const c = make({ baseUrl: emu.baseUrl, ...SERVICE });
    expect(await c.verifyCredentials()).toBe("login");
    expect(c.stats).toMatchObject({ tokenRequests: 1, requests: 0 });
    await c.clusters.list();
    expect(c.stats).toMatchObject({ tokenRequests: 1, requests: 1 });
  });

  test("a refused login fails with the refusal", async () => {
    const c = make({ baseUrl: emu.baseUrl, clientId: "svc-admin", clientSecret: "wrong" });
    const err = (await errorOf(c.verifyCredentials())) as SvcApiError;
    expect(err.status).toBe(401);
    expect(c.stats.tokenRequests).toBe(1);
  });

  test("a static token is verified by one authenticated read: accepted, or refused with 401", async () => {
    const good = make({ baseUrl: emu.baseUrl, token: await emu.token("viewer") });
    expect(await good.verifyCredentials()).toBe("token accepted");
    expect(good.stats).toMatchObject({ tokenRequests: 0, requests: 1 });
    const bad = make({ baseUrl: emu.baseUrl, token: "not-a-token" });
    expect(((await errorOf(bad.verifyCredentials())) as SvcApiError).status).toBe(401);
    expect(bad.stats).toMatchObject({ tokenRequests: 0, requests: 1 });
    // A 404 says no API answers at that address: the base URL is wrong, nothing was accepted.
    const elsewhere = make({ baseUrl: `${emu.baseUrl}/platform`, token: await emu.token("viewer") });
    expect(((await errorOf(elsewhere.verifyCredentials())) as SvcApiError).status).toBe(404);
  });

  test("a static token at an address where nothing listens is not accepted: the connection failure is thrown", async () => {
    const c = make({ baseUrl: `http://127.0.0.1:${await deadPort()}`, token: "t" });
    expect(await errorOf(c.verifyCredentials())).toBeInstanceOf(SvcConnectError);
  });
});

describe("relocate: a server that moved", () => {
  test("calls refused at the old address go to the new one, asking once for all of them", async () => {
    const port = await deadPort();
    let asked = 0;
    const events: ClientEvent[] = [];
    const c = make({
      baseUrl: `http://127.0.0.1:${port}`,
      ...SERVICE,
      relocate: async () => {
        asked++;
        return emu.baseUrl;
      },
      logger: (e) => events.push(e),
    });
    const pages = await Promise.all([c.clusters.list(), c.clusters.list(), c.assets.list({ query: {} })]);
    expect(pages.map((p) => p.data)).toEqual([[], [], []]);
    expect(asked).toBe(1);
    expect(events.filter((e) => e.type === "relocate").map((e) => e.message)).toEqual([`http://127.0.0.1:${port} refused the connection; talking to ${emu.baseUrl} from now on`]);
  });

  test("without a new address the refusal stands", async () => {
    const port = await deadPort();
    const c = make({ baseUrl: `http://127.0.0.1:${port}`, ...SERVICE, relocate: async () => undefined });
    expect((await errorOf(c.clusters.list())).message).toMatch(/could not connect to http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED/);
  });
});
