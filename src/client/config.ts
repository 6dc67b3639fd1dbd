/**
 * Client options and where they come from: explicit options first, then the SVC_* environment
 * variables. Every problem is reported with the option's name and its environment variable.
 */
import { SvcConfigError } from "./errors";

export interface RetryOptions {
  maxAttempts?: number;
  maxElapsedMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export interface ClientEvent {
  type: string;
  message: string;
  [k: string]: unknown;
}

export interface SvcClientOptions {
  /** Env SVC_BASE_URL; the API root is `${baseUrl}/api/v4`. */
  baseUrl?: string;
  /** SVC_USERNAME (password grant, or the edge token endpoint). */
  username?: string;
  /** SVC_PASSWORD */
  password?: string;
  /** SVC_CLIENT_ID (default "svc-cli" for the password grant). */
  clientId?: string;
  /** SVC_CLIENT_SECRET (client_credentials grant when given without a username). */
  clientSecret?: string;
  /** SVC_TOKEN: a static bearer token; no token requests are made. */
  token?: string;
  /** SVC_EDGE=true: use the edge token endpoint POST /api/v4/auth/token/get with username/password. */
  edge?: boolean;
  /** Per request, default 30000. */
  timeoutMs?: number;
  /** Defaults: maxAttempts 6, maxElapsedMs 60000, baseDelayMs 200, maxDelayMs 10000. */
  retry?: RetryOptions;
  /** Receives request, retry and token events; never receives secrets. */
  logger?: (event: ClientEvent) => void;
  userAgent?: string;
  /**
   * How messages name each setting, when the caller took it from somewhere else than an option, e.g.
   * `{ clientId: "svc:clientId" }` for a Pulumi stack's config. Default: the option's name.
   */
  settingNames?: Partial<Record<keyof typeof ENV, string>>;
  /**
   * Called when the server refuses connections (nothing listens at its address any more): the base
   * URL to use from now on, or undefined to fail as usual. The provider's embedded emulator moves
   * from one process of a run to another this way.
   */
  relocate?: () => Promise<string | undefined>;
  /**
   * The clock token renewal reads, in milliseconds since the epoch (default `Date.now`): a token is
   * renewed once about 90 % of its lifetime has passed by this clock. Tests drive renewal with it
   * instead of waiting.
   */
  clock?: () => number;
}

export const ENV = {
  baseUrl: "SVC_BASE_URL",
  username: "SVC_USERNAME",
  password: "SVC_PASSWORD",
  clientId: "SVC_CLIENT_ID",
  clientSecret: "SVC_CLIENT_SECRET",
  token: "SVC_TOKEN",
  edge: "SVC_EDGE",
} as const;

export const DEFAULT_PASSWORD_CLIENT_ID = "svc-cli";

export type Credentials =
  | { kind: "static"; token: string }
  | { kind: "password"; username: string; password: string; clientId: string; clientSecret?: string }
  | { kind: "client_credentials"; clientId: string; clientSecret: string }
  | { kind: "edge"; username: string; password: string };

export interface ResolvedConfig {
  /** Scheme, host and port: the key of the connection pool. */
  origin: string;
  /** Path prefix in front of /api/v4 (usually empty). */
  basePath: string;
  credentials: Credentials;
  timeoutMs: number;
  retry: Required<RetryOptions>;
  logger?: (event: ClientEvent) => void;
  userAgent: string;
  /** How messages name each setting (see SvcClientOptions.settingNames). */
  names: Record<keyof typeof ENV, string>;
  relocate?: () => Promise<string | undefined>;
  clock: () => number;
}

const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 6, maxElapsedMs: 60_000, baseDelayMs: 200, maxDelayMs: 10_000 };
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_USER_AGENT = "pulumi-svc-client";

/** Options read from environment variables; empty values count as unset. */
export function optionsFromEnv(env: NodeJS.ProcessEnv): SvcClientOptions {
  const get = (k: string) => {
    const v = env[k];
    return v === undefined || v.trim() === "" ? undefined : v.trim();
  };
  const edge = get(ENV.edge);
  return {
    baseUrl: get(ENV.baseUrl),
    username: get(ENV.username),
    // Secrets are taken as they are: surrounding blanks may be part of them.
    password: env[ENV.password] || undefined,
    clientId: get(ENV.clientId),
    clientSecret: env[ENV.clientSecret] || undefined,
    token: get(ENV.token),
    edge: edge === undefined ? undefined : /^(1|true|yes)$/i.test(edge),
  };
}

