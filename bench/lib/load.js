"use strict";
/** Child processes of the benchmarks (the load generator, the direct client), and the bare node:http floor. */
const http = require("node:http");
const path = require("node:path");
const { fork } = require("node:child_process");

/** Forks `file`, sends it `spec`, and resolves with the result it sends back (see loadgen.js, direct-child.js). */
function runChild(file, spec) {
  return new Promise((resolve, reject) => {
    const child = fork(file, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let answered = false;
    child.once("message", (msg) => {
      answered = true;
      if (msg.ok) resolve(msg.result);
      else reject(new Error(`${path.basename(file)} failed: ${msg.error}`));
    });
    child.once("exit", (code) => {
      if (!answered) reject(new Error(`${path.basename(file)} exited with code ${code} before answering`));
    });
    child.send(spec);
  });
}

/** One load run from a second process: { requests, rps, p50, p99, mean, errors, statuses }. */
const load = (spec) => runChild(path.join(__dirname, "loadgen.js"), spec);

/**
 * The floor: a bare node:http server that reads the request body and answers a fixed JSON body per
 * path (the same size as the emulator's answer it stands for), with the headers a JSON API sends.
 */
async function startFloor(bodies) {
  const answers = new Map(Object.entries(bodies).map(([p, body]) => [p, Buffer.from(body)]));
  const server = http.createServer((req, res) => {
    req.on("data", () => undefined);
    req.on("end", () => {
      const body = answers.get(req.url.split("?")[0]);
      if (!body) {
        res.writeHead(404).end();
        return;
      }
      // A create answers 201, as the emulator does.
      res.writeHead(req.method === "POST" ? 201 : 200, { "content-type": "application/json", "content-length": body.length });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}

module.exports = { load, runChild, startFloor };
