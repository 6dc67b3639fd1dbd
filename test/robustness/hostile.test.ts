/**
 * A fixed catalogue of hostile inputs, tried on every endpoint of the table as the admin identity:
 * bodies past the 1 MiB limit (declared and chunked), deeply nested, malformed, of the wrong type or
 * media type, `__proto__`-laden; reserved words as path values and query keys; methods the API does
 * not have; request lines past Node's header limit and malformed HTTP. Every answer is 2xx or 4xx
 * with the spec's error body, never a hang, and a rejected request changes nothing. Then the
 * round-trip rules: free-form data keeps `__proto__`, `constructor` and `prototype` keys as plain
 * data (through the state file too), and nothing reaches Object.prototype.
 */
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyEndpoint } from "../../src/api/endpoint";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { protoPayload, seededPathValues } from "./arbitraries";
import { ENDPOINTS, MODE, pathOf, probe, prototypeKeys, seededKeys, startSeededEmulator, type RawRequest } from "./helpers";
import { Figures, report } from "./reliability";

let emu: TestEmulator;
let token: string;
let seeded: ReturnType<TestEmulator["store"]["snapshot"]>;
let knownNames: string[];
const figures = new Figures();
const prototypeBefore = prototypeKeys();

beforeAll(async () => {
  emu = await startSeededEmulator();
  token = await emu.token("admin");
  seeded = structuredClone(emu.store.snapshot());
  knownNames = seededKeys(emu.store);
});
afterAll(async () => {
  await emu?.close();
  report(__filename, MODE, figures);
});

const LIMIT = 1024 * 1024;
const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const json = "application/json";

interface Case {
  what: string;
  req: (ep: AnyEndpoint, path: string) => RawRequest;
  /** The statuses allowed besides "any 2xx or 4xx"; undefined: any 2xx or 4xx. */
  expect?: (ep: AnyEndpoint) => number[] | undefined;
}

const post = (ep: AnyEndpoint, path: string, body: string | Buffer, contentType = json, chunked = false): RawRequest => ({
  method: ep.method,
  path,
  headers: { "content-type": contentType },
  body,
  chunked,
});
const isJsonBody = (ep: AnyEndpoint) => ep.bodyKind === "json";
const paramNames = (ep: AnyEndpoint) => [...ep.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);

const CASES: Case[] = [
  {
    what: "a body one byte past 1 MiB (declared length) is 413",
    req: (ep, p) => post(ep, p, Buffer.alloc(LIMIT + 1, "a")),
    expect: (ep) => (ep.bodyKind === "multipart" ? undefined : [413]),
  },
  {
    what: "a chunked body past 1 MiB (no declared length) is 413",
    req: (ep, p) => post(ep, p, `{"name":"${"a".repeat(LIMIT)}"}`, json, true),
    expect: (ep) => (ep.bodyKind === "multipart" ? undefined : [413]),
  },
  { what: "10,000 levels of nested arrays", req: (ep, p) => post(ep, p, deep(10_000)), expect: (ep) => (ep.bodyKind === "multipart" ? undefined : [400, 415]) },
  { what: "a free-form field nested 10,000 levels deep", req: (ep, p) => post(ep, p, `{"name":"fuzz-z","payload":${deep(10_000)},"configuration":{"a":${deep(10_000)}}}`) },
  { what: "`__proto__`, `constructor` and `prototype` keys", req: (ep, p) => post(ep, p, JSON.stringify(protoPayload())) },
  { what: "malformed JSON", req: (ep, p) => post(ep, p, '{"name": "x",'), expect: (ep) => (isJsonBody(ep) ? [400] : undefined) },
  { what: "invalid UTF-8", req: (ep, p) => post(ep, p, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])) },
  { what: "an empty body", req: (ep, p) => post(ep, p, "") },
  { what: "a JSON null body", req: (ep, p) => post(ep, p, "null"), expect: (ep) => (isJsonBody(ep) && !ep.bodyOptional ? [400] : undefined) },
  { what: "a JSON array body", req: (ep, p) => post(ep, p, "[1,2,3]"), expect: (ep) => (isJsonBody(ep) ? [400] : undefined) },
  { what: "a number too large for a double", req: (ep, p) => post(ep, p, '{"name":1e999,"page_size":-1e999}') },
  { what: "JSON sent as text/xml", req: (ep, p) => post(ep, p, "{}", "text/xml"), expect: (ep) => (isJsonBody(ep) ? [415] : undefined) },
  { what: "a multipart body without a boundary", req: (ep, p) => post(ep, p, "--x\r\n\r\n", "multipart/form-data") },
  {
    what: "a multipart upload cut short (no closing boundary)",
    req: (ep, p) => post(ep, p, '--b42\r\ncontent-disposition: form-data; name="file"; filename="a.zip"\r\n\r\nPK\x03\x04', "multipart/form-data; boundary=b42"),
  },
  ...["__proto__", "constructor", "prototype", "..", "%2e%2e"].map((word): Case => ({
    what: `'${word}' as every path value`,
    req: (ep) => ({ method: ep.method, path: pathOf(ep, Object.fromEntries(paramNames(ep).map((k) => [k, word])), false) }),
  })),
  {
    what: "`__proto__` and `constructor` as query keys are 400 (unknown parameters)",
    req: (ep, p) => ({ method: ep.method, path: `${p}?__proto__=1&constructor=1&__proto__[polluted]=yes` }),
    expect: () => [400],
  },
  { what: "an invalid percent-encoding in the query", req: (ep, p) => ({ method: ep.method, path: `${p}?a=%E0%A4%A&%=%` }) },
  ...["PUT", "DELETE", "PATCH", "OPTIONS"].map((method): Case => ({
    what: `${method} is 405 naming the allowed method`,
    req: (_, p) => ({ method, path: p }),
    expect: () => [405],
  })),
];

