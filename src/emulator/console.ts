/**
 * The emulator console, a web page at /emulator/ui: the records of every area through the API's own
 * list and get operations, the audit log as a timeline with each change's before/after, live updates
 * while a program runs, and controls for the emulator's own features (faults, reset, fixtures,
 * snapshots) through the admin endpoints. It is served with the admin endpoints (the same switch,
 * see index.ts) and signs in like any client, with a built-in identity.
 *
 * The page is plain static files written by hand (src/emulator/console/: index.html, console.css,
 * and ES modules: console.js, which routes to the views in views/, and the small modules they share),
 * shipped in the package and copied to dist/ by the build: no framework, no bundler, nothing fetched
 * from elsewhere. Each is served at its path under /emulator/ui/; no other path is. Three answers are made here: operations.json, the
 * method, path and list convention of each read operation, from the endpoint table, so that the page
 * names operations by id and never spells a path; redaction.js, the module of the emulator's
 * secret-key rule (redaction.ts), so that the page redacts with the very rule the audit log uses; and
 * values.js, the fault statuses and built-in logins the page offers (console-values.ts).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, sep } from "node:path";
import { endpoints } from "../api/endpoints";
import { errors } from "../api/errors";
import { servedPath } from "./paths";
import { consoleValuesModule } from "./console-values";
import { redactionModule } from "./redaction";
import type { ExtraRoute } from "./server";

export const CONSOLE_PATH = "/emulator/ui";

/** The types of the page's files, by extension: a file of the folder with another extension (redaction.d.ts) is not served. */
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};
/** The files the page starts from, routed even when the folder cannot be read (they then answer why). */
const ENTRY_FILES = ["index.html", "console.js", "console.css"];

/**
 * The page's files in `dir` (src/emulator/console/, or dist/emulator/console/) and its folders, by
 * path under it (`views/list.js`): each is a route of its own, so a request reaches nothing else.
 */
export function consoleFiles(dir: string): string[] {
  let found: string[] = [];
  try {
    found = readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((name) => TYPES[extname(name)] !== undefined && statSync(join(dir, name)).isFile())
      .map((name) => name.split(sep).join("/"));
  } catch {
    /* the entry files answer why */
  }
  return [...new Set([...ENTRY_FILES, ...found])].sort();
}

/**
 * Only the page's own files run, nothing inline and nothing from elsewhere: a record's text that
 * looks like markup can never become script.
 */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Method, served path and list convention of every operation that reads, by id. */
export function consoleOperations(): Record<string, { method: string; path: string; list?: string }> {
  const out: Record<string, { method: string; path: string; list?: string }> = {};
  for (const ep of endpoints) {
    if (ep.mutates || ep.success.kind !== "json") continue;
    out[ep.id] = { method: ep.method, path: servedPath(ep), ...(ep.list ? { list: ep.list } : {}) };
  }
  return out;
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, {
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-cache",
    "x-content-type-options": "nosniff",
    "content-security-policy": CSP,
    "referrer-policy": "no-referrer",
  });
  res.end(body);
}

/** The routes of the page: its files under /emulator/ui/, the page itself at /emulator/ui. */
export function consoleRoutes(dir = join(__dirname, "console")): Record<string, ExtraRoute> {
  const cache = new Map<string, Buffer>();
  const file =
    (name: string): ExtraRoute =>
    (req: IncomingMessage, res: ServerResponse) => {
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.setHeader("allow", "GET");
        return send(res, 405, "application/json", JSON.stringify(errors.METHOD_NOT_ALLOWED(`${req.method} is not allowed on ${CONSOLE_PATH}; use GET`).toBody()));
      }
      let content = cache.get(name);
      if (!content) {
        try {
          content = readFileSync(join(dir, name));
        } catch (err) {
          const problem = `the console's file ${join(dir, name)} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); the package is incomplete (npm run build copies it)`;
          return send(res, 500, "application/json", JSON.stringify(errors.INTERNAL(problem).toBody()));
        }
        cache.set(name, content);
      }
      send(res, 200, TYPES[extname(name)], content);
    };
  /** An answer made at its first request and kept. */
  const made = (type: string, make: () => string): ExtraRoute => {
    let body: string | undefined;
    return (req, res) => {
      if (req.method !== "GET") return send(res, 405, "application/json", JSON.stringify(errors.METHOD_NOT_ALLOWED("use GET").toBody()));
      send(res, 200, type, (body ??= make()));
    };
  };
  const routes: Record<string, ExtraRoute> = {
    [CONSOLE_PATH]: file("index.html"),
    [`${CONSOLE_PATH}/`]: file("index.html"),
    [`${CONSOLE_PATH}/operations.json`]: made("application/json", () => JSON.stringify(consoleOperations())),
    [`${CONSOLE_PATH}/redaction.js`]: made("text/javascript; charset=utf-8", redactionModule),
    [`${CONSOLE_PATH}/values.js`]: made("text/javascript; charset=utf-8", consoleValuesModule),
  };
  for (const name of consoleFiles(dir)) routes[`${CONSOLE_PATH}/${name}`] = file(name);
  return routes;
}
