/**
 * Admin endpoints outside /api/v4, for tests and debugging: export the state, reset it. They exist
 * only when the emulator was started with admin endpoints enabled.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { stringify as toYaml } from "yaml";
import type { ExtraRoute } from "./server";
import type { Store } from "./store/store";

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

export function adminRoutes(store: Store, hooks: { reset(): Promise<void> }): Record<string, ExtraRoute> {
  return {
    "/emulator/state": (req: IncomingMessage, res: ServerResponse, url: URL) => {
      if (req.method !== "GET") return reply(res, 405, { errors: [{ error_code: 40501, http_status_code: 405, message: ["use GET"] }] });
      const wantsYaml = url.searchParams.get("format") === "yaml" || /yaml/.test(String(req.headers.accept ?? ""));
      const state = exportState(store);
      if (wantsYaml) return reply(res, 200, toYaml(state), "application/yaml");
      return reply(res, 200, state);
    },
    "/emulator/reset": async (req: IncomingMessage, res: ServerResponse) => {
      if (req.method !== "POST") return reply(res, 405, { errors: [{ error_code: 40501, http_status_code: 405, message: ["use POST"] }] });
      await hooks.reset();
      res.writeHead(204);
      res.end();
    },
  };
}
