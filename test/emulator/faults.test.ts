/**
 * Fault injection (src/emulator/faults.ts) through POST/GET /emulator/faults and start-up options:
 * rates with a fixed seed, statuses with the spec's error body, Retry-After, resets, latency, method
 * and path patterns, after_apply (applied, answer lost), and the endpoints never faulted.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { areas } from "../../src/api/endpoints";
import { startTestEmulator, useEmulator, expectErrorBody, pathOf, type Json } from "../helpers/emulator";

/** What is on disk right now (read while the emulator still runs, as a crash would leave it). */
const readSnapshotAndLog = (file: string) => readFileSync(file, "utf8") + readFileSync(`${file}.log`, "utf8");

const emu = useEmulator();
beforeAll(() => emu.token("admin"));
beforeEach(() => setFaults({}));

async function setFaults(config: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${emu.baseUrl}/emulator/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(config) });
  return { status: res.status, body: await res.json() };
}
const faultStatus = async () => (await fetch(`${emu.baseUrl}/emulator/faults`)).json() as Promise<Json>;

/** The outcome of one call: its status, or "reset" when the connection was dropped. */
async function outcome(call: () => Promise<{ status: number }>): Promise<number | "reset"> {
  try {
    return (await call()).status;
  } catch {
    return "reset";
  }
}
const listClusters = () => outcome(() => emu.get(pathOf(areas.clusters.list)));

async function run(n: number, call: () => Promise<number | "reset">): Promise<Array<number | "reset">> {
  const out: Array<number | "reset"> = [];
  for (let i = 0; i < n; i++) out.push(await call());
  return out;
}

describe("Rates and reproducibility", () => {
  test("a rate of 0.2 fails about a fifth of 1000 requests with the chosen statuses, and the counters agree", async () => {
    await setFaults({ rate: 0.2, statuses: [500, 502, 503, 504], seed: 42 });
    const results = await run(1000, listClusters);
    const failed = results.filter((s) => s !== 200);
    expect(failed.length).toBeGreaterThan(160);
    expect(failed.length).toBeLessThan(240);
    expect(new Set(failed)).toEqual(new Set([500, 502, 503, 504]));
    const { counters } = await faultStatus();
    expect(counters.matched).toBe(1000);
    expect(counters.total).toBe(failed.length);
    for (const s of [500, 502, 503, 504]) expect(counters.by_kind[`status_${s}`]).toBe(failed.filter((x) => x === s).length);
  });

  test("the same seed gives the same sequence of faults; another seed a different one", async () => {
    const sequence = async (seed: number) => {
      await setFaults({ rate: 0.3, reset_rate: 0.1, statuses: [429, 503], seed });
      return run(100, listClusters);
    };
    const a = await sequence(7);
    const b = await sequence(7);
    const c = await sequence(8);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    expect(a).toContain("reset");
    expect(a).toContain(429);
  });

  test("a seed left out is chosen at random and reported, so the run can be replayed", async () => {
    const set = await setFaults({ rate: 0.5 });
    expect(set.status).toBe(200);
    expect(set.body.config.seed).toEqual(expect.any(Number));
  });
});

