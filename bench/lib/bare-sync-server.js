"use strict";
/**
 * Bare node:http servers for section 3's floors. Each reads the request body and answers a fixed JSON
 * body, either at once or after appending to a file opened with O_DSYNC (one write that is also its
 * sync, made in the I/O thread pool as the emulator's log writes are):
 * - serial floor: 1 KB appended and synced per request. Against the same server answering at once,
 *   this is what waiting for one small synced append costs any Node server on this machine, waking up
 *   after it included, which a bare append timed on its own does not show.
 * - concurrent floor: group commit as the emulator's log does it (the appends of the requests handled
 *   in one turn of the event loop go in one write, made right after that turn; those that come while a
 *   write is under way go in the next), and `busyUs` of CPU spent per request, set to what the
 *   in-memory emulator spends, so that the server does the emulator's work less the emulator itself.
 */
const fs = require("node:fs");
const http = require("node:http");

const BODY = JSON.stringify({ name: "bare", title: "Bare answer", asset_type_name: "bench-type", padding: "x".repeat(200) });

function spin(us) {
  const end = process.hrtime.bigint() + BigInt(Math.round(us * 1000));
  while (process.hrtime.bigint() < end);
}

/**
 * Starts a server. Options: `syncFile` (append and sync there before answering), `lineBytes` (bytes
 * appended per request, default 1024), `busyUs` (CPU spent per request, default 0).
 */
function startBareServer({ syncFile, lineBytes = 1024, busyUs = 0 } = {}) {
  const fd = syncFile ? fs.openSync(syncFile, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_DSYNC ?? 0)) : undefined;
  const line = Buffer.alloc(lineBytes, 0x61);
  let pending = [];
  let writing = false;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (writing || pending.length === 0) return;
    const batch = pending;
    pending = [];
    writing = true;
    fs.write(fd, batch.length === 1 ? line : Buffer.concat(batch.map(() => line)), (err) => {
      writing = false;
      for (const answer of batch) answer(err);
      flush();
    });
  };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (busyUs > 0) spin(busyUs);
      const answer = (err) => {
        if (err) return res.destroy(err);
        res.writeHead(201, { "content-type": "application/json", "content-length": Buffer.byteLength(BODY) });
        res.end(BODY);
      };
      if (fd === undefined) return answer();
      pending.push(answer);
      if (!scheduled && !writing) {
        scheduled = true;
        setImmediate(flush);
      }
    });
  });
  server.keepAliveTimeout = 60_000;
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
