/**
 * Test access to a real emulator over HTTP. Every test talks to the server through requests; the
 * store is read only to check what a request did (or did not) change.
 */
import { startEmulator, type Emulator, type EmulatorOptions } from "../../src/emulator";

export interface Answer<T = any> {
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

export interface TestEmulator extends Emulator {
  call<T = any>(method: "GET" | "POST", path: string, opts?: CallOptions): Promise<Answer<T>>;
  post<T = any>(path: string, body?: unknown, opts?: CallOptions): Promise<Answer<T>>;
  get<T = any>(path: string, query?: CallOptions["query"], opts?: CallOptions): Promise<Answer<T>>;
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
    const url = `${emu.baseUrl}${path.startsWith("/auth/realms/") || path.startsWith("/emulator/") ? "" : "/api/v4"}${path}${queryString(opts.query)}`;
    const res = await fetch(url, { method, headers, body: body as RequestInit["body"] });
    const text = await res.text();
    let parsed: unknown = text;
    const type = res.headers.get("content-type") ?? "";
    if (text && /json/.test(type) && !/x-json-stream/.test(type)) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  return {
    ...emu,
    call,
    token,
    post: (path, body, opts) => call("POST", path, { ...opts, body }),
    get: (path, query, opts) => call("GET", path, { ...opts, query }),
    reset: async () => {
      const res = await fetch(`${emu.baseUrl}/emulator/reset`, { method: "POST" });
      if (res.status !== 204) throw new Error(`reset failed: ${res.status}`);
    },
  };
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
