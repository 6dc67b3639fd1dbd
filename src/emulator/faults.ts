/**
 * Fault injection: makes a share of requests fail the way a real deployment fails (429 with
 * Retry-After, 5xx with the spec's error body, added latency, connection resets), so clients can be
 * tested for retries and idempotency. Configured at start-up and through POST /emulator/faults.
 *
 * For every request the configuration matches, one draw r of a seeded PRNG (mulberry32) decides:
 * - r < reset_rate: the connection is reset before the request has any effect;
 * - r < reset_rate + rate: in mode `before` (default) the request is answered with one of `statuses`
 *   before it has any effect; in mode `after_apply` the request runs, its change is applied and
 *   durable, and then the answer is lost (`after_apply_action`: connection reset, or a 502), which is
 *   how an ambiguous create looks to a client;
 * - otherwise the request runs normally.
 * `latency_ms` delays every matched request. Draws happen in the order requests arrive, so a fixed
 * `seed` and the same sequence of requests give the same faults.
 *
 * The emulated edge (edge.ts) too: `package_ms` sets how long package downloads take while it is set
 * (a slow edge), and `package_failure_rate` makes that share of downloads fail, drawn from a sequence
 * of its own (so they do not shift the requests' faults) as each download starts.
 *
 * Never faulted: /emulator/* (the admin endpoints), and the token endpoints unless `include_auth`.
 * Path patterns are absolute request paths where `*` matches any run of characters, `/` included
 * (`/api/v4/assets/*` matches every operation under /assets).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { errors, type ErrorKind } from "../api/errors";
import type { EdgeFaults } from "./edge";
import { mulberry32 } from "./seeded-random";
import type { FaultHooks } from "./server";

export const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];
/** What a fault answers when its configuration names no statuses. */
export const DEFAULT_FAULT_STATUSES: readonly FaultStatus[] = [503];

const STATUS_ERROR: Record<FaultStatus, { kind: ErrorKind; text: string }> = {
  429: { kind: errors.TOO_MANY_REQUESTS, text: "too many requests" },
  500: { kind: errors.INTERNAL, text: "internal server error" },
  502: { kind: errors.BAD_GATEWAY, text: "bad gateway" },
  503: { kind: errors.UNAVAILABLE, text: "service unavailable" },
  504: { kind: errors.GATEWAY_TIMEOUT, text: "gateway timeout" },
};

const rate = z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1");

/** The fault configuration, as POST /emulator/faults takes it; every field is optional. */
export const FaultConfigSchema = z
  .object({
    rate: rate.default(0),
    statuses: z
      .array(z.literal(FAULT_STATUSES, { error: `each status must be one of ${FAULT_STATUSES.join(", ")}` }))
      .min(1, "needs at least one status")
      .default(() => [...DEFAULT_FAULT_STATUSES]),
    reset_rate: rate.default(0),
    latency_ms: z.number().int().min(0).max(60_000).default(0),
    seed: z.number().int().min(0).max(0xffffffff).optional(),
    methods: z
      .array(
        z
          .string()
          .transform((m) => m.toUpperCase())
          .pipe(z.enum(["GET", "POST"])),
      )
      .optional(),
    paths: z.array(z.string().min(1).max(500).startsWith("/", "must be an absolute path such as /api/v4/assets/*")).optional(),
    mode: z.enum(["before", "after_apply"]).default("before"),
    after_apply_action: z.enum(["reset", "502"]).default("reset"),
    include_auth: z.boolean().default(false),
    retry_after_s: z.number().int().min(0).max(3600).default(1),
    package_ms: z.number().int().min(0).max(3_600_000).optional(),
    package_failure_rate: rate.default(0),
  })
  .strict()
  .refine((c) => c.rate + c.reset_rate <= 1, { message: "rate + reset_rate must not exceed 1", path: ["rate"] });

export type FaultConfigInput = z.input<typeof FaultConfigSchema>;
export type FaultConfig = z.output<typeof FaultConfigSchema> & { seed: number };

export type FaultKind = `status_${FaultStatus}` | "reset" | "latency" | "after_apply_reset" | "after_apply_502" | "package_failure";

export interface FaultCounters {
  /** Requests the configuration applied to. */
  matched: number;
  /** Failures injected (latency not counted). */
  total: number;
  by_kind: Partial<Record<FaultKind, number>>;
}

/** A fault configuration's path pattern as a regular expression: `*` matches any run of characters, the rest matches itself. */
export function globToRegExp(pattern: string): RegExp {
  return new RegExp(
    "^" +
      pattern
        .split("*")
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*") +
      "$",
  );
}

/** Mixed into the seed for the package downloads' own sequence of draws. */
const PACKAGE_STREAM = 0x9e3779b9;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Validates a configuration; the error names the field. */
export function parseFaultConfig(input: unknown): FaultConfig {
  const r = FaultConfigSchema.safeParse(input ?? {});
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue.path.length ? issue.path.join(".") : "faults";
    throw new FaultConfigError(field, issue.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue.message, r.error);
  }
  return { ...r.data, seed: r.data.seed ?? Math.floor(Math.random() * 0x100000000) };
}

