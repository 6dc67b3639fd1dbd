// @ts-check
/** A paginated, searchable table of one list operation (both of the API's pagination conventions). */
import { call, operation, redacted } from "../api.js";
import { errorBox, h } from "../dom.js";

const PAGE_SIZE = 50;
/** How long the search box waits for more typing before it asks. */
export const SEARCH_DELAY_MS = 250;

/** @typedef {{ dir: "next" | "prev", value: string }} Cursor */

/**
 * The query and body of one page of the list, with the search and the cursor.
 * @param {Pick<import("./lists.js").ListConfig<unknown>, "op" | "search">} cfg
 * @param {string} term
 * @param {Cursor | undefined} cursor
 */
function pageRequest(cfg, term, cursor) {
  const op = operation(cfg.op);
  /** @type {Record<string, unknown>} */
  const query = {};
  /** @type {unknown} */
  let body;
  if (op.list === "part1") {
    Object.assign(query, { pagination_type: "cursor", page_size: PAGE_SIZE });
    if (cursor) query[cursor.dir === "next" ? "next" : "previous"] = cursor.value;
  } else {
    query.page_size = PAGE_SIZE;
    if (cursor) query[cursor.dir === "next" ? "starting_after" : "ending_before"] = cursor.value;
  }
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
  /** @type {{ term: string, cursor: Cursor | undefined, seq: number }} */
  const state = { term, cursor: undefined, seq: 0 };
  const table = h("table", { class: "list", dataset: { list: name } });
  const status = h("span", { class: "count" });
  const prev = h("button", { type: "button", class: "prev", disabled: true, onclick: () => page("prev") }, "‹ Previous");
  const next = h("button", { type: "button", class: "next", disabled: true, onclick: () => page("next") }, "Next ›");
  /** @type {import("../api.js").Pagination} */
  let pagination = {};
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
        state.cursor = undefined;
        load();
      }, SEARCH_DELAY_MS);
    },
  });
  const errorSlot = h("div");
  const el = h("section", { class: "view" }, h("div", { class: "toolbar" }, h("h2", { text: cfg.title }), search, prev, next, status), errorSlot, table);

  function page(/** @type {Cursor["dir"]} */ dir) {
    const value = dir === "next" ? pagination.next_page : pagination.previous_page;
    if (!value) return;
    state.cursor = { dir, value };
    load();
  }

  async function load() {
    const seq = ++state.seq;
    el.dataset.state = "loading";
    try {
      const answer = /** @type {import("../api.js").Page<R>} */ (await call(cfg.op, pageRequest(cfg, state.term, state.cursor)));
      if (seq !== state.seq) return;
      pagination = answer.pagination ?? {};
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
      prev.disabled = !pagination.previous_page;
      next.disabled = !pagination.next_page;
      status.textContent = `${rows.length} shown${pagination.next_page ? ", more on the next page" : ""}`;
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
