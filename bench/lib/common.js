"use strict";
/**
 * What the benchmark sections share: where the built package is, statistics, machine description,
 * plain HTTP calls (undici, keep-alive) and the figure records that run.js prints.
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { Pool } = require("undici");

/** The built package: dist/ of this checkout (SVC_BENCH_DIST points elsewhere, e.g. a scratch build). */
const DIST = process.env.SVC_BENCH_DIST ? path.resolve(process.env.SVC_BENCH_DIST) : path.join(__dirname, "..", "..", "dist");
const dist = (rel) => require(path.join(DIST, rel));

const TOKEN_PATH = "/auth/realms/svc/protocol/openid-connect/token";
const ADMIN_LOGIN = { grant_type: "password", username: "admin@example.com", password: "admin", client_id: "svc-cli" };

function median(xs) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The q-quantile (0..1) of a sorted array, nearest rank. */
function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** Runs `fn` `n` times, one after the other; the median duration in ms (and all of them). */
async function timeRepeated(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = nowMs();
    await fn(i);
    times.push(nowMs() - t0);
  }
  return { median: median(times), times };
}

function machine() {
  const cpuinfo = (() => {
    try {
      return fs.readFileSync("/proc/cpuinfo", "utf8");
    } catch {
      return "";
    }
  })();
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? "unknown";
  return {
    nproc: os.availableParallelism ? os.availableParallelism() : os.cpus().length,
    memory_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    cpu: model.trim(),
    platform: `${os.platform()} ${os.release()}`,
    // The machine is shared: the load when the run started says how noisy its figures may be.
    loadavg_1m: Math.round(os.loadavg()[0] * 100) / 100,
  };
}

/** A tiny keep-alive HTTP client for the bench's own setup and serial timings. */
class Http {
  constructor(baseUrl, connections = 4) {
    this.baseUrl = baseUrl;
    this.pool = new Pool(baseUrl, { connections, keepAliveTimeout: 60_000 });
    this.token = undefined;
  }

  async login() {
    const res = await this.request("POST", TOKEN_PATH, new URLSearchParams(ADMIN_LOGIN).toString(), {
      "content-type": "application/x-www-form-urlencoded",
      auth: false,
    });
    this.token = res.json().access_token;
    return this.token;
  }

  async request(method, p, body, headers = {}) {
    const { auth, ...rest } = headers;
    const h = { accept: "application/json", ...rest };
    if (auth !== false && this.token) h.authorization = `Bearer ${this.token}`;
    if (body !== undefined && typeof body !== "string") {
      body = JSON.stringify(body);
      h["content-type"] ??= "application/json";
    }
    const res = await this.pool.request({ method, path: p, headers: h, body });
    const buf = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, body: buf, json: () => JSON.parse(buf.toString("utf8")) };
  }

  /** A call that must succeed (2xx); the answer otherwise becomes the error. */
  async ok(method, p, body) {
    const res = await this.request(method, p, body);
    if (res.status < 200 || res.status >= 300) throw new Error(`${method} ${p} → ${res.status}: ${res.body.toString("utf8").slice(0, 500)}`);
    return res;
  }

  close() {
    return this.pool.close();
  }
}

/** `key[]=a&key[]=b` for arrays, as the API reads query arrays. */
function qs(query) {
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
 * One row of the result table. `ratio` is value/baseline; `target` says which way is good:
 * { max: r } (ratio at most r), { min: r } (ratio at least r), { maxValue: v } (value at most v), or null (reported only).
 */
function figure({ section, name, value, unit, baseline, baselineName, target, note }) {
  const ratio = baseline === undefined || baseline === null || baseline === 0 || !Number.isFinite(baseline) ? null : value / baseline;
  let pass = null;
  if (target) {
    if (target.max !== undefined) pass = ratio !== null && ratio <= target.max;
    else if (target.min !== undefined) pass = ratio !== null && ratio >= target.min;
    else if (target.maxValue !== undefined) pass = value <= target.maxValue;
  }
  return { section, name, value, unit, baseline: baseline ?? null, baseline_name: baselineName ?? null, ratio, target: target ?? null, pass, note: note ?? null };
}

function targetText(t) {
  if (!t) return "—";
  if (t.max !== undefined) return `ratio ≤ ${t.max}`;
  if (t.min !== undefined) return `ratio ≥ ${t.min}`;
  if (t.maxValue !== undefined) return `≤ ${t.maxValue}`;
  return "—";
}

function fmt(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return "—";
  if (typeof v !== "number") return String(v);
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : v.toFixed(3);
}

/** A temporary directory removed at exit. */
function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const quiet = () => undefined;

module.exports = { DIST, dist, TOKEN_PATH, ADMIN_LOGIN, median, quantile, nowMs, timeRepeated, machine, Http, qs, figure, targetText, fmt, tempDir, quiet };
