/**
 * The emulator console: a plain ES module, written by hand, served by the emulator at /emulator/ui.
 *
 * Everything it shows comes from the API's own operations (named by id; their paths come from
 * /emulator/ui/operations.json, made from the endpoint table), called with a bearer token of a
 * built-in identity like any other client. The emulator's own features (faults, reset, fixtures,
 * snapshots) go through the admin endpoints under /emulator/. Live updates: the audit log's newest
 * entry is polled every second; when it changes, the view on screen is read again.
 *
 * Text from records is only ever set as text (never as markup), and every record is redacted before
 * it is shown, with the audit log's rule: fields named like secrets, and their values wherever
 * another field repeats them, become "[redacted]".
 */

// The emulator's secret-key rule (src/emulator/redaction.ts), which it serves as this module.
import { redact } from "./redaction.js";

const DEFAULT_LOGIN = { grant_type: "password", username: "viewer@example.com", password: "viewer", client_id: "svc-cli" };
const PAGE_SIZE = 50;
const AUDIT_PAGE_SIZE = 20;
const POLL_MS = 1000;
/** Lists (not the asset tree) are read again this often even without a new audit entry: background work changes states. */
const LIST_REFRESH_POLLS = 5;
/** Children shown per tree node before "show more". */
const TREE_BATCH = 200;
/** A tree this small opens entirely at first. */
const TREE_OPEN_ALL = 100;

// ---------------------------------------------------------------------------------------------
// DOM

/** An element: `attrs` sets attributes (`text` the text, `on*` listeners, `dataset` data-*), children are nodes or text. */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = String(v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const $ = (sel, root = document) => root.querySelector(sel);
const text = (v) => (v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));
const get = (obj, path) => path.split(".").reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), obj);
const route = (...parts) => "#/" + parts.map((p) => encodeURIComponent(String(p))).join("/");
const link = (label, href, attrs = {}) => h("a", { href, ...attrs }, label);
const badge = (state) => (state === undefined || state === null || state === "" ? "" : h("span", { class: `badge s-${String(state).replace(/[^a-z0-9_-]/gi, "")}`, text: state }));
const json = (value) => h("pre", { class: "json" }, JSON.stringify(value, null, 2));

function notice(message, kind = "info") {
  const el = $("#notice");
  el.hidden = false;
  el.className = kind;
  el.textContent = message;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => (el.hidden = true), kind === "error" ? 10000 : 4000);
}

// ---------------------------------------------------------------------------------------------
// The API, as a client: a token of a built-in identity, operations by id.

let operations = {};
const session = { token: undefined, login: DEFAULT_LOGIN, name: DEFAULT_LOGIN.username };

class CallError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** `key=v` and `key[]=v` for arrays, as the API reads them. */
function queryString(query = {}) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v)) for (const x of v) p.append(`${k}[]`, String(x));
    else p.append(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** The messages of an error answer, or its text. */
async function errorText(res) {
  const raw = await res.text();
  try {
    const body = JSON.parse(raw);
    const messages = (body.errors ?? []).flatMap((e) => e.message ?? []);
    if (messages.length) return messages.join("; ");
    if (body.error_description) return body.error_description;
  } catch {
    /* not JSON */
  }
  return raw.slice(0, 300) || res.statusText;
}

async function signIn(login = session.login) {
  const op = operations["auth.token"];
  const res = await fetch(op.path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(login).toString() });
  if (!res.ok) throw new CallError(`signing in as ${login.username ?? login.client_id} failed: ${res.status} ${await errorText(res)}`, res.status);
  session.token = (await res.json()).access_token;
  session.login = login;
  session.name = login.username ?? login.client_id;
  $("#identity").textContent = `signed in as ${session.name}`;
}