describe("Hostile inputs on every endpoint: 2xx or 4xx with the spec's error body, never a hang, and a rejected request changes nothing", () => {
  // Each endpoint starts from the seeded state (restored directly: faster than reseeding over HTTP).
  beforeEach(() => emu.store.load(structuredClone(seeded)));

  test.each(ENDPOINTS.map((ep) => [`${ep.method} ${ep.path}`, ep] as const))("%s", async (_, ep) => {
    const failures: string[] = [];
    const path = pathOf(ep, seededPathValues(ep, knownNames));
    for (const c of CASES) {
      const req = c.req(ep, path);
      req.headers = { ...req.headers, authorization: `Bearer ${token}` };
      const { answer, problems } = await probe(emu, figures, req, { store: emu.store });
      failures.push(...problems.map((p) => `${c.what}: ${p}`));
      const allowed = c.expect?.(ep);
      if (answer && allowed && !allowed.includes(answer.status)) failures.push(`${c.what}: expected ${allowed.join(" or ")}, got ${answer.status} ${answer.text.slice(0, 200)}`);
      if (answer?.status === 405 && !String(answer.headers.allow ?? "").includes(ep.method)) failures.push(`${c.what}: the 405 has no Allow header naming ${ep.method}`);
    }
    expect(failures).toEqual([]);
  });
});

