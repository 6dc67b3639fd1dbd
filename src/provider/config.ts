/**
 * Provider configuration: the stack config (`svc:*`, read in the provider's `configure`) with the
 * SVC_* environment variables as fallback. Credentials live here, never in resource inputs or state.
 * Messages name settings by their keys, never by their values.
 */
import path from "node:path";
import { SvcError } from "../errors";
import { nearest } from "./nearest";

export interface ConfigSource {
  get(key: string): string | undefined;
  /** Every key the configuration holds (full keys such as `svc:baseUrl`), when the source can list them. */
  keys?(): string[];
}

/** Every setting: its key after `svc:` and its environment variable. */
export const SETTINGS = {
  /** The platform's base URL; the API is under `{baseUrl}/api/v4`. */
  baseUrl: "SVC_BASE_URL",
  /** The client id (a service account, or `svc-cli` for users). */
  clientId: "SVC_CLIENT_ID",
  /** The service account's secret (client-credentials grant). */
  clientSecret: "SVC_CLIENT_SECRET",
  /** The user's e-mail (password grant). */
  username: "SVC_USERNAME",
  /** The user's password. */
  password: "SVC_PASSWORD",
  /** A static bearer token instead of a login. */
  token: "SVC_TOKEN",
  /** `true` (state in `.svc-emulator/state.json`) or a state file path: run the embedded emulator inside the provider with its built-in service account. */
  emulator: "SVC_EMULATOR",
  /** How long operations that wait (downloads, deploys, schedule application) may take, in seconds; default 600. */
  operationTimeoutSeconds: "SVC_OPERATION_TIMEOUT_SECONDS",
  /** `true` skips the check of the credentials when the provider is configured. */
  skipCredentialsCheck: "SVC_SKIP_CREDENTIALS_CHECK",
} as const;
export type Setting = keyof typeof SETTINGS;

/** The settings that hold credentials: secrets wherever they are stored. */
export const SECRET_SETTINGS: readonly Setting[] = ["clientSecret", "password", "token"];

export interface ProviderConfig {
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  username?: string;
  password?: string;
  token?: string;
  /** Start the embedded emulator with this state file (absolute path), instead of calling a platform. */
  emulatorStatePath?: string;
  operationTimeoutSeconds: number;
  /** Do not verify the credentials when the provider is configured. */
  skipCredentialsCheck: boolean;
  /** Where each setting that is set came from: its config key (`svc:clientId`) or environment variable (`SVC_CLIENT_ID`). */
  sources: Partial<Record<Setting, string>>;
  /** Problems worth a warning that do not stop the run (unknown `svc:` keys). */
  warnings: string[];
}

export const DEFAULT_EMULATOR_STATE = ".svc-emulator/state.json";
export const DEFAULT_OPERATION_TIMEOUT_SECONDS = 600;

/** The codes of a configuration the provider cannot work with. */
export type ProviderConfigCode = "SVC_CONFIG_INVALID" | "SVC_CONFIG_MISSING" | "SVC_PLATFORM_URL_WRONG" | "SVC_CREDENTIALS_REFUSED" | "SVC_CREDENTIALS_UNVERIFIED";

/** A configuration the provider cannot work with; the message names the keys involved. */
export class ProviderConfigError extends SvcError {
  constructor(code: ProviderConfigCode, detail: string, options?: { cause?: unknown }) {
    super(code, detail, options);
    // A mistake in the configuration, not in the code: where it was thrown helps nobody.
    this.stack = `${this.name}: ${this.message}`;
  }
}

const truthy = (v: string) => /^(true|1|yes)$/i.test(v);
const falsy = (v: string) => /^(false|0|no)$/i.test(v);

