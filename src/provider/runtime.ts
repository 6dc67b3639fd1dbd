/**
 * The provider as the dynamic-provider host loads it, by package name (`require("pulumi-svc/provider")`,
 * whose entry is host.ts), from the serialized shim stored with every resource. Clients and the
 * embedded emulator are made here, lazily, once per provider process; nothing of them is ever serialized.
 *
 * The host calls `configure` once per resource kind; the work is done once per process: the
 * configuration is read (unknown `svc:` keys are warned about), and the credentials are verified with
 * one request (a token request; with a static token, one authenticated read), so that a preview with
 * broken credentials fails instead of passing. Every operation, check and diff included, waits for
 * this and fails with its error. `svc:skipCredentialsCheck` turns the verification off; with the
 * embedded emulator there is nothing to verify.
 */
import type { ResourceProvider } from "@pulumi/pulumi/dynamic";
import { SvcApiError, SvcClient, SvcConfigError, SvcNetworkError } from "../client";
import { credentialKeys, keysSet, ProviderConfigError, resolveConfig, SETTINGS, type ConfigSource, type ProviderConfig, type Setting } from "./config";
import { SvcError } from "../errors";
import { WARNING_PREFIX, type CheckFailure, type Kind, type KindContext } from "./kind";
import * as lifecycle from "./lifecycle";
import { kinds } from "./kinds";

export interface ConfigureRequest {
  config: ConfigSource;
  /** Where warnings go (default: stderr, which the host forwards to the engine as the provider's output). */
  warn?: (message: string) => void;
}

let configured: Promise<void> | undefined;
let config: ProviderConfig | undefined;
let configError: Error | undefined;
let context: Promise<KindContext> | undefined;
let closeEmbedded: (() => Promise<void>) | undefined;
let closingOnExit = false;

/** The host's Config lists its keys as `rawConfig`; other sources may list them themselves. */
function withKeys(source: ConfigSource): ConfigSource {
  if (source.keys) return source;
  const raw = (source as { rawConfig?: Record<string, unknown> }).rawConfig;
  return raw && typeof raw === "object" ? { get: (k) => source.get(k), keys: () => Object.keys(raw) } : source;
}

/** Called by the host once per resource kind with the whole stack config; does its work once per process. */
export function configure(req: ConfigureRequest): Promise<void> {
  configured ??= setUp(withKeys(req.config), req.warn ?? ((m) => console.error(`${WARNING_PREFIX}${m}`)));
  return configured;
}

async function setUp(source: ConfigSource, warn: (message: string) => void): Promise<void> {
  let cfg: ProviderConfig;
  try {
    cfg = resolveConfig(source);
  } catch (e) {
    configError = e as Error;
    return;
  }
  for (const w of cfg.warnings) warn(w);
  config = cfg;
  // The embedded emulator is started (or found) at the first call that needs it; its credentials are built in.
  if (cfg.emulatorStatePath) return;
  let client: SvcClient;
  try {
    client = remoteClient(cfg);
  } catch (e) {
    configError =
      e instanceof SvcConfigError
        ? new ProviderConfigError("SVC_CONFIG_INVALID", `${e.message.replace(/^SvcClient: /, "")} (set now: ${keysSet(cfg)})`, { cause: e })
        : (e as Error);
    return;
  }
  context = Promise.resolve({ client, settings: settingsOf(cfg) });
  if (cfg.skipCredentialsCheck) return;
  try {
    await client.verifyCredentials();
  } catch (e) {
    configError = credentialsError(cfg, e);
  }
}

/**
 * The credentials check failed: why (no answer, no such endpoint at that address, or refused), which
 * keys were used (never their values), at which platform, and how to skip the check.
 */
function credentialsError(cfg: ProviderConfig, err: unknown): Error {
  const used = keysSet(cfg, credentialKeys(cfg));
  const detail = err instanceof Error ? err.message : String(err);
  const status = err instanceof SvcApiError ? err.status : undefined;
  const platform = `${cfg.baseUrl} from ${cfg.sources.baseUrl}`;
  const skip = "Checked once when the provider is configured; set svc:skipCredentialsCheck to true to skip the check.";
  if (status === 404) {
    // The login or the API is not where the base URL says: the address is wrong, not the credentials.
    return new ProviderConfigError(
      "SVC_PLATFORM_URL_WRONG",
      `the platform's base URL is wrong: ${platform} has no ${err instanceof SvcApiError ? `${err.method} ${err.path}` : "such endpoint"} (${detail}). ` +
        `Set ${cfg.sources.baseUrl} to the platform's root, under which the API lives at /api/v4 and the login at /auth/realms/svc; the credentials (${used}) were not tried. ${skip}`,
      { cause: err },
    );
  }
  const unanswered = err instanceof SvcNetworkError;
  const what = unanswered ? "could not verify the credentials" : "the credentials were refused";
  return new ProviderConfigError(unanswered ? "SVC_CREDENTIALS_UNVERIFIED" : "SVC_CREDENTIALS_REFUSED", `${what} (${used}, platform ${platform}): ${detail}. ${skip}`, {
    cause: err,
  });
}

