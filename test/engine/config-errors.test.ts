/**
 * Configuration mistakes through the real provider host: unknown `svc:` keys are warned about (to
 * the host's output, which the engine shows), and the credentials are verified once per run, in a
 * preview too, with one token request (or one authenticated read for a static token).
 */
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as svc from "../../src";
import * as testing from "../../src/testing";
import { codeOf } from "../helpers/codes";

testing.registerMatchers();

/** Requests the servers of this process receive (the kit's emulator runs here): token requests and the rest. */
const counts = { token: 0, api: 0 };
const emit = http.Server.prototype.emit as (this: http.Server, event: string, ...args: unknown[]) => boolean;
beforeAll(() => {
  http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event === "request") {
      const url = (args[0] as http.IncomingMessage).url ?? "";
      if (url.startsWith("/auth/") || url.startsWith("/api/v4/auth/token")) counts.token++;
      else if (url.startsWith("/api/v4/")) counts.api++;
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
});
afterAll(() => {
  http.Server.prototype.emit = emit as typeof http.Server.prototype.emit;
});
const resetCounts = () => Object.assign(counts, { token: 0, api: 0 });

const stacks: testing.TestStack[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
});
const open = async (program: testing.Program, options: testing.StackOptions) => {
  const s = await testing.stack(program, options);
  stacks.push(s);
  return s;
};
const failure = async (run: Promise<unknown>) =>
  (await run.then(
    () => undefined,
    (e: unknown) => e,
  )) as testing.RunError;

const twoKinds = async () => {
  new svc.Label("label", { name: "anomaly", title: "Anomaly" });
  new svc.AssetClass("class", { name: "pumps", title: "Pumps" });
};

describe("unknown svc: keys", () => {
  test("are warned about once, naming the nearest known key, in the host's output the engine shows", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-config-"));
    const lines: string[] = [];
    const s = await open(twoKinds, {
      config: { "svc:emulator": path.join(dir, "state.json"), "svc:clientSecrett": "x", "svc:operationTimeoutSecs": "5", "other:key": "not ours" },
      log: (l) => lines.push(l),
    });
    await s.up();
    const warnings = lines.filter((l) => l.startsWith("warning: "));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warning: svc:clientSecrett is not a setting of pulumi-svc and is ignored; did you mean svc:clientSecret\? \(settings: svc:baseUrl, .*svc:skipCredentialsCheck\)$/,
      ),
      expect.stringMatching(/^warning: svc:operationTimeoutSecs is not a setting of pulumi-svc and is ignored; did you mean svc:operationTimeoutSeconds\?/),
    ]);
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a mistyped svc:emulator leaves no platform configured: the run fails naming the key and the one meant", async () => {
    const s = await open(twoKinds, { config: { "svc:emulater": "true" } });
    for (const run of [() => s.preview(), () => s.up()]) {
      const err = await failure(run());
      expect(err.providerMessage).toMatch(
        /^no platform configured: set svc:baseUrl .*\(a key was not recognised: svc:emulater is not a setting of pulumi-svc and is ignored; did you mean svc:emulator\?/,
      );
    }
  });
});

