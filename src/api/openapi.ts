/** The OpenAPI 3.1 document, generated from the endpoint table (`npm run openapi` writes schema/openapi.json). */
import { z } from "zod";
import { errorBody, multiStatusBody, part1Shapes } from "./common";
import { isOutsideApiRoot, type AnyEndpoint } from "./endpoint";
import { endpoints } from "./endpoints";

type Json = Record<string, unknown>;

function schemaOf(s: z.ZodType): Json {
  const out = z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Json;
  delete out.$schema;
  return out;
}

const MEDIA: Record<string, string> = {
  json: "application/json",
  binary: "application/octet-stream",
  ndjson: "application/x-json-stream",
  text: "text/plain",
  yaml: "application/yaml",
};

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted: the package is queued or being built",
  204: "No Content",
  207: "Multi-Status: some items failed",
  400: "Bad request: the message names the field and what is allowed",
  401: "Unauthorized: missing, malformed, wrongly signed or expired token",
  403: "Forbidden: the token lacks the operation's permission",
  404: "Not found",
  405: "Method not allowed",
  406: "Not acceptable",
  409: "Conflict",
  412: "Precondition failed",
  413: "Body too large",
  424: "Failed dependency",
  500: "Internal server error",
  501: "Not implemented",
};

function operation(ep: AnyEndpoint): Json {
  const parameters: Json[] = [];
  const add = (where: "path" | "query", s: z.ZodType | undefined) => {
    if (!s) return;
    const js = schemaOf(s) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(js.properties ?? {})) {
      const isArray = schema.type === "array";
      parameters.push({
        name: isArray ? `${name}[]` : name,
        in: where,
        required: where === "path" || (js.required ?? []).includes(name),
        schema,
        ...(isArray ? { style: "form", explode: true } : {}),
      });
    }
  };
  add("path", ep.params);
  add("query", ep.query);

  const op: Json = {
    operationId: ep.id,
    summary: ep.summary,
    tags: ep.tags,
    "x-permission": ep.permission ? `svc.permission.${ep.permission}` : null,
    "x-source": ep.source,
    ...(ep.list ? { "x-list-convention": ep.list } : {}),
    ...(parameters.length ? { parameters } : {}),
    security: ep.permission ? [{ bearer: [] }] : [],
  };
  if (isOutsideApiRoot(ep)) op.servers = [{ url: "{base_url}", variables: { base_url: { default: "http://127.0.0.1:4010" } } }];

  if (ep.body || ep.bodyKind === "multipart") {
    const content: Json = {};
    if (ep.bodyKind === "multipart") {
      content["multipart/form-data"] = { schema: { type: "object", properties: { file: { type: "string", contentMediaType: "application/octet-stream" } }, required: ["file"] } };
    } else if (ep.body) {
      const schema = schemaOf(ep.body);
      if (ep.bodyKind === "form") content["application/x-www-form-urlencoded"] = { schema };
      content["application/json"] = { schema };
    }
    op.requestBody = { required: !ep.bodyOptional, content };
  }

  const responses: Json = {};
  const s = ep.success;
  if (s.kind === "empty") responses[String(s.status)] = { description: STATUS_TEXT[s.status] ?? "Success" };
  else {
    const media: Json = {};
    const shapes = ep.list && s.body ? part1Shapes(s.body) : undefined;
    if (s.body && shapes) {
      media[ep.list === "part1" ? "application/json-cursor" : "application/json"] = { schema: schemaOf(s.body) };
      media["application/x-json-limits"] = { schema: schemaOf(shapes.limits) };
      media["application/x-json-stream"] = { schema: { ...schemaOf(shapes.item), description: "newline-delimited JSON: each line is one item of this shape" } };
    } else {
      media[MEDIA[s.kind] ?? "application/json"] = { schema: s.body ? schemaOf(s.body) : { type: "string", format: "binary" } };
    }
    responses[String(s.status)] = { description: STATUS_TEXT[s.status] ?? "Success", content: media };
  }
  for (const code of ep.errors) {
    if (code === 207) {
      responses["207"] = { description: STATUS_TEXT[207], content: { "application/json": { schema: { $ref: "#/components/schemas/MultiStatus" } } } };
      continue;
    }
    if (code === 202) {
      responses["202"] = { description: STATUS_TEXT[202] };
      continue;
    }
    responses[String(code)] = { description: STATUS_TEXT[code] ?? "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
  }
  op.responses = responses;
  return op;
}

export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const ep of endpoints) {
    const item = (paths[ep.path] ??= {});
    item[ep.method.toLowerCase()] = operation(ep);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Platform HTTP API",
      version: "4.0.0",
      description:
        "Generated from the endpoint table of pulumi-svc. Every operation but the token endpoints and /instance/status/get needs a bearer token holding the permission named in x-permission.",
    },
    servers: [{ url: "{base_url}/api/v4", variables: { base_url: { default: "http://127.0.0.1:4010" } } }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: { Error: schemaOf(errorBody), MultiStatus: schemaOf(multiStatusBody) },
    },
    paths,
  };
}
