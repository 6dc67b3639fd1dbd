/**
 * Token renewal against emulators issuing short-lived tokens (facts §2: callers renew at about 90 %
 * of each lifetime; they refresh while the refresh token is valid and log in again once it expired).
 */
import { SvcClient, type ClientEvent } from "../../src/client";
import { startTestEmulator } from "../helpers/emulator";

const grantsRequested = (events: ClientEvent[]) => events.filter((e) => e.type === "token" && typeof e.grant === "string").map((e) => e.grant);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withClient(lifetimes: { access: number; refresh: number }, run: (c: SvcClient, events: ClientEvent[]) => Promise<void>) {
  const emu = await startTestEmulator({ tokenLifetimes: lifetimes });
  const events: ClientEvent[] = [];
  const c = SvcClient.fromEnv({}, { baseUrl: emu.baseUrl, username: "admin@example.com", password: "admin", logger: (e) => events.push(e) });
  try {
    await run(c, events);
  } finally {
    await c.close();
    await emu.close();
  }
}

describe("Token renewal (facts §2)", () => {
  test("access 2 s, refresh 10 s: the access token is reused, renewed with the refresh token at ~90 % of its lifetime, then reused again", () =>
    withClient({ access: 2, refresh: 10 }, async (c, events) => {
      await c.clusters.list();
      await c.clusters.list();
      expect(grantsRequested(events)).toEqual(["password"]);
      await sleep(1850);
      await c.clusters.list();
      await c.clusters.list();
      expect(grantsRequested(events)).toEqual(["password", "refresh_token"]);
      expect(c.stats).toMatchObject({ requests: 4, tokenRequests: 2, retries: 0 });
    }));

  test("access 1 s, refresh 2 s: once the refresh token is near its end the client logs in again", () =>
    withClient({ access: 1, refresh: 2 }, async (c, events) => {
      await c.clusters.list();
      await sleep(1900);
      await c.clusters.list();
      // The renewal is a new login, not a refresh with the expiring refresh token. (Tokens of one
      // second can expire in flight on a loaded machine; the client then renews once more, which is
      // not what this test is about.)
      expect(grantsRequested(events).slice(0, 2)).toEqual(["password", "password"]);
      expect(c.stats.retries).toBe(0);
    }));
});
