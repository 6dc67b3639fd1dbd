/**
 * The error catalog against the spec's errors section (kept as data in spec-errors.json) and against
 * the emulator's HTTP answers: every error the emulator answers carries an `error_code` of the
 * catalog whose kind has the answer's status, and `http_status_code` repeats that status.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { join } from "node:path";
import { areas, endpoints } from "../../src/api/endpoints";
import { ApiError, ErrorCode, errorKindOf, errors, type ErrorCodeName } from "../../src/api/errors";
import { startServer, type RunningServer } from "../../src/emulator/server";
import { Store } from "../../src/emulator/store/store";
import { useEmulator, type Answer, pathOf, type Json } from "../helpers/emulator";
import spec from "./spec-errors.json";

const kinds = Object.entries(errors) as Array<[ErrorCodeName, (typeof errors)[ErrorCodeName]]>;
const specStatuses = Object.keys(spec.statuses).map(Number);

/**
 * Statuses the spec's table does not list that the emulator answers at the HTTP level: a method the
 * path does not take (405), a request not received in time (408), a body or header past its limit
 * (413, 431), a content type the operation does not take (415), and the answers of fault injection
 * (429, 502, 503, 504).
 */
const HTTP_LEVEL = [405, 408, 413, 415, 429, 431, 502, 503, 504];

describe("the catalog", () => {
  test("each kind has its own code, and the code begins with the kind's HTTP status", () => {
    const codes = kinds.map(([, k]) => k.code);
    expect(new Set(codes).size).toBe(codes.length);
    const mismatched = kinds.filter(([, k]) => Math.floor(k.code / 100) !== k.status).map(([n, k]) => `${n}: code ${k.code}, status ${k.status}`);
    expect(mismatched).toEqual([]);
  });

  test("an error made from a kind carries the kind's code and status, in the spec's body", () => {
    for (const [name, k] of kinds) {
      const err = (k as (...args: unknown[]) => ApiError)("x", "y", "z");
      expect(err).toBeInstanceOf(ApiError);
      expect([err.status, err.code]).toEqual([k.status, k.code]);
      expect(ErrorCode[name]).toBe(k.code);
      expect(errorKindOf(k.code)).toBe(name);
      const entry = err.toBody().errors[0];
      expect(Object.keys(entry).sort()).toEqual([...spec.errorEntryFields].sort());
      expect(entry.http_status_code).toBe(k.status);
      expect(entry.message.length).toBeGreaterThan(0);
    }
  });

  test("every error status the spec lists has a kind", () => {
    const statuses = new Set(kinds.map(([, k]) => k.status));
    expect(specStatuses.filter((s) => s >= 400 && !statuses.has(s))).toEqual([]);
  });

  test("every kind's status is one the spec lists or one the emulator answers at the HTTP level", () => {
    const allowed = new Set([...specStatuses, ...HTTP_LEVEL]);
    expect(kinds.filter(([, k]) => !allowed.has(k.status)).map(([n, k]) => `${n} (${k.status})`)).toEqual([]);
  });

  test("every error status an endpoint of the table declares has a kind", () => {
    const statuses = new Set(kinds.map(([, k]) => k.status));
    const missing = endpoints.flatMap((ep) => ep.errors.filter((s) => s >= 400 && !statuses.has(s)).map((s) => `${ep.id}: ${s}`));
    expect(missing).toEqual([]);
  });

  test("no emulator source pairs a status and a code by hand: errors are made from the catalog", () => {
    const root = join(__dirname, "../../src/emulator");
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => {
        const p = join(dir, f);
        return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
      });
    const offenders = files(root).filter((f) => /new ApiError\(/.test(readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });
});

/** The answer's kind, checked against the answer: the code's kind has the HTTP status, and the body repeats it. */
function kindOfAnswer(status: number, body: unknown): ErrorCodeName | string {
  const entry = (body as { errors?: Array<{ error_code: number; http_status_code: number }> })?.errors?.[0];
  if (!entry) return `no error body (status ${status})`;
  const name = errorKindOf(entry.error_code);
  if (!name) return `error_code ${entry.error_code} is not in the catalog`;
  if (errors[name].status !== status) return `error_code ${entry.error_code} (${name}, status ${errors[name].status}) answered with status ${status}`;
  if (entry.http_status_code !== status) return `http_status_code ${entry.http_status_code} on a ${status} answer`;
  return name;
}

const kindOf = (a: Answer) => kindOfAnswer(a.status, a.body);

/** Sends raw bytes and reads the whole answer (the server closes the connection after an HTTP-level error). */
function rawExchange(baseUrl: string, send: (socket: net.Socket) => void): Promise<{ status: number; body: unknown }> {
  const { port, hostname } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(port), hostname, () => send(s));
    let out = "";
    s.on("data", (d) => (out += d.toString("latin1")));
    s.on("end", () => {
      const m = /^HTTP\/1\.1 (\d{3}) /.exec(out);
      if (!m) return reject(new Error(`not an HTTP answer: ${out.slice(0, 200)}`));
      resolve({ status: Number(m[1]), body: JSON.parse(out.slice(out.indexOf("\r\n\r\n") + 4)) });
    });
    s.on("error", reject);
    s.setTimeout(5000, () => reject(new Error("no answer")));
  });
}

