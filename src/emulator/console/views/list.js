// @ts-check
/** A paginated, searchable table of one list operation (both of the API's pagination conventions). */
import { call, operation, redacted } from "../api.js";
import { errorBox, h } from "../dom.js";
import { cursorQuery, pager } from "./pager.js";

const PAGE_SIZE = 50;
/** How long the search box waits for more typing before it asks. */
export const SEARCH_DELAY_MS = 250;

/**
 * The query and body of one page of the list, with the search and the cursor.
 * @param {Pick<import("./lists.js").ListConfig<unknown>, "op" | "search">} cfg
 * @param {string} term
 * @param {import("./pager.js").Cursor | undefined} cursor
 */
function pageRequest(cfg, term, cursor) {
  const op = operation(cfg.op);
  /** @type {Record<string, unknown>} */
  const query = {};
  /** @type {unknown} */
  let body;
  if (op.list === "part1") query.pagination_type = "cursor";
  query.page_size = PAGE_SIZE;
  Object.assign(query, cursorQuery(cursor, op.list));
  if (term) {
    const s = cfg.search(term);
    Object.assign(query, s.query ?? {});
    if (s.body) body = s.body;
  }
  if (op.method === "POST" && body === undefined) body = {};
  return { query, body };
}

/**
 * The list view `name` of `cfg`, searching `term` at first. `first` settles when the first page is
 * drawn; `search(term)` searches as if typed into its box.
 * @template R
 * @param {string} name
 * @param {import("./lists.js").ListConfig<R>} cfg
 */
export function listView(name, cfg, term = "") {
  const state = { term, seq: 0 };
  const table = h("table", { class: "list", dataset: { list: name } });
  const status = h("span", { class: "count" });
  const pages = pager("‹ Previous", "Next ›", () => load());
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const search = h("input", {
    type: "search",
    class: "search",
    value: term,
    placeholder: `Search ${cfg.searchLabel ?? cfg.title.toLowerCase()}…`,
    "aria-label": `Search ${cfg.title}`,
    oninput: () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        state.term = search.value.trim();
        pages.cursor = undefined;
        load();
      }, SEARCH_DELAY_MS);
    },
  });
  const errorSlot = h("div");
  const el = h("section", { class: "view" }, h("div", { class: "toolbar" }, h("h2", { text: cfg.title }), search, pages.prev, pages.next, status), errorSlot, table);

  async function load() {
    const seq = ++state.seq;
    el.dataset.state = "loading";
    try {
      const answer = /** @type {import("../api.js").Page<R>} */ (await call(cfg.op, pageRequest(cfg, state.term, pages.cursor)));
      if (seq !== state.seq) return;
      pages.update(answer.pagination);
      const rows = (answer.data ?? []).map(redacted);
      table.replaceChildren(
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            cfg.columns.map((c) => h("th", { text: c.label })),
          ),
        ),
        h(
          "tbody",
          {},
          rows.map((r) =>
            h(
              "tr",
              { dataset: { key: cfg.key(r) } },
              cfg.columns.map((c) => h("td", { dataset: { col: c.col ?? c.label.toLowerCase() } }, c.value(r) ?? "")),
            ),
          ),
        ),
      );
      if (rows.length === 0)
        table.append(h("tbody", {}, h("tr", {}, h("td", { class: "empty", colspan: cfg.columns.length, text: state.term ? `nothing matches '${state.term}'` : "none yet" }))));
      status.textContent = `${rows.length} shown${pages.hasNext() ? ", more on the next page" : ""}`;
      errorSlot.replaceChildren();
      el.dataset.state = "ready";
      performance.mark("svc-console:list-rendered");
    } catch (err) {
      if (seq !== state.seq) return;
      errorSlot.replaceChildren(errorBox(err));
      el.dataset.state = "error";
    }
  }
  return {
    el,
    refresh: load,
    first: load(),
    /** Searches `term`, as if typed into the box. */
    search: (/** @type {string} */ term) => {
      search.value = term;
      search.dispatchEvent(new Event("input"));
    },
  };
}