export function resolveConfig(config: ConfigSource, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ProviderConfig {
  const sources: ProviderConfig["sources"] = {};
  const pick = (key: Setting): string | undefined => {
    const fromConfig = config.get(`svc:${key}`);
    if (fromConfig !== undefined) {
      sources[key] = `svc:${key}`;
      return fromConfig;
    }
    const fromEnv = env[SETTINGS[key]];
    if (fromEnv !== undefined) sources[key] = SETTINGS[key];
    return fromEnv;
  };
  const emulator = pick("emulator");
  let emulatorStatePath: string | undefined;
  if (emulator !== undefined && emulator !== "" && !falsy(emulator)) {
    emulatorStatePath = path.resolve(cwd, truthy(emulator) ? DEFAULT_EMULATOR_STATE : emulator);
  }
  const timeoutRaw = pick("operationTimeoutSeconds");
  let operationTimeoutSeconds = DEFAULT_OPERATION_TIMEOUT_SECONDS;
  if (timeoutRaw !== undefined) {
    const n = Number(timeoutRaw);
    if (!Number.isFinite(n) || n <= 0)
      throw new ProviderConfigError("SVC_CONFIG_INVALID", `${sources.operationTimeoutSeconds} must be a positive number of seconds, got '${timeoutRaw}'`);
    operationTimeoutSeconds = n;
  }
  const skipRaw = pick("skipCredentialsCheck");
  if (skipRaw !== undefined && skipRaw !== "" && !truthy(skipRaw) && !falsy(skipRaw)) {
    throw new ProviderConfigError("SVC_CONFIG_INVALID", `${sources.skipCredentialsCheck} must be true or false, got '${skipRaw}'`);
  }
  const resolved: ProviderConfig = {
    baseUrl: pick("baseUrl"),
    clientId: pick("clientId"),
    clientSecret: pick("clientSecret"),
    username: pick("username"),
    password: pick("password"),
    token: pick("token"),
    emulatorStatePath,
    operationTimeoutSeconds,
    skipCredentialsCheck: skipRaw !== undefined && truthy(skipRaw),
    sources,
    warnings: unknownKeyWarnings(config.keys?.() ?? []),
  };
  if (!resolved.emulatorStatePath && !resolved.baseUrl) {
    const unknown = resolved.warnings.length ? ` (${resolved.warnings.length === 1 ? "a key was" : "keys were"} not recognised: ${resolved.warnings.join("; ")})` : "";
    throw new ProviderConfigError(
      "SVC_CONFIG_MISSING",
      `no platform configured: set svc:baseUrl (or SVC_BASE_URL) with credentials, or svc:emulator to true to use the embedded emulator${unknown}`,
    );
  }
  return resolved;
}

/** The settings that are set, by key (`svc:clientId, SVC_CLIENT_SECRET`), never their values. */
export function keysSet(cfg: ProviderConfig, which: readonly Setting[] = Object.keys(SETTINGS) as Setting[]): string {
  return (
    which
      .map((k) => cfg.sources[k])
      .filter((s): s is string => s !== undefined)
      .join(", ") || "none"
  );
}

/** The credential settings the client uses, in its order of precedence: a token, a user login, a client login. */
export function credentialKeys(cfg: ProviderConfig): Setting[] {
  if (cfg.token) return ["token"];
  if (cfg.username || cfg.password) return ["username", "password", "clientId", "clientSecret"].filter((k) => cfg[k as Setting & keyof ProviderConfig] !== undefined) as Setting[];
  return ["clientId", "clientSecret"].filter((k) => cfg[k as Setting & keyof ProviderConfig] !== undefined) as Setting[];
}

/** One warning per `svc:` key the provider does not know, naming the nearest known key. */
export function unknownKeyWarnings(keys: readonly string[]): string[] {
  const known = Object.keys(SETTINGS);
  const out: string[] = [];
  for (const key of keys) {
    if (!key.startsWith("svc:")) continue;
    const name = key.slice(4);
    if (known.includes(name)) continue;
    out.push(`svc:${name} is not a setting of pulumi-svc and is ignored; did you mean svc:${nearest(name, known)}? (settings: ${known.map((k) => `svc:${k}`).join(", ")})`);
  }
  return out;
}
