"use strict";
/**
 * Counts the HTTP requests that servers in this process receive, by wrapping `http.Server#emit`
 * once. The emulators of the provider benchmarks run in this process (the engine kit starts its
 * own), so this counts every request the provider host or the client makes, as the emulator sees it.
 */
const http = require("node:http");
const { TOKEN_PATH } = require("./common");

const counts = { requests: 0, token: 0, byRoute: {} };
let installed = false;

function install() {
  if (installed) return;
  installed = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, req, ...rest) {
    if (event === "request") {
      const p = req.url.split("?")[0];
      counts.requests++;
      if (p === TOKEN_PATH || p === "/api/v4/auth/token/get") counts.token++;
      const key = `${req.method} ${p.replace(/\/api\/v4\/([^/]+)\/[^/]+\/(get|update|delete)$/, "/api/v4/$1/{name}/$2")}`;
      counts.byRoute[key] = (counts.byRoute[key] ?? 0) + 1;
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
}

/** The counts since the last reset: { requests, token, api (requests other than token requests), byRoute }. */
function snapshot() {
  return { requests: counts.requests, token: counts.token, api: counts.requests - counts.token, byRoute: { ...counts.byRoute } };
}

module.exports = { reset, snapshot };
