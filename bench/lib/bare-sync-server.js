"use strict";
/**
 * A bare node:http server for section 3's floor: it reads the request body and answers a fixed JSON
 * body, either at once or after appending 1 KB to a file opened with O_DSYNC (one write that is also
 * its sync, made in the I/O thread pool as the emulator's log writes are). The difference between the
 * two is what waiting for one small synced append costs any Node server on this machine, waking up
 * after it included, which a bare append timed on its own does not show.
 */
const fs = require("node:fs");
const http = require("node:http");

const LINE = Buffer.alloc(1024, 0x61);
const BODY = JSON.stringify({ name: "bare", title: "Bare answer", asset_type_name: "bench-type", padding: "x".repeat(200) });

/** Starts the server; `syncFile` set: append and sync before each answer. */
function startBareServer(syncFile) {
  const fd = syncFile ? fs.openSync(syncFile, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_DSYNC ?? 0)) : undefined;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const answer = () => {
        res.writeHead(201, { "content-type": "application/json", "content-length": Buffer.byteLength(BODY) });
        res.end(BODY);
      };
      if (fd === undefined) answer();
      else
        fs.write(fd, LINE, (err) => {
          if (err) res.destroy(err);
          else answer();
        });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        baseUrl: `http://127.0.0.1:${server.address().port}`,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => {
              if (fd !== undefined) fs.closeSync(fd);
              r();
            });
          }),
      }),
    ),
  );
}

module.exports = { startBareServer };
