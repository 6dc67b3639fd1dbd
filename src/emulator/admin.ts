/**
 * Admin endpoints outside /api/v4, for tests and debugging: export the state, reset it, configure
 * fault injection. They exist only when the emulator was started with admin endpoints enabled
 * (otherwise /emulator/* answers 404 like any unknown path).
 *
 * - GET  /emulator/state   every table's records (JSON; YAML with ?format=yaml or Accept: application/yaml)
 * - POST /emulator/reset   empties every table but `_meta`, so issued tokens stay valid (they are
 *                          verified again: the cache of verified tokens is emptied)
 * - GET  /emulator/faults  the fault configuration and the counts of injected faults by kind
 * - POST /emulator/faults  replaces the fault configuration (body: see faults.ts; `{}` clears it);
 *                          the PRNG restarts from the seed and the counters from zero
 * - POST /emulator/seed    loads a fixture document (YAML or JSON, what `--seed` takes) into the
 *                          empty emulator; 409 when it holds records
 * - GET  /emulator/snapshot the inventory as a fixture document (YAML, as `svc-emulator snapshot`
 *                          writes it), which POST /emulator/seed loads back
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseYaml, stringify as toYaml, YAMLParseError } from "yaml";
import { errors } from "../api/errors";
import { FaultConfigError, type FaultInjector } from "./faults";
import { FixtureError, storeIsEmpty, type SeedRecord } from "./fixtures";
import type { ExtraRoute } from "./server";
import type { Store } from "./store/store";
import { issuesToMessages } from "./validate";

function reply(res: ServerResponse, status: number, body: unknown, type = "application/json"): void {
  const text = type === "application/json" ? JSON.stringify(body) : String(body);
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** State as exported: every table's records, internal tables (`_meta`, `_seq`) left out. */
export function exportState(store: Store): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const [name, rows] of Object.entries(store.snapshot())) {
    if (!name.startsWith("_")) out[name] = rows.map(([, v]) => v);
  }
  return out;
}

const methodNotAllowed = (res: ServerResponse, allowed: string) => reply(res, 405, errors.METHOD_NOT_ALLOWED(`use ${allowed}`).toBody());

function parseJsonBody(body: Buffer): { ok: true; value: unknown } | { ok: false; message: string } {
  if (body.length === 0) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(body.toString("utf8")) };
  } catch (e) {
    return { ok: false, message: `body: malformed JSON (${(e as Error).message})` };
  }
}

export interface AdminHooks {
  reset(): Promise<void>;
  faults: FaultInjector;
  /** Loads a fixture document into the store (fixtures.ts `seedStore`) and makes it durable; POST /emulator/seed exists with it. */
  seed?(doc: unknown, source: string): Promise<{ counts: Record<string, number>; skipped?: SeedRecord }>;
  /** The inventory as a fixture document (YAML); GET /emulator/snapshot exists with it. */
  snapshot?(): Promise<string>;
}

/** Largest fixture POST /emulator/seed takes. */
export const SEED_LIMIT = 64 * 1024 * 1024;

/** GET /emulator/state: every record, as JSON or (asked for) YAML. */
const stateRoute =
  (store: Store): ExtraRoute =>
  (req, res, url) => {
    if (req.method !== "GET") return methodNotAllowed(res, "GET");
    const wantsYaml = url.searchParams.get("format") === "yaml" || /yaml/.test(String(req.headers.accept ?? ""));
    const state = exportState(store);
    if (wantsYaml) return reply(res, 200, toYaml(state), "application/yaml");
    return reply(res, 200, state);
  };

/** POST /emulator/reset: back to an empty emulator (tokens stay valid). */
const resetRoute =
  (store: Store, hooks: AdminHooks): ExtraRoute =>
  async (req, res) => {
    if (req.method !== "POST") return methodNotAllowed(res, "POST");
    await hooks.reset();
    store.notifyReset();
    res.writeHead(204);
    res.end();
  };

/** GET and POST /emulator/faults: the fault injector's configuration and counters. */
const faultsRoute =
  (hooks: AdminHooks): ExtraRoute =>
  (req, res, _url, body) => {
    if (req.method === "GET") return reply(res, 200, hooks.faults.status());
    if (req.method !== "POST") return methodNotAllowed(res, "GET or POST");
    const parsed = parseJsonBody(body);
    if (!parsed.ok) return reply(res, 400, errors.MALFORMED_BODY(parsed.message).toBody());
    try {
      hooks.faults.configure(parsed.value === null ? {} : parsed.value);
    } catch (err) {
      if (!(err instanceof FaultConfigError)) throw err;
      const messages = err.zodError ? issuesToMessages("body", err.zodError) : [`body.${err.field}: ${err.problem}`];
      return reply(res, 400, errors.VALIDATION_FAILED(...messages).toBody());
    }
    return reply(res, 200, hooks.faults.status());
  };

/** POST /emulator/seed: a YAML or JSON fixture loaded into an empty emulator. */
const seedRoute = (store: Store, seed: NonNullable<AdminHooks["seed"]>): ExtraRoute =>
  Object.assign(
    async (req: IncomingMessage, res: ServerResponse, _url: URL, body: Buffer) => {
      if (req.method !== "POST") return methodNotAllowed(res, "POST");
      let doc: unknown;
      try {
        doc = parseYaml(body.toString("utf8")) ?? {};
      } catch (err) {
        if (!(err instanceof YAMLParseError)) throw err;
        const at = err.linePos?.[0];
        return reply(
          res,
          400,
          errors.MALFORMED_BODY(`body: not a YAML or JSON fixture${at ? ` (line ${at.line}, column ${at.col})` : ""}: ${err.message.split("\n")[0]}`).toBody(),
        );
      }
      const wasEmpty = storeIsEmpty(store);
      try {
        return reply(res, 200, await seed(doc, "POST /emulator/seed"));
      } catch (err) {
        if (!(err instanceof FixtureError)) throw err;
        return reply(res, wasEmpty ? 400 : 409, (wasEmpty ? errors.VALIDATION_FAILED : errors.CONFLICT)(err.message).toBody());
      }
    },
    { bodyLimit: SEED_LIMIT },
  );

/** GET /emulator/snapshot: the inventory as a fixture document, as a download. */
const snapshotRoute =
  (snapshot: NonNullable<AdminHooks["snapshot"]>): ExtraRoute =>
  async (req, res) => {
    if (req.method !== "GET") return methodNotAllowed(res, "GET");
    const text = await snapshot();
    res.writeHead(200, {
      "content-type": "application/yaml",
      "content-length": Buffer.byteLength(text),
      "content-disposition": 'attachment; filename="emulator-snapshot.yaml"',
    });
    res.end(text);
  };

export function adminRoutes(store: Store, hooks: AdminHooks): Record<string, ExtraRoute> {
  return {
    "/emulator/state": stateRoute(store),
    "/emulator/reset": resetRoute(store, hooks),
    "/emulator/faults": faultsRoute(hooks),
    ...(hooks.seed ? { "/emulator/seed": seedRoute(store, hooks.seed) } : {}),
    ...(hooks.snapshot ? { "/emulator/snapshot": snapshotRoute(hooks.snapshot) } : {}),
  };
}
