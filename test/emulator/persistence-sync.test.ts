/**
 * How the state log is made durable (src/emulator/store/persistence.ts): where the platform has
 * O_DSYNC the log is opened with it, so the one write of a commit group is also its sync; the
 * commits of one turn of the event loop share that write, and those made while it is under way share
 * the next; rows of `_meta` set outside transactions still reach the log with the next commit.
 */
import { constants, copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { areas } from "../../src/api/endpoints";
import { startTestEmulator, pathOf } from "../helpers/emulator";
import { StatePersistence } from "../../src/emulator/store/persistence";
import { Store } from "../../src/emulator/store/store";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-state-sync-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The open-file flags of this process's descriptors on `path` (Linux /proc). */
function openFlags(path: string): number[] {
  const out: number[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== path) continue;
    const m = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
    if (m) out.push(parseInt(m[1], 8));
  }
  return out;
}

const onLinux = process.platform === "linux" ? test : test.skip;

describe("the state log's writes", () => {
  onLinux("the log is open for appending with O_DSYNC, also after a compaction reopened it", async () => {
    const file = join(dir, "state.json");
    const emu = await startTestEmulator({ statePath: file, persistence: { compactRecords: 3 } });
    try {
      const flags = () => openFlags(`${file}.log`);
      expect(flags()).toHaveLength(1);
      expect(flags()[0] & constants.O_DSYNC).toBe(constants.O_DSYNC);
      expect(flags()[0] & constants.O_APPEND).toBe(constants.O_APPEND);
      for (const name of ["a", "b", "c", "d"]) expect((await emu.post(pathOf(areas.clusters.create), { name })).status).toBe(201);
      await emu.persistence!.compact();
      expect(emu.persistence!.stats().compactions).toBeGreaterThan(0);
      expect(flags()).toHaveLength(1);
      expect(flags()[0] & constants.O_DSYNC).toBe(constants.O_DSYNC);
    } finally {
      await emu.close();
    }
  });

  test("each serial commit is one write of the log (one sync each), and every answered one is in a crash image", async () => {
    const file = join(dir, "state.json");
    const emu = await startTestEmulator({ statePath: file });
    try {
      const before = emu.persistence!.stats();
      for (let i = 0; i < 5; i++) expect((await emu.post(pathOf(areas.clusters.create), { name: `serial-${i}` })).status).toBe(201);
      const after = emu.persistence!.stats();
      expect(after.commits - before.commits).toBe(5);
      expect(after.fsyncs - before.fsyncs).toBe(5);
      // A crash now: copy the files while the emulator runs, and open the copy.
      const image = join(dir, "image.json");
      copyFileSync(file, image);
      if (existsSync(`${file}.log`)) copyFileSync(`${file}.log`, `${image}.log`);
      const reopened = await startTestEmulator({ statePath: image });
      try {
        const names = [...reopened.store.table<{ name: string }>("clusters").values()].map((c) => c.name).sort();
        expect(names).toEqual(["serial-0", "serial-1", "serial-2", "serial-3", "serial-4"]);
      } finally {
        await reopened.close();
      }
    } finally {
      await emu.close();
    }
  });

  test("a `_meta` row set outside a transaction is logged with the next commit, and only once", async () => {
    const file = join(dir, "state.json");
    const emu = await startTestEmulator({ statePath: file });
    try {
      emu.store.table<string>("_meta").restore("bench_marker", "first");
      expect((await emu.post(pathOf(areas.clusters.create), { name: "one" })).status).toBe(201);
      emu.store.table<string>("_meta").restore("bench_marker", "second");
      expect((await emu.post(pathOf(areas.clusters.create), { name: "two" })).status).toBe(201);
      expect((await emu.post(pathOf(areas.clusters.create), { name: "three" })).status).toBe(201);
      const lines = readFileSync(`${file}.log`, "utf8").trim().split("\n");
      const markerLines = lines.filter((l) => l.includes("bench_marker"));
      expect(markerLines).toHaveLength(2);
      expect(markerLines[0]).toContain('"first"');
      expect(markerLines[1]).toContain('"second"');
      const image = join(dir, "image.json");
      copyFileSync(file, image);
      copyFileSync(`${file}.log`, `${image}.log`);
      const reopened = await startTestEmulator({ statePath: image });
      try {
        expect(reopened.store.table<string>("_meta").get("bench_marker")).toBe("second");
      } finally {
        await reopened.close();
      }
    } finally {
      await emu.close();
    }
  });
});

