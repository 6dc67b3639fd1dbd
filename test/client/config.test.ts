/**
 * Configuration: options, then the SVC_* environment variables; every problem names the option and
 * its environment variable. Also which operations the client treats as creates.
 */
import { endpointById } from "../../src/api/endpoints";
import { SvcClient, SvcConfigError } from "../../src/client";
import { isCreate } from "../../src/client/retry";
import { useEmulator } from "../helpers/emulator";

const configError = (make: () => unknown): SvcConfigError => {
  try {
    make();
  } catch (e) {
    expect(e).toBeInstanceOf(SvcConfigError);
    return e as SvcConfigError;
  }
  throw new Error("expected a configuration error");
};

describe("Configuration errors name the option and the environment variable", () => {
  test("no base URL", () => {
    expect(configError(() => SvcClient.fromEnv({ SVC_TOKEN: "t" })).message).toBe(
      "SvcClient: no base URL: set the baseUrl option or the SVC_BASE_URL environment variable (e.g. https://platform.example.com)",
    );
  });

  test("a base URL that is not an http(s) URL", () => {
    expect(configError(() => SvcClient.fromEnv({ SVC_BASE_URL: "platform.example.com", SVC_TOKEN: "t" })).message).toMatch(
      /baseUrl 'platform.example.com' \(option baseUrl or SVC_BASE_URL\)/,
    );
    expect(configError(() => SvcClient.fromEnv({}, { baseUrl: "ftp://x", token: "t" })).message).toMatch(/must start with http:\/\/ or https:\/\//);
  });

  test("no credentials at all", () => {
    expect(configError(() => SvcClient.fromEnv({ SVC_BASE_URL: "http://127.0.0.1:1" })).message).toBe(
      "SvcClient: no credentials: set token (SVC_TOKEN), or username and password (SVC_USERNAME, SVC_PASSWORD), or clientId and clientSecret (SVC_CLIENT_ID, SVC_CLIENT_SECRET)",
    );
  });

  test("half a credential", () => {
    const base = { SVC_BASE_URL: "http://127.0.0.1:1" };
    expect(configError(() => SvcClient.fromEnv({ ...base, SVC_USERNAME: "u" })).message).toMatch(/no password: set the password option or SVC_PASSWORD/);
    expect(configError(() => SvcClient.fromEnv({ ...base, SVC_PASSWORD: "p" })).message).toMatch(/no username: set the username option or SVC_USERNAME/);
    expect(configError(() => SvcClient.fromEnv({ ...base, SVC_CLIENT_SECRET: "s" })).message).toMatch(/no client id: set the clientId option or SVC_CLIENT_ID/);
    expect(configError(() => SvcClient.fromEnv(base, { edge: true, username: "edge" })).message).toMatch(/edge token endpoint needs a username and a password/);
  });

  test("bad retry and timeout settings", () => {
    expect(configError(() => SvcClient.fromEnv({}, { baseUrl: "http://x", token: "t", timeoutMs: 0 })).message).toMatch(/option timeoutMs must be a number of at least 1/);
    expect(configError(() => SvcClient.fromEnv({}, { baseUrl: "http://x", token: "t", retry: { maxAttempts: 0 } })).message).toMatch(/retry\.maxAttempts/);
  });

  test("no message carries the secret it was given", () => {
    const e = configError(() => SvcClient.fromEnv({ SVC_BASE_URL: "http://127.0.0.1:1", SVC_PASSWORD: "Sup3r-Secret-Pw" }));
    expect(e.message).not.toContain("Sup3r-Secret-Pw");
  });
});

describe("Options come from arguments first, then the environment", () => {
  const saved = { ...process.env };
  const emu = useEmulator();
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (k.startsWith("SVC_")) delete process.env[k];
    Object.assign(process.env, saved);
  });

  test("new SvcClient() reads SVC_BASE_URL, SVC_USERNAME and SVC_PASSWORD from process.env", async () => {
    Object.assign(process.env, { SVC_BASE_URL: emu.baseUrl, SVC_USERNAME: "admin@example.com", SVC_PASSWORD: "admin" });
    const c = new SvcClient();
    try {
      expect((await c.clusters.create({ body: { name: "from-env" } })).name).toBe("from-env");
    } finally {
      await c.close();
    }
  });

  test("explicit options win over the environment; unset ones fall back to it", async () => {
    Object.assign(process.env, { SVC_BASE_URL: "http://127.0.0.1:1", SVC_CLIENT_ID: "svc-admin", SVC_CLIENT_SECRET: "svc-admin-secret" });
    const c = new SvcClient({ baseUrl: emu.baseUrl });
    try {
      await c.clusters.list();
      expect(c.stats.tokenRequests).toBe(1);
    } finally {
      await c.close();
    }
  });

  test("fromEnv(env) reads the given environment only, and a trailing /api/v4 on the base URL is accepted", async () => {
    Object.assign(process.env, { SVC_TOKEN: "ignored" });
    const c = SvcClient.fromEnv({ SVC_BASE_URL: `${emu.baseUrl}/api/v4/`, SVC_CLIENT_ID: "svc-admin", SVC_CLIENT_SECRET: "svc-admin-secret" });
    try {
      expect((await c.clusters.list()).data).toEqual([]);
      expect(c.stats.tokenRequests).toBe(1);
    } finally {
      await c.close();
    }
  });

  test("a closed client refuses further calls", async () => {
    const c = SvcClient.fromEnv({}, { baseUrl: emu.baseUrl, token: await emu.token("admin") });
    await c.clusters.list();
    await c.close();
    await expect(c.clusters.list()).rejects.toThrow(/the client is closed/);
  });
});

describe("Which operations count as creates (not blindly repeated after an ambiguous failure)", () => {
  test("creates, deploys and additions; not undeploy, a package upload (it replaces the package), updates, deletes or reads", () => {
    const creates = ["clusters.create", "assets.typeCreate", "workloads.create", "legacyWorkloads.deploy", "workloads.resourcesAdd"];
    const others = ["legacyWorkloads.undeploy", "appregistry.versionUpload", "clusters.update", "clusters.get", "clusters.list", "parameters.list", "auth.token"];
    expect(creates.filter((id) => !isCreate(endpointById(id)))).toEqual([]);
    expect(others.filter((id) => isCreate(endpointById(id)))).toEqual([]);
  });
});