const NAMES = Object.fromEntries(Object.keys(SETTINGS).map((k) => [k, `svc:${k}`])) as Record<Setting, string>;

function settingsOf(cfg: ProviderConfig) {
  return { operationTimeoutSeconds: cfg.operationTimeoutSeconds };
}

function remoteClient(cfg: ProviderConfig): SvcClient {
  return new SvcClient({
    baseUrl: cfg.baseUrl,
    clientId: cfg.clientId,
    clientSecret: cfg.clientSecret,
    username: cfg.username,
    password: cfg.password,
    token: cfg.token,
    settingNames: NAMES,
  });
}

/**
 * The embedded emulator of the state file, shared with the run's other process (see embedded.ts):
 * served here, or reached over HTTP where another process serves it, and found again if it moves.
 */
async function embeddedContext(cfg: ProviderConfig, statePath: string): Promise<KindContext> {
  const { attachEmbedded } = await import("./embedded");
  const { BUILTIN_CLIENTS } = await import("../emulator");
  const attach = async () => {
    const embedded = await attachEmbedded(statePath);
    if (embedded.served) {
      closeEmbedded = embedded.close;
      // A program's process serves without being kept alive by it, and stops serving when it ends.
      if (!closingOnExit) {
        closingOnExit = true;
        process.once("beforeExit", () => {
          closingOnExit = false;
          void closeEmbedded?.();
        });
      }
    }
    return embedded.baseUrl;
  };
  const baseUrl = await attach();
  const [clientId, entry] = Object.entries(BUILTIN_CLIENTS)[0];
  return { client: new SvcClient({ baseUrl, clientId, clientSecret: entry.secret, relocate: attach }), settings: settingsOf(cfg) };
}

/** Waits for `configure`'s work and fails with its error. */
async function ready(): Promise<void> {
  await configured;
  if (configError) throw configError;
}

async function ctx(): Promise<KindContext> {
  await ready();
  if (!config) {
    // Outside a configured host (states written before the one-line shim): configuration from the environment.
    config = resolveConfig({ get: () => undefined });
  }
  const cfg = config;
  context ??= cfg.emulatorStatePath ? embeddedContext(cfg, cfg.emulatorStatePath) : Promise.resolve({ client: remoteClient(cfg), settings: settingsOf(cfg) });
  return context;
}

/**
 * The context check reads the platform through (for conflicts, in preview too); none with
 * `svc:skipCredentialsCheck`, which keeps a preview off the platform.
 */
async function checkCtx(): Promise<KindContext | undefined> {
  await ready();
  return config?.skipCredentialsCheck ? undefined : ctx();
}

function kindOf(name: string): Kind {
  const k = kinds[name];
  if (!k) throw new SvcError("SVC_KIND_UNKNOWN", `pulumi-svc has no resource kind '${name}'; the installed package may be older than the program's state`);
  return k;
}

type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

type Props = Record<string, unknown>;
type Operations = Required<Pick<ResourceProvider<Props, Props>, "configure" | "check" | "diff" | "create" | "read" | "update" | "delete">>;

/** What the `__provider` module of a resource tells the provider beyond the kind (see shim.ts). */
export interface ShimOptions {
  /** The args that are secret in the program: their values are masked in every message of the provider. */
  secretArgs?: readonly string[];
}

/** The text a message shows instead of a secret value, as the engines show one. */
const MASK = "[secret]";

