"use strict";
/**
 * The floor of the native provider's benchmark: a resource plugin that answers the package's type
 * tokens (`svc:index:<Kind>`) over the same gRPC protocol as `pulumi-resource-svc`, with the same
 * gRPC library and messages (those of @pulumi/pulumi), and makes no platform call: Configure accepts
 * the settings, Check passes the inputs through, Diff finds no change, Create and Update answer the
 * inputs with the outputs the package's resource of that shape carries (bench/lib/noop-provider.js),
 * Read answers the state, Delete does nothing. What a run of these costs is the engine's, the CLI's
 * and the plugin protocol's share, with no provider work.
 */
const { createRequire } = require("node:module");
const path = require("node:path");
const noop = require("../noop-provider");

const ROOT = path.join(__dirname, "..", "..", "..");
const fromPulumi = createRequire(require.resolve("@pulumi/pulumi", { paths: [ROOT] }));
const grpc = fromPulumi("@grpc/grpc-js");
const provider = fromPulumi("./proto/provider_pb");
const { ResourceProviderService } = fromPulumi("./proto/provider_grpc_pb");
const plugin = fromPulumi("./proto/plugin_pb");
const { Struct } = fromPulumi("google-protobuf/google/protobuf/struct_pb");
const { Empty } = fromPulumi("google-protobuf/google/protobuf/empty_pb");

const VERSION = require(path.join(ROOT, "package.json")).version;
const props = (s) => (s ? s.toJavaScript() : {});
const struct = (v) => Struct.fromJavaScript(v ?? {});
const unimplemented = (what) => (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: `${what} is not implemented` });

/** Answers a unary call with what `fn` returns for its request. */
const unary = (fn) => (call, callback) =>
  Promise.resolve()
    .then(() => fn(call.request))
    .then(
      (resp) => callback(null, resp),
      (e) => callback({ code: grpc.status.UNKNOWN, details: String(e?.message ?? e) }),
    );

const service = {
  getPluginInfo: unary(() => new plugin.PluginInfo().setVersion(VERSION)),
  checkConfig: unimplemented("CheckConfig"),
  diffConfig: unimplemented("DiffConfig"),
  configure: unary(() => new provider.ConfigureResponse().setAcceptsecrets(false).setAcceptresources(false).setSupportspreview(false)),
  check: unary((req) => new provider.CheckResponse().setInputs(req.getNews())),
  diff: unary(() => new provider.DiffResponse().setChanges(provider.DiffResponse.DiffChanges.DIFF_NONE)),
  create: unary(async (req) => {
    const { id, outs } = await noop.create(props(req.getProperties()));
    return new provider.CreateResponse().setId(id).setProperties(struct(outs));
  }),
  read: unary((req) => new provider.ReadResponse().setId(req.getId()).setProperties(req.getProperties()).setInputs(req.getInputs())),
  update: unary(async (req) => new provider.UpdateResponse().setProperties(struct((await noop.update(req.getId(), {}, props(req.getNews()))).outs))),
  delete: unary(() => new Empty()),
  cancel: unary(() => new Empty()),
  attach: unary(() => new Empty()),
};

const server = new grpc.Server();
server.addService(ResourceProviderService, service);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    console.error(`noop native provider: ${err.message}`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});