describe("What a fault looks like", () => {
  test("injected statuses answer the spec's error body; 429 carries Retry-After", async () => {
    await setFaults({ rate: 1, statuses: [429], retry_after_s: 3 });
    const a = await emu.get(pathOf(areas.clusters.list));
    expectErrorBody(a, 429);
    expect(a.headers.get("retry-after")).toBe("3");
    expect(a.headers.get("x-emulator-fault")).toBe("status_429");
    await setFaults({ rate: 1, statuses: [503] });
    const b = await emu.post(pathOf(areas.clusters.create), { name: "never" });
    expectErrorBody(b, 503);
    expect(b.headers.get("retry-after")).toBeNull();
  });

  test("a fault happens before the request has any effect", async () => {
    await setFaults({ rate: 0.5, reset_rate: 0.5, seed: 1 });
    const results = await run(20, () => outcome(() => emu.post(pathOf(areas.clusters.create), { name: `c-${Math.random().toString(36).slice(2, 8)}` })));
    expect(results.every((s) => s !== 201)).toBe(true);
    expect(emu.store.table("clusters").size).toBe(0);
    const { counters } = await faultStatus();
    expect(counters.by_kind.reset + counters.by_kind.status_503).toBe(20);
  });

  test("a connection reset drops the connection without an answer", async () => {
    await setFaults({ reset_rate: 1 });
    await expect(emu.get(pathOf(areas.clusters.list))).rejects.toThrow();
    expect((await faultStatus()).counters.by_kind.reset).toBe(1);
  });

  test("latency delays every matched request and is counted", async () => {
    await setFaults({ latency_ms: 120 });
    const started = Date.now();
    expect(await listClusters()).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    const { counters } = await faultStatus();
    expect(counters.by_kind.latency).toBe(1);
    expect(counters.total).toBe(0);
  });
});

