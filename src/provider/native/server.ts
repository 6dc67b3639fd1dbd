/**
 * The native provider `pulumi-resource-svc`: the Pulumi resource-provider gRPC service over the same
 * kinds and the same lifecycle as the dynamic resources (runtime.ts's `configure` and `shim`, which
 * call lifecycle.ts), under the type tokens `svc:index:<Kind>` of schema/schema.json.
 *
 * What differs from the dynamic resources, because the engine talks to this provider directly:
 * - the configuration is the provider's own (`svc:<key>` stack config, or the explicit provider's
 *   args), not the whole stack config the dynamic-provider host hands every resource;
 * - diffs are detailed (the args that changed, and which of them replace), so `replaceOnChanges`,
 *   `pulumi preview --diff` and `ignoreChanges` see each arg;
 * - `read` serves `pulumi import` and the `import` resource option (the lifecycle's read by id alone);
 * - `GetSchema` answers the package schema; there is no `__provider` property in the state;
 * - a create learns the resource's project, stack and name from its URN, not from `__svcOwner`.
 *
 * `@pulumi/pulumi/provider`'s `main` serves a provider object, but its Configure drops the
 * configuration and its Diff cannot say which properties changed, so this module serves the service
 * itself, with the gRPC library and the protocol's messages of @pulumi/pulumi.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import type * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import type * as emptyTypes from "google-protobuf/google/protobuf/empty_pb";
import { kinds } from "../kinds";
import { changedArgs } from "../lifecycle";
import { OWNER_KEY, ownerValue } from "../ownership";
import { configure, shim } from "../runtime";
import { deepEqual, UNKNOWN } from "../../pulumi/values";
import type { ConfigSource } from "../config";
import { parseUrn, URN_PREFIX, urnType } from "../../pulumi/urn";
import { SvcError } from "../../errors";

/** The package name: the type tokens' and the configuration keys' prefix. */
export const PACKAGE = "svc";
const TOKEN_PREFIX = `${PACKAGE}:index:`;

/** The package root (where package.json and schema/ are), from dist/provider/native or src/provider/native. */
export const packageRoot = path.resolve(__dirname, "..", "..", "..");

// The gRPC library and the protocol's messages, as @pulumi/pulumi (the plugin's one dependency) has them.
const fromPulumi = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = fromPulumi("@grpc/grpc-js") as typeof grpcTypes;
const provider = fromPulumi("./proto/provider_pb") as typeof provproto;
const providerRpc = fromPulumi("./proto/provider_grpc_pb") as { ResourceProviderService: grpcTypes.ServiceDefinition };
const plugin = fromPulumi("./proto/plugin_pb") as typeof plugproto;
const engine = fromPulumi("./proto/engine_pb") as typeof engineproto;
/** The engine's Log call, the one of its service the provider uses. */
interface EngineLog {
  log(req: engineproto.LogRequest, callback: (err: unknown) => void): void;
}
const engineRpc = fromPulumi("./proto/engine_grpc_pb") as { EngineClient: new (addr: string, creds: grpcTypes.ChannelCredentials) => EngineLog };
const structproto = fromPulumi("google-protobuf/google/protobuf/struct_pb") as typeof structTypes;
const emptyproto = fromPulumi("google-protobuf/google/protobuf/empty_pb") as typeof emptyTypes;

type Props = Record<string, unknown>;

/** The package version (package.json), which the plugin reports and the schema carries. */
export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string }).version;
}

/** The kind a URN's type token names (`urn:pulumi:stack::project::svc:index:Asset::name`). */
function kindOfUrn(urn: string): string {
  const own = urnType(urn);
  if (!own.startsWith(TOKEN_PREFIX) || !kinds[own.slice(TOKEN_PREFIX.length)]) {
    throw new SvcError(
      "SVC_NATIVE_TYPE_UNKNOWN",
      `the svc provider has no resource type '${own}' (types: ${Object.keys(kinds)
        .map((k) => TOKEN_PREFIX + k)
        .join(", ")})`,
    );
  }
  return own.slice(TOKEN_PREFIX.length);
}

/**
 * The props with the resource's identity that the dynamic resources pass as the hidden input
 * `__svcOwner` (ownership.ts), here read from its URN (`urn:pulumi:<stack>::<project>::<type>::<name>`):
 * a create's calls then carry the request id that records which stack and resource made the object.
 */
export function withOwner(urn: string, props: Props): Props {
  if (!urn.startsWith(URN_PREFIX)) return props;
  const { stack, project, name } = parseUrn(urn);
  return stack && project && name ? { ...props, [OWNER_KEY]: ownerValue(project, stack, name) } : props;
}

