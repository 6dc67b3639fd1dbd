/**
 * The kit's state file is written whole or not at all: to a temporary file, flushed to the disk, then
 * renamed over the state. A writer killed at any moment leaves a state that opens (the old one or the
 * new one), never an empty or partial file.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { StateStore, writeAtomically } from "../../src/testing/engine/state";
import { tempDir } from "./fixtures/harness";

test("the text reaches the disk (fsync) before the rename puts it in place, and the folder is flushed after", () => {
  const file = path.join(tempDir("svc-state-"), "state.json");
  const calls: string[] = [];
  const fds = new Map<number, string>();
  // The module itself (state.ts reads its functions from it at each call), not this file's namespace of it.
  const real = require("node:fs") as typeof fs;
  const { openSync, fsyncSync, renameSync } = real;
  const open = jest.spyOn(real, "openSync").mockImplementation((p: fs.PathLike, flags?: fs.OpenMode) => {
    const fd = openSync(p, flags ?? "r");
    fds.set(fd, String(p));
    return fd;
  });
  const fsync = jest.spyOn(real, "fsyncSync").mockImplementation((fd: number) => {
    calls.push(`fsync ${path.basename(fds.get(fd) ?? "?")}`);
    fsyncSync(fd);
  });
  const rename = jest.spyOn(real, "renameSync").mockImplementation((from: fs.PathLike, to: fs.PathLike) => {
    calls.push(`rename ${path.basename(String(from))} ${path.basename(String(to))}`);
    renameSync(from, to);
  });
  try {
    writeAtomically(file, JSON.stringify({ hello: "world" }));
  } finally {
    open.mockRestore();
    fsync.mockRestore();
    rename.mockRestore();
  }
  const tmp = `state.json.${process.pid}.tmp`;
  expect(calls).toEqual([`fsync ${tmp}`, `rename ${tmp} state.json`, `fsync ${path.basename(path.dirname(file))}`]);
  expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({ hello: "world" });
});

test("a writer that dies half-way through writing leaves the previous state whole", () => {
  const file = path.join(tempDir("svc-state-"), "state.json");
  const store = StateStore.open(file, "passphrase", "test", "dev");
  const entry = (i: number) => ({
    urn: `urn:pulumi:dev::test::t::r${i}`,
    type: "t",
    name: `r${i}`,
    custom: true,
    id: String(i),
    inputs: { note: "x".repeat(10_000) },
    outputs: {},
    dependencies: [],
  });
  store.put(entry(1));
  const before = fs.readFileSync(file, "utf8");
  // The next save dies after writing half of its bytes, whichever way it writes them.
  const real = require("node:fs") as typeof fs;
  const { writeSync, writeFileSync } = real;
  const died = new Error("killed half-way through the write");
  const half = jest.spyOn(real, "writeSync").mockImplementation((fd: number, data: Uint8Array | string, ...rest: unknown[]) => {
    const bytes = typeof data === "string" ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const offset = typeof rest[0] === "number" ? rest[0] : 0;
    writeSync(fd, bytes, offset, Math.floor((bytes.length - offset) / 2));
    throw died;
  });
  const halfFile = jest.spyOn(real, "writeFileSync").mockImplementation((target: fs.PathOrFileDescriptor, data: string | NodeJS.ArrayBufferView) => {
    const text = typeof data === "string" ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString();
    writeFileSync(target, text.slice(0, Math.floor(text.length / 2)));
    throw died;
  });
  try {
    expect(() => store.put(entry(2))).toThrow(died);
  } finally {
    half.mockRestore();
    halfFile.mockRestore();
  }
  expect(fs.readFileSync(file, "utf8")).toBe(before);
  expect(
    StateStore.open(file, "passphrase", "test", "dev")
      .all()
      .map((e) => e.name),
  ).toEqual(["r1"]);
});
