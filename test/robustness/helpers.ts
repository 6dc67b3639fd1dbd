/**
 * Shared machinery of the robustness tests: a seeded emulator on a frozen clock, raw HTTP requests
 * with a per-request timeout (node:http, so paths, headers and bodies go out byte for byte), the
 * checks every answer must pass, and state fingerprints to prove a rejected request changed nothing.
 */
import http from "node:http";
import { endpoints } from "../../src/api/endpoints";
import { isOutsideApiRoot, type AnyEndpoint } from "../../src/api/endpoint";
import { API_PREFIX } from "../../src/emulator/server";
import type { Store } from "../../src/emulator/store/store";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { Figures } from "./reliability";

/** `SOAK=1` runs the long variants (`npm run soak`). */
export const SOAK = process.env.SOAK === "1";
/** Fixed in the fast variant so that a run is reproducible; FUZZ_SEED overrides it (a failure prints the seed). */
export const SEED = Number(process.env.FUZZ_SEED ?? (SOAK ? Date.now() % 2 ** 31 : 20240501));
export const MODE = SOAK ? `soak, seed ${SEED}` : "fast";
export const REQUEST_TIMEOUT_MS = 10_000;

export const ENDPOINTS: readonly AnyEndpoint[] = endpoints;
export const OPEN_ENDPOINTS = ["auth.token", "auth.edgeToken", "auth.logout", "auth.protocolLogout", "auth.metadata", "instance.statusGet"];

/** The full request path of an endpoint with its path parameters filled (values URL-encoded). */
export function pathOf(ep: AnyEndpoint, params: Record<string, string>, encode = true): string {
  const filled = ep.path.replace(/\{([a-z_]+)\}/g, (_, k: string) => (encode ? encodeURIComponent(params[k] ?? "x") : (params[k] ?? "x")));
  return isOutsideApiRoot(ep) ? filled : API_PREFIX + filled;
}

/** Every record of every table, as text: equal texts mean an unchanged state (record order included). */
export function stateOf(store: Store): string {
  return JSON.stringify(store.snapshot());
}

// ---------------------------------------------------------------------------------------------
// Raw requests

export interface RawRequest {
  method: string;
  /** Path and query string, sent as is. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body with chunked transfer encoding (no content-length), in 64 KiB chunks. */
  chunked?: boolean;
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed body when the answer is JSON, else undefined. */
  json: unknown;
}