/**
 * The provider's configuration as runtime.ts's `configure` reads it: the Configure request's args
 * (keys without the package prefix, values as the stack config or the explicit provider gives them),
 * under their full keys `svc:<key>`.
 */
export function configSource(args: Props): ConfigSource {
  // The engine adds `version` to a default provider's inputs: the plugin's version, not a setting.
  const settings = Object.entries(args)
    .map(([k, v]) => [k, unwrapSecret(v)] as const)
    .filter(([k, v]) => k !== "version" && v !== undefined && v !== null && v !== UNKNOWN);
  const text = (v: unknown) => (typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v));
  const values = new Map(settings.map(([k, v]) => [`${PACKAGE}:${k}`, text(v)]));
  return { get: (key) => values.get(key), keys: () => [...values.keys()] };
}

/** The protocol's mark of a secret value. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/** A configuration value without its secret mark (the engine sends the provider's args with their marks). */
function unwrapSecret(v: unknown): unknown {
  const o = v as Record<string, unknown> | null;
  return typeof o === "object" && o !== null && o[SECRET_SIG] === SECRET_VALUE ? o.value : v;
}

/** The detailed diff of the args that changed: added, deleted or updated, each replacing or not. */
function detailedDiff(olds: Props, news: Props, changed: readonly string[], replaces: readonly string[]): Map<string, provproto.PropertyDiff> {
  const K = provider.PropertyDiff.Kind;
  const out = new Map<string, provproto.PropertyDiff>();
  for (const name of changed) {
    if (deepEqual(olds[name], news[name]) && !replaces.includes(name)) continue;
    const replacing = replaces.includes(name);
    const kind =
      olds[name] === undefined
        ? replacing
          ? K.ADD_REPLACE
          : K.ADD
        : news[name] === undefined
          ? replacing
            ? K.DELETE_REPLACE
            : K.DELETE
          : replacing
            ? K.UPDATE_REPLACE
            : K.UPDATE;
    const d = new provider.PropertyDiff();
    d.setKind(kind);
    d.setInputdiff(true);
    out.set(name, d);
  }
  return out;
}

type Call<Req> = grpcTypes.ServerUnaryCall<Req, unknown>;
type Callback = grpcTypes.sendUnaryData<unknown>;

/** An error as the engine shows it: the lifecycle's message names the resource, the field and what to do. */
function failure(e: unknown): Partial<grpcTypes.StatusObject> {
  const message = e instanceof Error ? e.message : String(e);
  return { code: grpc.status.UNKNOWN, details: message };
}

/** Runs one request's work and answers it, or answers its error. */
function answer<Req>(work: (req: Req) => Promise<unknown>): (call: Call<Req>, callback: Callback) => void {
  return (call, callback) => {
    work(call.request).then(
      (resp) => callback(null, resp),
      (e: unknown) => callback(failure(e)),
    );
  };
}

const toStruct = (v: Props | undefined) => structproto.Struct.fromJavaScript((v ?? {}) as Record<string, structTypes.JavaScriptValue>);
const fromStruct = (s: { toJavaScript(): Record<string, unknown> } | undefined): Props => (s ? s.toJavaScript() : {});