describe("the HTTP answers", () => {
  const emu = useEmulator();

  test("request-level errors carry the kind of their status", async () => {
    const json = "application/json";
    expect(kindOf(await emu.post(pathOf(areas.clusters.create), { name: "Not Valid" }))).toBe("VALIDATION_FAILED");
    expect(kindOf(await emu.call("POST", pathOf(areas.clusters.create), { raw: "{", contentType: json }))).toBe("MALFORMED_BODY");
    expect(kindOf(await emu.get(pathOf(areas.clusters.list), undefined, { as: "none" }))).toBe("UNAUTHORIZED");
    expect(kindOf(await emu.post(pathOf(areas.clusters.create), { name: "a" }, { as: "viewer" }))).toBe("FORBIDDEN");
    expect(kindOf(await emu.get(pathOf(areas.clusters.get, { cluster_name: "nope" })))).toBe("NOT_FOUND");
    expect(kindOf(await emu.get("/no/such/operation"))).toBe("ROUTE_NOT_FOUND");
    expect(kindOf(await emu.get("/orchestration/clusters/create"))).toBe("METHOD_NOT_ALLOWED");
    expect(kindOf(await emu.call("POST", pathOf(areas.clusters.create), { raw: "name=a", contentType: "text/plain" }))).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(kindOf(await emu.call("POST", pathOf(areas.clusters.create), { raw: `"${"x".repeat(1024 * 1024)}"`, contentType: json }))).toBe("PAYLOAD_TOO_LARGE");
    const login = await fetch(`${emu.baseUrl}/auth/realms/svc/protocol/openid-connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=password&username=admin%40example.com&password=wrong&client_id=svc-cli",
    });
    expect(kindOfAnswer(login.status, await login.json())).toBe("INVALID_GRANT");
  });

  test("the rules of the areas answer their kinds: 409, 412, 424, 406, 501", async () => {
    await emu.post(pathOf(areas.clusters.create), { name: "plant" });
    expect(kindOf(await emu.post(pathOf(areas.clusters.create), { name: "plant" }))).toBe("CONFLICT");
    expect((await emu.post(pathOf(areas.apps.create), { name: "sim", title: "Sim", description: "d", type: "app", version: "1.0.0" })).status).toBe(201);
    const workload = (name: string, extra: Record<string, unknown> = {}) =>
      emu.post(pathOf(areas.workloads.create), { name, app_name: "sim", app_version: "1.0.0", cluster_name: "plant", ...extra });
    expect((await workload("w1")).status).toBe(201);
    expect(kindOf(await emu.get(pathOf(areas.workloads.download, { workload_name: "w1" }), { expires: 1000 }))).toBe("PRECONDITION_FAILED");
    expect((await workload("pending", { enabled: false })).status).toBe(201);
    expect(kindOf(await emu.get(pathOf(areas.workloads.logs, { workload_name: "pending" })))).toBe("FAILED_DEPENDENCY");
    expect(kindOf(await emu.post(pathOf(areas.legacyWorkloads.apply), { workload_names: ["w1"] }))).toBe("NOT_ACCEPTABLE");
    expect((await emu.post(pathOf(areas.appregistry.create), { payload: { name: "box", version: "3.0.0", type: "docker" } })).status).toBe(201);
    expect((await emu.post(pathOf(areas.legacyWorkloads.deploy), { name: "boxed", app_name: "box", cluster_name: "plant" })).status).toBe(201);
    expect(kindOf(await emu.get(pathOf(areas.legacyWorkloads.configurationsGet, { workload_name: "boxed" })))).toBe("NOT_IMPLEMENTED");
  });

  test("injected faults carry the kind of their status", async () => {
    const expected: Record<number, ErrorCodeName> = { 429: "TOO_MANY_REQUESTS", 500: "INTERNAL", 502: "BAD_GATEWAY", 503: "UNAVAILABLE", 504: "GATEWAY_TIMEOUT" };
    try {
      for (const [status, name] of Object.entries(expected)) {
        const set = await fetch(`${emu.baseUrl}/emulator/faults`, { method: "POST", body: JSON.stringify({ rate: 1, statuses: [Number(status)], paths: ["/api/v4/instance/*"] }) });
        expect(set.status).toBe(200);
        expect(kindOf(await emu.get(pathOf(areas.instance.statusGet)))).toBe(name);
      }
    } finally {
      await fetch(`${emu.baseUrl}/emulator/faults`, { method: "POST", body: JSON.stringify({ rate: 0 }) });
    }
  });

  test("a '.' or '..' path segment is refused naming it, instead of reaching the operation the folded path names", async () => {
    expect((await emu.send(areas.datalabels.labelCreate, { body: { name: "anomaly", title: "Anomaly" } })).status).toBe(201);
    const token = await emu.token("admin");
    const sendAsIs = (path: string) =>
      new Promise<{ status: number; body: Json }>((resolve, reject) => {
        const { hostname, port } = new URL(emu.baseUrl);
        // Options, not a URL: a URL would be folded before it is sent.
        const req = http.get({ hostname, port, path, agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
          let text = "";
          res.on("data", (d: Buffer) => (text += d.toString("utf8")));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on("error", reject);
      });
    // Folded, each would read the label itself (labelGet) as if it were a metadata record.
    for (const seg of ["..", "%2e%2e", "%2E.", "."]) {
      const a = await sendAsIs(`/api/v4/datalabels/labels/anomaly/metadata/${seg}/get`);
      expect([a.status, kindOfAnswer(a.status, a.body)]).toEqual([400, "BAD_REQUEST"]);
      expect(a.body.errors[0].message.join(" ")).toContain(`path: the segment '${seg}' cannot name anything`);
    }
    // Names that merely contain dots are names.
    expect((await sendAsIs("/api/v4/datalabels/labels/anomaly/metadata/.../get")).status).toBe(404);
  });

  test("requests the HTTP parser refuses carry the kind of their status: 400, 431", async () => {
    const garbage = await rawExchange(emu.baseUrl, (s) => s.write("GARBAGE\x01 / HTTP/9.9\r\n\r\n"));
    expect(kindOfAnswer(garbage.status, garbage.body)).toBe("BAD_REQUEST");
    const long = await rawExchange(emu.baseUrl, (s) => s.write(`GET /api/v4/assets/list?search=${"x".repeat(20_000)} HTTP/1.1\r\nhost: x\r\n\r\n`));
    expect(kindOfAnswer(long.status, long.body)).toBe("HEADERS_TOO_LARGE");
  });
});

describe("a request not received in time", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer({ store: new Store(), log: () => undefined });
  });
  afterAll(() => running.close());

  test("is answered 408 with the REQUEST_TIMEOUT kind", async () => {
    // Node raises ERR_HTTP_REQUEST_TIMEOUT on a connection whose request is still incomplete after
    // the server's request timeout (minutes); the server's handler of that event answers it.
    const connected = new Promise<net.Socket>((resolve) => running.server.once("connection", resolve));
    const answer = rawExchange(running.baseUrl, (s) => s.write("GET /api/v4/instance/status/get HTTP/1.1\r\nhost: x\r\n"));
    const serverSide = await connected;
    running.server.emit("clientError", Object.assign(new Error("Request timeout"), { code: "ERR_HTTP_REQUEST_TIMEOUT" }), serverSide);
    const { status, body } = await answer;
    expect(status).toBe(408);
    expect(kindOfAnswer(status, body)).toBe("REQUEST_TIMEOUT");
  });
});
