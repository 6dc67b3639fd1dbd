/** The provider's configuration: stack config first, then SVC_* variables; messages name keys, never values. */
import { credentialKeys, keysSet, resolveConfig, unknownKeyWarnings } from "../../src/provider/config";
import { codeOf, thrown } from "../helpers/codes";

const source = (config: Record<string, string>) => ({ get: (k: string) => config[k], keys: () => Object.keys(config) });

describe("unknown svc: keys", () => {
  test.each([
    ["svc:emulater", "svc:emulator"],
    ["svc:clientSecrett", "svc:clientSecret"],
    ["svc:baseURL", "svc:baseUrl"],
    ["svc:user", "svc:username"],
    ["svc:skipCredentialCheck", "svc:skipCredentialsCheck"],
  ])("%s is warned about, naming %s", (key, nearest) => {
    expect(unknownKeyWarnings([key])).toEqual([expect.stringContaining(`${key} is not a setting of pulumi-svc and is ignored; did you mean ${nearest}?`)]);
  });

  test("known keys and other namespaces are not", () => {
    expect(unknownKeyWarnings(["svc:baseUrl", "svc:token", "aws:region", "project:emulater"])).toEqual([]);
  });

  test("resolveConfig carries the warnings, and the sources of the settings by key", () => {
    const cfg = resolveConfig(source({ "svc:baseUrl": "https://p", "svc:clientId": "id", "svc:tokn": "x" }), { SVC_CLIENT_SECRET: "s3cret" }, "/w");
    expect(cfg.warnings).toEqual([expect.stringMatching(/^svc:tokn .* did you mean svc:token\?/)]);
    expect(cfg.sources).toEqual({ baseUrl: "svc:baseUrl", clientId: "svc:clientId", clientSecret: "SVC_CLIENT_SECRET" });
    expect(keysSet(cfg, credentialKeys(cfg))).toBe("svc:clientId, SVC_CLIENT_SECRET");
    expect(JSON.stringify(cfg.warnings)).not.toContain("s3cret");
  });
});

describe("settings", () => {
  test("svc:skipCredentialsCheck takes true or false, and says so otherwise", () => {
    expect(resolveConfig(source({ "svc:emulator": "true", "svc:skipCredentialsCheck": "true" }), {}, "/w").skipCredentialsCheck).toBe(true);
    expect(resolveConfig(source({ "svc:emulator": "true" }), {}, "/w").skipCredentialsCheck).toBe(false);
    const err = thrown(() => resolveConfig(source({ "svc:emulator": "true", "svc:skipCredentialsCheck": "sometimes" }), {}, "/w"));
    expect(codeOf(err)).toBe("SVC_CONFIG_INVALID");
    expect(err.message).toContain("svc:skipCredentialsCheck");
    expect(err.message).toContain("'sometimes'");
  });

  test("a timeout from the environment is named by its variable", () => {
    const err = thrown(() => resolveConfig(source({ "svc:emulator": "true" }), { SVC_OPERATION_TIMEOUT_SECONDS: "-1" }, "/w"));
    expect(codeOf(err)).toBe("SVC_CONFIG_INVALID");
    expect(err.message).toMatch(/^SVC_OPERATION_TIMEOUT_SECONDS .*'-1'/);
  });
});
