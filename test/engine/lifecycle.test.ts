/**
 * The engine's part for each registration: Check then Create for a new resource; Check, Diff and
 * then Update, replacement or nothing for an existing one; deletion of what the program no longer
 * declares, in reverse dependency order; destroy.
 */
import * as testing from "../../src/testing";
import { BACKEND, Record } from "./fixtures/record";
import { closeStacks, fixtureStack } from "./fixtures/harness";

testing.registerMatchers();
afterEach(closeStacks);

const chain =
  (values: { a?: string; b?: string } = {}) =>
  () => {
    const a = new Record("a", { key: "a", value: values.a ?? "one" });
    const b = new Record("b", { key: "b", value: values.b ?? "two", ref: a.serial });
    return { aSerial: a.serial, bId: b.id };
  };

describe("create", () => {
  test("a new resource is checked then created, and the state records it with its provider and dependencies", async () => {
    const f = await fixtureStack(chain());
    const result = await f.stack.up();
    expect(result).toHaveActions({ a: "create", b: "create" });
    expect(result.totals).toEqual({ create: 2 });
    // The preview `pulumi up` runs first only checks; then Check and Create; then the preview that follows every up only checks and diffs.
    expect(
      f
        .ops()
        .filter((o) => o.name === "a")
        .map((o) => o.op),
    ).toEqual(["check", "check", "create", "created", "check", "diff"]);

    const [a, b] = f.stack.state.resources;
    expect(a).toMatchObject({ urn: "urn:pulumi:test::test::pulumi-nodejs:dynamic/fixture:Record::a", type: "pulumi-nodejs:dynamic/fixture:Record", name: "a", custom: true });
    expect(b.dependencies).toEqual([a.urn]);
    expect(a.id).toMatch(/^a-[0-9a-f]{8}$/);
    // Check filled the default, the provider computed serial and revision.
    expect(a.inputs).toMatchObject({ key: "a", value: "one" });
    expect(a.outputs).toMatchObject({ key: "a", value: "one", serial: 1, revision: 1 });
    // The serialized provider is kept as Pulumi keeps it, and only refers to the backend by path.
    expect(typeof a.inputs.__provider).toBe("string");
    expect(a.inputs.__provider).toContain(JSON.stringify(BACKEND));
    expect(a.outputs.__provider).toBe(a.inputs.__provider);
    // Dependents received the created resource's outputs.
    expect(b.inputs.ref).toBe(1);
    expect(f.stack.outputs).toEqual({ aSerial: 1, bId: b.id });
    expect(result.outputs).toEqual({ aSerial: 1, bId: b.id });
    expect(Object.keys(f.records()).sort()).toEqual([a.id, b.id].sort());
  });

  test("a check failure rejects the run naming the resource, the operation and the provider's reason", async () => {
    const f = await fixtureStack(() => void new Record("bad", { key: "" }));
    await expect(f.stack.up()).rejects.toThrow('check of pulumi-nodejs:dynamic/fixture:Record "bad" failed: key: key must be a non-empty string');
    expect(f.stack.state.resources).toEqual([]);
  });
});

describe("re-run without changes", () => {
  test("every resource is the same and the provider is only asked to check and diff", async () => {
    const f = await fixtureStack(chain());
    await f.stack.up();
    const before = f.ops().length;
    const again = await f.stack.up();
    expect(again).toHaveNoChanges();
    expect(again).toHaveActions({ a: "same", b: "same" });
    const calls = f
      .ops()
      .slice(before)
      .map((o) => o.op);
    expect(new Set(calls)).toEqual(new Set(["check", "diff"]));
  });
});

describe("update", () => {
  test("a changed input is diffed and updated in place, keeping the id", async () => {
    const f = await fixtureStack(chain());
    await f.stack.up();
    const id = f.stack.resource("a").id;
    const result = await f.stack.up(chain({ a: "uno" }));
    expect(result).toHaveActions({ a: "update", b: "same" });
    expect(result.operations.find((o) => o.name === "a")?.diffs).toEqual(["value"]);
    expect(f.stack.resource("a")).toMatchObject({ id, outputs: { value: "uno", revision: 2, serial: 1 } });
    expect(f.records()[id!]).toMatchObject({ value: "uno", revision: 2 });
  });
});