/** The texts of the values of `names` in each of `maps` (every string inside them), longest first. */
function secretTexts(names: readonly string[], maps: ReadonlyArray<Props | undefined>): string[] {
  const out = new Set<string>();
  const visit = (v: unknown) => {
    if (typeof v === "string" && v !== "") out.add(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") Object.values(v).forEach(visit);
  };
  for (const m of maps) for (const n of names) visit(m?.[n]);
  return [...out].sort((a, b) => b.length - a.length);
}

/** The shortest start of a secret that a message cut short (`…`) is taken to show. */
const SHOWN_START = 6;

/** `text` with every secret text in it masked, and every start of one that a message cut short. */
function masked(text: string, secrets: readonly string[]): string {
  let out = secrets.reduce((t, s) => t.split(s).join(MASK), text);
  if (!out.includes("…")) return out;
  for (const s of secrets) {
    for (let n = s.length - 1; n >= SHOWN_START; n--) out = out.split(`${s.slice(0, n)}…`).join(MASK);
  }
  return out;
}

/** A check failure's reason about a secret arg: the values it quotes masked, whatever their form. */
const maskedQuotes = (reason: string): string => reason.replace(/"(?:[^"\\]|\\.)*"/g, MASK);

/**
 * The provider of one kind, as the `__provider` module stored with each resource asks for it
 * (`require("pulumi-svc/provider").shim(kind)`, see shim.ts). Where the program made args secret,
 * their values are masked in the check failures and the errors the provider answers: the host hands
 * the engine those texts as they are, and the engine prints and logs them.
 */
export function shim(kindName: string, options: ShimOptions = {}): Operations {
  const kind = kindOf(kindName);
  const names = options.secretArgs ?? [];
  /** Runs an operation; its error's text with the values of the secret args of `maps` masked. */
  const guarded = async <T>(maps: ReadonlyArray<Props | undefined>, op: () => Promise<T>): Promise<T> => {
    try {
      return await op();
    } catch (e) {
      const secrets = secretTexts(names, maps);
      if (secrets.length && e instanceof Error) {
        e.message = masked(e.message, secrets);
        if (e.stack) e.stack = masked(e.stack, secrets);
      }
      throw e;
    }
  };
  return {
    configure: (req) => configure(req),
    check: (olds, news) =>
      guarded([olds, news], async () => {
        await ready();
        const result = await lifecycle.checkWithPlatform(kind, olds, news, Date.now(), checkCtx);
        const secrets = secretTexts(names, [olds, news]);
        if (!secrets.length) return result;
        const reason = (f: CheckFailure) => (names.includes(f.property) ? maskedQuotes(masked(f.reason, secrets)) : masked(f.reason, secrets));
        return { ...result, failures: result.failures.map((f) => ({ ...f, reason: reason(f) })) };
      }),
    diff: (id, olds, news) =>
      guarded([olds, news], async () => {
        await ready();
        return lifecycle.diff(kind, id, olds, news);
      }),
    create: (inputs) => guarded([inputs], async () => lifecycle.create(kind, await ctx(), inputs)),
    read: (id, props) => guarded([props], async () => lifecycle.read(kind, await ctx(), id, props ?? {})),
    update: (id, olds, news) => guarded([olds, news], async () => lifecycle.update(kind, await ctx(), id, olds, news)),
    delete: (id, props) => guarded([props], async () => lifecycle.remove(kind, await ctx(), id, props)),
  };
}

/** One resource kind, one operation. States written before the one-line `__provider` hold closures that call it directly. */
export async function dispatch(kindName: string, method: Method, ...args: unknown[]): Promise<unknown> {
  const kind = kindOf(kindName);
  type P = Record<string, unknown>;
  switch (method) {
    case "check":
      await ready();
      return lifecycle.checkWithPlatform(kind, args[0] as P, args[1] as P, Date.now(), checkCtx);
    case "diff":
      await ready();
      return lifecycle.diff(kind, args[0] as string, args[1] as P, args[2] as P);
    case "create":
      return lifecycle.create(kind, await ctx(), args[0] as P);
    case "read":
      return lifecycle.read(kind, await ctx(), args[0] as string, args[1] as P);
    case "update":
      return lifecycle.update(kind, await ctx(), args[0] as string, args[1] as P, args[2] as P);
    case "delete":
      return lifecycle.remove(kind, await ctx(), args[0] as string, args[1] as P);
  }
}

/** The client the provider uses (lookups in programs share it). */
export async function client(): Promise<SvcClient> {
  return (await ctx()).client;
}

/** Stops the embedded emulator this process serves and the client, and forgets the configuration (tests, lookups at program end). */
export async function shutdown(): Promise<void> {
  const c = context;
  const close = closeEmbedded;
  configured = undefined;
  context = undefined;
  config = undefined;
  configError = undefined;
  closeEmbedded = undefined;
  if (c) await (await c.catch(() => undefined))?.client.close().catch(() => undefined);
  await close?.();
}
