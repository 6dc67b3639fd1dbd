/**
 * The dynamic-provider host leaves with its engine (src/provider/host-exit.ts), without the CLI: an
 * "engine" process starts a script named like the plugin's (`pulumi-resource-pulumi-nodejs`), which
 * runs node and waits for it, as the real script does; the node process watches. Killing the engine
 * alone (kill -9 of its pid) leaves the script waiting, so the host must notice its grandparent go.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { inDynamicProviderHost } from "../../src/provider/host-exit";

const dist = path.join(__dirname, "..", "..", "dist", "provider", "host-exit.js");

function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Polls (at most `ms`) until `pid` no longer runs. */
async function ended(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (running(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return !running(pid);
}

const onLinux = process.platform === "linux" ? test : test.skip;

onLinux("a host started through the plugin's script ends soon after its engine is killed, not before", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-host-exit-"));
  try {
    const host = path.join(dir, "host.js");
    // The watched host: reports its pid once it watches, then lives until something ends it.
    fs.writeFileSync(
      host,
      `const w = require(${JSON.stringify(dist)}).watchEngine({ force: true, intervalMs: 100 });
       process.stdout.write(JSON.stringify({ host: process.pid, watched: w && w.watched }) + "\\n");
       setInterval(() => undefined, 1 << 30);`,
    );
    const script = path.join(dir, "pulumi-resource-pulumi-nodejs");
    fs.writeFileSync(script, `#!/bin/sh\n"${process.execPath}" "${host}" "$@"\n`, { mode: 0o755 });
    // The engine: starts the script, passes the host's line on, and lives until killed.
    const engine = spawn(
      process.execPath,
      ["-e", `const c = require("node:child_process").spawn(${JSON.stringify(script)}, [], { stdio: ["ignore", "inherit", "inherit"] }); setInterval(() => undefined, 1 << 30);`],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      engine.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0]);
      });
      engine.once("exit", () => reject(new Error(`the engine ended first: ${out}`)));
    });
    const { host: hostPid, watched } = JSON.parse(line) as { host: number; watched: number[] };
    try {
      // It watches the script and, behind it, the engine.
      expect(watched).toHaveLength(2);
      expect(watched[1]).toBe(engine.pid);
      expect(running(hostPid)).toBe(true);
      process.kill(engine.pid!, "SIGKILL");
      expect(await ended(hostPid, 10_000)).toBe(true);
    } finally {
      if (running(hostPid)) process.kill(hostPid, "SIGKILL");
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("only @pulumi/pulumi's dynamic-provider host is watched", () => {
  expect(inDynamicProviderHost(["node", "/x/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js", "127.0.0.1:1"])).toBe(true);
  expect(inDynamicProviderHost(["node", "/x/node_modules/@pulumi/pulumi/cmd/dynamic-provider", "127.0.0.1:1"])).toBe(true);
  expect(inDynamicProviderHost(["node", "/x/node_modules/jest-worker/build/workers/processChild.js"])).toBe(false);
  expect(inDynamicProviderHost(["node", "/x/program/index.js"])).toBe(false);
  expect(inDynamicProviderHost(["node"])).toBe(false);
});