/** Explicit options win; an option left undefined falls back to the environment. */
export function mergeOptions(explicit: SvcClientOptions, fromEnv: SvcClientOptions): SvcClientOptions {
  const out: SvcClientOptions = { ...fromEnv };
  for (const [k, v] of Object.entries(explicit)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

type Names = Partial<Record<keyof typeof ENV, string>> | undefined;
/** A setting as messages name it: the caller's name for it, else the option's name. */
const named = (names: Names, key: keyof typeof ENV) => names?.[key] ?? key;
/** "the X option", or the caller's name for the setting. */
const theOption = (names: Names, key: keyof typeof ENV) => names?.[key] ?? `the ${key} option`;

function resolveBaseUrl(raw: string | undefined, names?: Names): { origin: string; basePath: string } {
  const which = `${names?.baseUrl ?? "option baseUrl"} or ${ENV.baseUrl}`;
  if (!raw) {
    throw new SvcConfigError(`no base URL: set ${theOption(names, "baseUrl")} or the ${ENV.baseUrl} environment variable (e.g. https://platform.example.com)`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SvcConfigError(`baseUrl '${raw}' (${which}) is not a URL; expected e.g. https://platform.example.com`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SvcConfigError(`baseUrl '${raw}' (${which}) must start with http:// or https://`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new SvcConfigError(`baseUrl (${which}) must hold no credentials, query or fragment; pass credentials as options`);
  }
  // The API root is `${baseUrl}/api/v4`: a trailing `/api/v4` given by habit is taken off.
  const basePath = url.pathname.replace(/\/+$/, "").replace(/\/api\/v4$/, "");
  return { origin: url.origin, basePath };
}

function resolveCredentials(o: SvcClientOptions): Credentials {
  const n = (key: keyof typeof ENV) => named(o.settingNames, key);
  const opt = (key: keyof typeof ENV) => theOption(o.settingNames, key);
  if (o.token) return { kind: "static", token: o.token };
  if (o.edge) {
    if (!o.username || !o.password) {
      throw new SvcConfigError(`the edge token endpoint needs a username and a password: set the username and password options or ${ENV.username} and ${ENV.password}`);
    }
    return { kind: "edge", username: o.username, password: o.password };
  }
  if (o.username || o.password) {
    if (!o.username) throw new SvcConfigError(`a password is set but no username: set ${opt("username")} or ${ENV.username}`);
    if (!o.password) throw new SvcConfigError(`a username is set but no password: set ${opt("password")} or ${ENV.password}`);
    return {
      kind: "password",
      username: o.username,
      password: o.password,
      clientId: o.clientId ?? DEFAULT_PASSWORD_CLIENT_ID,
      ...(o.clientSecret ? { clientSecret: o.clientSecret } : {}),
    };
  }
  if (o.clientSecret) {
    if (!o.clientId) throw new SvcConfigError(`a client secret is set but no client id: set ${opt("clientId")} or ${ENV.clientId}`);
    return { kind: "client_credentials", clientId: o.clientId, clientSecret: o.clientSecret };
  }
  throw new SvcConfigError(
    `no credentials: set ${n("token")} (${ENV.token}), or ${n("username")} and ${n("password")} (${ENV.username}, ${ENV.password}), ` +
      `or ${n("clientId")} and ${n("clientSecret")} (${ENV.clientId}, ${ENV.clientSecret})`,
  );
}

function positive(name: string, v: number | undefined, fallback: number, min = 1): number {
  if (v === undefined) return fallback;
  if (!Number.isFinite(v) || v < min) throw new SvcConfigError(`option ${name} must be a number of at least ${min}, got ${v}`);
  return v;
}

export function resolveConfig(options: SvcClientOptions): ResolvedConfig {
  const { origin, basePath } = resolveBaseUrl(options.baseUrl, options.settingNames);
  const r = options.retry ?? {};
  return {
    origin,
    basePath,
    credentials: resolveCredentials(options),
    timeoutMs: positive("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS),
    retry: {
      maxAttempts: Math.floor(positive("retry.maxAttempts", r.maxAttempts, DEFAULT_RETRY.maxAttempts)),
      maxElapsedMs: positive("retry.maxElapsedMs", r.maxElapsedMs, DEFAULT_RETRY.maxElapsedMs, 0),
      baseDelayMs: positive("retry.baseDelayMs", r.baseDelayMs, DEFAULT_RETRY.baseDelayMs, 0),
      maxDelayMs: positive("retry.maxDelayMs", r.maxDelayMs, DEFAULT_RETRY.maxDelayMs, 0),
    },
    logger: options.logger,
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    names: Object.fromEntries(Object.keys(ENV).map((k) => [k, named(options.settingNames, k as keyof typeof ENV)])) as ResolvedConfig["names"],
    relocate: options.relocate,
    clock: options.clock ?? Date.now,
  };
}
