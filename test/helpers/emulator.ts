/**
 * Test access to a real emulator over HTTP. Every test talks to the server through requests; the
 * store is read only to check what a request did (or did not) change. `useEmulator` registers the
 * start, close and per-test reset (and seeding) a test file needs; `send` addresses an operation by
 * its row of the endpoint table, its path values checked against the row's path at compile time.
 */
import type { z } from "zod";
import { fillPath, type AnyEndpoint, type Endpoint } from "../../src/api/endpoint";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../src/emulator";

/**
 * A JSON answer as the tests read it: field by field, each checked by an expectation. (Typing every
 * answer's body would repeat the endpoint's success schema, which the fuzz checks every 2xx body against.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Answer<T = Json> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export type Who = "admin" | "viewer" | "service" | "none" | { token: string };

export interface CallOptions {
  body?: unknown;
  /** Query parameters; arrays are sent as repeated `key[]` entries. */
  query?: Record<string, string | number | boolean | Array<string | number | boolean> | undefined>;
  as?: Who;
  headers?: Record<string, string>;
  /** Raw body (sent as is, with the given content type). */
  raw?: string | Buffer | FormData;
  contentType?: string;
}

/** The path values of an endpoint's row: one per `{param}` of its path. */
export type PathValues<E extends AnyEndpoint> =
  E extends Endpoint<infer P> ? ([z.ZodType] extends [P] ? Record<never, never> : { [K in keyof z.input<P>]: string | number }) : never;

/** A request to one operation of the table: its path values, and the rest as `call` takes it. */
export type SendOptions<E extends AnyEndpoint> = CallOptions & ([keyof PathValues<E>] extends [never] ? { params?: PathValues<E> } : { params: PathValues<E> });

/** The path of an operation relative to the API root (as `call` takes it), its values percent-encoded in full. */
export function pathOf<E extends AnyEndpoint>(ep: E, ...params: [keyof PathValues<E>] extends [never] ? [] : [PathValues<E>]): string {
  return fillPath(ep, params[0]);
}

export interface TestEmulator extends Emulator {
  call<T = Json>(method: "GET" | "POST", path: string, opts?: CallOptions): Promise<Answer<T>>;
  /** Calls the operation `ep` of the table: its method, its path with `params` filled in. */
  send<T = Json, E extends AnyEndpoint = AnyEndpoint>(ep: E, opts?: SendOptions<E>): Promise<Answer<T>>;
  post<T = Json>(path: string, body?: unknown, opts?: CallOptions): Promise<Answer<T>>;
  get<T = Json>(path: string, query?: CallOptions["query"], opts?: CallOptions): Promise<Answer<T>>;
  token(who: Exclude<Who, "none" | { token: string }>): Promise<string>;
  /** Empties the emulator through POST /emulator/reset (tokens stay valid). */
  reset(): Promise<void>;
}

const CREDENTIALS = {
  admin: { grant_type: "password", username: "admin@example.com", password: "admin", client_id: "svc-cli" },
  viewer: { grant_type: "password", username: "viewer@example.com", password: "viewer", client_id: "svc-cli" },
  service: { grant_type: "client_credentials", client_id: "svc-admin", client_secret: "svc-admin-secret" },
} as const;