export class RequestTimeout extends Error {}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** Sends one request; rejects with RequestTimeout when no complete answer came within `timeoutMs`. */
export function sendRaw(baseUrl: string, req: RawRequest, timeoutMs = REQUEST_TIMEOUT_MS): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise<RawAnswer>((resolve, reject) => {
    const headers: Record<string, string | number> = { ...(req.headers ?? {}) };
    if (req.body !== undefined && !req.chunked) headers["content-length"] = Buffer.byteLength(req.body);
    // Said explicitly: Node frames only POST-like bodies as chunked by default, not those of a GET.
    if (req.chunked) headers["transfer-encoding"] = "chunked";
    const r = http.request({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        if (/json/.test(String(res.headers["content-type"] ?? "")) && !/x-json-stream/.test(String(res.headers["content-type"]))) {
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    const timer = setTimeout(() => {
      r.destroy();
      reject(new RequestTimeout(`${req.method} ${req.path.slice(0, 200)}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    r.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    if (req.chunked && req.body !== undefined) {
      const body = Buffer.from(req.body);
      for (let i = 0; i < body.length; i += 65536) r.write(body.subarray(i, i + 65536));
      r.end();
    } else r.end(req.body);
  });
}

/** What is wrong with an error answer's body, or undefined when it is the spec's error body. */
export function errorBodyProblem(a: RawAnswer): string | undefined {
  const body = a.json as { errors?: unknown } | undefined;
  if (!body || typeof body !== "object") return `not a JSON body: ${a.text.slice(0, 200)}`;
  const errors = body.errors;
  if (!Array.isArray(errors) || errors.length === 0) return `no 'errors' array: ${a.text.slice(0, 200)}`;
  for (const e of errors as Array<Record<string, unknown>>) {
    if (!Number.isInteger(e.error_code)) return `error_code is not an integer: ${a.text.slice(0, 200)}`;
    if (e.http_status_code !== a.status) return `http_status_code ${String(e.http_status_code)} is not the status ${a.status}`;
    const m = e.message;
    if (!Array.isArray(m) || m.length === 0 || !m.every((x) => typeof x === "string" && x.length > 0))
      return `message is not a non-empty array of strings: ${a.text.slice(0, 200)}`;
  }
  return undefined;
}

/**
 * Sends a request and applies the rules every answer must pass: no hang, never 5xx, the spec's
 * error body on every 4xx, and (when `store` is given) no change of state for a rejected request.
 * Counts into `figures`; answers the problems found (empty when none) with the answer.
 */
export async function probe(
  emu: TestEmulator,
  figures: Figures,
  req: RawRequest,
  options: { store?: Store; timeoutMs?: number } = {},
): Promise<{ answer?: RawAnswer; problems: string[]; changed?: boolean }> {
  const before = options.store ? stateOf(options.store) : undefined;
  figures.requests++;
  let answer: RawAnswer;
  try {
    answer = await sendRaw(emu.baseUrl, req, options.timeoutMs);
  } catch (err) {
    if (err instanceof RequestTimeout) {
      figures.timeouts++;
      return { problems: [err.message] };
    }
    throw err;
  }
  const problems: string[] = [];
  const what = `${req.method} ${req.path.slice(0, 160)} body ${describeBody(req.body)} -> ${answer.status}`;
  if (answer.status >= 500) {
    figures.status5xx++;
    problems.push(`${what}: 5xx ${answer.text.slice(0, 300)}`);
  } else if (answer.status < 200 || (answer.status >= 300 && answer.status < 400)) {
    problems.push(`${what}: neither 2xx nor 4xx`);
  }
  if (answer.status >= 400) {
    const bad = errorBodyProblem(answer);
    if (bad) {
      figures.badErrorBodies++;
      problems.push(`${what}: ${bad}`);
    }
  }
  const changed = options.store ? stateOf(options.store) !== before : undefined;
  if (changed && answer.status >= 400) {
    figures.rejectedStateChanges++;
    problems.push(`${what}: the rejected request changed the state (${answer.text.slice(0, 200)})`);
  }
  return { answer, problems, changed };
}

export function describeBody(body: string | Buffer | undefined): string {
  if (body === undefined) return "(none)";
  const s = Buffer.isBuffer(body) ? body.toString("latin1") : body;
  return s.length > 120 ? `${JSON.stringify(s.slice(0, 120))}... (${s.length} chars)` : JSON.stringify(s);
}

// ---------------------------------------------------------------------------------------------
// A seeded emulator

/** Names of the seeded records: every kind has one called `fuzz-a`, so generated paths hit records. */
export const SEEDED = { name: "fuzz-a", other: "fuzz-b", version: "1.0.0", dataType: "fuzz.types.point" };

const SEED_DOCUMENT = {
  asset_classes: [{ name: "fuzz-a", title: "Fuzz A" }],
  asset_types: [{ name: "fuzz-a", title: "Fuzz A", asset_class_name: "fuzz-a" }],
  assets: [
    { name: "fuzz-a", title: "Fuzz A", asset_type_name: "fuzz-a", metadata: { "fuzz-a": { k: 1 } }, properties: [{ name: "fuzz-a", value: 1 }] },
    { name: "fuzz-b", title: "Fuzz B", asset_type_name: "fuzz-a", asset_parent_name: "fuzz-a" },
  ],
  clusters: [{ name: "fuzz-a" }],
  acps: [{ name: "fuzz-a", title: "Fuzz A" }],
  labels: [{ name: "fuzz-a", title: "Fuzz A" }],
  apps: [
    {
      name: "fuzz-a",
      title: "Fuzz A",
      description: "seeded app",
      type: "app",
      versions: [{ version: "1.0.0", parameters: [{ name: "fuzz-a", data_type: "number", default: 1 }] }],
    },
  ],
  workloads: [{ name: "fuzz-a", app_name: "fuzz-a", app_version: "1.0.0", cluster_name: "fuzz-a", runtime: { resources: [{ resource: "krn:asset:fuzz-a" }] } }],
};

/** Records the fixture format has no section for, created over HTTP. */
const SEED_CALLS: Array<{ path: string; body: unknown }> = [
  { path: "/appregistry/create", body: { payload: { name: "fuzz-a", version: "1.0.0", type: "app" } } },
  { path: "/datatypes/create", body: { icd: { name: SEEDED.dataType, class_name: "Point", fields: [{ name: "x", type: "float64" }] } } },
  {
    path: "/datalabels/create",
    body: { label_name: "fuzz-a", start_date: "2024-01-01T00:00:00Z", end_date: "2024-01-02T00:00:00Z", metrics: [{ asset_name: "fuzz-a", name: "m" }], source: { type: "user" } },
  },
  { path: "/bridges/deploy", body: { name: "fuzz-c", cluster_name: "fuzz-a", app_name: "fuzz-a", payload: { metrics_map: [{ name: "m", asset_name: "fuzz-a" }] } } },
  { path: "/acps/fuzz-a/metadata/create", body: { name: "fuzz-a", payload: { k: 1 } } },
  { path: "/assets/types/fuzz-a/metadata/create", body: { name: "fuzz-a", payload: { k: 1 } } },
  { path: "/datalabels/labels/fuzz-a/metadata/create", body: { name: "fuzz-a", payload: { k: 1 } } },
  {
    path: "/apps/parameters/schedules/create",
    body: { app_name: "fuzz-a", app_version: "1.0.0", scheduled_for: "2099-01-01T00:00:00Z", resources: ["krn:asset:fuzz-a"], parameters: { "fuzz-a": 2 } },
  },
];

/** The frozen instant of the seeded emulator: nothing falls due while a test runs. */
export const FROZEN_MS = Date.parse("2030-06-01T12:00:00Z");

/** An emulator seeded with one record of every kind, on a frozen clock (the background ticker changes nothing). */
export async function startSeededEmulator(): Promise<TestEmulator> {
  const emu = await startTestEmulator({ clock: () => FROZEN_MS, seed: SEED_DOCUMENT });
  for (const c of SEED_CALLS) {
    const a = await emu.post(c.path, c.body);
    if (a.status >= 300) throw new Error(`seeding ${c.path} failed: ${a.status} ${a.text}`);
  }
  return emu;
}

/** Record keys of the seeded state usable as path values (schedule uuids, data label ids, names). */
export function seededKeys(store: Store): string[] {
  const keys = new Set<string>();
  for (const [table, rows] of Object.entries(store.snapshot())) {
    if (table.startsWith("_") || table === "audit_log") continue;
    for (const [k] of rows) if (/^[A-Za-z0-9._-]{1,64}$/.test(k)) keys.add(k);
  }
  return [...keys].sort();
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function inParallel<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Own keys of Object.prototype, to detect pollution. */
export const prototypeKeys = (): string[] => Reflect.ownKeys(Object.prototype).map(String).sort();
