// @ts-check
/**
 * The emulator console: plain ES modules, written by hand, served by the emulator at /emulator/ui.
 * This one starts the page and routes `#/<view>[/<record key parts>][?filters]` to a view
 * (views/: the asset tree, the areas' lists, a record, the audit log, the emulator's controls).
 *
 * Everything it shows comes from the API's own operations, called like any other client (api.js),
 * every record redacted with the audit log's rule; the emulator's own features go through the
 * admin endpoints under /emulator/. Live updates (live.js) read the view on screen again when the
 * audit log moves.
 */
import { loadOperations, signIn } from "./api.js";
import { $, errorBox, h } from "./dom.js";
import { route } from "./format.js";
import { runLive } from "./live.js";
import { assetsView } from "./views/assets.js";
import { auditView } from "./views/audit.js";
import { emulatorView } from "./views/emulator.js";
import { listView } from "./views/list.js";
import { LISTS } from "./views/lists.js";
import { recordView } from "./views/record.js";
import { RECORDS } from "./views/records.js";

/** The views in the navigation bar, by route name. */
const NAV = [
  ["assets", "Assets"],
  ["asset-classes", "Asset classes"],
  ["asset-types", "Asset types"],
  ["apps", "Apps"],
  ["workloads", "Workloads"],
  ["clusters", "Clusters"],
  ["labels", "Labels"],
  ["data-labels", "Data labels"],
  ["data-types", "Data types"],
  ["schedules", "Schedules"],
  ["audit", "Audit log"],
  ["emulator", "Emulator"],
];

/** @type {import("./live.js").View | undefined} The view on screen. */
let current;

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, "");
  const [path, query = ""] = raw.split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { name: parts[0] || "assets", parts: parts.slice(1), params: new URLSearchParams(query) };
}

/** The view the route names. */
function viewOf(/** @type {string} */ name, /** @type {string[]} */ parts, /** @type {URLSearchParams} */ params) {
  if (name === "audit") return auditView(params);
  if (name === "emulator") return emulatorView();
  if (parts.length > 0 && RECORDS[name]) return recordView(name, parts);
  if (name === "assets") return assetsView(params);
  if (LISTS[name]) return listView(name, LISTS[name]);
  return { el: h("section", { class: "view" }, errorBox(`no view '${name}'; the views: ${NAV.map(([n]) => n).join(", ")}`)) };
}

function show() {
  const { name, parts, params } = parseHash();
  const view = viewOf(name, parts, params);
  current = view;
  const main = $("#main");
  main.dataset.view = parts.length ? `${name}/record` : name;
  main.dataset.hash = location.hash;
  main.replaceChildren(view.el);
  for (const a of document.querySelectorAll("#nav a")) a.classList.toggle("current", a instanceof HTMLElement && a.dataset.nav === name);
}

async function start() {
  $("#nav").replaceChildren(...NAV.map(([id, label]) => h("a", { href: route(id), dataset: { nav: id } }, label)));
  try {
    await loadOperations();
    await signIn();
  } catch (err) {
    $("#main").replaceChildren(errorBox(err));
    $("#main").dataset.state = "error";
    return;
  }
  window.addEventListener("hashchange", show);
  show();
  runLive(() => current);
}

start();
