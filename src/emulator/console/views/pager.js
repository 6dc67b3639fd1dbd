// @ts-check
/** Previous and next buttons over the pages of a list operation, and the cursor of the page to read. */
import { h } from "../dom.js";

/** @typedef {{ dir: "next" | "prev", value: string }} Cursor */

/**
 * The query parameters that ask for the page `cursor` names, in the list's convention (part 1:
 * `next`/`previous`; the inventory's: `starting_after`/`ending_before`).
 * @param {Cursor | undefined} cursor
 * @param {import("../../../api/endpoint").ListConvention | undefined} convention
 * @returns {Record<string, string>}
 */
export function cursorQuery(cursor, convention) {
  if (!cursor) return {};
  const next = cursor.dir === "next";
  return convention === "part1" ? { [next ? "next" : "previous"]: cursor.value } : { [next ? "starting_after" : "ending_before"]: cursor.value };
}

/**
 * The buttons, labelled `prevLabel` and `nextLabel`; pressing one sets `cursor` and calls `load`,
 * which reads that page and gives its pagination to `update`.
 * @param {string} prevLabel
 * @param {string} nextLabel
 * @param {() => unknown} load
 */
export function pager(prevLabel, nextLabel, load) {
  /** @type {import("../api.js").Pagination} */
  let pagination = {};
  const go = (/** @type {Cursor["dir"]} */ dir) => {
    const value = dir === "next" ? pagination.next_page : pagination.previous_page;
    if (!value) return;
    self.cursor = { dir, value };
    load();
  };
  const self = {
    prev: h("button", { type: "button", class: "prev", disabled: true, onclick: () => go("prev") }, prevLabel),
    next: h("button", { type: "button", class: "next", disabled: true, onclick: () => go("next") }, nextLabel),
    /** @type {Cursor | undefined} The page to read; none: the first. */
    cursor: undefined,
    /** After a page is read: the buttons say which way there are more. */
    update(/** @type {import("../api.js").Pagination | undefined} */ p) {
      pagination = p ?? {};
      self.prev.disabled = !pagination.previous_page;
      self.next.disabled = !pagination.next_page;
    },
    hasNext: () => !!pagination.next_page,
  };
  return self;
}
