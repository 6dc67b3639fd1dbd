"use strict";
/**
 * A process that starts the emulator embedded (`startEmulator`) and prints `READY <baseUrl>`; with a
 * state path it loads that state first. `bare` instead starts a plain node:http server (the floor of
 * process start-up). Used by the start-up benchmark: node embedded-child.js <dist> <bare|memory|STATE_PATH>
 */
const path = require("node:path");

const [distDir, mode] = process.argv.slice(2);

async function main() {
  if (mode === "bare") {
    const http = require("node:http");
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${server.address().port}`;
  }
  const { startEmulator } = require(path.join(distDir, "emulator"));
  const emu = await startEmulator({ log: () => undefined, ...(mode === "memory" ? {} : { statePath: mode }) });
  process.on("SIGTERM", () => emu.close().then(() => process.exit(0)));
  return emu.baseUrl;
}

main().then(
  (url) => process.stdout.write(`READY ${url}\n`),
  (err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  },
);