describe("Where faults apply", () => {
  test("path patterns limit faults: clusters are never faulted when only /api/v4/assets/* is", async () => {
    await setFaults({ rate: 1, paths: ["/api/v4/assets/*"] });
    expect(await run(20, listClusters)).toEqual(Array(20).fill(200));
    expect(await outcome(() => emu.get(pathOf(areas.assets.list)))).toBe(503);
    expect((await faultStatus()).counters.matched).toBe(1);
  });

  test("method patterns limit faults: only POST fails with methods [POST]", async () => {
    await setFaults({ rate: 1, methods: ["post"], paths: ["/api/v4/orchestration/*"] });
    expect(await listClusters()).toBe(200);
    expect(await outcome(() => emu.post(pathOf(areas.clusters.create), { name: "x" }))).toBe(503);
  });

  test("the token endpoint is never faulted unless include_auth; /emulator/* never", async () => {
    await setFaults({ rate: 1 });
    const login = () =>
      outcome(() =>
        fetch(`${emu.baseUrl}/auth/realms/svc/protocol/openid-connect/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=password&username=admin%40example.com&password=admin&client_id=svc-cli",
        }),
      );
    expect(await login()).toBe(200);
    expect((await fetch(`${emu.baseUrl}/emulator/state`)).status).toBe(200);
    await setFaults({ rate: 1, include_auth: true });
    expect(await login()).toBe(503);
    expect((await fetch(`${emu.baseUrl}/emulator/faults`)).status).toBe(200);
  });
});

describe("after_apply: the change is applied and durable, the answer is lost", () => {
  test("with a reset, the client sees no answer but the cluster exists", async () => {
    await setFaults({ rate: 1, mode: "after_apply", methods: ["POST"] });
    await expect(emu.post(pathOf(areas.clusters.create), { name: "ambiguous" })).rejects.toThrow();
    expect(emu.store.table("clusters").has("ambiguous")).toBe(true);
    await setFaults({});
    expect((await emu.get(pathOf(areas.clusters.get, { cluster_name: "ambiguous" }))).status).toBe(200);
    expectErrorBody(await emu.post(pathOf(areas.clusters.create), { name: "ambiguous" }), 409);
  });

  test("with 502, the client gets a 502 although the cluster was created; counted by kind", async () => {
    await setFaults({ rate: 1, mode: "after_apply", after_apply_action: "502", methods: ["POST"] });
    const a = await emu.post(pathOf(areas.clusters.create), { name: "ambiguous" });
    expectErrorBody(a, 502);
    expect(emu.store.table("clusters").has("ambiguous")).toBe(true);
    // A rejected request has no effect to lose: it answers its own error.
    expectErrorBody(await emu.post(pathOf(areas.clusters.create), { name: "Bad Name" }), 400);
    const { counters } = await faultStatus();
    expect(counters.by_kind).toEqual({ after_apply_502: 1 });
  });
});

describe("after_apply with a state file", () => {
  test("the lost answer's change is already on disk: a restart serves it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-faults-"));
    const statePath = join(dir, "state.json");
    try {
      const first = await startTestEmulator({ statePath, faults: { rate: 1, mode: "after_apply", methods: ["POST"], paths: ["/api/v4/orchestration/*"] } });
      await expect(first.post("/orchestration/clusters/create", { name: "ambiguous" })).rejects.toThrow();
      const durable = await readSnapshotAndLog(statePath);
      await first.close();
      expect(durable).toContain('"ambiguous"');
      const second = await startTestEmulator({ statePath });
      expect((await second.get("/orchestration/clusters/ambiguous/get")).status).toBe(200);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Configuring faults", () => {
  test("POST /emulator/faults validates the configuration and names the field", async () => {
    const bad = await setFaults({ rate: 1.5 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/body\.rate/);
    const badStatus = await setFaults({ statuses: [418] });
    expect(badStatus.status).toBe(400);
    expect(JSON.stringify(badStatus.body)).toMatch(/body\.statuses\[0\].*429, 500, 502, 503, 504/);
    const unknown = await setFaults({ rat: 0.2 });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toMatch(/rat/);
    const sum = await setFaults({ rate: 0.7, reset_rate: 0.5 });
    expect(JSON.stringify(sum.body)).toMatch(/rate \+ reset_rate must not exceed 1/);
    expect(JSON.stringify((await setFaults({ package_failure_rate: 2 })).body)).toMatch(/body\.package_failure_rate: must be between 0 and 1/);
    expect(JSON.stringify((await setFaults({ package_ms: -1 })).body)).toMatch(/body\.package_ms/);
  });

  test("package_ms slows the edge's package downloads while it is set; request faults are not affected", async () => {
    await setFaults({ package_ms: 3_600_000 });
    expect((await faultStatus()).config).toMatchObject({ package_ms: 3_600_000, package_failure_rate: 0 });
    await emu.post(pathOf(areas.clusters.create), { name: "plant" });
    await emu.post(pathOf(areas.apps.create), { name: "sim", title: "Sim", description: "d", type: "app", version: "1.0.0" });
    await emu.post(pathOf(areas.workloads.create), { name: "w1", app_name: "sim", app_version: "1.0.0", cluster_name: "plant" });
    const a = await emu.get(pathOf(areas.workloads.download, { workload_name: "w1" }));
    expect(a.status).toBe(202);
    expect(Number(a.headers.get("retry-after"))).toBe(3600);
    expect((await faultStatus()).counters).toEqual({ matched: 0, total: 0, by_kind: {} });
  });

  test("an empty configuration clears faults; GET shows the configuration and the counters", async () => {
    await setFaults({ rate: 1 });
    expect(await listClusters()).toBe(503);
    await setFaults({});
    expect(await listClusters()).toBe(200);
    const s = await faultStatus();
    expect(s.config).toMatchObject({ rate: 0, reset_rate: 0, latency_ms: 0, mode: "before", include_auth: false });
    expect(s.counters).toEqual({ matched: 0, total: 0, by_kind: {} });
  });

  test("faults given at start-up apply from the first request; a bad one fails the start naming the field", async () => {
    const other = await startTestEmulator({ faults: { rate: 1, statuses: [504], paths: ["/api/v4/orchestration/*"] } });
    try {
      expect((await other.get("/orchestration/clusters/list")).status).toBe(504);
    } finally {
      await other.close();
    }
    await expect(startTestEmulator({ faults: { rate: 2 } })).rejects.toThrow(/fault configuration: rate: must be between 0 and 1/);
  });

  test("without admin endpoints, /emulator/faults answers 404", async () => {
    const closed = await startTestEmulator({ admin: false });
    try {
      expect((await fetch(`${closed.baseUrl}/emulator/faults`)).status).toBe(404);
      expect((await fetch(`${closed.baseUrl}/emulator/faults`, { method: "POST", body: "{}" })).status).toBe(404);
    } finally {
      await closed.close();
    }
  });
});
