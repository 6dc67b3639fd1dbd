// @ts-check
/** The audit log as a timeline, newest first, with each change's before and after; filtered by request, resource and action. */
import { call, redacted } from "../api.js";
import { errorBox, h, link } from "../dom.js";
import { plural, route } from "../format.js";
import { cursorQuery, pager } from "./pager.js";
import { RECORD_OF_TABLE } from "./records.js";

const AUDIT_PAGE_SIZE = 20;

/**
 * One record's change in an entry's `meta.changes` (src/emulator/audit.ts): its table and key
 * (`app\u0000version` for keys of two parts), before and after (null: did not exist).
 * @typedef {{ table: string, key: string, from: unknown, to: unknown }} Change
 */
/** @typedef {import("../../../api/instance").AuditLogEntry & { meta: { changes?: Change[], more_changes?: number } }} Entry */
/** @typedef {{ path: string, before: string | undefined, after: string | undefined, kind: "added" | "removed" | "changed" }} DiffRow */

/** Leaf values by path (`status.state`, `resources[1]`), as JSON; empty objects and arrays are leaves. */
function flatten(/** @type {unknown} */ value, prefix = "", out = /** @type {Map<string, string>} */ (new Map())) {
  if (value !== null && typeof value === "object" && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, Array.isArray(value) ? `${prefix}[${k}]` : prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix || value !== null) {
    out.set(prefix, JSON.stringify(value));
  }
  return out;
}

/**
 * The rows of a change: each path whose value differs, with its value before and after.
 * @param {unknown} from
 * @param {unknown} to
 * @returns {DiffRow[]}
 */
export function diffRows(from, to) {
  const a = from === null || from === undefined ? new Map() : flatten(from);
  const b = to === null || to === undefined ? new Map() : flatten(to);
  /** @type {DiffRow[]} */
  const rows = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const before = a.get(path);
    const after = b.get(path);
    if (before !== after) rows.push({ path, before, after, kind: before === undefined ? "added" : after === undefined ? "removed" : "changed" });
  }
  return rows;
}

function changeEl(/** @type {Change} */ change) {
  const kind = change.from === null ? "created" : change.to === null ? "deleted" : "changed";
  const recordKind = RECORD_OF_TABLE[change.table];
  const keyParts = String(change.key).split("\u0000");
  const label = `${change.table} ${keyParts.join(" ")}`;
  const rows = diffRows(change.from, change.to);
  return h(
    "div",
    { class: `change ${kind}`, dataset: { table: change.table, key: change.key } },
    h(
      "div",
      { class: "change-head" },
      h("span", { class: `verb ${kind}`, text: kind }),
      recordKind && kind !== "deleted" ? link(label, route(recordKind, ...keyParts)) : h("span", { text: label }),
      h("span", { class: "count", text: plural(rows.length, "field") }),
    ),
    // What changed is shown; a whole record created or deleted opens on demand.
    h(
      "details",
      { open: kind === "changed" },
      h("summary", { text: kind === "changed" ? "before / after" : kind === "created" ? "the record as created" : "the record before it was deleted" }),
      h(
        "table",
        { class: "diff" },
        h("thead", {}, h("tr", {}, h("th", { text: "field" }), h("th", { text: "before" }), h("th", { text: "after" }))),
        h(
          "tbody",
          {},
          rows.map((r) =>
            h(
              "tr",
              { class: `diff ${r.kind}`, dataset: { path: r.path } },
              h("td", { class: "path", text: r.path }),
              h("td", { class: "before", text: r.before ?? "" }),
              h("td", { class: "after", text: r.after ?? "" }),
            ),
          ),
        ),
      ),
    ),
  );
}

/** The audit view's route with one filter (`#/audit?action=UPDATE`). */
const filtered = (/** @type {string} */ key, /** @type {string} */ value) => `${route("audit")}?${key}=${encodeURIComponent(value)}`;