const change = (key: string) => [{ table: "clusters", key, value: { name: key } }];
const logKeys = (file: string) =>
  readFileSync(`${file}.log`, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l.slice(9)).c[0][1] as string);

/** A log writer that writes and syncs through the file handle, recording each write; `hold` delays the next one. */
function recordingWriter() {
  const writes: number[] = [];
  let held: Promise<void> | undefined;
  let release = () => undefined as void;
  const writeLog = async (fh: FileHandle, data: Buffer) => {
    if (held) await held;
    await fh.write(data);
    await fh.datasync();
    writes.push(data.length);
  };
  const hold = () => {
    held = new Promise<void>((r) => (release = r));
  };
  return { writes, writeLog, hold, release: () => release() };
}

describe("group commit", () => {
  test("the commits made in one turn of the event loop go in one write, in order", async () => {
    const file = join(dir, "state.json");
    const w = recordingWriter();
    const p = await StatePersistence.open(new Store(), file, { writeLog: w.writeLog });
    try {
      const answered: string[] = [];
      const commits = Array.from({ length: 20 }, (_, i) => p.commit(change(`k${i}`)).then(() => answered.push(`k${i}`)));
      expect(w.writes).toEqual([]);
      await Promise.all(commits);
      expect(w.writes).toHaveLength(1);
      expect(answered).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}`));
      expect(logKeys(file)).toEqual(answered);
      expect(p.stats()).toMatchObject({ commits: 20, fsyncs: 1 });
    } finally {
      await p.close();
    }
  });

  test("the commits made while a write is under way wait for it, then go together in the next write", async () => {
    const file = join(dir, "state.json");
    const w = recordingWriter();
    const p = await StatePersistence.open(new Store(), file, { writeLog: w.writeLog });
    try {
      w.hold();
      let firstDone = false;
      const first = p.commit(change("first")).then(() => (firstDone = true));
      await new Promise((r) => setTimeout(r, 20));
      const later = Array.from({ length: 3 }, (_, i) => p.commit(change(`later${i}`)));
      await new Promise((r) => setTimeout(r, 20));
      expect(firstDone).toBe(false);
      expect(w.writes).toEqual([]);
      w.release();
      await Promise.all([first, ...later]);
      expect(w.writes).toHaveLength(2);
      expect(p.stats()).toMatchObject({ commits: 4, fsyncs: 2 });
      expect(logKeys(file)).toEqual(["first", "later0", "later1", "later2"]);
    } finally {
      w.release();
      await p.close();
    }
  });

  test("a failed write fails its commits and every later one, naming the log and the error", async () => {
    const file = join(dir, "state.json");
    const p = await StatePersistence.open(new Store(), file, {
      log: () => undefined,
      writeLog: async () => {
        throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
      },
    });
    try {
      const both = [p.commit(change("first")), p.commit(change("second"))];
      await expect(both[0]).rejects.toThrow(/writing the state log .*state\.json\.log failed: ENOSPC; the emulator no longer accepts changes/);
      await expect(both[1]).rejects.toThrow(/ENOSPC/);
      await expect(p.commit(change("third"))).rejects.toThrow(/no longer accepts changes/);
    } finally {
      await p.close();
    }
  });

  test("a compaction in between keeps every commit, before and after it", async () => {
    const file = join(dir, "state.json");
    const store = new Store();
    const p = await StatePersistence.open(store, file);
    const put = (key: string) => {
      const { changes } = store.transaction(() => store.table("clusters").put(key, { name: key }));
      return store.publish(changes);
    };
    try {
      const before = Array.from({ length: 10 }, (_, i) => put(`a${i}`));
      const compaction = p.compact();
      const after = Array.from({ length: 10 }, (_, i) => put(`b${i}`));
      await Promise.all([...before, compaction, ...after]);
    } finally {
      await p.close();
    }
    const reopened = new Store();
    const again = await StatePersistence.open(reopened, file);
    try {
      expect([...reopened.table("clusters").entries()].map(([k]) => k).sort()).toEqual(
        [...Array.from({ length: 10 }, (_, i) => `a${i}`), ...Array.from({ length: 10 }, (_, i) => `b${i}`)].sort(),
      );
    } finally {
      await again.close();
    }
  });
});
