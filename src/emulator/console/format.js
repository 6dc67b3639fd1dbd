// @ts-check
/** How the console writes values, routes and the fault configuration as text. */

/**
 * @typedef {object} FaultConfig The fault configuration in force, as GET /emulator/faults answers it (src/emulator/faults.ts).
 * @property {number} [rate]
 * @property {number[]} [statuses]
 * @property {string[]} [methods]
 * @property {string[]} [paths]
 * @property {number} [reset_rate]
 * @property {number} [latency_ms]
 * @property {string} [mode]
 * @property {number} [package_failure_rate]
 * @property {number} [package_ms]
 */
/** @typedef {{ config?: FaultConfig }} FaultStatus */

/** A value as a cell's text: nothing for none, JSON for objects. */
export const text = (/** @type {unknown} */ v) => (v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));

/** The hash of a view: `route("app-versions", app, version)` is `#/app-versions/<app>/<version>`, each part encoded. */
export const route = (/** @type {Array<string | number>} */ ...parts) => "#/" + parts.map((p) => encodeURIComponent(String(p))).join("/");

/** `n` with thousands separators, as every count on the page is written. */
export const thousands = (/** @type {number} */ n) => n.toLocaleString("en");

/** `1 field`, `2 fields`. */
export const plural = (/** @type {number} */ n, /** @type {string} */ noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** The header's words for the faults in force ("faults on: 0.5 × 503, +200 ms"), or "" when none are. */
export function describeFaults(/** @type {FaultStatus | undefined} */ status) {
  const c = status?.config ?? {};
  const parts = [];
  if (c.rate && c.rate > 0) parts.push(`${c.rate} × ${(c.statuses ?? []).join("/")}`);
  if (c.reset_rate && c.reset_rate > 0) parts.push(`resets ${c.reset_rate}`);
  if (c.latency_ms && c.latency_ms > 0) parts.push(`+${c.latency_ms} ms`);
  if (parts.length && c.methods?.length) parts.push(c.methods.join(","));
  if (parts.length && c.paths?.length) parts.push(c.paths.join(","));
  if (c.package_failure_rate && c.package_failure_rate > 0) parts.push(`package downloads fail ${c.package_failure_rate}`);
  if (c.package_ms !== undefined) parts.push(`package downloads take ${c.package_ms} ms`);
  return parts.length ? `faults on: ${parts.join(", ")}` : "";
}

/** What went wrong, in words: an error's message. */
export const errorMessage = (/** @type {unknown} */ err) => (err instanceof Error ? err.message : String(err));