export function queryString(query: CallOptions["query"]): string {
  if (!query) return "";
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) p.append(`${k}[]`, String(x));
    else p.append(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

/**
 * Reads until `done` holds for what `read` answers, and returns that: for the emulator's background
 * work (staged versions applied once downloaded, schedules falling due), which its ticker does a
 * moment after the emulator's clock says it is due. Fails naming `what` after `timeoutMs`.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not the case after ${timeoutMs} ms; last read ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A fetch response read as the tests read answers: JSON bodies parsed (streams and other bodies as text). */
export async function answerOf<T = Json>(res: Response): Promise<Answer<T>> {
  const text = await res.text();
  let parsed: unknown = text;
  const type = res.headers.get("content-type") ?? "";
  if (text && /json/.test(type) && !/x-json-stream/.test(type)) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emu = await startEmulator({ log: () => undefined, ...options });
  const tokens = new Map<string, string>();

  async function token(who: "admin" | "viewer" | "service"): Promise<string> {
    const cached = tokens.get(who);
    if (cached) return cached;
    const res = await fetch(`${emu.baseUrl}/auth/realms/svc/protocol/openid-connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(CREDENTIALS[who] as Record<string, string>).toString(),
    });
    if (res.status !== 200) throw new Error(`login as ${who} failed: ${res.status} ${await res.text()}`);
    const t = ((await res.json()) as { access_token: string }).access_token;
    tokens.set(who, t);
    return t;
  }

  async function call<T>(method: "GET" | "POST", path: string, opts: CallOptions = {}): Promise<Answer<T>> {
    const who = opts.as ?? "admin";
    const headers: Record<string, string> = { accept: "application/json", ...(opts.headers ?? {}) };
    if (who !== "none") headers.authorization = `Bearer ${typeof who === "object" ? who.token : await token(who)}`;
    let body: string | Buffer | FormData | undefined;
    if (opts.raw !== undefined) {
      body = opts.raw;
      if (opts.contentType) headers["content-type"] = opts.contentType;
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] = "application/json";
    }
    const url = `${emu.baseUrl}${path.startsWith("/auth/realms/") || path.startsWith("/emulator/") || path === "/metadata" ? "" : "/api/v4"}${path}${queryString(opts.query)}`;
    return answerOf<T>(await fetch(url, { method, headers, body: body as RequestInit["body"] }));
  }

  return {
    ...emu,
    call,
    token,
    send: (ep, opts) => call(ep.method, fillPath(ep, opts?.params), opts),
    post: (path, body, opts) => call("POST", path, { ...opts, body }),
    get: (path, query, opts) => call("GET", path, { ...opts, query }),
    reset: async () => {
      const res = await fetch(`${emu.baseUrl}/emulator/reset`, { method: "POST" });
      if (res.status !== 204) throw new Error(`reset failed: ${res.status}`);
    },
  };
}

type FixtureDocument = Exclude<EmulatorOptions["seed"], string | undefined>;
type MakeRecords = (emu: TestEmulator) => Promise<void> | void;
/** A fixture (a file path or a document), a function making records once the emulator runs, or both. */
export type Seed = string | FixtureDocument | MakeRecords | { fixture?: string | FixtureDocument; records?: MakeRecords };

function seedParts(seed: Seed | undefined): { fixture?: string | FixtureDocument; records?: MakeRecords } {
  if (seed === undefined) return {};
  if (typeof seed === "function") return { records: seed };
  if (typeof seed === "string") return { fixture: seed };
  const keys = Object.keys(seed);
  if (keys.length > 0 && keys.every((k) => k === "fixture" || k === "records")) return seed;
  return { fixture: seed };
}

export interface UseEmulatorOptions {
  /**
   * What every test starts from: a fixture (loaded at the start) and/or records made once the
   * emulator runs. The state is recorded once and put back before each test. Without a seed each
   * test starts from an empty emulator.
   */
  seed?: Seed;
  /** Options of the emulator (clock, token lifetimes, ...). */
  options?: EmulatorOptions;
  /** False: the state is left as the previous test left it (for files that only read the seed). Default true. */
  reset?: boolean;
  /** Starts (and seeds) the emulator; default startTestEmulator(options). The state it leaves is put back before each test, as a seed's. */
  start?: (options: EmulatorOptions) => Promise<TestEmulator>;
}

/**
 * Registers, in the calling scope, the start of an emulator (beforeAll), its close (afterAll) and
 * its reset to the seed before each test (beforeEach). Answers the emulator; its members may be used
 * from the hooks and tests on, once it runs.
 */
export function useEmulator(opts: UseEmulatorOptions = {}): TestEmulator {
  let current: TestEmulator | undefined;
  let seeded: ReturnType<Emulator["store"]["snapshot"]> | undefined;
  const { fixture, records } = seedParts(opts.seed);

  beforeAll(async () => {
    const options: EmulatorOptions = { ...opts.options, ...(fixture !== undefined ? { seed: fixture } : {}) };
    current = await (opts.start ?? startTestEmulator)(options);
    if (records) await records(current);
    if ((opts.seed !== undefined || opts.start !== undefined) && opts.reset !== false) {
      // The token signing key is part of the state: made before the record, tokens stay valid across tests.
      await current.token("admin");
      seeded = structuredClone(current.store.snapshot());
    }
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  if (opts.reset !== false) {
    beforeEach(async () => {
      if (seeded) current!.store.load(structuredClone(seeded));
      else await current!.reset();
    });
  }
  return new Proxy({} as TestEmulator, {
    get(_, key) {
      if (!current) throw new Error(`the emulator is used before it started (its beforeAll) or after it closed; reading '${String(key)}'`);
      const v = (current as unknown as Record<PropertyKey, unknown>)[key];
      return typeof v === "function" ? v.bind(current) : v;
    },
  });
}

/** The messages of an error answer, joined, for matching in expectations. */
export function messages(a: Answer): string {
  const errors = (a.body as { errors?: Array<{ message: string[] }> })?.errors ?? [];
  return errors.flatMap((e) => e.message).join(" | ");
}

/** Asserts the spec's error body for an error answer. */
export function expectErrorBody(a: Answer, status: number): void {
  expect(a.status).toBe(status);
  expect(a.body).toEqual({
    errors: [expect.objectContaining({ error_code: expect.any(Number), http_status_code: status, message: expect.arrayContaining([expect.any(String)]) })],
  });
}
