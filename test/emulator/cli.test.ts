/**
 * `svc-emulator serve` as a child process (the built dist/cli/svc-emulator.js: `npm test` builds it; when
 * running jest alone, run `npx tsc -p tsconfig.build.json` first). Covers start-up output, the
 * default bind address, flags, SIGTERM, the state file lock between processes, and crash safety:
 * SIGKILL during a burst of writes loses no answered write.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { startEmulator } from "../../src/emulator";
import { readSnapshot } from "../../src/emulator/store/persistence";
import { codeOf } from "../helpers/codes";

const CLI = resolve(__dirname, "../../dist/cli/svc-emulator.js");

interface Child {
  proc: ChildProcess;
  baseUrl: string;
  output(): { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children: ChildProcess[] = [];

/** Starts `serve` with the given flags; resolves once it printed its address, rejects if it exits first. */
function serve(args: string[]): Promise<Child> {
  const proc = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(proc);
  let stdout = "";
  let stderr = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => proc.once("exit", (code, signal) => r({ code, signal })));
  return new Promise<Child>((resolvePromise, reject) => {
    proc.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const m = /listening on (http:\/\/\S+) /.exec(stdout);
      if (m) resolvePromise({ proc, baseUrl: m[1], output: () => ({ stdout, stderr }), exited });
    });
    proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    void exited.then(({ code }) => reject(Object.assign(new Error(`svc-emulator exited with ${code}: ${stderr}`), { code, stderr, stdout })));
  });
}

/** Runs `serve` expecting it to fail; resolves with its exit code and stderr. */
async function serveFails(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const c = await serve(args);
    c.proc.kill("SIGKILL");
    throw new Error(`expected svc-emulator to fail, but it listens on ${c.baseUrl}`);
  } catch (err) {
    const e = err as { code?: number; stderr?: string };
    if (e.code === undefined) throw err;
    return { code: e.code, stderr: e.stderr ?? "" };
  }
}

async function adminToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/auth/realms/svc/protocol/openid-connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=password&username=admin%40example.com&password=admin&client_id=svc-cli",
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

const createCluster = (baseUrl: string, token: string, name: string) =>
  fetch(`${baseUrl}/api/v4/orchestration/clusters/create`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });

