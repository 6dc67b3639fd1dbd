/**
 * The kit's state file is written whole or not at all: to a temporary file, flushed to the disk, then
 * renamed over the state. A writer killed at any moment leaves a state that opens (the old one or the
 * new one), never an empty or partial file.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { StateStore, writeAtomically } from "../../src/testing/engine/state";
import { tempDir } from "./fixtures/harness";

type Watched = "openSync" | "fsyncSync" | "renameSync" | "writeSync" | "writeFileSync";
/**
 * What a test puts in place of node:fs functions the state module calls. A namespace import compiled
 * for jest holds its own copy of a module's functions, taken when the module loads, so a spy set on
 * node:fs later would see no call: the module is given wrappers from the start, which call the
 * test's replacement when there is one.
 */
const mockReplaced: Partial<Record<Watched, (...args: never[]) => unknown>> = {};
jest.mock("node:fs", () => {
  const actual = jest.requireActual<Record<string, (...args: unknown[]) => unknown>>("node:fs");
  const wrap =
    (name: Watched) =>
    (...args: unknown[]) =>
      (mockReplaced[name] ?? actual[name])(...(args as never[]));
  return {
    ...actual,
    openSync: wrap("openSync"),
    fsyncSync: wrap("fsyncSync"),
    renameSync: wrap("renameSync"),
    writeSync: wrap("writeSync"),
    writeFileSync: wrap("writeFileSync"),
  };
});
const real = jest.requireActual<typeof fs>("node:fs");

/** Runs `body` with `replacements` in place of node:fs functions, then takes them away. */
function withReplaced<T>(replacements: Partial<Record<Watched, (...args: never[]) => unknown>>, body: () => T): T {
  Object.assign(mockReplaced, replacements);
  try {
    return body();
  } finally {
    for (const name of Object.keys(replacements) as Watched[]) delete mockReplaced[name];
  }
}

test("the text reaches the disk (fsync) before the rename puts it in place, and the folder is flushed after", () => {
  const file = path.join(tempDir("svc-state-"), "state.json");
  const calls: string[] = [];
  const fds = new Map<number, string>();
  const { openSync, fsyncSync, renameSync } = real;
  withReplaced(
    {
      openSync: (p: fs.PathLike, flags?: fs.OpenMode) => {
        const fd = openSync(p, flags ?? "r");
        fds.set(fd, String(p));
        return fd;
      },
      fsyncSync: (fd: number) => {
        calls.push(`fsync ${path.basename(fds.get(fd) ?? "?")}`);
        fsyncSync(fd);
      },
      renameSync: (from: fs.PathLike, to: fs.PathLike) => {
        calls.push(`rename ${path.basename(String(from))} ${path.basename(String(to))}`);
        renameSync(from, to);
      },
    },
    () => writeAtomically(file, JSON.stringify({ hello: "world" })),
  );
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
  const { writeSync, writeFileSync } = real;
  const died = new Error("killed half-way through the write");
  withReplaced(
    {
      writeSync: (fd: number, data: Uint8Array | string, ...rest: unknown[]) => {
        const bytes = typeof data === "string" ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
        const offset = typeof rest[0] === "number" ? rest[0] : 0;
        writeSync(fd, bytes, offset, Math.floor((bytes.length - offset) / 2));
        throw died;
      },
      writeFileSync: (target: fs.PathOrFileDescriptor, data: string | NodeJS.ArrayBufferView) => {
        const text = typeof data === "string" ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString();
        writeFileSync(target, text.slice(0, Math.floor(text.length / 2)));
        throw died;
      },
    },
    () => expect(() => store.put(entry(2))).toThrow(died),
  );
  expect(fs.readFileSync(file, "utf8")).toBe(before);
  expect(
    StateStore.open(file, "passphrase", "test", "dev")
      .all()
      .map((e) => e.name),
  ).toEqual(["r1"]);
});
