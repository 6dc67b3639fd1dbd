/**
 * How the state log is made durable (src/emulator/store/persistence.ts): where the platform has
 * O_DSYNC the log is opened with it, so the one write of a commit group is also its sync; rows of
 * `_meta` set outside transactions still reach the log with the next commit.
 */
import { constants, copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestEmulator } from "../helpers/emulator";

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
      expect(flags()[0] & constants.O_DSYNC!).toBe(constants.O_DSYNC);
      expect(flags()[0] & constants.O_APPEND).toBe(constants.O_APPEND);
      for (const name of ["a", "b", "c", "d"]) expect((await emu.post("/orchestration/clusters/create", { name })).status).toBe(201);
      await emu.persistence!.compact();
      expect(emu.persistence!.stats().compactions).toBeGreaterThan(0);
      expect(flags()).toHaveLength(1);
      expect(flags()[0] & constants.O_DSYNC!).toBe(constants.O_DSYNC);
    } finally {
      await emu.close();
    }
  });

  test("each serial commit is one write of the log (one sync each), and every answered one is in a crash image", async () => {
    const file = join(dir, "state.json");
    const emu = await startTestEmulator({ statePath: file });
    try {
      const before = emu.persistence!.stats();
      for (let i = 0; i < 5; i++) expect((await emu.post("/orchestration/clusters/create", { name: `serial-${i}` })).status).toBe(201);
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
      expect((await emu.post("/orchestration/clusters/create", { name: "one" })).status).toBe(201);
      emu.store.table<string>("_meta").restore("bench_marker", "second");
      expect((await emu.post("/orchestration/clusters/create", { name: "two" })).status).toBe(201);
      expect((await emu.post("/orchestration/clusters/create", { name: "three" })).status).toBe(201);
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