let dir: string;
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first with 'npx tsc -p tsconfig.build.json' (npm test does it)`);
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-cli-"));
});
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe("svc-emulator serve", () => {
  test("prints the base URL, binds 127.0.0.1 by default, serves the API and the admin endpoints there", async () => {
    const c = await serve([]);
    expect(c.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(c.output().stdout).toContain(`API at ${c.baseUrl}/api/v4`);
    expect((await fetch(`${c.baseUrl}/api/v4/openapi.json`)).status).toBe(200);
    expect((await fetch(`${c.baseUrl}/emulator/state`)).status).toBe(200);
    c.proc.kill("SIGTERM");
    expect(await c.exited).toEqual({ code: 0, signal: null });
  });

  test("--seed loads a fixture file at start; --no-admin hides /emulator/*", async () => {
    const seed = join(dir, "seed.yaml");
    writeFileSync(seed, "clusters:\n  - name: line-1\n  - name: line-2\n    title: Line 2\n");
    const c = await serve(["--seed", seed, "--no-admin"]);
    const token = await adminToken(c.baseUrl);
    const list = await fetch(`${c.baseUrl}/api/v4/orchestration/clusters/list`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await list.json()) as { data: Array<{ name: string }> }).data.map((x) => x.name).sort()).toEqual(["line-1", "line-2"]);
    expect((await fetch(`${c.baseUrl}/emulator/state`)).status).toBe(404);
    expect((await fetch(`${c.baseUrl}/emulator/reset`, { method: "POST" })).status).toBe(404);
  });

  test("bound beyond loopback, the unauthenticated admin endpoints are off unless --admin asks for them", async () => {
    const open = await serve(["--host", "0.0.0.0"]);
    const port = new URL(open.baseUrl).port;
    expect((await fetch(`http://127.0.0.1:${port}/emulator/state`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/emulator/reset`, { method: "POST" })).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/api/v4/openapi.json`)).status).toBe(200);
    const asked = await serve(["--host", "0.0.0.0", "--admin"]);
    expect((await fetch(`http://127.0.0.1:${new URL(asked.baseUrl).port}/emulator/state`)).status).toBe(200);
  });

  test("fault flags configure injection from the start; a bad value fails naming the flag", async () => {
    const c = await serve(["--fault-rate", "1", "--fault-statuses", "502", "--fault-seed", "42", "--fault-paths", "/api/v4/orchestration/*"]);
    const token = await adminToken(c.baseUrl);
    expect((await createCluster(c.baseUrl, token, "x")).status).toBe(502);
    const faults = (await (await fetch(`${c.baseUrl}/emulator/faults`)).json()) as { config: { seed: number; statuses: number[] } };
    expect(faults.config).toMatchObject({ seed: 42, statuses: [502] });

    const bad = await serveFails(["--fault-statuses", "418"]);
    expect(bad.code).toBe(1);
    expect(codeOf(bad.stderr)).toBe("SVC_FAULT_FLAG_INVALID");
    for (const named of ["--fault-statuses", "418", "503"]) expect(bad.stderr).toContain(named);
    // A value out of a flag's own range is refused by the command line's parser (commander), before the injector sees it.
    const badRate = await serveFails(["--fault-package-failure-rate", "2"]);
    expect(badRate.stderr).toContain("--fault-package-failure-rate");
  });

  test("--package-ms sets how long the edge takes to download a package; 0 downloads at once", async () => {
    const slow = await serve(["--package-ms", "3600000"]);
    const instant = await serve(["--package-ms", "0"]);
    for (const [c, status] of [
      [slow, 202],
      [instant, 200],
    ] as const) {
      const token = await adminToken(c.baseUrl);
      const post = (path: string, body: unknown) =>
        fetch(`${c.baseUrl}/api/v4${path}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
      await createCluster(c.baseUrl, token, "plant");
      await post("/apps/create", { name: "sim", title: "Sim", description: "d", type: "app", version: "1.0.0" });
      await post("/apps/workloads/create", { name: "w1", app_name: "sim", app_version: "1.0.0", cluster_name: "plant" });
      expect((await fetch(`${c.baseUrl}/api/v4/apps/workloads/w1/download`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(status);
    }
    expect((await serveFails(["--package-ms", "-1"])).stderr).toMatch(/--package-ms/);
  });

  test("--state in a folder that does not exist yet makes the folder", async () => {
    const state = join(dir, "new", "deeper", "state.json");
    const c = await serve(["--state", state]);
    const token = await adminToken(c.baseUrl);
    expect((await createCluster(c.baseUrl, token, "plant")).status).toBe(201);
    expect(existsSync(state)).toBe(true);
  });
});

describe("svc-emulator serve --state FILE", () => {
  let state: string;
  let first: Child;
  beforeAll(async () => {
    state = join(mkdtempSync(join(tmpdir(), "svc-cli-")), "state.json");
    first = await serve(["--state", state]);
    children.splice(children.indexOf(first.proc), 1); // lives across this block's tests
  });
  afterAll(() => {
    if (first.proc.exitCode === null && first.proc.signalCode === null) first.proc.kill("SIGKILL");
    rmSync(join(state, ".."), { recursive: true, force: true });
  });

  test("a second process on the locked state file fails within --lock-timeout-ms, naming the file", async () => {
    const started = Date.now();
    const second = await serveFails(["--state", state, "--lock-timeout-ms", "300"]);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`state file ${state} is locked: another emulator holds it`);
  });

  test("SIGTERM stops it cleanly: exit code 0, the log folded into the state file, the lock released", async () => {
    const token = await adminToken(first.baseUrl);
    expect((await createCluster(first.baseUrl, token, "plant-a")).status).toBe(201);
    expect(existsSync(`${state}.lock`)).toBe(true);
    first.proc.kill("SIGTERM");
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(first.output().stdout).toContain("SIGTERM, stopping");
    expect(existsSync(`${state}.lock`)).toBe(false);
    expect(statSync(`${state}.log`).size).toBe(0);
    const snapshot = await readSnapshot(state);
    expect(snapshot.tables.clusters.map(([k]) => k)).toEqual(["plant-a"]);
  });
});

describe("svc-emulator serve --state FILE --seed FIXTURE, restarted with the same command", () => {
  const clusterNames = async (baseUrl: string): Promise<string[]> => {
    const token = await adminToken(baseUrl);
    const res = await fetch(`${baseUrl}/api/v4/orchestration/clusters/list?page_size=100`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { data: Array<{ name: string }> }).data.map((c) => c.name).sort();
  };
  const stop = async (c: Child) => {
    c.proc.kill("SIGTERM");
    expect(await c.exited).toEqual({ code: 0, signal: null });
  };

  test("starts again on the state the same fixture seeded, keeps what changed since, and loads nothing twice", async () => {
    const state = join(dir, "state.json");
    const seed = join(dir, "plant.yaml");
    writeFileSync(seed, "clusters:\n  - name: line-1\n  - name: line-2\n");
    const command = ["--state", state, "--seed", seed];

    const first = await serve(command);
    expect(await clusterNames(first.baseUrl)).toEqual(["line-1", "line-2"]);
    expect((await createCluster(first.baseUrl, await adminToken(first.baseUrl), "added-later")).status).toBe(201);
    await stop(first);

    for (let restart = 0; restart < 2; restart++) {
      const again = await serve(command);
      expect(await clusterNames(again.baseUrl)).toEqual(["added-later", "line-1", "line-2"]);
      await stop(again);
      expect(again.output().stderr).toMatch(/the state already holds fixture \S+plant\.yaml \(sha256 [0-9a-f]{12}, loaded from \S+plant\.yaml at \S+\); not loading it again/);
    }
    // Formatting and comments are not content: the same fixture written differently is the same fixture.
    writeFileSync(seed, "# the plant\nclusters: [{ name: line-1 }, { name: line-2 }]\n");
    const reformatted = await serve(command);
    expect(await clusterNames(reformatted.baseUrl)).toEqual(["added-later", "line-1", "line-2"]);
    await stop(reformatted);
  });

  test("a different fixture into the seeded state fails naming both fixtures and what to do; after a reset it loads", async () => {
    const state = join(dir, "state.json");
    const seedA = join(dir, "a.yaml");
    const seedB = join(dir, "b.yaml");
    writeFileSync(seedA, "clusters:\n  - name: from-a\n");
    writeFileSync(seedB, "clusters:\n  - name: from-b\n");
    await stop(await serve(["--state", state, "--seed", seedA]));

    const refused = await serveFails(["--state", state, "--seed", seedB]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`fixture ${seedB}: the state was seeded from ${seedA} (sha256 `);
    expect(refused.stderr).toMatch(/and \S+b\.yaml \(sha256 [0-9a-f]{12}\) is a different fixture; fixtures load only into an empty emulator/);
    expect(refused.stderr).toContain("start with a new state file");
    expect(refused.stderr).toContain("POST /emulator/reset");

    // The refused start changed nothing; a reset empties the state and forgets the fixture.
    const kept = await serve(["--state", state]);
    expect(await clusterNames(kept.baseUrl)).toEqual(["from-a"]);
    expect((await fetch(`${kept.baseUrl}/emulator/reset`, { method: "POST" })).status).toBe(204);
    await stop(kept);
    const loaded = await serve(["--state", state, "--seed", seedB]);
    expect(await clusterNames(loaded.baseUrl)).toEqual(["from-b"]);
    await stop(loaded);
  });

  test("a state with records no fixture loaded refuses a fixture, saying so", async () => {
    const state = join(dir, "state.json");
    const seed = join(dir, "seed.yaml");
    writeFileSync(seed, "clusters:\n  - name: seeded\n");
    const plain = await serve(["--state", state]);
    expect((await createCluster(plain.baseUrl, await adminToken(plain.baseUrl), "by-hand")).status).toBe(201);
    await stop(plain);
    const refused = await serveFails(["--state", state, "--seed", seed]);
    expect(refused.stderr).toContain(`fixture ${seed}: the emulator already holds records that no fixture loaded; fixtures load only into an empty emulator`);
  });
});

describe("Crash safety: SIGKILL during a burst of writes", () => {
  test("every write answered 2xx before the kill is in the reloaded state, over several crashes", async () => {
    const state = join(dir, "state.json");
    const acknowledged: string[] = [];
    let attempted = 0;
    for (let round = 0; round < 2; round++) {
      // A small compaction threshold makes crashes also land around snapshot writes.
      const c = await serve(["--state", state, "--compact-every", "25"]);
      const token = await adminToken(c.baseUrl);
      let answered = 0;
      const burst = Array.from({ length: 300 }, async (_, i) => {
        attempted++;
        try {
          const res = await createCluster(c.baseUrl, token, `r${round}-c${i}`);
          if (res.status === 201) acknowledged.push(`r${round}-c${i}`);
          if (++answered === 80) c.proc.kill("SIGKILL");
        } catch {
          // in flight when the process died: either outcome is allowed
        }
      });
      await Promise.all(burst);
      expect((await c.exited).signal).toBe("SIGKILL");
    }
    // The files the killed processes left load (the dead holder's lock is taken over at once).
    const reloaded = await startEmulator({ statePath: state, log: () => undefined, lockTimeoutMs: 2000 });
    try {
      const names = new Set([...reloaded.store.table("clusters").entries()].map(([name]) => name));
      expect(acknowledged.filter((n) => !names.has(n))).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(2 * 80);
      expect(names.size).toBeLessThanOrEqual(attempted);
    } finally {
      await reloaded.close();
    }
  });
});
