"use strict";
/**
 * Counts the HTTP requests that servers in this process receive, by wrapping `http.Server#emit`
 * once. The emulators of the provider benchmarks run in this process (the engine kit starts its
 * own), so this counts every request the provider host or the client makes, as the emulator sees it.
 * Requests are counted by the operation of the endpoint table they address (`assets.get`,
 * `assets.propertyGet`, ...), and by what they do (the last word of the path: get, list, create, ...).
 */
const http = require("node:http");
const { TOKEN_PATH, dist } = require("./common");

const counts = { requests: 0, token: 0, byRoute: {}, byVerb: {} };
let installed = false;
let matchers;

/** Endpoint matchers, most static segments first (a static segment wins over a parameter, as in the router). */
function endpointMatchers() {
  if (matchers) return matchers;
  const { endpoints } = dist("api/endpoints");
  const { servedPath } = dist("emulator/paths");
  matchers = endpoints
    .map((ep) => {
      const p = servedPath(ep);
      const statics = p.split("/").filter((s) => s && !s.startsWith("{")).length;
      const re = new RegExp("^" + p.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[a-z_]+\\?\}/g, "[^/]+") + "/?$");
      return { id: ep.id, method: ep.method, re, statics };
    })
    .sort((a, b) => b.statics - a.statics);
  return matchers;
}

function operationOf(method, p) {
  for (const m of endpointMatchers()) if (m.method === method && m.re.test(p)) return m.id;
  return `${method} ${p}`;
}

function install() {
  if (installed) return;
  installed = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, req, ...rest) {
    if (event === "request") {
      const p = req.url.split("?")[0];
      counts.requests++;
      if (p === TOKEN_PATH || p === "/api/v4/auth/token/get") counts.token++;
      const key = operationOf(req.method, p);
      counts.byRoute[key] = (counts.byRoute[key] ?? 0) + 1;
      const verb = p.slice(p.lastIndexOf("/") + 1);
      counts.byVerb[verb] = (counts.byVerb[verb] ?? 0) + 1;
    }
    return emit.call(this, event, req, ...rest);
  };
}

/** Starts counting from zero. */
function reset() {
  install();
  counts.requests = 0;
  counts.token = 0;
  counts.byRoute = {};
  counts.byVerb = {};
}

/**
 * The counts since the last reset: { requests, token, api (requests other than token requests),
 * byRoute (by endpoint id), byVerb (by the path's last word: get, list, create, update, delete, token) }.
 */
function snapshot() {
  return { requests: counts.requests, token: counts.token, api: counts.requests - counts.token, byRoute: { ...counts.byRoute }, byVerb: { ...counts.byVerb } };
}

module.exports = { reset, snapshot };
