/**
 * The provider as the dynamic-provider host loads it, by package name (`require("pulumi-svc/provider")`),
 * from the serialized shim stored with every resource. Clients and the embedded emulator are made
 * here, lazily, once per provider process; nothing of them is ever serialized.
 */
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { ResourceProvider } from "@pulumi/pulumi/dynamic";
import { SvcClient } from "../client";
import { resolveConfig, type ConfigSource, type ProviderConfig } from "./config";
import type { Kind, KindContext } from "./kind";
import * as machinery from "./machinery";
import { kinds } from "./resources";

let config: ProviderConfig | undefined;
let configError: Error | undefined;
let context: Promise<KindContext> | undefined;
let closeEmbedded: (() => Promise<void>) | undefined;

/** Called by the host once per resource kind with the whole stack config. */
export async function configure(req: { config: ConfigSource }): Promise<void> {
  if (config) return;
  try {
    config = resolveConfig(req.config);
  } catch (e) {
    configError = e as Error;
  }
}

async function makeContext(cfg: ProviderConfig): Promise<KindContext> {
  const settings = { operationTimeoutSeconds: cfg.operationTimeoutSeconds };
  if (cfg.emulatorStatePath) {
    // The embedded emulator runs inside this provider process and keeps its state in the file.
    const { startEmulator, BUILTIN_CLIENTS } = await import("../emulator");
    await mkdir(dirname(cfg.emulatorStatePath), { recursive: true });
    const emulator = await startEmulator({ statePath: cfg.emulatorStatePath, log: () => undefined } as never);
    closeEmbedded = () => emulator.close();
    process.once("beforeExit", () => void closeEmbedded?.());
    const [clientId, entry] = Object.entries(BUILTIN_CLIENTS)[0];
    return { client: new SvcClient({ baseUrl: emulator.baseUrl, clientId, clientSecret: entry.secret }), settings };
  }
  return {
    client: new SvcClient({
      baseUrl: cfg.baseUrl,
      clientId: cfg.clientId,
      clientSecret: cfg.clientSecret,
      username: cfg.username,
      password: cfg.password,
      token: cfg.token,
    }),
    settings,
  };
}

function ctx(): Promise<KindContext> {
  if (configError) return Promise.reject(configError);
  if (!config) {
    // Outside a configured host (a program's lookups, tests): configuration from the environment.
    config = resolveConfig({ get: () => undefined });
  }
  context ??= makeContext(config);
  return context;
}

function kindOf(name: string): Kind {
  const k = kinds[name];
  if (!k) throw new Error(`pulumi-svc has no resource kind '${name}'; the installed package may be older than the program's state`);
  return k;
}

type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

/**
 * The provider of one kind, as the `__provider` module stored with each resource asks for it
 * (`require("pulumi-svc/provider").shim(kind)`, see shim.ts).
 */
export function shim(kindName: string): Required<Pick<ResourceProvider, "configure" | "check" | "diff" | "create" | "read" | "update" | "delete">> {
  kindOf(kindName);
  return {
    configure: (req) => configure(req as unknown as { config: ConfigSource }),
    check: (olds, news) => dispatch(kindName, "check", olds, news) as never,
    diff: (id, olds, news) => dispatch(kindName, "diff", id, olds, news) as never,
    create: (inputs) => dispatch(kindName, "create", inputs) as never,
    read: (id, props) => dispatch(kindName, "read", id, props) as never,
    update: (id, olds, news) => dispatch(kindName, "update", id, olds, news) as never,
    delete: (id, props) => dispatch(kindName, "delete", id, props) as never,
  };
}

/** One resource kind, one operation. States written before the one-line `__provider` hold closures that call it directly. */
export async function dispatch(kindName: string, method: Method, ...args: unknown[]): Promise<unknown> {
  const kind = kindOf(kindName);
  type P = Record<string, unknown>;
  switch (method) {
    case "check":
      return machinery.check(kind, args[0] as P, args[1] as P, Date.now());
    case "diff":
      return machinery.diff(kind, args[0] as string, args[1] as P, args[2] as P);
    case "create":
      return machinery.create(kind, await ctx(), args[0] as P);
    case "read":
      return machinery.read(kind, await ctx(), args[0] as string, args[1] as P);
    case "update":
      return machinery.update(kind, await ctx(), args[0] as string, args[1] as P, args[2] as P);
    case "delete":
      return machinery.remove(kind, await ctx(), args[0] as string, args[1] as P);
  }
}

/** The client the provider uses (lookups in programs share it). */
export async function client(): Promise<SvcClient> {
  return (await ctx()).client;
}

/** Stops the embedded emulator and the client (tests, lookups at program end). */
export async function shutdown(): Promise<void> {
  const c = context;
  context = undefined;
  config = undefined;
  configError = undefined;
  if (c) await (await c).client.close().catch(() => undefined);
  await closeEmbedded?.();
  closeEmbedded = undefined;
}
