/**
 * A failing operation stops the run: the error names the resource, the operation and the provider's
 * message; the state (saved after every operation) holds exactly what succeeded.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as testing from "../../src/testing";
import { Record, type RecordArgs } from "./fixtures/record";
import { closeStacks, fixtureStack, tempDir } from "./fixtures/harness";

testing.registerMatchers();
afterEach(closeStacks);

const TYPE = "pulumi-nodejs:dynamic/fixture:Record";

const program =
  (c: Partial<RecordArgs> = {}) =>
  () => {
    const a = new Record("a", { key: "a" });
    const b = new Record("b", { key: "b", ref: a.serial });
    new Record("c", { key: "c", ref: b.serial, ...c });
  };

const savedNames = (file: string) => (JSON.parse(fs.readFileSync(file, "utf8")) as testing.StackState).resources.map((r) => r.name);

describe("a failure during up", () => {
  test("rejects naming the resource, the operation and the provider's message; the state file keeps what succeeded", async () => {
    const statePath = path.join(tempDir("state-"), "stack.json");
    const f = await fixtureStack(program({ fail: "create" }), { statePath });
    const error = (await f.stack.up().catch((e: unknown) => e)) as testing.RunError;
    expect(error).toBeInstanceOf(testing.RunError);
    expect(error.message).toBe(`up failed: create of ${TYPE} "c" failed: record c: create refused by the backend (fail=create)`);
    expect(error.resource?.name).toBe("c");
    expect(error.operation).toBe("create");
    expect(error.providerMessage).toBe("record c: create refused by the backend (fail=create)");
    expect(error.operations.map((o) => `${o.op} ${o.name}`)).toEqual(["create a", "create b"]);

    expect(savedNames(statePath)).toEqual(["a", "b"]);
    expect(Object.keys(f.records())).toHaveLength(2);

    // Fixed, the next run only creates what is missing.
    expect(await f.stack.up(program())).toHaveActions({ a: "same", b: "same", c: "create" });
    expect(savedNames(statePath)).toEqual(["a", "b", "c"]);
  });

  test("a failed update keeps the old state of the resource", async () => {
    const f = await fixtureStack(program());
    await f.stack.up();
    await expect(f.stack.up(program({ value: "new", fail: "update" }))).rejects.toThrow(`update of ${TYPE} "c" failed`);
    expect(f.stack.resource("c").outputs).toMatchObject({ value: "default", revision: 1 });
  });

  test("a failed replacement (create-then-delete) keeps the old object as the live one", async () => {
    const f = await fixtureStack(program());
    await f.stack.up();
    const id = f.stack.resource("c").id;
    await expect(f.stack.up(program({ key: "c2", fail: "create" }))).rejects.toThrow(`create of ${TYPE} "c" failed`);
    expect(f.stack.resource("c").id).toBe(id);
    expect(f.stack.state.resources.filter((r) => r.delete)).toEqual([]);
    expect(await f.stack.preview(program())).toHaveNoChanges();
  });

  test("the program's own error rejects the run and deletes nothing", async () => {
    const f = await fixtureStack(program());
    await f.stack.up();
    const broken = () => {
      new Record("a", { key: "a" });
      throw new Error("the program is broken");
    };
    await expect(f.stack.up(broken)).rejects.toThrow("up failed: the program failed: the program is broken");
    expect(f.stack.resources().map((r) => r.name)).toEqual(["a", "b", "c"]);
  });
});

describe("a failure during destroy", () => {
  test("deletes dependents first, then stops at the failing delete, which stays in the state", async () => {
    const statePath = path.join(tempDir("state-"), "stack.json");
    const f = await fixtureStack(
      () => {
        const a = new Record("a", { key: "a", fail: "delete" });
        new Record("b", { key: "b", ref: a.id });
      },
      { statePath },
    );
    await f.stack.up();
    await expect(f.stack.destroy()).rejects.toThrow(`destroy failed: delete of ${TYPE} "a" failed: record a: delete refused by the backend (fail=delete)`);
    expect(savedNames(statePath)).toEqual(["a"]);
  });
});

describe("the state file", () => {
  test("a new TestStack on the same state file continues where the last one stopped", async () => {
    const statePath = path.join(tempDir("state-"), "stack.json");
    const first = await fixtureStack(program(), { statePath });
    await first.stack.up();
    await first.stack.close();
    const second = await fixtureStack(program(), { statePath, storeDir: first.storeDir });
    expect(await second.stack.preview()).toHaveNoChanges();
    expect(second.stack.resources().map((r) => r.id)).toEqual(["a", "b", "c"].map((n) => first.stack.resource(n).id));
    await second.stack.destroy();
    expect(second.records()).toEqual({});
  });
});