function entryEl(/** @type {Entry} */ e) {
  const changes = e.meta?.changes ?? [];
  return h(
    "li",
    { class: "entry", dataset: { id: e.id, action: e.action, requestId: e.request_id, identifier: e.identifier } },
    h(
      "div",
      { class: "entry-head" },
      h("span", { class: "id", text: `#${e.id}` }),
      h("time", { datetime: e.created, text: e.created }),
      link(e.action, filtered("action", e.action), { class: "action" }),
      link(e.identifier, filtered("identifier", e.identifier), { class: "identifier" }),
      h("span", { class: "who", text: `by ${e.username}` }),
      h("span", { class: "uri", text: e.request_uri }),
      link(`request ${String(e.request_id).slice(0, 8)}`, filtered("request_id", e.request_id), { class: "rid", title: e.request_id }),
    ),
    h(
      "details",
      { open: true },
      h("summary", { text: `${plural(changes.length, "change")}${e.meta?.more_changes ? ` (and ${e.meta.more_changes} more not recorded)` : ""}` }),
      changes.map(changeEl),
    ),
  );
}

/** The filters of the audit view, by query parameter. */
const FILTERS = /** @type {const} */ ([
  ["request_id", "Request id"],
  ["identifier", "Resource"],
  ["action", "Action"],
]);

/**
 * The Audit log view, with the filters of `params` (`request_id`, `identifier`, `action`).
 * @param {URLSearchParams} params
 * @returns {import("../live.js").View}
 */
export function auditView(params) {
  /** @type {Record<string, string>} */
  const filters = Object.fromEntries(FILTERS.map(([key]) => [key, params.get(key) ?? ""]));
  let seq = 0;
  /** @type {Record<string, HTMLInputElement>} */
  const inputs = Object.fromEntries(FILTERS.map(([key]) => [key, h("input", { type: "search", name: key, value: filters[key], class: `filter-${key}` })]));
  const form = h(
    "form",
    {
      class: "filters",
      onsubmit: (ev) => {
        ev.preventDefault();
        const q = new URLSearchParams();
        for (const [k, input] of Object.entries(inputs)) {
          const v = input.value.trim();
          if (v) q.set(k, k === "action" ? v.toUpperCase() : v);
        }
        location.hash = route("audit") + (q.toString() ? `?${q}` : "");
      },
    },
    FILTERS.map(([key, label]) => h("label", {}, label, inputs[key])),
    h("button", { type: "submit" }, "Filter"),
    h("a", { href: route("audit"), class: "clear" }, "clear"),
  );
  const timeline = h("ol", { class: "timeline" });
  const errorSlot = h("div");
  const pages = pager("‹ Newer", "Older ›", () => load());
  const status = h("span", { class: "count" });
  const el = h("section", { class: "view" }, h("div", { class: "toolbar" }, h("h2", { text: "Audit log" }), pages.prev, pages.next, status), form, errorSlot, timeline);

  async function load() {
    const mine = ++seq;
    /** @type {Record<string, unknown>} */
    const query = { page_size: AUDIT_PAGE_SIZE, sort_by: "audit_log.id", sort_asc: false };
    for (const [k, v] of Object.entries(filters)) if (v) query[k] = [v];
    Object.assign(query, cursorQuery(pages.cursor, "inventory"));
    try {
      const answer = /** @type {import("../api.js").Page<Entry>} */ (await call("instance.auditLogList", { query }));
      if (mine !== seq) return;
      pages.update(answer.pagination);
      const entries = (answer.data ?? []).map(redacted);
      timeline.replaceChildren(...entries.map(entryEl));
      if (entries.length === 0) timeline.append(h("li", { class: "empty", text: "no entries" + (Object.values(filters).some(Boolean) ? " match these filters" : " yet") }));
      status.textContent = `${entries.length} entries, newest first`;
      errorSlot.replaceChildren();
      el.dataset.state = "ready";
    } catch (err) {
      if (mine !== seq) return;
      errorSlot.replaceChildren(errorBox(err));
      el.dataset.state = "error";
    }
  }
  el.dataset.state = "loading";
  load();
  // New entries appear on the first page; a later page stays as it is.
  return { el, refresh: () => (pages.cursor ? undefined : load()) };
}