/** The service's methods; those it leaves out (Construct, Call, Invoke, ...) answer UNIMPLEMENTED. */
function service(engineAddress: string | undefined): grpcTypes.UntypedServiceImplementation {
  let engineClient: EngineLog | undefined;
  /** A warning of the configuration, shown by the engine under Diagnostics (stderr without an engine). */
  const warn = (message: string) => {
    if (!engineAddress) {
      console.error(`warning: ${message}`);
      return;
    }
    engineClient ??= new engineRpc.EngineClient(engineAddress, grpc.credentials.createInsecure());
    const req = new engine.LogRequest();
    req.setSeverity(engine.LogSeverity.WARNING);
    req.setMessage(message);
    engineClient.log(req, () => undefined);
  };
  let schema: string | undefined;
  return {
    getPluginInfo: answer(async () => new plugin.PluginInfo().setVersion(packageVersion())),
    getSchema: answer(async (req: provproto.GetSchemaRequest) => {
      if (req.getVersion() !== 0) throw new SvcError("SVC_NATIVE_SCHEMA_VERSION", `unsupported schema version ${req.getVersion()}`);
      schema ??= fs.readFileSync(path.join(packageRoot, "schema", "schema.json"), "utf8");
      return new provider.GetSchemaResponse().setSchema(schema);
    }),
    // The engine's own handling: the config passes to Configure as it is, and a change of it is no diff of its own.
    checkConfig: (_call: unknown, callback: Callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: "CheckConfig is not implemented" }),
    diffConfig: (_call: unknown, callback: Callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: "DiffConfig is not implemented" }),
    configure: answer(async (req: provproto.ConfigureRequest) => {
      const args = fromStruct(req.getArgs());
      // Only the first Configure of the process counts (runtime.ts configures once); the engine sends one.
      void configure({ config: configSource(args), warn });
      // Secrets reach the provider as plain values; the engine marks the outputs of secret inputs secret.
      return new provider.ConfigureResponse().setAcceptsecrets(false).setAcceptresources(false).setSupportspreview(false);
    }),
    check: answer(async (req: provproto.CheckRequest) => {
      const ops = shim(kindOfUrn(req.getUrn()));
      const result = await ops.check(fromStruct(req.getOlds()), fromStruct(req.getNews()));
      const resp = new provider.CheckResponse().setInputs(toStruct(result.inputs));
      resp.setFailuresList((result.failures ?? []).map((f) => new provider.CheckFailure().setProperty(f.property).setReason(f.reason)));
      return resp;
    }),
    diff: answer(async (req: provproto.DiffRequest) => {
      const olds = fromStruct(req.getOldInputs() ?? req.getOlds());
      const news = fromStruct(req.getNews());
      const kind = kindOfUrn(req.getUrn());
      const result = await shim(kind).diff(req.getId(), olds, news);
      const resp = new provider.DiffResponse();
      resp.setChanges(result.changes ? provider.DiffResponse.DiffChanges.DIFF_SOME : provider.DiffResponse.DiffChanges.DIFF_NONE);
      const replaces = result.replaces ?? [];
      const changed = result.changes ? changedArgs(kinds[kind], olds, news) : [];
      resp.setReplacesList(replaces);
      resp.setDeletebeforereplace(result.deleteBeforeReplace === true);
      resp.setDiffsList(changed);
      resp.setHasdetaileddiff(true);
      const detailed = resp.getDetaileddiffMap();
      for (const [name, d] of detailedDiff(olds, news, changed, replaces)) detailed.set(name, d);
      return resp;
    }),
    create: answer(async (req: provproto.CreateRequest) => {
      const ops = shim(kindOfUrn(req.getUrn()));
      const result = await ops.create(withOwner(req.getUrn(), fromStruct(req.getProperties())));
      return new provider.CreateResponse().setId(result.id).setProperties(toStruct(result.outs));
    }),
    read: answer(async (req: provproto.ReadRequest) => {
      const ops = shim(kindOfUrn(req.getUrn()));
      // A refresh gives the state's outputs (the args and the computed values); an import gives nothing.
      const state = fromStruct(req.getProperties());
      const props = Object.keys(state).length > 0 ? state : fromStruct(req.getInputs());
      const result = await ops.read(req.getId(), props);
      const resp = new provider.ReadResponse().setId(result.id ?? "").setProperties(toStruct(result.props));
      if (result.inputs) resp.setInputs(toStruct(result.inputs));
      return resp;
    }),
    update: answer(async (req: provproto.UpdateRequest) => {
      const ops = shim(kindOfUrn(req.getUrn()));
      const olds = fromStruct(req.getOldInputs() ?? req.getOlds());
      const result = await ops.update(req.getId(), olds, fromStruct(req.getNews()));
      return new provider.UpdateResponse().setProperties(toStruct(result.outs));
    }),
    delete: answer(async (req: provproto.DeleteRequest) => {
      const ops = shim(kindOfUrn(req.getUrn()));
      await ops.delete(req.getId(), fromStruct(req.getProperties()));
      return new emptyproto.Empty();
    }),
    cancel: answer(async () => new emptyproto.Empty()),
    attach: answer(async () => new emptyproto.Empty()),
  };
}

/** The engine's address among the plugin's arguments (the CLI may put logging flags first). */
export function engineAddressOf(args: readonly string[]): string | undefined {
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--logtostderr" || args[i].startsWith("-v=")) continue;
    if (args[i] === "--tracing") {
      i++;
      continue;
    }
    rest.push(args[i]);
  }
  return rest[0];
}

/** Serves the provider on a free local port and prints the port, as the engine expects of a plugin. */
export async function serve(args: readonly string[]): Promise<grpcTypes.Server> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1024 * 1024 * 400 });
  server.addService(providerRpc.ResourceProviderService, service(engineAddressOf(args)));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  process.stdout.write(`${port}\n`);
  return server;
}