describe("replace", () => {
  const keyed =
    (key: string, opts: { dbr?: boolean; option?: boolean } = {}) =>
    () => {
      const r = new Record("r", { key, deleteBeforeReplace: opts.dbr }, { deleteBeforeReplace: opts.option });
      new Record("dependent", { key: "dependent", ref: r.id });
    };

  test("by default the replacement is created before the old object is deleted, and dependents follow the new id", async () => {
    const f = await fixtureStack(keyed("k1"));
    await f.stack.up();
    const oldId = f.stack.resource("r").id!;
    const mark = f.ops().length;
    const result = await f.stack.up(keyed("k2"));
    expect(result).toHaveActions({ r: "replace", dependent: "update" });
    expect(result.operations.find((o) => o.name === "r")).toMatchObject({ diffs: ["key"], replaces: ["key"] });
    const newId = f.stack.resource("r").id!;
    expect(newId).not.toBe(oldId);
    const events = f
      .ops()
      .slice(mark)
      .filter((o) => o.op === "created" || o.op === "deleted")
      .map((o) => `${o.op} ${o.id}`);
    expect(events).toEqual([`created ${newId}`, `deleted ${oldId}`]);
    expect(f.stack.resource("dependent").inputs.ref).toBe(newId);
    expect(f.stack.state.resources.map((r) => r.name)).toEqual(["r", "dependent"]);
  });

  test("when the provider's diff asks for delete-before-replace, the old object goes first", async () => {
    const f = await fixtureStack(keyed("k1", { dbr: true }));
    await f.stack.up();
    const oldId = f.stack.resource("r").id!;
    const mark = f.ops().length;
    expect(await f.stack.up(keyed("k2", { dbr: true }))).toHaveActions({ r: "replace" });
    const newId = f.stack.resource("r").id!;
    const events = f
      .ops()
      .slice(mark)
      .filter((o) => o.op === "created" || o.op === "deleted")
      .map((o) => `${o.op} ${o.id}`);
    expect(events).toEqual([`deleted ${oldId}`, `created ${newId}`]);
  });

  test("the deleteBeforeReplace resource option does the same", async () => {
    const f = await fixtureStack(keyed("k1", { option: true }));
    await f.stack.up();
    const oldId = f.stack.resource("r").id!;
    const mark = f.ops().length;
    await f.stack.up(keyed("k2", { option: true }));
    const events = f
      .ops()
      .slice(mark)
      .filter((o) => o.op === "created" || o.op === "deleted")
      .map((o) => o.op);
    expect(events).toEqual(["deleted", "created"]);
    expect(f.records()[oldId]).toBeUndefined();
  });
});

describe("delete", () => {
  const tree = (withChain: boolean) => () => {
    new Record("keep", { key: "keep" });
    if (!withChain) return;
    const root = new Record("root", { key: "root" });
    const mid = new Record("mid", { key: "mid", ref: root.id });
    new Record("leaf", { key: "leaf", ref: mid.id });
    new Record("side", { key: "side" }, { dependsOn: [root] });
  };

  test("resources the program no longer declares are deleted, dependents before what they depend on", async () => {
    const f = await fixtureStack(tree(true));
    await f.stack.up();
    const mark = f.ops().length;
    const result = await f.stack.up(tree(false));
    expect(result).toHaveActions({ keep: "same", root: "delete", mid: "delete", leaf: "delete", side: "delete" });
    const order = f
      .ops()
      .slice(mark)
      .filter((o) => o.op === "deleted")
      .map((o) => o.name);
    expect(order.indexOf("leaf")).toBeLessThan(order.indexOf("mid"));
    expect(order.indexOf("mid")).toBeLessThan(order.indexOf("root"));
    expect(order.indexOf("side")).toBeLessThan(order.indexOf("root"));
    expect(f.stack.state.resources.map((r) => r.name)).toEqual(["keep"]);
  });

  test("destroy deletes everything in reverse dependency order and checks through Read that it is gone", async () => {
    const f = await fixtureStack(tree(true));
    await f.stack.up();
    const mark = f.ops().length;
    const result = await f.stack.destroy();
    expect(result.totals).toEqual({ delete: 5 });
    const after = f.ops().slice(mark);
    const order = after.filter((o) => o.op === "deleted").map((o) => o.name);
    expect(order.indexOf("leaf")).toBeLessThan(order.indexOf("mid"));
    expect(order.indexOf("mid")).toBeLessThan(order.indexOf("root"));
    // The check after destroy read every object back.
    expect(
      after
        .filter((o) => o.op === "read")
        .map((o) => o.name)
        .sort(),
    ).toEqual(["keep", "leaf", "mid", "root", "side"]);
    expect(f.records()).toEqual({});
    expect(f.stack.state.resources).toEqual([]);
    expect(f.stack.outputs).toEqual({});
  });

  test("destroy fails when an object the stack created is still there afterwards", async () => {
    const f = await fixtureStack(() => void new Record("sticky", { key: "sticky", leak: true }));
    await f.stack.up();
    const id = f.stack.resource("sticky").id;
    await expect(f.stack.destroy()).rejects.toThrow(`destroy left objects behind:\n  pulumi-nodejs:dynamic/fixture:Record "sticky" (id ${id}) still exists`);
  });

  test("the check after destroy can be turned off", async () => {
    const f = await fixtureStack(() => void new Record("sticky", { key: "sticky", leak: true }), { checkDestroy: false });
    await f.stack.up();
    await expect(f.stack.destroy()).resolves.toMatchObject({ totals: { delete: 1 } });
  });
});