describe("the credentials are checked once per run", () => {
  test("a preview with a wrong secret fails, naming the keys used and the platform, never the secret", async () => {
    const s = await open(twoKinds, { emulator: true, config: { "svc:clientSecret": "Wrong-Secret-123" }, secretConfig: ["svc:clientSecret"] });
    resetCounts();
    const err = await failure(s.preview());
    expect(err).toBeInstanceOf(testing.RunError);
    expect(err.operation).toBe("check");
    expect(err.providerMessage).toMatch(
      new RegExp(
        `^the credentials were refused \\(svc:clientId, svc:clientSecret, platform ${s.emulator!.baseUrl.replace(/\./g, "\\.")} from svc:baseUrl\\): ` +
          `POST /auth/realms/svc/protocol/openid-connect/token → 401: login refused \\(client_credentials grant for client svc-admin\\): .*; check svc:clientId and svc:clientSecret \\(SVC_CLIENT_ID, SVC_CLIENT_SECRET\\).*` +
          `set svc:skipCredentialsCheck to true to skip the check\\. \\[SVC_CREDENTIALS_REFUSED\\]$`,
      ),
    );
    expect(JSON.stringify(err.message)).not.toContain("Wrong-Secret-123");
    expect(counts).toEqual({ token: 1, api: 0 });
    // Every later operation fails the same way without asking again.
    expect((await failure(s.up())).providerMessage).toMatch(/^the credentials were refused/);
    expect(counts).toEqual({ token: 1, api: 0 });
  });

  test("a preview with good credentials costs one token request and, per planned create, one read of its name (is it taken?); the up reuses the token", async () => {
    const s = await open(twoKinds, { emulator: true });
    resetCounts();
    expect(await s.preview()).toHaveActions({ label: "create", class: "create" });
    expect(counts).toEqual({ token: 1, api: 2 });
    resetCounts();
    await s.up();
    expect(counts.token).toBe(0);
  });

  test("a static token is checked with one authenticated read; a bad one fails the preview", async () => {
    const base = await open(twoKinds, { emulator: true });
    const baseUrl = base.emulator!.baseUrl;
    const login = await fetch(`${baseUrl}/auth/realms/svc/protocol/openid-connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=svc-admin&client_secret=svc-admin-secret",
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const good = await open(twoKinds, { config: { "svc:baseUrl": baseUrl, "svc:token": token }, secretConfig: ["svc:token"] });
    resetCounts();
    await good.preview();
    // The credentials check, then a read of each planned create's name.
    expect(counts).toEqual({ token: 0, api: 3 });
    const bad = await open(twoKinds, { config: { "svc:baseUrl": baseUrl, "svc:token": "not-a-token" }, secretConfig: ["svc:token"] });
    expect((await failure(bad.preview())).providerMessage).toMatch(
      /^the credentials were refused \(svc:token, platform .* from svc:baseUrl\): GET \/instance\/settings\/get → 401/,
    );
  });

  test("a base URL with a wrong path is said to be wrong, not the credentials (issue 25)", async () => {
    const base = await open(twoKinds, { emulator: true });
    const wrong = `${base.emulator!.baseUrl}/platform`;
    const login = await open(twoKinds, {
      config: { "svc:baseUrl": wrong, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" },
      secretConfig: ["svc:clientSecret"],
    });
    const message = (await failure(login.preview())).providerMessage;
    expect(message).toMatch(
      /^the platform's base URL is wrong: http:\/\/127\.0\.0\.1:\d+\/platform from svc:baseUrl has no POST \/auth\/realms\/svc\/protocol\/openid-connect\/token \(.*→ 404.*\)\. Set svc:baseUrl to the platform's root, under which the API lives at \/api\/v4 and the login at \/auth\/realms\/svc; the credentials \(svc:clientId, svc:clientSecret\) were not tried\./,
    );
    expect(message).not.toMatch(/refused/);
    // A static token, which needs no login, is checked with a read of the API: a 404 there is the same mistake.
    const token = await open(twoKinds, { config: { "svc:baseUrl": wrong, "svc:token": "t0ken-value" }, secretConfig: ["svc:token"] });
    expect((await failure(token.preview())).providerMessage).toMatch(/^the platform's base URL is wrong: .*\/platform from svc:baseUrl has no GET \/instance\/settings\/get /);
  });

  test("a wrong secret fails every resource the same way: the run's error tells it once, naming the resources (issue 25)", async () => {
    const many = async () => {
      for (let i = 0; i < 30; i++) new svc.Label(`label-${i}`, { name: `label-${i}`, title: "Label" });
    };
    const s = await open(many, { emulator: true, config: { "svc:clientSecret": "Wrong-Secret-123" }, secretConfig: ["svc:clientSecret"] });
    const err = await failure(s.preview());
    expect(err.failures.length).toBeGreaterThan(1);
    expect(err.message.split("the credentials were refused")).toHaveLength(2);
    expect(err.message).toMatch(
      new RegExp(
        `^preview failed: check of pulumi-nodejs:dynamic/svc:Label "label-\\d+" failed: the credentials were refused .* \\(the same for ${err.failures.length - 1} more resource\\(s\\): "label-\\d+", `,
      ),
    );
    expect(err.message.length).toBeLessThan(1000);
  });

  test("svc:skipCredentialsCheck turns the check off: the preview makes no request and passes", async () => {
    const s = await open(twoKinds, { emulator: true, config: { "svc:clientSecret": "wrong", "svc:skipCredentialsCheck": "true" } });
    resetCounts();
    expect(await s.preview()).toHaveActions({ label: "create", class: "create" });
    expect(counts).toEqual({ token: 0, api: 0 });
  });

  test("no credentials: the message names the config keys to set and the keys that are set", async () => {
    const s = await open(twoKinds, { config: { "svc:baseUrl": "http://127.0.0.1:9", "svc:clientId": "svc-admin" } });
    const err = await failure(s.preview());
    expect(codeOf(err)).toBe("SVC_CONFIG_INVALID");
    expect(err.providerMessage).toContain(
      "no credentials: set svc:token (SVC_TOKEN), or svc:username and svc:password (SVC_USERNAME, SVC_PASSWORD), " +
        "or svc:clientId and svc:clientSecret (SVC_CLIENT_ID, SVC_CLIENT_SECRET) (set now: svc:baseUrl, svc:clientId)",
    );
  });

  test("an unreachable platform is named in the check's failure", async () => {
    const s = await open(twoKinds, { config: { "svc:baseUrl": "http://127.0.0.1:9", "svc:token": "t0ken-value" } });
    expect((await failure(s.preview())).providerMessage).toMatch(
      /^could not verify the credentials \(svc:token, platform http:\/\/127\.0\.0\.1:9 from svc:baseUrl\): .*could not connect to http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED/,
    );
  }, 90_000);
});
