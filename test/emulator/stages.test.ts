/**
 * The request stages of the emulator's server (src/emulator/stages.ts), each on its own: parse,
 * route, authenticate, read the body, validate, transact and reply. The server tests (errors.test.ts
 * and every area's tests) take requests through all of them over HTTP.
 */
import { PassThrough } from "node:stream";
import type { IncomingMessage } from "node:http";
import { assets } from "../../src/api/assets";
import { endpoints } from "../../src/api/endpoints";
import { ApiError } from "../../src/api/errors";
import { Auth, BUILTIN_USERS } from "../../src/emulator/areas/auth/model";
import { allRoutes } from "../../src/emulator/areas";
import { JSON_LIMIT } from "../../src/emulator/body";
import { route, RolledBack, systemContext, type Handler } from "../../src/emulator/handler";
import { Refusal, apiRouter, authenticate, errorReply, parseRequest, readRequestBody, replyOf, requestIdOf, transact, validBody, validateRequest } from "../../src/emulator/stages";
import { Store } from "../../src/emulator/store/store";
import { TABLES } from "../../src/emulator/store/tables";

/** A request carrying `body` (with its Content-Length), as the HTTP server hands it to the stages. */
function requestOf(body: string | undefined, headers: Record<string, string> = {}): IncomingMessage {
  const stream = new PassThrough();
  const req = Object.assign(stream, {
    headers: body === undefined ? headers : { "content-length": String(Buffer.byteLength(body)), "content-type": "application/json", ...headers },
    method: "POST",
    url: "/",
  });
  stream.end(body);
  return req as unknown as IncomingMessage;
}

/** What a stage threw, as the status and message it is answered with. */
function refusalOf(run: () => unknown): { status: number; message: string; headers?: Record<string, string> } {
  try {
    run();
  } catch (e) {
    if (e instanceof ApiError || e instanceof Refusal) {
      const reply = errorReply(e);
      return { status: reply.status, message: (e instanceof Refusal ? e.error : e).messages.join(" "), headers: reply.headers };
    }
    throw e;
  }
  throw new Error("the stage did not refuse the request");
}

describe("parse", () => {
  test("a request's id is the caller's x-request-id when it is a plain token, else a new one", () => {
    expect(requestIdOf({ headers: { "x-request-id": "ci-run.42" } })).toBe("ci-run.42");
    const made = requestIdOf({ headers: { "x-request-id": "two words" } });
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("the path, the query and the method come from the request target", () => {
    const parsed = parseRequest({ headers: {}, url: "/api/v4/assets/list?names=a", method: "get" }, "id-1");
    expect(parsed).toMatchObject({ requestId: "id-1", path: "/api/v4/assets/list", method: "GET" });
    expect(parsed.url.searchParams.get("names")).toBe("a");
  });

  test("a '.' or '..' segment, percent-encoded or not, is refused with 400 naming it", () => {
    for (const seg of ["..", "%2e%2E", "."]) {
      const refused = refusalOf(() => parseRequest({ headers: {}, url: `/api/v4/acps/a/metadata/${seg}/get`, method: "GET" }, "id"));
      expect(refused.status).toBe(400);
      expect(refused.message).toContain(`the segment '${seg}'`);
    }
  });
});

describe("route", () => {
  const router = apiRouter(endpoints, allRoutes());

  test("a path of the table finds its endpoint's route with the path values", () => {
    const routed = router.find("GET", "/api/v4/assets/class/pumps/get");
    expect(routed.kind).toBe("endpoint");
    if (routed.kind !== "endpoint") return;
    expect(routed.route.endpoint.id).toBe("assets.classGet");
    expect(routed.pathValues).toEqual({ asset_class_name: "pumps" });
  });

  test("the OpenAPI document has a route of its own", () => {
    expect(router.find("GET", "/api/v4/openapi.json")).toEqual({ kind: "openapi" });
  });

  test("another method on a known path is refused with 405 and the methods it takes in `allow`", () => {
    const refused = refusalOf(() => router.find("PUT", "/api/v4/assets/class/create"));
    expect(refused.status).toBe(405);
    expect(refused.headers).toEqual({ allow: "POST" });
  });

  test("an unknown path is refused with 404", () => {
    expect(refusalOf(() => router.find("GET", "/api/v4/no/such/thing")).status).toBe(404);
  });

  test("an endpoint no area handles answers 501 naming it", () => {
    const only = apiRouter(endpoints, []);
    const routed = only.find("POST", "/api/v4/assets/class/create");
    if (routed.kind !== "endpoint") throw new Error("not routed");
    const refused = refusalOf(() => routed.route.handler(systemContext({ params: {}, query: {}, body: {} }, { store: new Store(), auth: undefined as never, baseUrl: "" }, 0)));
    expect(refused.status).toBe(501);
    expect(refused.message).toContain("POST /assets/class/create");
  });
});

describe("authenticate", () => {
  const store = new Store();
  const auth = new Auth(store, () => "http://emulator/auth/realms/svc");
  const bearer = (user: string) => ({ authorization: `Bearer ${auth.issue(BUILTIN_USERS[user].identity).access_token}` });
  const url = new URL("http://emulator/api/v4/assets/class/create");

  test("a token holding the endpoint's permission names its user", () => {
    expect(authenticate(auth, assets.classCreate, { headers: bearer("admin@example.com") }, url).username).toBe("admin@example.com");
  });

  test("a token without the permission is refused with 403 naming the permission", () => {
    const refused = refusalOf(() => authenticate(auth, assets.classCreate, { headers: bearer("viewer@example.com") }, url));
    expect(refused.status).toBe(403);
    expect(refused.message).toContain("svc.permission.asset_class.create");
  });

  test("no token is refused with 401", () => {
    expect(refusalOf(() => authenticate(auth, assets.classCreate, { headers: {} }, url)).status).toBe(401);
  });
});

describe("read the body", () => {
  test("a request announcing no body has none, without waiting for one", async () => {
    expect((await readRequestBody(requestOf(undefined), assets.classCreate)).length).toBe(0);
  });

  test("the body's bytes are read whole", async () => {
    expect((await readRequestBody(requestOf('{"name":"pumps"}'), assets.classCreate)).toString()).toBe('{"name":"pumps"}');
  });

  test("a body past the endpoint's limit is refused with 413 and the connection closed", async () => {
    const big = "x".repeat(JSON_LIMIT + 1);
    const refused = await readRequestBody(requestOf(big), assets.classCreate).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(Refusal);
    expect(errorReply(refused as Refusal)).toMatchObject({ status: 413, headers: { connection: "close" } });
  });
});

describe("validate", () => {
  const url = new URL("http://emulator/api/v4/assets/class/create");

  test("the body is checked against the endpoint's schema; a field it does not take is refused naming it", async () => {
    const raw = Buffer.from('{"name":"pumps","title":"Pumps","colour":"red"}');
    const failed = await validateRequest(assets.classCreate, {}, url, requestOf(raw.toString()), raw).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).status).toBe(400);
    expect((failed as ApiError).messages.join(" ")).toContain("colour");
  });

  test("a valid request's parts come out as the schemas type them", async () => {
    const raw = Buffer.from('{"name":"pumps","title":"Pumps"}');
    const parts = await validateRequest(assets.classCreate, {}, url, requestOf(raw.toString()), raw);
    expect(parts).toMatchObject({ body: { name: "pumps", title: "Pumps" }, files: [] });
  });

  test("a body nested past the limit is refused", () => {
    let deep: unknown = {};
    for (let i = 0; i < 300; i += 1) deep = { a: deep };
    const ep = endpoints.find((e) => e.id === "assets.metadataCreate")!;
    expect(refusalOf(() => validBody(ep, { name: "m", payload: deep })).message).toContain("nested deeper than");
  });
});

