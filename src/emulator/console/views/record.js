// @ts-check
/** One record: its JSON (redacted), its state, links to the records it names, and its related lists. */
import { call, redacted } from "../api.js";
import { badge, errorBox, h, json, link } from "../dom.js";
import { route } from "../format.js";
import { RECORDS } from "./records.js";

/** A related list as a table (or "none"), or the failure to read it. */
async function relatedEl(/** @type {import("./records.js").Related} */ s) {
  try {
    const rows = typeof s.rows === "function" ? await s.rows() : s.rows;
    return h(
      "div",
      { class: "related", dataset: { related: s.title } },
      h("h3", { text: s.title }),
      rows.length
        ? h(
            "table",
            { class: "list" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                s.head.map((x) => h("th", { text: x })),
              ),
            ),
            h(
              "tbody",
              {},
              rows.map((r) =>
                h(
                  "tr",
                  {},
                  r.map((c) => h("td", {}, c)),
                ),
              ),
            ),
          )
        : h("p", { class: "empty", text: "none" }),
    );
  } catch (err) {
    return h("div", { class: "related" }, h("h3", { text: s.title }), errorBox(err));
  }
}

/**
 * The record of `kind` (a key of RECORDS) that the route's `parts` name.
 * @param {string} kind
 * @param {string[]} parts
 * @returns {import("../live.js").View}
 */
export function recordView(kind, parts) {
  const cfg = RECORDS[kind];
  const el = h("section", { class: "view record", dataset: { kind } });
  let seq = 0;
  async function load() {
    const mine = ++seq;
    try {
      const record = redacted(await call(cfg.op, { params: cfg.params(parts) }));
      if (mine !== seq) return;
      const links = (cfg.links?.(record) ?? []).filter((l) => !!l);
      const state = cfg.state?.(record);
      const sections = await Promise.all((cfg.related?.(record) ?? []).map(relatedEl));
      if (mine !== seq) return;
      el.replaceChildren(
        h(
          "div",
          { class: "toolbar" },
          h("h2", {}, `${cfg.title} `, h("span", { class: "key", text: parts.join(" ") })),
          badge(state),
          ...links.map(([label, href]) => link(label, href, { class: "rel" })),
          link("audit entries", route("audit") + "?identifier=" + encodeURIComponent(parts[0]), { class: "rel" }),
        ),
        h("div", { class: "record-body" }, h("div", { class: "related-lists" }, sections), json(record)),
      );
      el.dataset.state = "ready";
    } catch (err) {
      if (mine !== seq) return;
      el.replaceChildren(h("div", { class: "toolbar" }, h("h2", {}, `${cfg.title} ${parts.join(" ")}`)), errorBox(err));
      el.dataset.state = "error";
    }
  }
  el.dataset.state = "loading";
  load();
  return { el, refresh: load };
}
