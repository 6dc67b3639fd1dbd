// @ts-check
/**
 * Live updates: the audit log's newest entry is polled every second, and the view on screen is read
 * again when it moved (a list also every few polls, since background work changes states without an
 * audit entry). The fault configuration is polled with it, for the header's badge.
 */
import { admin, call } from "./api.js";
import { $ } from "./dom.js";
import { describeFaults, errorMessage } from "./format.js";

/**
 * What a view gives the router and the live updates: its element, how to read its data again, and
 * whether that is costly enough to wait for a new audit entry.
 * @typedef {{ el: HTMLElement, refresh?: () => unknown, heavy?: boolean }} View
 */

const POLL_MS = 1000;
/** Lists (not the asset tree) are read again this often even without a new audit entry: background work changes states. */
const LIST_REFRESH_POLLS = 5;

/** @type {string | undefined} The newest entry seen (`id:request`), "none" for an empty log. */
let top;
let polls = 0;
/** A control changed the state: the next poll reads the view again. */
let forced = false;
/** @type {(() => void) | undefined} Ends the wait for the next poll. */
let wake;

/** Shows the faults in force in the header (or hides the badge when there are none). */
export function showFaults(/** @type {import("./format.js").FaultStatus} */ status) {
  const badgeEl = $("#faults-badge");
  const words = describeFaults(status);
  badgeEl.hidden = !words;
  badgeEl.textContent = words;
}

/** Reads the view again now (after a control changed the state). */
export function poke() {
  forced = true;
  wake?.();
}

/** Polls for ever; `view()` is the view on screen. */
export async function runLive(/** @type {() => View | undefined} */ view) {
  for (;;) {
    await tick(view);
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      wake = () => (clearTimeout(timer), resolve(undefined));
    });
    wake = undefined;
  }
}

async function tick(/** @type {() => View | undefined} */ current) {
  polls++;
  let changed = forced;
  forced = false;
  const el = $("#live");
  try {
    const answer = /** @type {import("./api.js").Page<import("../../api/instance").AuditLogEntry>} */ (
      await call("instance.auditLogList", { query: { page_size: 1, sort_by: "audit_log.id", sort_asc: false } })
    );
    const newest = answer.data?.[0];
    const now = newest ? `${newest.id}:${newest.request_id}` : "none";
    if (top !== undefined && now !== top) changed = true;
    top = now;
    el.dataset.state = "live";
    el.dataset.top = newest ? String(newest.id) : "0";
    el.textContent = newest ? `live · #${newest.id}` : "live · no changes yet";
    el.title = "live updates: the audit log is polled every second";
  } catch (err) {
    el.dataset.state = "failing";
    el.textContent = "live updates failing";
    el.title = errorMessage(err);
  }
  try {
    showFaults(await (await admin("faults")).json());
  } catch {
    /* the next poll tries again */
  }
  // The view on screen now, not when the poll began.
  const view = current();
  if (view?.refresh && (changed || (!view.heavy && polls % LIST_REFRESH_POLLS === 0))) {
    try {
      await view.refresh();
    } catch {
      /* a view shows its own errors */
    }
  }
}