describe("transact and reply", () => {
  const ctx = (store: Store) =>
    systemContext({ params: {}, query: {}, body: { name: "pumps", title: "Pumps" } }, { store, auth: undefined as never, baseUrl: "" }, Date.UTC(2026, 0, 1));

  test("a write and its audit entry land in one transaction, and its changes are handed on to be published", () => {
    const store = new Store();
    const classCreate = allRoutes().find((r) => r.endpoint.id === "assets.classCreate")!;
    const done = transact(store, classCreate, ctx(store));
    if ("rolledBack" in done) throw new Error("rolled back");
    expect(done.result).toMatchObject({ name: "pumps", title: "Pumps" });
    const tables = done.changes.map((c) => c.table);
    expect(tables).toEqual(expect.arrayContaining([TABLES.assetClasses, TABLES.auditLog]));
  });

  test("a handler that rolls back answers its reply and leaves nothing changed", () => {
    const store = new Store();
    const rolled = route(assets.classCreate, (c) => {
      c.store.table(TABLES.assetClasses).put("x", { name: "x" });
      throw new RolledBack({ status: 200, body: { dry_run: true } });
    });
    const done = transact(store, rolled, ctx(store));
    expect(done).toEqual({ rolledBack: { status: 200, body: { dry_run: true } } });
    expect(store.table(TABLES.assetClasses).has("x")).toBe(false);
  });

  test("a result is sent with the endpoint's success status; a Reply as it is; an empty endpoint with no body", () => {
    expect(replyOf(assets.classCreate, { name: "pumps" })).toEqual({ status: 201, body: { name: "pumps" } });
    expect(replyOf(assets.classCreate, { status: 202, headers: { a: "b" } })).toEqual({ status: 202, headers: { a: "b" } });
    const empty = endpoints.find((e) => e.success.kind === "empty")!;
    expect(replyOf(empty, undefined)).toEqual({ status: empty.success.status });
  });

  test("a handler's answer is typed by its endpoint's success schema", () => {
    // A class answered without its title does not compile; nor does an answer of another record.
    // @ts-expect-error the success schema requires `title`
    const missing: Handler<typeof assets.classCreate> = () => ({ name: "pumps", created: "", updated: "" });
    const right: Handler<typeof assets.classCreate> = () => ({ name: "pumps", title: "Pumps", created: "", updated: "" });
    const reply: Handler<typeof assets.classCreate> = () => ({ status: 409, body: { errors: [] } });
    expect([missing, right, reply]).toHaveLength(3);
  });
});