describe("HTTP-level abuse", () => {
  test("a request line past Node's 16 KiB header limit is 431 with the spec's error body", async () => {
    const { answer, problems } = await probe(emu, figures, {
      method: "GET",
      path: `/api/v4/assets/list?search=${"x".repeat(20_000)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(problems).toEqual([]);
    expect(answer!.status).toBe(431);
    expect((answer!.json as { errors: Array<{ message: string[] }> }).errors[0].message[0]).toMatch(/larger than the limit/);
  });

  test("malformed HTTP (a garbage request line) is 400 with the spec's error body", async () => {
    const { port } = new URL(emu.baseUrl);
    figures.requests++;
    const text = await new Promise<string>((resolve, reject) => {
      const s = net.connect(Number(port), "127.0.0.1", () => s.write("GARBAGE\x01 / HTTP/9.9\r\n\r\n"));
      let out = "";
      s.on("data", (d) => (out += d.toString()));
      s.on("end", () => resolve(out));
      s.on("error", reject);
      s.setTimeout(5000, () => reject(new Error("no answer to a malformed request")));
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) as { errors: Array<{ http_status_code: number }> };
    expect(body.errors[0].http_status_code).toBe(400);
  });

  test("the emulator keeps serving after all of the above", async () => {
    const { answer } = await probe(emu, figures, { method: "GET", path: "/api/v4/instance/status/get" });
    expect(answer!.status).toBe(200);
  });
});

describe("Validation messages let a person act", () => {
  test("a field of the wrong type names the type expected and the one received, not 'is required'", async () => {
    const { answer } = await probe(emu, figures, {
      method: "POST",
      path: "/api/v4/orchestration/clusters/create",
      headers: { authorization: `Bearer ${token}`, "content-type": json },
      body: '{"name":5}',
    });
    expect(answer!.status).toBe(400);
    expect(answer!.text).toMatch(/body\.name: expected string, received number/);
  });

  test("a missing field is 'is required'; deep nesting names the limit", async () => {
    const missing = await probe(emu, figures, {
      method: "POST",
      path: "/api/v4/assets/types/create",
      headers: { authorization: `Bearer ${token}`, "content-type": json },
      body: '{"name":"t"}',
    });
    expect(missing.answer!.text).toMatch(/body\.title: is required/);
    const nested = await probe(emu, figures, {
      method: "POST",
      path: "/api/v4/assets/fuzz-a/metadata/create",
      headers: { authorization: `Bearer ${token}`, "content-type": json },
      body: `{"name":"deep","payload":{"a":${deep(300)}}}`,
    });
    expect(nested.answer!.status).toBe(400);
    expect(nested.answer!.text).toMatch(/nested deeper than 256 levels/);
  });
});

describe("Deep nesting in free-form fields", () => {
  const FIELDS: Array<[string, (value: string) => string]> = [
    ["/assets/fuzz-a/metadata/create", (v) => `{"name":"deep","payload":{"a":${v}}}`],
    ["/acps/fuzz-a/metadata/create", (v) => `{"name":"deep","payload":{"a":${v}}}`],
    ["/datalabels/labels/fuzz-a/metadata/create", (v) => `{"name":"deep","payload":{"a":${v}}}`],
    ["/apps/workloads/create", (v) => `{"name":"deep","app_name":"fuzz-a","app_version":"1.0.0","cluster_name":"fuzz-a","runtime":{"configuration":{"a":${v}}}}`],
  ];

  test.each(FIELDS)("%s: 10,000 levels are 400 and change nothing; 200 levels are stored and read back", async (path, body) => {
    emu.store.load(structuredClone(seeded));
    const headers = { authorization: `Bearer ${token}`, "content-type": json };
    const tooDeep = await probe(emu, figures, { method: "POST", path: `/api/v4${path}`, headers, body: body(deep(10_000)) }, { store: emu.store });
    expect(tooDeep.problems).toEqual([]);
    expect(tooDeep.answer!.status).toBe(400);
    const fine = await probe(emu, figures, { method: "POST", path: `/api/v4${path}`, headers, body: body(deep(200)) });
    expect(fine.problems).toEqual([]);
    expect(fine.answer!.status).toBe(201);
    expect(fine.answer!.text).toContain(deep(200));
  });
});

describe("`__proto__`, `constructor` and `prototype`: data, never prototypes", () => {
  const PROTO_JSON = '{"__proto__":{"polluted":"yes","k":1},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"},"x":1}';
  const call = (e: TestEmulator, method: "GET" | "POST", path: string, raw?: string) => e.call(method, path, raw === undefined ? {} : { raw, contentType: json });

  /** Free-form fields carrying the keys, one per kind of record, and where each reads back. */
  async function writeProtoRecords(e: TestEmulator): Promise<Array<() => Promise<unknown>>> {
    const created = [
      await call(e, "POST", "/assets/fuzz-a/metadata/create", `{"name":"proto","payload":${PROTO_JSON}}`),
      await call(
        e,
        "POST",
        "/apps/workloads/create",
        `{"name":"proto-w","app_name":"fuzz-a","app_version":"1.0.0","cluster_name":"fuzz-a","runtime":{"configuration":${PROTO_JSON}}}`,
      ),
      await call(e, "POST", "/datalabels/labels/fuzz-a/metadata/create", `{"name":"proto","payload":${PROTO_JSON}}`),
    ];
    figures.requests += created.length;
    for (const c of created) expect(c.status).toBe(201);
    return [
      async () => JSON.parse((await call(e, "GET", "/assets/fuzz-a/metadata/proto/get")).text).payload,
      async () => JSON.parse((await call(e, "GET", "/apps/workloads/proto-w/get")).text).runtime.configuration,
      async () => JSON.parse((await call(e, "GET", "/datalabels/labels/fuzz-a/metadata/proto/get")).text).payload,
    ];
  }

  test("free-form data keeps the keys as plain data: read back equal, with the plain prototype", async () => {
    emu.store.load(structuredClone(seeded));
    for (const read of await writeProtoRecords(emu)) {
      const value = (await read()) as Record<string, unknown>;
      figures.requests++;
      expect(value).toEqual(JSON.parse(PROTO_JSON));
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value)).toEqual(["__proto__", "constructor", "prototype", "x"]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("the keys survive the state file: written, closed, reopened, read back equal", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-robust-proto-"));
    try {
      const file = join(dir, "state.json");
      const first = await startTestEmulator({ statePath: file });
      await first.post("/orchestration/clusters/create", { name: "fuzz-a" });
      const w = await call(first, "POST", "/assets/types/create", '{"name":"t","title":"T"}');
      const a = await call(first, "POST", "/assets/create", '{"name":"fuzz-a","title":"A","asset_type_name":"t"}');
      const m = await call(first, "POST", "/assets/fuzz-a/metadata/create", `{"name":"proto","payload":${PROTO_JSON}}`);
      figures.requests += 4;
      expect([w.status, a.status, m.status]).toEqual([201, 201, 201]);
      await first.close();
      const second = await startTestEmulator({ statePath: file });
      try {
        const back = await call(second, "GET", "/assets/fuzz-a/metadata/proto/get");
        figures.requests++;
        expect(JSON.parse(back.text).payload).toEqual(JSON.parse(PROTO_JSON));
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("`constructor` and `prototype` are ordinary names: created, read and listed; `__proto__` as a name or map key, and the unaddressable '.' and '..', are refused naming the field", async () => {
    emu.store.load(structuredClone(seeded));
    for (const n of ["constructor", "prototype"]) {
      const made = [
        await emu.post("/orchestration/clusters/create", { name: n }),
        await emu.post("/assets/types/create", { name: n, title: n }),
        await emu.post("/assets/create", { name: n, title: n, asset_type_name: n }),
        await emu.post("/datalabels/labels/create", { name: n, title: n }),
        await emu.post(`/assets/${n}/metadata/create`, { name: n, payload: { [n]: 1 } }),
      ];
      figures.requests += made.length;
      expect(made.map((m) => m.status)).toEqual([201, 201, 201, 201, 201]);
      expect((await emu.get(`/assets/${n}/get`)).body.metadata).toEqual({ [n]: { [n]: 1 } });
      expect((await emu.get(`/orchestration/clusters/${n}/get`)).body.name).toBe(n);
      figures.requests += 2;
    }
    expect(((await emu.get("/assets/list", { page_size: 100 })).body.data as Array<{ name: string }>).map((a) => a.name)).toEqual(
      expect.arrayContaining(["constructor", "prototype"]),
    );
    const refused: Array<[string, string, RegExp]> = [
      ["/orchestration/clusters/create", '{"name":"__proto__"}', /body\.name: '__proto__' is reserved/],
      ["/assets/create", '{"name":"x1","title":"X","asset_type_name":"fuzz-a","metadata":{"__proto__":{"k":1}}}', /body\.metadata\.__proto__: '__proto__' is reserved/],
      ["/assets/fuzz-a/metadata/create", '{"name":"__proto__","payload":{}}', /body\.name: '__proto__' is reserved/],
      // A record that URLs cannot address ("/clusters/../get" is "/get") is refused at creation.
      ["/orchestration/clusters/create", '{"name":".."}', /body\.name: '\.' and '\.\.' cannot be names/],
      ["/assets/types/create", '{"name":".","title":"Dot"}', /body\.name: '\.' and '\.\.' cannot be names/],
    ];
    for (const [path, raw, message] of refused) {
      const before = JSON.stringify(emu.store.snapshot());
      const a = await call(emu, "POST", path, raw);
      figures.requests++;
      expect(a.status).toBe(400);
      expect(a.text).toMatch(message);
      expect(JSON.stringify(emu.store.snapshot())).toBe(before);
    }
  });

  test("after every hostile input, plain objects have no `polluted` property and Object.prototype has no new keys", () => {
    const polluted = ({} as Record<string, unknown>).polluted !== undefined || prototypeKeys().join() !== prototypeBefore.join();
    if (polluted) figures.pollutedPrototypes++;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(prototypeKeys()).toEqual(prototypeBefore);
    expect(seededKeys(emu.store)).toContain("fuzz-a");
  });
});