export class FaultConfigError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
    readonly zodError?: z.ZodError,
  ) {
    super(`fault configuration: ${field}: ${problem}`);
    this.name = "FaultConfigError";
  }
}

function destroy(req: IncomingMessage): void {
  req.socket.resetAndDestroy();
}

export class FaultInjector {
  private config: FaultConfig;
  private random: () => number;
  /** The draws of package downloads, apart from the requests' (see the top of this file). */
  private packageRandom: () => number;
  private pathMatchers: RegExp[] | undefined;
  private counters: FaultCounters = { matched: 0, total: 0, by_kind: {} };
  /** Requests whose answer is to be lost once their change is durable. */
  private readonly dropAfterApply = new WeakMap<IncomingMessage, FaultConfig["after_apply_action"]>();

  constructor(input?: unknown) {
    this.config = parseFaultConfig(input);
    this.random = mulberry32(this.config.seed);
    this.packageRandom = mulberry32(this.config.seed ^ PACKAGE_STREAM);
    this.pathMatchers = this.config.paths?.map(globToRegExp);
  }

  /** Replaces the configuration; the PRNG restarts from the (new) seed and the counters from zero. */
  configure(input: unknown): FaultConfig {
    const config = parseFaultConfig(input);
    this.config = config;
    this.random = mulberry32(config.seed);
    this.packageRandom = mulberry32(config.seed ^ PACKAGE_STREAM);
    this.pathMatchers = config.paths?.map(globToRegExp);
    this.counters = { matched: 0, total: 0, by_kind: {} };
    return config;
  }

  status(): { config: FaultConfig; counters: FaultCounters } {
    return { config: this.config, counters: structuredClone(this.counters) };
  }

  private get active(): boolean {
    const c = this.config;
    return c.rate > 0 || c.reset_rate > 0 || c.latency_ms > 0;
  }

  private matches(req: IncomingMessage, path: string): boolean {
    if (path.startsWith("/emulator/")) return false;
    if (path.startsWith("/auth/") && !this.config.include_auth) return false;
    const method = (req.method ?? "GET").toUpperCase();
    if (this.config.methods && !this.config.methods.includes(method as "GET" | "POST")) return false;
    return !this.pathMatchers || this.pathMatchers.some((re) => re.test(path));
  }

  private count(kind: FaultKind): void {
    this.counters.by_kind[kind] = (this.counters.by_kind[kind] ?? 0) + 1;
    if (kind !== "latency") this.counters.total++;
  }

  private answer(req: IncomingMessage, res: ServerResponse, status: FaultStatus, config: FaultConfig, when: string): void {
    req.resume();
    const { kind, text } = STATUS_ERROR[status];
    const body = JSON.stringify(kind(`${text} (injected by the emulator's fault injection; ${when})`).toBody());
    const headers: Record<string, string | number> = {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "x-emulator-fault": `status_${status}`,
    };
    if (status === 429) headers["retry-after"] = String(config.retry_after_s);
    res.writeHead(status, headers);
    res.end(body);
  }

  /** Runs before a request has any effect: true when it answered or dropped the request. */
  async before(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    if (!this.active || !this.matches(req, path)) return false;
    const config = this.config;
    this.counters.matched++;
    // Two draws per request, always, so the sequence of decisions depends only on the seed.
    const r = this.random();
    const pick = this.random();
    if (config.latency_ms > 0) {
      this.count("latency");
      await sleep(config.latency_ms);
    }
    if (r < config.reset_rate) {
      this.count("reset");
      destroy(req);
      return true;
    }
    if (r < config.reset_rate + config.rate) {
      if (config.mode === "after_apply") {
        this.dropAfterApply.set(req, config.after_apply_action);
        return false;
      }
      const status = config.statuses[Math.floor(pick * config.statuses.length)];
      this.count(`status_${status}`);
      this.answer(req, res, status, config, "the request had no effect");
      return true;
    }
    return false;
  }

  /** Runs once a request's change is applied and durable: true when it lost the answer. */
  afterApply(req: IncomingMessage, res: ServerResponse): boolean {
    const action = this.dropAfterApply.get(req);
    if (!action) return false;
    this.dropAfterApply.delete(req);
    if (action === "502") {
      this.count("after_apply_502");
      this.answer(req, res, 502, this.config, "the request WAS applied, only its answer was lost");
    } else {
      this.count("after_apply_reset");
      destroy(req);
    }
    return true;
  }

  /** What the configuration says about the edge's package downloads (see edge.ts). */
  edge(): EdgeFaults {
    return {
      packageMs: () => this.config.package_ms,
      packageFails: () => {
        if (this.config.package_failure_rate === 0 || this.packageRandom() >= this.config.package_failure_rate) return false;
        this.count("package_failure");
        return true;
      },
    };
  }

  /** The hooks the HTTP server calls. */
  hooks(): FaultHooks {
    return {
      before: (req, res, path) => this.before(req, res, path),
      afterApply: (req, res) => this.afterApply(req, res),
    };
  }
}
