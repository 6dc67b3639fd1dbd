/**
 * The embedded emulator shared between the processes of a run: the process holding the state file's
 * lock serves and publishes its address; others connect; leftovers of dead processes are ignored;
 * a lock holder that publishes nothing is named after a bounded wait.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { hostname } from "node:os";
import os from "node:os";
import path from "node:path";
import { SvcClient } from "../../src/client";
import { startEmulator } from "../../src/emulator";
import { addressFile, attachEmbedded, type EmbeddedEmulator } from "../../src/provider/embedded";
import { codeOf, rejection } from "../helpers/codes";

const DIST_EMBEDDED = path.join(__dirname, "..", "..", "dist", "provider", "embedded.js");

let dir: string;
let statePath: string;
const open: EmbeddedEmulator[] = [];
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-embedded-"));
  statePath = path.join(dir, "state.json");
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
  for (const c of children.splice(0)) c.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

const attach = async (timeoutMs?: number) => {
  const e = await attachEmbedded(statePath, { timeoutMs });
  open.push(e);
  return e;
};

/** A pid that is certainly not running any more. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(r.stdout.toString());
}

/** Another process that attaches (and so serves) the state file; resolves with its address. */
function serveInChild(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(
    process.execPath,
    ["-e", `require(${JSON.stringify(DIST_EMBEDDED)}).attachEmbedded(process.argv[1]).then((e) => { console.log(JSON.stringify(e)); setInterval(() => {}, 1000); })`, statePath],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.once("data", (d: Buffer) => resolve({ child, baseUrl: (JSON.parse(d.toString()) as { baseUrl: string }).baseUrl }));
    child.once("exit", (code) => reject(new Error(`the serving child exited with ${code}`)));
  });
}

const clusters = async (baseUrl: string) => {
  const c = new SvcClient({ baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  try {
    return (await c.clusters.list()).data.map((x) => x.name);
  } finally {
    await c.close();
  }
};

test("the first process serves and publishes its address; the next one connects to it and sees the same records", async () => {
  const first = await attach();
  expect(first.served).toBe(true);
  expect(JSON.parse(fs.readFileSync(addressFile(statePath), "utf8"))).toMatchObject({ pid: process.pid, host: hostname(), baseUrl: first.baseUrl });
  const second = await attach();
  expect(second).toMatchObject({ served: false, baseUrl: first.baseUrl });
  const c = new SvcClient({ baseUrl: first.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  await c.clusters.create({ body: { name: "plant-a" } });
  await c.close();
  expect(await clusters(second.baseUrl)).toEqual(["plant-a"]);
  await first.close();
  expect(fs.existsSync(addressFile(statePath))).toBe(false);
});

test("another process's emulator is reached over HTTP; when that process is killed, the next attach serves the same state", async () => {
  const { child, baseUrl } = await serveInChild();
  const here = await attach();
  expect(here).toMatchObject({ served: false, baseUrl });
  const c = new SvcClient({ baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  await c.clusters.create({ body: { name: "plant-b" } });
  await c.close();
  const gone = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await gone;
  // The killed process left its address file and lock behind: both are recognised as leftovers.
  expect(fs.existsSync(addressFile(statePath))).toBe(true);
  const after = await attach();
  expect(after.served).toBe(true);
  expect(after.baseUrl).not.toBe(baseUrl);
  expect(await clusters(after.baseUrl)).toEqual(["plant-b"]);
});

test("an address file of a dead process, or of a live one that does not hold the lock, is ignored", async () => {
  fs.writeFileSync(addressFile(statePath), JSON.stringify({ pid: deadPid(), host: hostname(), baseUrl: "http://127.0.0.1:9" }));
  const served = await attach();
  expect(served.served).toBe(true);
  await served.close();
  // This process is alive but holds no lock now: its old address is not trusted.
  fs.writeFileSync(addressFile(statePath), JSON.stringify({ pid: process.pid, host: hostname(), baseUrl: served.baseUrl }));
  const again = await attach();
  expect(again.served).toBe(true);
  expect(again.baseUrl).not.toBe(served.baseUrl);
});

test("a lock holder that publishes no address is named after the wait", async () => {
  const other = await startEmulator({ statePath, log: () => undefined });
  try {
    const t0 = Date.now();
    const err = await rejection(attachEmbedded(statePath, { timeoutMs: 400 }));
    expect(codeOf(err)).toBe("SVC_EMULATOR_STATE_HELD");
    for (const named of [statePath, `process ${process.pid} on ${hostname()}`, `${statePath}.addr`, "400 ms"]) expect(err.message).toContain(named);
    expect(Date.now() - t0).toBeLessThan(5_000);
  } finally {
    await other.close();
  }
});
