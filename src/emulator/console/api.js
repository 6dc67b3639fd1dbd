// @ts-check
/**
 * The API, as a client: a bearer token of a built-in identity, operations named by id (their method
 * and path from /emulator/ui/operations.json, made from the endpoint table, so the page never spells
 * a path), and the emulator's admin endpoints. Every record the page shows goes through `redacted`.
 */
import { $ } from "./dom.js";
// The emulator's secret-key rule (src/emulator/redaction.ts), which it serves as this module.
import { redact } from "./redaction.js";
// The built-in logins, read-only ones first (src/emulator/console-values.ts).
import { BUILT_IN_LOGINS } from "./values.js";

/** @typedef {{ method: string, path: string, list?: import("../../api/endpoint").ListConvention }} Operation */
/** @typedef {{ grant_type: string, username: string, password: string, client_id: string }} Login */
/** @typedef {{ next_page?: string | null, previous_page?: string | null }} Pagination */
/**
 * One page of a list operation's answer.
 * @template R
 * @typedef {{ data?: R[], pagination?: Pagination }} Page
 */
/** @typedef {{ params?: Record<string, string | number>, query?: Record<string, unknown>, body?: unknown }} Request */

/** The page reads as a read-only built-in user unless another signs in. */
const DEFAULT_LOGIN = BUILT_IN_LOGINS[0].login;

/** @type {Record<string, Operation>} */
let operations = {};
/** Who the page reads as; `name` is shown in the header and preselected in the Emulator view. */
/** @type {{ token: string | undefined, login: Login, name: string }} */
export const session = { token: undefined, login: DEFAULT_LOGIN, name: DEFAULT_LOGIN.username };

/** A call that failed, with the answer's status (0: no answer). */
export class CallError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   */
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/**
 * A copy of `record` with the fields named like secrets, and their values wherever another field
 * repeats them, "[redacted]": the audit log's rule, with its default limits (the same shape).
 * @template T
 * @param {T} record
 * @returns {T}
 */
export const redacted = (record) => /** @type {T} */ (redact(record));

/** Reads the operations the page may call; before any call. */
export async function loadOperations() {
  const res = await fetch("/emulator/ui/operations.json");
  if (!res.ok) throw new CallError(`GET /emulator/ui/operations.json answered ${res.status}`, res.status);
  operations = await res.json();
}

/** The method, path and list convention of read operation `id`. */
export function operation(/** @type {string} */ id) {
  const op = operations[id];
  if (!op) throw new CallError(`the emulator has no read operation ${id}`, 0);
  return op;
}

/** `key=v` and `key[]=v` for arrays, as the API reads them. */
function queryString(/** @type {Record<string, unknown>} */ query = {}) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v)) for (const x of v) p.append(`${k}[]`, String(x));
    else p.append(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** The messages of an error answer, or its text. */
async function errorText(/** @type {Response} */ res) {
  const raw = await res.text();
  try {
    const body = JSON.parse(raw);
    const messages = (body.errors ?? []).flatMap((/** @type {{ message?: string[] }} */ e) => e.message ?? []);
    if (messages.length) return messages.join("; ");
    if (body.error_description) return String(body.error_description);
  } catch {
    /* not JSON */
  }
  return raw.slice(0, 300) || res.statusText;
}

/** Signs in as `login` (by default the read-only viewer); later calls carry its token. */
export async function signIn(login = session.login) {
  const op = operation("auth.token");
  const res = await fetch(op.path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(login).toString() });
  if (!res.ok) throw new CallError(`signing in as ${login.username} failed: ${res.status} ${await errorText(res)}`, res.status);
  session.token = (await res.json()).access_token;
  session.login = login;
  session.name = login.username;
  $("#identity").textContent = `signed in as ${session.name}`;
}

/**
 * Calls operation `id` (`workloads.list`) and returns its JSON answer, unredacted; an error answer
 * throws, naming the call.
 * @param {string} id
 * @param {Request} [request]
 * @returns {Promise<unknown>}
 */
export async function call(id, { params = {}, query, body } = {}, retried = false) {
  const op = operation(id);
  const path = op.path.replace(/\{([a-z_]+)\}/g, (_, k) => encodeURIComponent(String(params[k])));
  if (!session.token) await signIn();
  /** @type {Record<string, string>} */
  const headers = { authorization: `Bearer ${session.token}`, accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  const url = path + queryString(query);
  const res = await fetch(url, { method: op.method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 401 && !retried) {
    // An expired token, or a state whose signing key changed: sign in again, once.
    session.token = undefined;
    return call(id, { params, query, body }, true);
  }
  if (!res.ok) throw new CallError(`${op.method} ${url} answered ${res.status}: ${await errorText(res)}`, res.status);
  return res.json();
}

/**
 * An admin endpoint (/emulator/<path>): no token, never faulted.
 * @param {string} path
 * @param {{ method?: string, body?: string, type?: string }} [options]
 */
export async function admin(path, { method = "GET", body, type = "application/json" } = {}) {
  const res = await fetch(`/emulator/${path}`, { method, headers: body === undefined ? {} : { "content-type": type }, body });
  if (!res.ok) throw new CallError(`${method} /emulator/${path} answered ${res.status}: ${await errorText(res)}`, res.status);
  return res;
}