/** Calls operation `id` (`workloads.list`) and returns its JSON answer; an error answer throws, naming the call. */
async function call(id, { params = {}, query, body } = {}, retried = false) {
  const op = operations[id];
  if (!op) throw new CallError(`the emulator has no read operation ${id}`, 0);
  const path = op.path.replace(/\{([a-z_]+)\}/g, (_, k) => encodeURIComponent(String(params[k])));
  if (!session.token) await signIn();
  const headers = { authorization: `Bearer ${session.token}`, accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  const url = path + queryString(query);
  const res = await fetch(url, { method: op.method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 401 && !retried) {
    // An expired token, or a state whose signing key changed: sign in again, once.
    session.token = undefined;
    return call(id, { params, query, body }, true);
  }
  if (!res.ok) throw new CallError(`${op.method} ${url} answered ${res.status}: ${await errorText(res)}`, res.status);
  return res.json();
}

/** An admin endpoint (/emulator/...): no token, never faulted. */
async function admin(path, { method = "GET", body, type = "application/json" } = {}) {
  const res = await fetch(`/emulator/${path}`, { method, headers: body === undefined ? {} : { "content-type": type }, body });
  if (!res.ok) throw new CallError(`${method} /emulator/${path} answered ${res.status}: ${await errorText(res)}`, res.status);
  return res;
}

// ---------------------------------------------------------------------------------------------
// Lists: one page at a time through the list operation, both pagination conventions.

/** The query and body of one page of list `op`, with the search and the cursor. */
function pageRequest(cfg, term, cursor) {
  const op = operations[cfg.op];
  const query = {};
  let body;
  if (op.list === "part1") {
    Object.assign(query, { pagination_type: "cursor", page_size: PAGE_SIZE });
    if (cursor) query[cursor.dir === "next" ? "next" : "previous"] = cursor.value;
  } else {
    query.page_size = PAGE_SIZE;
    if (cursor) query[cursor.dir === "next" ? "starting_after" : "ending_before"] = cursor.value;
  }
  Object.assign(query, cfg.query ?? {});
  if (term) {
    const s = cfg.search(term);
    Object.assign(query, s.query ?? {});
    if (s.body) body = s.body;
  }
  if (op.method === "POST" && body === undefined) body = cfg.body ?? {};
  return { query, body };
}

const searchQuery = (term) => ({ query: { search: [term] } });

/** The areas' lists: the operation, how search reaches it, the columns, and the record each row opens. */
const LISTS = {
  "asset-classes": {
    title: "Asset classes",
    op: "assets.classList",
    search: searchQuery,
    key: (r) => r.name,
    columns: [
      { label: "Name", value: (r) => link(r.name, route("asset-classes", r.name)) },
      { label: "Title", value: (r) => r.title },
      { label: "Updated", value: (r) => r.updated },
    ],
  },
  "asset-types": {
    title: "Asset types",
    op: "assets.typeList",
    search: searchQuery,
    key: (r) => r.name,
    columns: [
      { label: "Name", value: (r) => link(r.name, route("asset-types", r.name)) },
      { label: "Title", value: (r) => r.title },
      { label: "Class", value: (r) => (r.asset_class_name ? link(r.asset_class_name, route("asset-classes", r.asset_class_name)) : "") },
      { label: "Updated", value: (r) => r.updated },
    ],
  },
  apps: {
    title: "Apps",
    op: "apps.list",
    search: searchQuery,
    key: (r) => r.name,
    columns: [
      { label: "Name", value: (r) => link(r.name, route("apps", r.name)) },
      { label: "Title", value: (r) => r.title },
      { label: "Type", value: (r) => r.type },
      { label: "Latest version", value: (r) => (r.latest_version ? link(r.latest_version, route("app-versions", r.name, r.latest_version)) : "") },
      { label: "Updated", value: (r) => r.updated_at },
    ],
  },
  workloads: {
    title: "Workloads",
    op: "workloads.list",
    search: searchQuery,
    key: (r) => r.name,
    columns: [
      { label: "Name", value: (r) => link(r.name, route("workloads", r.name)) },
      { label: "State", col: "state", value: (r) => badge(get(r, "status.state")) },
      { label: "Cluster", col: "cluster", value: (r) => (r.cluster_name ? link(r.cluster_name, route("clusters", r.cluster_name)) : "") },
      { label: "App", value: (r) => link(`${r.app_name} ${r.app_version}`, route("app-versions", r.app_name, r.app_version)) },
      { label: "Download", value: (r) => r.download_status },
      { label: "Updated", value: (r) => r.updated_at },
    ],
  },
  clusters: {
    title: "Clusters",
    op: "clusters.list",
    search: searchQuery,
    key: (r) => r.name,
    columns: [
      { label: "Name", value: (r) => link(r.name, route("clusters", r.name)) },
      { label: "Status", col: "state", value: (r) => badge(r.status) },
      { label: "Ready", value: (r) => text(r.ready) },
      { label: "Type", value: (r) => r.type },
      { label: "Last seen", value: (r) => r.last_seen },
    ],
  },
  labels: {
    title: "Labels",
    op: "datalabels.labelList",
    search: searchQuery,
    key: (r) => r.name,
    columns: [
      { label: "Name", value: (r) => link(r.name, route("labels", r.name)) },
      { label: "Title", value: (r) => r.title },
      { label: "Updated", value: (r) => r.updated },
    ],
  },
  "data-labels": {
    title: "Data labels",
    op: "datalabels.list",
    search: searchQuery,
    key: (r) => String(r.id),
    columns: [
      { label: "Id", value: (r) => link(String(r.id), route("data-labels", r.id)) },
      { label: "Label", value: (r) => link(r.label_name, route("labels", r.label_name)) },
      { label: "From", value: (r) => r.start_date },
      { label: "To", value: (r) => r.end_date },
      { label: "Metrics", value: (r) => (r.metrics ?? []).map((m) => `${m.asset_name}.${m.name}`).join(", ") },
    ],
  },
  "data-types": {
    title: "Data types",
    op: "datatypes.list",
    search: searchQuery,
    key: (r) => `${r.name} ${r.version}`,
    columns: [
      { label: "Name", value: (r) => link(r.name, route("data-types", r.name, r.version)) },
      { label: "Version", value: (r) => r.version },
      { label: "Class", value: (r) => r.type },
      { label: "Source", value: (r) => r.source },
      { label: "Fields", value: (r) => (get(r, "icd.fields") ?? []).map((f) => f.name).join(", ") },
    ],
  },
  schedules: {
    title: "Schedules",
    op: "schedules.list",
    // The schedule list has no free-text search: the term is an app name.
    search: (term) => ({ body: { apps: [{ name: term }] } }),
    searchLabel: "app name",
    key: (r) => r.id,
    columns: [
      { label: "Id", value: (r) => link(r.id.slice(0, 8), route("schedules", r.id), { title: r.id }) },
      { label: "State", col: "state", value: (r) => badge(r.state) },
      { label: "App", value: (r) => link(`${r.app_name} ${r.app_version}`, route("app-versions", r.app_name, r.app_version)) },
      { label: "Scheduled for", value: (r) => r.scheduled_for },
      { label: "Revert at", value: (r) => get(r, "revert.scheduled_for") ?? "" },
      { label: "Applied", value: (r) => r.applied_at ?? "" },
      { label: "Reverted", value: (r) => r.reverted_at ?? "" },
      { label: "Resources", value: (r) => (r.resources ?? []).join(", ") },
    ],
  },
  assets: {
    title: "Assets",
    op: "assets.list",
    search: searchQuery,
    key: (r) => r.name,
    columns: [
      { label: "Name", value: (r) => link(r.name, route("assets", r.name)) },
      { label: "Path", value: (r) => r.path },
      { label: "Type", value: (r) => link(r.asset_type_name, route("asset-types", r.asset_type_name)) },
      { label: "Status", col: "state", value: (r) => badge(get(r, "status.state")) },
    ],
  },
};

/** Records by kind: the get operation, its parameters from the route's parts, and related lists. */
const RECORDS = {
  assets: {
    title: "Asset",
    op: "assets.get",
    params: ([name]) => ({ asset_name: name }),
    links: (r) => [r.asset_parent_name && ["Parent", route("assets", r.asset_parent_name)], ["Type", route("asset-types", r.asset_type_name)]],
  },
  "asset-classes": { title: "Asset class", op: "assets.classGet", params: ([name]) => ({ asset_class_name: name }) },
  "asset-types": {
    title: "Asset type",
    op: "assets.typeGet",
    params: ([name]) => ({ asset_type_name: name }),
    links: (r) => [r.asset_class_name && ["Class", route("asset-classes", r.asset_class_name)]],
  },
  apps: {
    title: "App",
    op: "apps.get",
    params: ([name]) => ({ app_name: name }),
    related: (r) => [
      {
        title: "Versions",
        rows: (r.versions ?? []).map((v) => [link(v.version, route("app-versions", r.name, v.version)), v.created_at, v.created_by]),
        head: ["Version", "Created", "By"],
      },
      {
        title: "Parameters",
        load: () => call("parameters.list", { query: { pagination_type: "cursor", page_size: 200 }, body: { app_names: [r.name] } }),
        head: ["Name", "Title", "Type"],
        row: (p) => [p.name, p.title, p.data_type],
      },
      {
        title: "Parameter values",
        load: () => call("parameters.valuesList", { query: { pagination_type: "cursor", page_size: 200 }, body: { apps: [{ name: r.name }] } }),
        head: ["Version", "Resource", "Parameter", "Value"],
        row: (v) => [v.app_version, v.resource, v.name, text(v.value)],
      },
      {
        title: "Workloads",
        load: () => call("workloads.list", { query: { pagination_type: "cursor", page_size: 200, app_names: [r.name] } }),
        head: ["Name", "Version", "State", "Cluster"],
        row: workloadRow,
      },
    ],
  },
  "app-versions": {
    title: "App version",
    op: "apps.versionGet",
    params: ([app, version]) => ({ app_name: app, app_version: version }),
    links: (r) => [["App", route("apps", r.name)]],
    related: (r) => [
      { title: "Parameters", rows: (r.parameters ?? []).map((p) => [p.name, p.title ?? "", p.data_type, text(p.default)]), head: ["Name", "Title", "Type", "Default"] },
    ],
  },
  workloads: {
    title: "Workload",
    op: "workloads.get",
    params: ([name]) => ({ workload_name: name }),
    links: (r) => [r.cluster_name && ["Cluster", route("clusters", r.cluster_name)], ["App version", route("app-versions", r.app_name, r.app_version)]],
    state: (r) => get(r, "status.state"),
  },
  clusters: {
    title: "Cluster",
    op: "clusters.get",
    params: ([name]) => ({ cluster_name: name }),
    state: (r) => r.status,
    related: (r) => [
      {
        title: "Workloads on this cluster",
        load: () => call("workloads.list", { query: { pagination_type: "cursor", page_size: 200, cluster_names: [r.name] } }),
        head: ["Name", "Version", "State", "Cluster"],
        row: workloadRow,
      },
    ],
  },
  labels: { title: "Label", op: "datalabels.labelGet", params: ([name]) => ({ label_name: name }) },
  "data-labels": { title: "Data label", op: "datalabels.get", params: ([id]) => ({ datalabel_id: id }), links: (r) => [["Label", route("labels", r.label_name)]] },
  "data-types": { title: "Data type", op: "datatypes.get", params: ([name, version]) => ({ data_type_name: name, data_type_version: version }) },
  schedules: {
    title: "Schedule",
    op: "schedules.get",
    params: ([id]) => ({ schedule_id: id }),
    links: (r) => [["App version", route("app-versions", r.app_name, r.app_version)]],
    state: (r) => r.state,
  },
};

function workloadRow(w) {
  return [link(w.name, route("workloads", w.name)), w.app_version, badge(get(w, "status.state")), w.cluster_name ? link(w.cluster_name, route("clusters", w.cluster_name)) : ""];
}

/** Where an audit change's record opens: its table and key (`app\u0000version` keys are split). */
const RECORD_OF_TABLE = {
  assets: "assets",
  asset_classes: "asset-classes",
  asset_types: "asset-types",
  apps: "apps",
  app_versions: "app-versions",
  workloads: "workloads",
  clusters: "clusters",
  labels: "labels",
  data_labels: "data-labels",
  data_types: "data-types",
  schedules: "schedules",
};

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

// ---------------------------------------------------------------------------------------------
// Views. Each returns { el, refresh?, live? }: refresh reads its data again (live updates call it).

function errorBox(err) {
  return h("div", { class: "error", role: "alert" }, err instanceof Error ? err.message : String(err));
}

/** A paginated, searchable table of one list operation. */
function listView(name, cfg, term = "") {
  const state = { term, cursor: undefined, seq: 0 };
  const table = h("table", { class: "list", dataset: { list: name } });
  const status = h("span", { class: "count" });
  const prev = h("button", { type: "button", class: "prev", disabled: true, onclick: () => page("prev") }, "‹ Previous");
  const next = h("button", { type: "button", class: "next", disabled: true, onclick: () => page("next") }, "Next ›");
  let pagination = {};
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
      }, 250);
    },
  });
  const errorSlot = h("div");
  const el = h("section", { class: "view" }, h("div", { class: "toolbar" }, h("h2", { text: cfg.title }), search, prev, next, status), errorSlot, table);

  function page(dir) {
    const value = dir === "next" ? pagination.next_page : pagination.previous_page;
    if (!value) return;
    state.cursor = { dir, value };
    load();
  }

  async function load() {
    const seq = ++state.seq;
    el.dataset.state = "loading";
    try {
      const answer = await call(cfg.op, pageRequest(cfg, state.term, state.cursor));
      if (seq !== state.seq) return;
      pagination = answer.pagination ?? {};
      const rows = (answer.data ?? []).map(redact);
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
  return { el, refresh: load, first: load() };
}

/** The asset hierarchy as a tree, children rendered when a node opens; searching (`?search=`) switches to the asset list. */
function assetsView(params) {
  // A small tree is shown open (but for the nodes closed by hand); a large one closed (but for those opened).
  const state = { open: new Set(), closed: new Set(), small: true, shown: new Map(), roots: [], seq: 0 };
  const isOpen = (name) => (state.small ? !state.closed.has(name) : state.open.has(name));
  const tree = h("ul", { class: "tree", role: "tree" });
  const errorSlot = h("div");
  const summary = h("span", { class: "count" });
  const initial = params.get("search")?.trim() ?? "";
  const list = listView("assets", LISTS.assets, initial);
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
        const listSearch = $(".search", list.el);
        listSearch.value = term;
        listSearch.dispatchEvent(new Event("input"));
        list.el.hidden = !term;
        treeSection.hidden = !!term;
        if (!term && !state.loaded) load();
      }, 250);
    },
  });
  const treeSection = h("div", { hidden: !!initial }, errorSlot, tree);
  list.el.hidden = !initial;
  const el = h("section", { class: "view" }, h("div", { class: "toolbar" }, h("h2", { text: "Asset hierarchy" }), search, summary), treeSection, list.el);

  const count = (nodes) => nodes.reduce((n, x) => n + 1 + count(x.children ?? []), 0);

  function nodeEl(node) {
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
      { role: "treeitem", dataset: { asset: node.name, state: get(node, "status.state") ?? "" } },
      h(
        "div",
        { class: "node" },
        toggle,
        link(node.name, route("assets", node.name), { class: "name" }),
        h("span", { class: "title", text: node.title }),
        h("span", { class: "type", text: node.asset_type_name }),
        badge(get(node, "status.state")),
        kids.length ? h("span", { class: "kids", text: `${kids.length}` }) : "",
      ),
    );
    if (open && kids.length) li.append(childrenEl(node.name, kids));
    return li;
  }

  function childrenEl(key, nodes) {
    const shown = state.shown.get(key) ?? TREE_BATCH;
    const ul = h("ul", { role: "group" }, nodes.slice(0, shown).map(nodeEl));
    const rest = nodes.length - shown;
    if (rest > 0) {
      const batch = Math.min(rest, TREE_BATCH * 5);
      const label = batch === rest ? `Show the other ${rest.toLocaleString("en")}` : `Show ${batch.toLocaleString("en")} more of ${rest.toLocaleString("en")}`;
      ul.append(h("li", { class: "more" }, h("button", { type: "button", onclick: () => (state.shown.set(key, shown + batch), render()) }, label)));
    }
    return ul;
  }

  function flip(name) {
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
      const answer = await call("assets.hierarchyGet");
      if (seq !== state.seq) return;
      state.roots = redact(answer.data ?? []);
      const total = count(state.roots);
      state.small = total <= TREE_OPEN_ALL;
      summary.textContent = `${total.toLocaleString("en")} assets, ${state.roots.length.toLocaleString("en")} at the top`;
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

/** One record: its JSON (redacted), links to related records, and related lists. */
function recordView(kind, parts) {
  const cfg = RECORDS[kind];
  const el = h("section", { class: "view record", dataset: { kind } });
  let seq = 0;
  async function load() {
    const mine = ++seq;
    try {
      const record = redact(await call(cfg.op, { params: cfg.params(parts) }));
      if (mine !== seq) return;
      const links = (cfg.links?.(record) ?? []).filter(Boolean);
      const state = cfg.state?.(record);
      const related = cfg.related?.(record) ?? [];
      const sections = await Promise.all(
        related.map(async (s) => {
          try {
            const rows = s.rows ?? ((await s.load()).data ?? []).map(redact).map(s.row);
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
        }),
      );
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

// ---------------------------------------------------------------------------------------------
// The audit log as a timeline, with each change's before and after.

/** Leaf values by path (`status.state`, `resources[1]`); empty objects and arrays are leaves. */
function flatten(value, prefix = "", out = new Map()) {
  if (value !== null && typeof value === "object" && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, Array.isArray(value) ? `${prefix}[${k}]` : prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix || value !== null) {
    out.set(prefix, JSON.stringify(value));
  }
  return out;
}

/** The rows of a change: each path whose value differs, with its value before and after. */
export function diffRows(from, to) {
  const a = from === null || from === undefined ? new Map() : flatten(from);
  const b = to === null || to === undefined ? new Map() : flatten(to);
  const rows = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const before = a.get(path);
    const after = b.get(path);
    if (before !== after) rows.push({ path, before, after, kind: before === undefined ? "added" : after === undefined ? "removed" : "changed" });
  }
  return rows;
}

function changeEl(change) {
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
      h("span", { class: "count", text: `${rows.length} field${rows.length === 1 ? "" : "s"}` }),
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

function entryEl(e) {
  const changes = e.meta?.changes ?? [];
  return h(
    "li",
    { class: "entry", dataset: { id: e.id, action: e.action, requestId: e.request_id, identifier: e.identifier } },
    h(
      "div",
      { class: "entry-head" },
      h("span", { class: "id", text: `#${e.id}` }),
      h("time", { datetime: e.created, text: e.created }),
      link(e.action, `${route("audit")}?action=${encodeURIComponent(e.action)}`, { class: "action" }),
      link(e.identifier, `${route("audit")}?identifier=${encodeURIComponent(e.identifier)}`, { class: "identifier" }),
      h("span", { class: "who", text: `by ${e.username}` }),
      h("span", { class: "uri", text: e.request_uri }),
      link(`request ${String(e.request_id).slice(0, 8)}`, `${route("audit")}?request_id=${encodeURIComponent(e.request_id)}`, { class: "rid", title: e.request_id }),
    ),
    h(
      "details",
      { open: true },
      h("summary", { text: `${changes.length} change${changes.length === 1 ? "" : "s"}${e.meta?.more_changes ? ` (and ${e.meta.more_changes} more not recorded)` : ""}` }),
      changes.map(changeEl),
    ),
  );
}

function auditView(params) {
  const filters = { request_id: params.get("request_id") ?? "", identifier: params.get("identifier") ?? "", action: params.get("action") ?? "" };
  const state = { cursor: undefined, seq: 0 };
  const input = (key, label) => h("label", {}, label, h("input", { type: "search", name: key, value: filters[key], class: `filter-${key}` }));
  const form = h(
    "form",
    {
      class: "filters",
      onsubmit: (ev) => {
        ev.preventDefault();
        const q = new URLSearchParams();
        for (const k of Object.keys(filters)) {
          const v = form.elements[k].value.trim();
          if (v) q.set(k, k === "action" ? v.toUpperCase() : v);
        }
        location.hash = route("audit") + (q.toString() ? `?${q}` : "");
      },
    },
    input("request_id", "Request id"),
    input("identifier", "Resource"),
    input("action", "Action"),
    h("button", { type: "submit" }, "Filter"),
    h("a", { href: route("audit"), class: "clear" }, "clear"),
  );
  const timeline = h("ol", { class: "timeline" });
  const errorSlot = h("div");
  const prev = h("button", { type: "button", disabled: true, onclick: () => page("prev") }, "‹ Newer");
  const next = h("button", { type: "button", disabled: true, onclick: () => page("next") }, "Older ›");
  const status = h("span", { class: "count" });
  let pagination = {};
  const el = h("section", { class: "view" }, h("div", { class: "toolbar" }, h("h2", { text: "Audit log" }), prev, next, status), form, errorSlot, timeline);

  function page(dir) {
    const value = dir === "next" ? pagination.next_page : pagination.previous_page;
    if (!value) return;
    state.cursor = { dir, value };
    load();
  }

  async function load() {
    const seq = ++state.seq;
    const query = { page_size: AUDIT_PAGE_SIZE, sort_by: "audit_log.id", sort_asc: false };
    for (const [k, v] of Object.entries(filters)) if (v) query[k] = [v];
    if (state.cursor) query[state.cursor.dir === "next" ? "starting_after" : "ending_before"] = state.cursor.value;
    try {
      const answer = await call("instance.auditLogList", { query });
      if (seq !== state.seq) return;
      pagination = answer.pagination ?? {};
      const entries = (answer.data ?? []).map(redact);
      timeline.replaceChildren(...entries.map(entryEl));
      if (entries.length === 0) timeline.append(h("li", { class: "empty", text: "no entries" + (Object.values(filters).some(Boolean) ? " match these filters" : " yet") }));
      prev.disabled = !pagination.previous_page;
      next.disabled = !pagination.next_page;
      status.textContent = `${entries.length} entries, newest first`;
      errorSlot.replaceChildren();
      el.dataset.state = "ready";
    } catch (err) {
      if (seq !== state.seq) return;
      errorSlot.replaceChildren(errorBox(err));
      el.dataset.state = "error";
    }
  }
  el.dataset.state = "loading";
  load();
  // New entries appear on the first page; a later page stays as it is.
  return { el, refresh: () => (state.cursor ? undefined : load()) };
}

// ---------------------------------------------------------------------------------------------
// The emulator's own features, through the admin endpoints.

const FAULT_STATUSES = [429, 500, 502, 503, 504];

function describeFaults(status) {
  const c = status?.config ?? {};
  const parts = [];
  if (c.rate > 0) parts.push(`${c.rate} × ${(c.statuses ?? []).join("/")}`);
  if (c.reset_rate > 0) parts.push(`resets ${c.reset_rate}`);
  if (c.latency_ms > 0) parts.push(`+${c.latency_ms} ms`);
  if (parts.length && c.methods?.length) parts.push(c.methods.join(","));
  if (parts.length && c.paths?.length) parts.push(c.paths.join(","));
  if (c.package_failure_rate > 0) parts.push(`package downloads fail ${c.package_failure_rate}`);
  if (c.package_ms !== undefined) parts.push(`package downloads take ${c.package_ms} ms`);
  return parts.length ? `faults on: ${parts.join(", ")}` : "";
}

function emulatorView() {
  const faultStatus = h("pre", { class: "json fault-status" });
  const checkbox = (name, value, checked) => h("label", { class: "check" }, h("input", { type: "checkbox", name, value, checked }), String(value));
  const faultForm = h(
    "form",
    {
      class: "faults",
      onsubmit: async (ev) => {
        ev.preventDefault();
        const f = faultForm.elements;
        const values = (name) => [...faultForm.querySelectorAll(`input[name=${name}]:checked`)].map((i) => i.value);
        const config = { rate: Number(f.rate.value), statuses: values("statuses").map(Number) };
        if (values("methods").length) config.methods = values("methods");
        const paths = f.paths.value
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        if (paths.length) config.paths = paths;
        if (f.latency_ms.value) config.latency_ms = Number(f.latency_ms.value);
        if (f.mode.value !== "before") config.mode = f.mode.value;
        if (f.package_failure_rate.value) config.package_failure_rate = Number(f.package_failure_rate.value);
        if (f.package_ms.value) config.package_ms = Number(f.package_ms.value);
        await setFaults(config);
      },
    },
    h("label", {}, "Rate (0–1) ", h("input", { name: "rate", type: "number", min: 0, max: 1, step: "0.05", value: "0" })),
    h(
      "fieldset",
      {},
      h("legend", { text: "Statuses" }),
      FAULT_STATUSES.map((s) => checkbox("statuses", s, s === 503)),
    ),
    h(
      "fieldset",
      {},
      h("legend", { text: "Methods (none: all)" }),
      ["GET", "POST"].map((m) => checkbox("methods", m, false)),
    ),
    h("label", {}, "Paths (comma-separated, * matches anything; none: all) ", h("input", { name: "paths", type: "text", placeholder: "/api/v4/assets/*" })),
    h("label", {}, "Latency (ms) ", h("input", { name: "latency_ms", type: "number", min: 0, max: 60000, step: 1, placeholder: "0" })),
    h(
      "label",
      {},
      "Mode ",
      h("select", { name: "mode" }, h("option", { value: "before" }, "before (no effect)"), h("option", { value: "after_apply" }, "after_apply (applied, answer lost)")),
    ),
    h("label", {}, "Package downloads that fail (0–1) ", h("input", { name: "package_failure_rate", type: "number", min: 0, max: 1, step: "0.05", placeholder: "0" })),
    h("label", {}, "Package download time (ms; none: the emulator's) ", h("input", { name: "package_ms", type: "number", min: 0, step: 1, placeholder: "" })),
    h(
      "div",
      { class: "buttons" },
      h("button", { type: "submit", class: "faults-on" }, "Turn faults on"),
      h("button", { type: "button", class: "faults-off", onclick: () => setFaults({}) }, "Turn faults off"),
    ),
  );

  async function setFaults(config) {
    try {
      const res = await admin("faults", { method: "POST", body: JSON.stringify(config) });
      const status = await res.json();
      showFaults(status);
      notice(describeFaults(status) || "faults off");
    } catch (err) {
      notice(err.message, "error");
    }
  }
  function showFaults(status) {
    faultStatus.textContent = JSON.stringify(status, null, 2);
    fillForm(status.config ?? {});
    live.faults(status);
  }

  let armed;
  const resetButton = h(
    "button",
    {
      type: "button",
      class: "reset danger",
      onclick: async () => {
        if (!armed) {
          resetButton.textContent = "Click again to empty the emulator";
          armed = setTimeout(() => ((armed = undefined), (resetButton.textContent = "Reset")), 5000);
          return;
        }
        clearTimeout(armed);
        armed = undefined;
        resetButton.textContent = "Reset";
        try {
          await admin("reset", { method: "POST" });
          notice("the emulator is empty (tokens stay valid)");
          live.poke();
        } catch (err) {
          notice(err.message, "error");
        }
      },
    },
    "Reset",
  );

  const seedResult = h("div", { class: "seed-result" });
  const fileInput = h("input", { type: "file", name: "fixture", accept: ".yaml,.yml,.json" });
  const seedButton = h(
    "button",
    {
      type: "button",
      class: "seed",
      onclick: async () => {
        const file = fileInput.files?.[0];
        if (!file) return notice("choose a fixture file first (YAML or JSON, as --seed takes)", "error");
        try {
          const res = await admin("seed", { method: "POST", body: await file.text(), type: "application/yaml" });
          const out = await res.json();
          const counts = Object.entries(out.counts ?? {})
            .map(([k, n]) => `${k} ${n}`)
            .join(", ");
          seedResult.replaceChildren(
            h("p", {
              class: "ok",
              text: out.skipped ? `already loaded (${out.skipped.source}, ${out.skipped.seeded_at}); nothing loaded` : `loaded ${file.name}: ${counts || "no entries"}`,
            }),
          );
          live.poke();
        } catch (err) {
          seedResult.replaceChildren(errorBox(err));
        }
      },
    },
    "Load fixture",
  );

  const snapshotResult = h("div", { class: "snapshot-result" });
  const snapshotButton = h(
    "button",
    {
      type: "button",
      class: "snapshot",
      onclick: async () => {
        try {
          const yamlText = await (await admin("snapshot")).text();
          const url = URL.createObjectURL(new Blob([yamlText], { type: "application/yaml" }));
          const name = `emulator-snapshot-${new Date().toISOString().replace(/[:.]/g, "-")}.yaml`;
          const lines = yamlText.split("\n");
          const summary = lines
            .slice(
              Math.max(
                0,
                lines.findIndex((l) => l.startsWith("# Summary")),
              ),
            )
            .join("\n");
          snapshotResult.replaceChildren(
            h("p", {}, link(`Download ${name}`, url, { download: name, class: "download" }), ` (${yamlText.length.toLocaleString("en")} bytes; Load fixture takes it back)`),
            h("pre", { class: "json", text: summary }),
          );
        } catch (err) {
          snapshotResult.replaceChildren(errorBox(err));
        }
      },
    },
    "Take a snapshot",
  );

  const who = h(
    "select",
    { name: "who" },
    h("option", { value: "viewer@example.com" }, "viewer@example.com (read only)"),
    h("option", { value: "admin@example.com" }, "admin@example.com"),
    h("option", { value: "" }, "another user…"),
  );
  who.value = ["viewer@example.com", "admin@example.com"].includes(session.name) ? session.name : "";
  const signInForm = h(
    "form",
    {
      class: "sign-in",
      onsubmit: async (ev) => {
        ev.preventDefault();
        const f = signInForm.elements;
        const builtIn = { "viewer@example.com": "viewer", "admin@example.com": "admin" };
        const username = who.value || f.username.value.trim();
        const password = who.value ? builtIn[who.value] : f.password.value;
        try {
          await signIn({ grant_type: "password", username, password, client_id: "svc-cli" });
          f.password.value = "";
          notice(`signed in as ${username}`);
        } catch (err) {
          notice(err.message, "error");
        }
      },
    },
    who,
    h("input", { name: "username", type: "text", placeholder: "user e-mail", autocomplete: "off" }),
    h("input", { name: "password", type: "password", placeholder: "password", autocomplete: "off" }),
    h("button", { type: "submit" }, "Sign in"),
  );

  const el = h(
    "section",
    { class: "view emulator" },
    h("h2", { text: "Emulator" }),
    h(
      "div",
      { class: "panel" },
      h("h3", { text: "Fault injection" }),
      h("p", { class: "hint", text: "Applies to /api/v4 (and the token endpoints only with include_auth); the console's own reads fail too while it is on." }),
      faultForm,
      faultStatus,
    ),
    h(
      "div",
      { class: "panel" },
      h("h3", { text: "Reset" }),
      h("p", { class: "hint", text: "Empties every record, the audit log and the id sequences; issued tokens keep working." }),
      resetButton,
    ),
    h(
      "div",
      { class: "panel" },
      h("h3", { text: "Load a fixture" }),
      h("p", { class: "hint", text: "A fixture document (the sections --seed takes) into the empty emulator; reset first if it holds records." }),
      fileInput,
      seedButton,
      seedResult,
    ),
    h(
      "div",
      { class: "panel" },
      h("h3", { text: "Take a snapshot" }),
      h("p", { class: "hint", text: "The inventory as a fixture document, as svc-emulator snapshot writes it (no secrets)." }),
      snapshotButton,
      snapshotResult,
    ),
    h("div", { class: "panel" }, h("h3", { text: "Identity" }), h("p", { class: "hint", text: "The console reads the API as a built-in identity, like any client." }), signInForm),
  );
  /** The form shows the configuration in force: when the view opens, and after each change from the page. */
  function fillForm(config) {
    const f = faultForm.elements;
    f.rate.value = String(config.rate ?? 0);
    for (const i of faultForm.querySelectorAll("input[name=statuses]")) i.checked = (config.statuses ?? [503]).includes(Number(i.value));
    for (const i of faultForm.querySelectorAll("input[name=methods]")) i.checked = (config.methods ?? []).includes(i.value);
    f.paths.value = (config.paths ?? []).join(", ");
    f.latency_ms.value = config.latency_ms ? String(config.latency_ms) : "";
    f.mode.value = config.mode ?? "before";
    f.package_failure_rate.value = config.package_failure_rate ? String(config.package_failure_rate) : "";
    f.package_ms.value = config.package_ms !== undefined ? String(config.package_ms) : "";
  }

  el.dataset.state = "loading";
  let shown = false;
  const refresh = async () => {
    try {
      const status = await (await admin("faults")).json();
      // The live refresh leaves the form alone once shown: what the user types there stays.
      if (shown) {
        faultStatus.textContent = JSON.stringify(status, null, 2);
        live.faults(status);
      } else showFaults(status);
      shown = true;
      el.dataset.state = "ready";
    } catch (err) {
      faultStatus.textContent = err.message;
      el.dataset.state = "error";
    }
  };
  refresh();
  return { el, refresh };
}

// ---------------------------------------------------------------------------------------------
// Live updates: the newest audit entry (and the fault configuration), polled.

const live = {
  top: undefined,
  polls: 0,
  forced: false,
  wake: undefined,
  el: () => $("#live"),
  faults(status) {
    const badgeEl = $("#faults-badge");
    const text = describeFaults(status);
    badgeEl.hidden = !text;
    badgeEl.textContent = text;
  },
  /** Reads the view again now (after a control changed the state). */
  poke() {
    this.forced = true;
    this.wake?.();
  },
  async run() {
    for (;;) {
      await this.tick();
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        this.wake = () => (clearTimeout(timer), resolve());
      });
      this.wake = undefined;
    }
  },
  async tick() {
    this.polls++;
    let changed = this.forced;
    this.forced = false;
    try {
      const answer = await call("instance.auditLogList", { query: { page_size: 1, sort_by: "audit_log.id", sort_asc: false } });
      const newest = answer.data?.[0];
      const top = newest ? `${newest.id}:${newest.request_id}` : "none";
      if (this.top !== undefined && top !== this.top) changed = true;
      this.top = top;
      const el = this.el();
      el.dataset.state = "live";
      el.dataset.top = newest ? String(newest.id) : "0";
      el.textContent = newest ? `live · #${newest.id}` : "live · no changes yet";
      el.title = "live updates: the audit log is polled every second";
    } catch (err) {
      const el = this.el();
      el.dataset.state = "failing";
      el.textContent = "live updates failing";
      el.title = err.message;
    }
    try {
      this.faults(await (await admin("faults")).json());
    } catch {
      /* the next poll tries again */
    }
    const view = current;
    if (view?.refresh && (changed || (!view.heavy && this.polls % LIST_REFRESH_POLLS === 0))) {
      try {
        await view.refresh();
      } catch {
        /* a view shows its own errors */
      }
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Routing: #/<view>[/<record key parts>][?filters]

let current;

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, "");
  const [path, query = ""] = raw.split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { name: parts[0] || "assets", parts: parts.slice(1), params: new URLSearchParams(query) };
}

function show() {
  const { name, parts, params } = parseHash();
  let view;
  if (name === "audit") view = auditView(params);
  else if (name === "emulator") view = emulatorView();
  else if (parts.length > 0 && RECORDS[name]) view = recordView(name, parts);
  else if (name === "assets") view = assetsView(params);
  else if (LISTS[name]) view = listView(name, LISTS[name]);
  else view = { el: h("section", { class: "view" }, errorBox(`no view '${name}'; the views: ${NAV.map(([n]) => n).join(", ")}`)) };
  current = view;
  const main = $("#main");
  main.dataset.view = parts.length ? `${name}/record` : name;
  main.dataset.hash = location.hash;
  main.replaceChildren(view.el);
  for (const a of document.querySelectorAll("#nav a")) a.classList.toggle("current", a.dataset.nav === name);
}

async function start() {
  $("#nav").replaceChildren(...NAV.map(([id, label]) => h("a", { href: route(id), dataset: { nav: id } }, label)));
  try {
    const res = await fetch("/emulator/ui/operations.json");
    if (!res.ok) throw new CallError(`GET /emulator/ui/operations.json answered ${res.status}`, res.status);
    operations = await res.json();
    await signIn();
  } catch (err) {
    $("#main").replaceChildren(errorBox(err));
    $("#main").dataset.state = "error";
    return;
  }
  window.addEventListener("hashchange", show);
  show();
  live.run();
}

start();
