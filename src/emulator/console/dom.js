// @ts-check
/**
 * Building the page: elements, links, badges, errors and the notice line. Text from records is only
 * ever set as text (a text node, textContent or an attribute), never as markup.
 */
import { errorMessage } from "./format.js";

/**
 * What `h` sets on an element: `text` its text, `class` its class, `dataset` its data-* attributes,
 * `on<event>` a listener; any other key an attribute (`true` empty, `false`, null or undefined none).
 * @typedef {object} Attrs
 * @property {unknown} [text]
 * @property {string} [class]
 * @property {Record<string, string | number>} [dataset]
 * @property {(ev: MouseEvent) => unknown} [onclick]
 * @property {(ev: Event) => unknown} [oninput]
 * @property {(ev: SubmitEvent) => unknown} [onsubmit]
 */
/** @typedef {Node | string | number | boolean | null | undefined} Leaf */
/** @typedef {Leaf | Leaf[]} Child */

/**
 * An element: `attrs` as {@link Attrs} says, then its children, nodes or text (arrays are spread).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs & Record<string, unknown>} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = String(v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (k === "class") el.className = String(v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * The element `sel` names under `root`; one the page's own markup (index.html) or a view always has.
 * @param {string} sel
 * @param {ParentNode} [root]
 * @returns {HTMLElement}
 */
export function $(sel, root = document) {
  const el = root.querySelector(sel);
  if (!(el instanceof HTMLElement)) throw new Error(`the console's page has no element ${sel}`);
  return el;
}

/** A link: `label` to `href` (a route, or a download's object URL). */
export const link = (/** @type {Child} */ label, /** @type {string} */ href, /** @type {Attrs & Record<string, unknown>} */ attrs = {}) => h("a", { href, ...attrs }, label);

/** A state as a coloured badge (`s-running`), or nothing when there is none. */
export const badge = (/** @type {unknown} */ state) =>
  state === undefined || state === null || state === "" ? "" : h("span", { class: `badge s-${String(state).replace(/[^a-z0-9_-]/gi, "")}`, text: state });

/** A record as indented JSON (console.css wraps its long lines inside the view). */
export const json = (/** @type {unknown} */ value) => h("pre", { class: "json" }, JSON.stringify(value, null, 2));

/** A failure, as the view shows it in place of what it could not read. */
export const errorBox = (/** @type {unknown} */ err) => h("div", { class: "error", role: "alert" }, errorMessage(err));

/** @type {ReturnType<typeof setTimeout> | undefined} */
let noticeTimer;

/** A line at the foot of the page that says what a control did, for a few seconds (errors longer). */
export function notice(/** @type {string} */ message, kind = "info") {
  const el = $("#notice");
  el.hidden = false;
  el.className = kind;
  el.textContent = message;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (el.hidden = true), kind === "error" ? 10000 : 4000);
}
