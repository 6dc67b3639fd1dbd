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
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { stringify as toYaml } from "yaml";
import { errors } from "../api/errors";
import { FaultConfigError, type FaultInjector } from "./faults";
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
}

export function adminRoutes(store: Store, hooks: AdminHooks): Record<string, ExtraRoute> {
  return {
    "/emulator/state": (req: IncomingMessage, res: ServerResponse, url: URL) => {
      if (req.method !== "GET") return methodNotAllowed(res, "GET");
      const wantsYaml = url.searchParams.get("format") === "yaml" || /yaml/.test(String(req.headers.accept ?? ""));
      const state = exportState(store);
      if (wantsYaml) return reply(res, 200, toYaml(state), "application/yaml");
      return reply(res, 200, state);
    },
    "/emulator/reset": async (req: IncomingMessage, res: ServerResponse) => {
      if (req.method !== "POST") return methodNotAllowed(res, "POST");
      await hooks.reset();
      store.notifyReset();
      res.writeHead(204);
      res.end();
    },
    "/emulator/faults": (req: IncomingMessage, res: ServerResponse, _url: URL, body: Buffer) => {
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
    },
  };
}
