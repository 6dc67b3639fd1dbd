/**
 * The engine's side of the ResourceProvider gRPC protocol, spoken to the dynamic-provider host with
 * the stubs @pulumi/pulumi generates (and the @grpc/grpc-js and google-protobuf it loads them with).
 * Each call takes and returns property maps in the engine's JSON form (see values.ts).
 */
import type * as grpcTypes from "@grpc/grpc-js";
import * as path from "node:path";
import type * as provrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provprotoTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import { pulumiFile } from "./host";
import { toPropertyMap, type PropertyMap } from "./values";

/** Loads a module the way @pulumi/pulumi's own files resolve it, so message classes are shared. */
function fromPulumi<T>(request: string): T {
  return require(require.resolve(request, { paths: [path.dirname(pulumiFile("package.json"))] })) as T;
}

const grpc = fromPulumi<typeof grpcTypes>("@grpc/grpc-js");
const structpb = fromPulumi<typeof structTypes>("google-protobuf/google/protobuf/struct_pb");
const provrpc = require(pulumiFile("proto/provider_grpc_pb.js")) as typeof provrpcTypes;
const provproto = require(pulumiFile("proto/provider_pb.js")) as typeof provprotoTypes;
const statusproto = require(pulumiFile("proto/status_pb.js")) as {
  Status: { deserializeBinary(b: Uint8Array): { getDetailsList(): Array<{ getTypeName(): string; getValue_asU8(): Uint8Array }> } };
};

/** An error the provider (or the host) answered with; `message` is the provider's own message. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly code: number,
    /** Set when the object was created but failed to initialize (it exists and must be kept in the state). */
    readonly initFailure?: { id: string; properties: PropertyMap; reasons: string[] },
  ) {
    super(message);
    this.name = "ProviderError";
  }
  get unimplemented(): boolean {
    return this.code === grpc.status.UNIMPLEMENTED;
  }
}

export interface ResourceRef {
  urn: string;
  type: string;
  name: string;
}

export interface CheckResult {
  inputs: PropertyMap;
  failures: Array<{ property: string; reason: string }>;
}

export type DiffChanges = "unknown" | "none" | "some";

export interface DiffResult {
  changes: DiffChanges;
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  /** Property names the provider reports as changed (the dynamic host reports none). */
  diffs: string[];
}

export interface ConfigureResult {
  acceptSecrets: boolean;
  acceptResources: boolean;
  supportsPreview: boolean;
}

export interface ReadResult {
  /** Empty when the object no longer exists. */
  id: string;
  properties: PropertyMap;
  inputs?: PropertyMap;
}

const toStruct = (m: PropertyMap) => structpb.Struct.fromJavaScript(m);
const fromStruct = (s: structTypes.Struct | undefined): PropertyMap => toPropertyMap(s?.toJavaScript() ?? {});

function describe(err: grpcTypes.ServiceError): ProviderError {
  const message = err.details || err.message.replace(/^\d+ [A-Z_]+: /, "");
  return new ProviderError(message, err.code, initFailure(err));
}

/** Unpacks the ErrorResourceInitFailed detail the host attaches when a created object failed to initialize. */
function initFailure(err: grpcTypes.ServiceError): ProviderError["initFailure"] {
  const raw = err.metadata?.get("grpc-status-details-bin")?.[0];
  if (!raw || typeof raw === "string") return undefined;
  try {
    for (const any of statusproto.Status.deserializeBinary(raw).getDetailsList()) {
      if (!any.getTypeName().endsWith("pulumirpc.ErrorResourceInitFailed")) continue;
      const detail = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
      return { id: detail.getId(), properties: fromStruct(detail.getProperties()), reasons: detail.getReasonsList() };
    }
  } catch {
    // A malformed detail only loses the init-failure information; the error itself still stands.
  }
  return undefined;
}

type Method = "checkConfig" | "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";
type Unary = (req: unknown, callback: (err: grpcTypes.ServiceError | null, res: unknown) => void) => unknown;

export class ProviderClient {
  private readonly client: provrpcTypes.ResourceProviderClient;

