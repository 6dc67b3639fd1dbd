/**
 * Provider configuration: the stack config (`svc:*`, read in the provider's `configure`) with the
 * SVC_* environment variables as fallback. Credentials live here, never in resource inputs or state.
 */
import path from "node:path";

export interface ConfigSource {
  get(key: string): string | undefined;
}

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
}

export const DEFAULT_EMULATOR_STATE = ".svc-emulator/state.json";
export const DEFAULT_OPERATION_TIMEOUT_SECONDS = 600;

const truthy = (v: string) => /^(true|1|yes)$/i.test(v);
const falsy = (v: string) => /^(false|0|no)$/i.test(v);

export function resolveConfig(config: ConfigSource, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ProviderConfig {
  const pick = (key: string, envName: string) => config.get(`svc:${key}`) ?? env[envName] ?? undefined;
  const emulator = pick("emulator", "SVC_EMULATOR");
  let emulatorStatePath: string | undefined;
  if (emulator !== undefined && emulator !== "" && !falsy(emulator)) {
    emulatorStatePath = path.resolve(cwd, truthy(emulator) ? DEFAULT_EMULATOR_STATE : emulator);
  }
  const timeoutRaw = pick("operationTimeoutSeconds", "SVC_OPERATION_TIMEOUT_SECONDS");
  let operationTimeoutSeconds = DEFAULT_OPERATION_TIMEOUT_SECONDS;
  if (timeoutRaw !== undefined) {
    const n = Number(timeoutRaw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`svc:operationTimeoutSeconds must be a positive number of seconds, got '${timeoutRaw}'`);
    operationTimeoutSeconds = n;
  }
  const resolved: ProviderConfig = {
    baseUrl: pick("baseUrl", "SVC_BASE_URL"),
    clientId: pick("clientId", "SVC_CLIENT_ID"),
    clientSecret: pick("clientSecret", "SVC_CLIENT_SECRET"),
    username: pick("username", "SVC_USERNAME"),
    password: pick("password", "SVC_PASSWORD"),
    token: pick("token", "SVC_TOKEN"),
    emulatorStatePath,
    operationTimeoutSeconds,
  };
  if (!resolved.emulatorStatePath && !resolved.baseUrl) {
    throw new Error("no platform configured: set svc:baseUrl (or SVC_BASE_URL) with credentials, or svc:emulator to true to use the embedded emulator");
  }
  return resolved;
}
