// @ts-check
/**
 * The asset hierarchy as a tree, a node's children drawn when it opens, a batch at a time (a plant of
 * 10,000 assets draws its top level at once); searching (`#/assets?search=`) switches to the asset list.
 */
import { call, redacted } from "../api.js";
import { badge, errorBox, h, link } from "../dom.js";
import { route, thousands } from "../format.js";
import { listView, SEARCH_DELAY_MS } from "./list.js";
import { LISTS } from "./lists.js";

/** @typedef {import("../../../api/assets").AssetHierarchyNode} TreeNode */

/** Children shown per tree node before "show more". */
const TREE_BATCH = 200;
/** A tree this small opens entirely at first. */
const TREE_OPEN_ALL = 100;

/**
 * How many nodes, at any depth.
 * @param {TreeNode[]} nodes
 * @returns {number}
 */
const count = (nodes) => nodes.reduce((n, x) => n + 1 + count(x.children ?? []), 0);

/**
 * The Assets view, searching `params`' `search` at first.
 * @param {URLSearchParams} params
 * @returns {import("../live.js").View}
 */
export function assetsView(params) {
  // A small tree is shown open (but for the nodes closed by hand); a large one closed (but for those opened).
  // `shown`: how many children each node shows ("" for the top level).
  /** @type {{ open: Set<string>, closed: Set<string>, small: boolean, shown: Map<string, number>, roots: TreeNode[], seq: number, loaded: boolean }} */
  const state = { open: new Set(), closed: new Set(), small: true, shown: new Map(), roots: [], seq: 0, loaded: false };
  const isOpen = (/** @type {string} */ name) => (state.small ? !state.closed.has(name) : state.open.has(name));
  const tree = h("ul", { class: "tree", role: "tree" });
  const errorSlot = h("div");
  const summary = h("span", { class: "count" });
  const initial = params.get("search")?.trim() ?? "";
  const list = listView("assets", LISTS.assets, initial);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const search = h("input", {
    type: "search",
    class: "search",
    value: initial,
    placeholder: "Search assets by name or title…",
    "aria-label": "Search assets",
    oninput: () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const term = search.value.trim();
        list.search(term);
        list.el.hidden = !term;
        treeSection.hidden = !!term;
        if (!term && !state.loaded) load();
      }, SEARCH_DELAY_MS);
    },
  });
  const treeSection = h("div", { hidden: !!initial }, errorSlot, tree);
  list.el.hidden = !initial;
  const el = h("section", { class: "view" }, h("div", { class: "toolbar" }, h("h2", { text: "Asset hierarchy" }), search, summary), treeSection, list.el);

  /** @returns {HTMLLIElement} */
  function nodeEl(/** @type {TreeNode} */ node) {
    const kids = node.children ?? [];
    const open = isOpen(node.name);
    const toggle = kids.length
      ? h(
          "button",
          { type: "button", class: "toggle", "aria-expanded": String(open), "aria-label": `${open ? "Close" : "Open"} ${node.name}`, onclick: () => flip(node.name) },
          open ? "▾" : "▸",
        )
      : h("span", { class: "toggle leaf" }, "·");
    const li = h(
      "li",
      { role: "treeitem", dataset: { asset: node.name, state: node.status?.state ?? "" } },
      h(
        "div",
        { class: "node" },
        toggle,
        link(node.name, route("assets", node.name), { class: "name" }),
        h("span", { class: "title", text: node.title }),
        h("span", { class: "type", text: node.asset_type_name }),
        badge(node.status?.state),
        kids.length ? h("span", { class: "kids", text: `${kids.length}` }) : "",
      ),
    );
    if (open && kids.length) li.append(childrenEl(node.name, kids));
    return li;
  }

  /** The first children of `key` (a batch more each time its button is pressed). */
  function childrenEl(/** @type {string} */ key, /** @type {TreeNode[]} */ nodes) {
    const shown = state.shown.get(key) ?? TREE_BATCH;
    const ul = h("ul", { role: "group" }, nodes.slice(0, shown).map(nodeEl));
    const rest = nodes.length - shown;
    if (rest > 0) {
      const batch = Math.min(rest, TREE_BATCH * 5);
      const label = batch === rest ? `Show the other ${thousands(rest)}` : `Show ${thousands(batch)} more of ${thousands(rest)}`;
      ul.append(h("li", { class: "more" }, h("button", { type: "button", onclick: () => (state.shown.set(key, shown + batch), render()) }, label)));
    }
    return ul;
  }

  function flip(/** @type {string} */ name) {
    const open = isOpen(name);
    for (const set of [state.open, state.closed]) set.delete(name);
    (open ? state.closed : state.open).add(name);
    render();
  }

  function render() {
    const fresh = childrenEl("", state.roots);
    tree.replaceChildren(...fresh.childNodes);
  }

  async function load() {
    const seq = ++state.seq;
    state.loaded = true;
    try {
      const answer = /** @type {{ data?: TreeNode[] }} */ (await call("assets.hierarchyGet"));
      if (seq !== state.seq) return;
      state.roots = redacted(answer.data ?? []);
      const total = count(state.roots);
      state.small = total <= TREE_OPEN_ALL;
      summary.textContent = `${thousands(total)} assets, ${thousands(state.roots.length)} at the top`;
      render();
      if (state.roots.length === 0) tree.replaceChildren(h("li", { class: "empty", text: "no assets yet" }));
      errorSlot.replaceChildren();
      el.dataset.state = "ready";
      performance.mark("svc-console:tree-rendered");
    } catch (err) {
      if (seq !== state.seq) return;
      errorSlot.replaceChildren(errorBox(err));
      el.dataset.state = "error";
    }
  }
  el.dataset.state = "loading";
  // Opened on a search, the view shows the list; the hierarchy is read when the search is cleared.
  if (initial) list.first.then(() => (el.dataset.state = list.el.dataset.state));
  else load();
  return {
    el,
    refresh: () => (list.el.hidden ? load() : list.refresh()),
    // The whole hierarchy is read again only when the audit log moved, not on every poll.
    heavy: true,
  };
}