  constructor(readonly address: string) {
    this.client = new provrpc.ResourceProviderClient(address, grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": 400 * 1024 * 1024,
    });
  }

  close(): void {
    this.client.close();
  }

  /** Waits until the host's server accepts connections. */
  async ready(timeoutMs = 10_000): Promise<void> {
    await new Promise<void>((resolve, reject) => this.client.waitForReady(Date.now() + timeoutMs, (err) => (err ? reject(err) : resolve())));
  }

  private call<Res>(method: Method, req: unknown): Promise<Res> {
    const fn = this.client[method] as unknown as Unary;
    return new Promise<Res>((resolve, reject) => {
      fn.call(this.client, req, (err, res) => (err ? reject(describe(err)) : resolve(res as Res)));
    });
  }

  /** CheckConfig; providers that do not implement it (the dynamic host) accept any configuration. */
  async checkConfig(ref: ResourceRef, news: PropertyMap): Promise<CheckResult> {
    const req = new provproto.CheckRequest().setUrn(ref.urn).setName(ref.name).setType(ref.type).setOlds(toStruct({})).setNews(toStruct(news));
    try {
      const res = await this.call<provprotoTypes.CheckResponse>("checkConfig", req);
      return { inputs: fromStruct(res.getInputs()), failures: failures(res) };
    } catch (e) {
      if (e instanceof ProviderError && e.unimplemented) return { inputs: news, failures: [] };
      throw e;
    }
  }

  /** Configure with the stack configuration: `args` carries the values (secrets wrapped), `variables` the plain strings. */
  async configure(ref: ResourceRef, args: PropertyMap, variables: Record<string, string>): Promise<ConfigureResult> {
    const req = new provproto.ConfigureRequest()
      .setArgs(toStruct(args))
      .setAcceptsecrets(true)
      .setAcceptresources(true)
      .setSendsOldInputs(true)
      .setSendsOldInputsToDelete(true)
      .setUrn(ref.urn)
      .setName(ref.name)
      .setType(ref.type);
    const vars = req.getVariablesMap();
    for (const [k, v] of Object.entries(variables)) vars.set(k, v);
    const res = await this.call<provprotoTypes.ConfigureResponse>("configure", req);
    return { acceptSecrets: res.getAcceptsecrets(), acceptResources: res.getAcceptresources(), supportsPreview: res.getSupportspreview() };
  }

  async check(ref: ResourceRef, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
    const req = new provproto.CheckRequest().setUrn(ref.urn).setName(ref.name).setType(ref.type).setOlds(toStruct(olds)).setNews(toStruct(news));
    const res = await this.call<provprotoTypes.CheckResponse>("check", req);
    return { inputs: fromStruct(res.getInputs()), failures: failures(res) };
  }

  async diff(ref: ResourceRef, id: string, oldInputs: PropertyMap, oldOutputs: PropertyMap, news: PropertyMap, ignoreChanges: string[]): Promise<DiffResult> {
    const req = new provproto.DiffRequest()
      .setId(id)
      .setUrn(ref.urn)
      .setName(ref.name)
      .setType(ref.type)
      .setOlds(toStruct(oldOutputs))
      .setOldInputs(toStruct(oldInputs))
      .setNews(toStruct(news))
      .setIgnorechangesList(ignoreChanges);
    const res = await this.call<provprotoTypes.DiffResponse>("diff", req);
    const C = provproto.DiffResponse.DiffChanges;
    const changes = res.getChanges();
    return {
      changes: changes === C.DIFF_SOME ? "some" : changes === C.DIFF_NONE ? "none" : "unknown",
      replaces: res.getReplacesList(),
      stables: res.getStablesList(),
      deleteBeforeReplace: res.getDeletebeforereplace(),
      diffs: res.getDiffsList(),
    };
  }

  async create(ref: ResourceRef, properties: PropertyMap, preview: boolean): Promise<{ id: string; properties: PropertyMap }> {
    const req = new provproto.CreateRequest().setUrn(ref.urn).setName(ref.name).setType(ref.type).setProperties(toStruct(properties)).setPreview(preview);
    const res = await this.call<provprotoTypes.CreateResponse>("create", req);
    return { id: res.getId(), properties: fromStruct(res.getProperties()) };
  }

  async read(ref: ResourceRef, id: string, properties: PropertyMap, inputs: PropertyMap): Promise<ReadResult> {
    const req = new provproto.ReadRequest().setId(id).setUrn(ref.urn).setName(ref.name).setType(ref.type).setProperties(toStruct(properties)).setInputs(toStruct(inputs));
    const res = await this.call<provprotoTypes.ReadResponse>("read", req);
    return { id: res.getId() ?? "", properties: fromStruct(res.getProperties()), inputs: res.hasInputs() ? fromStruct(res.getInputs()) : undefined };
  }

  async update(ref: ResourceRef, id: string, oldInputs: PropertyMap, oldOutputs: PropertyMap, news: PropertyMap, ignoreChanges: string[], preview: boolean): Promise<PropertyMap> {
    const req = new provproto.UpdateRequest()
      .setId(id)
      .setUrn(ref.urn)
      .setName(ref.name)
      .setType(ref.type)
      .setOlds(toStruct(oldOutputs))
      .setOldInputs(toStruct(oldInputs))
      .setNews(toStruct(news))
      .setIgnorechangesList(ignoreChanges)
      .setPreview(preview);
    const res = await this.call<provprotoTypes.UpdateResponse>("update", req);
    return fromStruct(res.getProperties());
  }

  async delete(ref: ResourceRef, id: string, oldInputs: PropertyMap, oldOutputs: PropertyMap): Promise<void> {
    const req = new provproto.DeleteRequest().setId(id).setUrn(ref.urn).setName(ref.name).setType(ref.type).setProperties(toStruct(oldOutputs)).setOldInputs(toStruct(oldInputs));
    await this.call<unknown>("delete", req);
  }
}

function failures(res: { getFailuresList(): provprotoTypes.CheckFailure[] }) {
  return res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
}
