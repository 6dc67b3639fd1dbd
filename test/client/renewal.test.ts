/**
 * Token renewal against emulators issuing short-lived tokens (facts §2: callers renew at about 90 %
 * of each lifetime; they refresh while the refresh token is valid and log in again once it expired).
 * The client and the emulator read one test clock, which the tests move forward: no test waits, and
 * a loaded machine cannot make a token expire in flight.
 */
import { SvcClient, type ClientEvent } from "../../src/client";
import { startTestEmulator } from "../helpers/emulator";

const grantsRequested = (events: ClientEvent[]) => events.filter((e) => e.type === "token" && typeof e.grant === "string").map((e) => e.grant);

/** A clock that stands still until moved. */
function testClock() {
  let now = Date.parse("2030-05-01T12:00:00Z");
  return { read: () => now, advance: (ms: number) => void (now += ms) };
}

async function withClient(lifetimes: { access: number; refresh: number }, run: (c: SvcClient, events: ClientEvent[], advance: (ms: number) => void) => Promise<void>) {
  const clock = testClock();
  const emu = await startTestEmulator({ tokenLifetimes: lifetimes, clock: clock.read });
  const events: ClientEvent[] = [];
  const c = SvcClient.fromEnv({}, { baseUrl: emu.baseUrl, username: "admin@example.com", password: "admin", logger: (e) => events.push(e), clock: clock.read });
  try {
    await run(c, events, clock.advance);
  } finally {
    await c.close();
    await emu.close();
  }
}

describe("Token renewal (facts §2)", () => {
  test("access 2 s, refresh 10 s: the access token is reused, renewed with the refresh token at ~90 % of its lifetime, then reused again", () =>
    withClient({ access: 2, refresh: 10 }, async (c, events, advance) => {
      await c.clusters.list();
      advance(1700);
      await c.clusters.list();
      expect(grantsRequested(events)).toEqual(["password"]);
      advance(150);
      await c.clusters.list();
      await c.clusters.list();
      expect(grantsRequested(events)).toEqual(["password", "refresh_token"]);
      expect(c.stats).toMatchObject({ requests: 4, tokenRequests: 2, retries: 0 });
    }));

  test("access 1 s, refresh 2 s: once the refresh token is near its end the client logs in again", () =>
    withClient({ access: 1, refresh: 2 }, async (c, events, advance) => {
      await c.clusters.list();
      advance(1900);
      await c.clusters.list();
      // The renewal is a new login, not a refresh with the expiring refresh token.
      expect(grantsRequested(events)).toEqual(["password", "password"]);
      expect(c.stats).toMatchObject({ requests: 2, tokenRequests: 2, retries: 0 });
    }));
});
