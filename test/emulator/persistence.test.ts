/**
 * State that survives restarts (src/emulator/store/persistence.ts): snapshot + append-only log,
 * fsync before the answer, torn-tail recovery, refusal of damaged files, the single-writer lock,
 * background compaction. The crash test with a killed child process is in cli.test.ts.
 */
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { areas } from "../../src/api/endpoints";
import { startTestEmulator, type TestEmulator, pathOf } from "../helpers/emulator";
import { readSnapshot } from "../../src/emulator/store/persistence";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-state-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const portOf = (emu: TestEmulator) => Number(new URL(emu.baseUrl).port);
const createCluster = (emu: TestEmulator, name: string) => emu.post(pathOf(areas.clusters.create), { name });
const clusterNames = (emu: TestEmulator) => [...emu.store.table<{ name: string }>("clusters").values()].map((c) => c.name).sort();

/** The files as a crash at this moment would leave them (the emulator keeps running). */
function crashImage(from: string, to: string): void {
  copyFileSync(from, to);
  if (existsSync(`${from}.log`)) copyFileSync(`${from}.log`, `${to}.log`);
}

describe("State across restarts (--state FILE)", () => {
  test("a restarted emulator on the same file (and port) serves the same records, and tokens issued before stay valid", async () => {
    const file = join(dir, "state.json");
    const first = await startTestEmulator({ statePath: file });
    expect((await createCluster(first, "plant-a")).status).toBe(201);
    expect((await createCluster(first, "plant-b")).status).toBe(201);
    expect((await first.post("/orchestration/clusters/plant-b/update", { title: "Plant B" })).status).toBe(200);
    const token = await first.token("admin");
    const before = (await first.get("/orchestration/clusters/plant-b/get")).body;
    await first.close();

    // Tokens name the emulator's address as their issuer, so they carry over to the same port.
    const second = await startTestEmulator({ statePath: file, port: portOf(first) });
    try {
      const after = await second.get("/orchestration/clusters/plant-b/get", undefined, { as: { token } });
      expect(after.status).toBe(200);
      expect(after.body).toEqual({ ...before, join_script: expect.any(String), provision_script: expect.any(String) });
      expect(after.body.title).toBe("Plant B");
      expect(clusterNames(second)).toEqual(["plant-a", "plant-b"]);
      // Sequences continue: the audit log does not reuse ids.
      const ids = [...second.store.table<{ id: number }>("audit_log").values()].map((e) => e.id);
      await createCluster(second, "plant-c");
      const newest = Math.max(...[...second.store.table<{ id: number }>("audit_log").values()].map((e) => e.id));
      expect(newest).toBe(Math.max(...ids) + 1);
    } finally {
      await second.close();
    }
  });

  test("an answered write is on disk before the answer: a crash image taken right after it holds it", async () => {
    const file = join(dir, "state.json");
    const emu = await startTestEmulator({ statePath: file });
    try {
      for (const name of ["a1", "a2", "a3"]) {
        expect((await createCluster(emu, name)).status).toBe(201);
        const image = join(dir, `image-${name}.json`);
        crashImage(file, image);
        const reloaded = await startTestEmulator({ statePath: image });
        expect(reloaded.store.table("clusters").has(name)).toBe(true);
        await reloaded.close();
      }
    } finally {
      await emu.close();
    }
  });

  test("a torn last log record (never acknowledged) is dropped and cut; the state before it loads", async () => {
    const file = join(dir, "state.json");
    const emu = await startTestEmulator({ statePath: file });
    await createCluster(emu, "kept");
    const image = join(dir, "image.json");
    crashImage(file, image);
    await emu.close();
    const goodLength = statSync(`${image}.log`).size;
    appendFileSync(`${image}.log`, '1234abcd {"s":99,"c":[["clusters","torn",{"name":"to');

    const reloaded = await startTestEmulator({ statePath: image, log: () => undefined });
    try {
      expect(clusterNames(reloaded)).toEqual(["kept"]);
      expect(statSync(`${image}.log`).size).toBe(goodLength);
      expect((await createCluster(reloaded, "after")).status).toBe(201);
    } finally {
      await reloaded.close();
    }
    const again = await startTestEmulator({ statePath: image });
    expect(clusterNames(again)).toEqual(["after", "kept"]);
    await again.close();
  });

  test("a corrupted state file fails to load with a message naming it, and is left untouched", async () => {
    const file = join(dir, "state.json");
    const emu = await startTestEmulator({ statePath: file });
    await createCluster(emu, "plant-a");
    await emu.close();
    const text = readFileSync(file, "utf8");
    const damaged = text.replace("plant-a", "plant-x");
    writeFileSync(file, damaged);
    await expect(startTestEmulator({ statePath: file })).rejects.toThrow(
      new RegExp(`state file ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is damaged \\(checksum mismatch\\)`),
    );
    expect(readFileSync(file, "utf8")).toBe(damaged);

    writeFileSync(file, "not json at all\n");
    await expect(startTestEmulator({ statePath: file })).rejects.toThrow(/is damaged \(it is truncated\)|not an emulator state file/);
    writeFileSync(file, "");
    await expect(startTestEmulator({ statePath: file })).rejects.toThrow(/state\.json is damaged \(the file is empty\)/);
    expect(readFileSync(file, "utf8")).toBe("");
  });

  test("a damaged record in the middle of the log fails naming the log; an unreadable state file fails naming it", async () => {
    const file = join(dir, "state.json");
    const emu = await startTestEmulator({ statePath: file });
    await createCluster(emu, "a");
    await createCluster(emu, "b");
    const image = join(dir, "image.json");
    crashImage(file, image);
    await emu.close();
    const lines = readFileSync(`${image}.log`, "utf8").split("\n");
    lines[1] = lines[1].replace('"a"', '"z"');
    writeFileSync(`${image}.log`, lines.join("\n"));
    await expect(startTestEmulator({ statePath: image })).rejects.toThrow(/state log .*image\.json\.log is damaged \(bad record/);

    const folder = join(dir, "a-directory.json");
    require("node:fs").mkdirSync(folder);
    await expect(startTestEmulator({ statePath: folder })).rejects.toThrow(/cannot read state file .*a-directory\.json: EISDIR/);
  });
});

describe("One writer at a time: the state file is locked", () => {
  test("a second emulator on a locked file fails within the configured time, naming the file", async () => {
    const file = join(dir, "state.json");
    const first = await startTestEmulator({ statePath: file });
    try {
      const started = Date.now();
      await expect(startTestEmulator({ statePath: file, lockTimeoutMs: 400 })).rejects.toThrow(/state file .*state\.json is locked: another emulator holds it/);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(350);
      expect(waited).toBeLessThan(2000);
    } finally {
      await first.close();
    }
  });

  test("a second emulator waits for the first to close, then opens the state it left", async () => {
    const file = join(dir, "state.json");
    const first = await startTestEmulator({ statePath: file });
    await createCluster(first, "from-first");
    const second = startTestEmulator({ statePath: file, lockTimeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    await first.close();
    const emu = await second;
    try {
      expect(clusterNames(emu)).toEqual(["from-first"]);
    } finally {
      await emu.close();
    }
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});

describe("Cheap persistence as state grows", () => {
  test("commits go to the log; the log is folded into the snapshot in the background past the threshold", async () => {
    const file = join(dir, "state.json");
    const emu = await startTestEmulator({ statePath: file, persistence: { compactRecords: 5 } });
    try {
      for (let i = 0; i < 12; i++) expect((await createCluster(emu, `c${i}`)).status).toBe(201);
      await emu.persistence!.compact();
      const stats = emu.persistence!.stats();
      expect(stats.compactions).toBeGreaterThanOrEqual(2);
      expect(stats.logRecords).toBeLessThan(5);
      const snap = await readSnapshot(file);
      expect(snap.tables.clusters.length).toBeGreaterThanOrEqual(10);
    } finally {
      await emu.close();
    }
    const again = await startTestEmulator({ statePath: file });
    expect(clusterNames(again)).toHaveLength(12);
    await again.close();
  });

  test("by default the log is folded once it is as large as the snapshot (at least 16 MiB): a larger state is folded less often", async () => {
    const MiB = 1024 * 1024;
    const file = join(dir, "state.json");
    // Records of 64 KiB, written through the store as a handler would.
    const write = async (emu: TestEmulator, prefix: string, n: number) => {
      for (let i = 0; i < n; i++) {
        const { changes } = emu.store.transaction(() => emu.store.table("blobs").put(`${prefix}-${i}`, { data: "x".repeat(64 * 1024) }));
        await emu.store.publish(changes);
      }
    };
    const small = await startTestEmulator({ statePath: file });
    try {
      // A small snapshot: the 16 MiB floor holds (256 records of 64 KiB).
      await write(small, "a", 200);
      expect(small.persistence!.stats().compactions).toBe(0);
      await write(small, "b", 80);
      await small.persistence!.compact();
      expect(small.persistence!.stats().compactions).toBe(2); // one past 16 MiB, and the one asked for
    } finally {
      await small.close();
    }
    // The snapshot now holds 280 records (about 17.5 MiB): the log may grow that large before it is folded.
    expect(statSync(file).size).toBeGreaterThan(17 * MiB);
    const large = await startTestEmulator({ statePath: file });
    try {
      await write(large, "c", 270);
      expect(large.persistence!.stats().compactions).toBe(0);
      await write(large, "d", 20); // past the snapshot's size: folded in the background
      await large.persistence!.compact();
      const stats = large.persistence!.stats();
      expect(stats.compactions).toBe(2);
      expect(stats.logRecords).toBe(0);
    } finally {
      await large.close();
    }
  });

  test("concurrent commits share fsyncs (group commit) and all of them are durable", async () => {
    const file = join(dir, "state.json");
    const emu = await startTestEmulator({ statePath: file });
    try {
      await emu.token("admin");
      const before = emu.persistence!.stats();
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => createCluster(emu, `g${i}`)));
      expect(answers.every((a) => a.status === 201)).toBe(true);
      const after = emu.persistence!.stats();
      expect(after.commits - before.commits).toBe(100);
      expect(after.fsyncs - before.fsyncs).toBeLessThan(100);
      const image = join(dir, "image.json");
      crashImage(file, image);
      const reloaded = await startTestEmulator({ statePath: image });
      expect(clusterNames(reloaded)).toHaveLength(100);
      await reloaded.close();
    } finally {
      await emu.close();
    }
  });

  test("with 100,000 records, one create appends one log record and does not rewrite the snapshot", async () => {
    const file = join(dir, "state.json");
    const emu = await startTestEmulator({ statePath: file });
    try {
      const assets = emu.store.table("assets");
      for (let i = 0; i < 100_000; i++) {
        assets.restore(`asset-${i}`, { name: `asset-${i}`, title: `Asset ${i}`, asset_type_name: "pump", created: "2026-01-01T00:00:00.000000Z" });
      }
      await emu.persistence!.compact();
      const snapshotSize = statSync(file).size;
      const snapshotTime = statSync(file).mtimeMs;
      expect(snapshotSize).toBeGreaterThan(100_000 * 50);
      const logBefore = statSync(`${file}.log`).size;

      // The snapshot is neither rewritten nor touched: the write is an append to the log (its cost
      // against the state's size is a figure of the benchmarks, not of this test).
      expect((await createCluster(emu, "one-more")).status).toBe(201);

      expect(statSync(file).size).toBe(snapshotSize);
      expect(statSync(file).mtimeMs).toBe(snapshotTime);
      const appended = statSync(`${file}.log`).size - logBefore;
      expect(appended).toBeGreaterThan(0);
      expect(appended).toBeLessThan(20_000);
    } finally {
      await emu.close();
    }
    const reloaded = await startTestEmulator({ statePath: file });
    expect(reloaded.store.table("assets").size).toBe(100_000);
    expect(reloaded.store.table("clusters").has("one-more")).toBe(true);
    await reloaded.close();
  });
});

describe("Internal tables and the admin reset", () => {
  test("reset empties the persisted state but keeps the signing key: old tokens work after reset and restart", async () => {
    const file = join(dir, "state.json");
    const emu = await startTestEmulator({ statePath: file });
    await createCluster(emu, "gone");
    const token = await emu.token("admin");
    await emu.reset();
    await emu.close();
    const again = await startTestEmulator({ statePath: file, port: portOf(emu) });
    try {
      expect(clusterNames(again)).toEqual([]);
      expect((await again.get("/orchestration/clusters/list", undefined, { as: { token } })).status).toBe(200);
    } finally {
      await again.close();
    }
  });

  test("without a state file nothing is written", async () => {
    const emu = await startTestEmulator();
    try {
      expect(emu.persistence).toBeUndefined();
      await createCluster(emu, "memory-only");
      expect(emu.store.table("clusters").has("memory-only")).toBe(true);
    } finally {
      await emu.close();
    }
  });
});
