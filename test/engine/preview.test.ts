/**
 * Preview runs only Check and Diff and answers as the engine does for a provider without preview
 * support: the checked inputs, every other output unknown, so dependents' inputs arrive unknown.
 * After every up, a preview must plan nothing (Terraform's empty plan after apply).
 */
import * as testing from "../../src/testing";
import { Record } from "./fixtures/record";
import { closeStacks, fixtureStack } from "./fixtures/harness";

testing.registerMatchers();
afterEach(closeStacks);

const UNKNOWN = testing.unknownValue;

const program =
  (value = "one") =>
  () => {
    const a = new Record("a", { key: "a", value });
    // `serial` is computed by the provider; `key` is an input the engine echoes back.
    new Record("b", { key: "b", ref: a.serial, note: a.key });
    return { serial: a.serial, key: a.key };
  };

describe("preview of new resources", () => {
  test("plans creates without creating anything or writing the state", async () => {
    const f = await fixtureStack(program());
    const plan = await f.stack.preview();
    expect(plan).toHaveActions({ a: "create", b: "create" });
    expect(f.ops("create")).toEqual([]);
    expect(f.stack.state.resources).toEqual([]);
  });

  test("computed outputs of a resource to create reach dependents' Check as the unknown sentinel; echoed inputs are known", async () => {
    const f = await fixtureStack(program());
    const plan = await f.stack.preview();
    const checkB = f.ops("check").find((o) => o.name === "b");
    expect(checkB?.news).toMatchObject({ ref: UNKNOWN, note: "a" });
    expect(plan.outputs).toEqual({ serial: UNKNOWN, key: "a" });
  });
});

describe("preview of changes", () => {
  test("an update makes the resource's computed outputs unknown, so its dependents reach Diff with the unknown sentinel", async () => {
    const f = await fixtureStack(program());
    await f.stack.up();
    const mark = f.ops().length;
    const plan = await f.stack.preview(program("uno"));
    expect(plan).toHaveActions({ a: "update", b: "update" });
    const diffB = f
      .ops()
      .slice(mark)
      .find((o) => o.op === "diff" && o.name === "b");
    expect(diffB?.news).toMatchObject({ ref: UNKNOWN, note: "a" });
    // Nothing was applied.
    expect(
      f
        .ops()
        .slice(mark)
        .filter((o) => ["create", "update", "delete"].includes(o.op)),
    ).toEqual([]);
    expect(f.stack.resource("a").outputs.value).toBe("one");
  });

  test("a preview lists the deletions it would make without making them", async () => {
    const f = await fixtureStack(program());
    await f.stack.up();
    const plan = await f.stack.preview(() => void new Record("a", { key: "a", value: "one" }));
    expect(plan).toHaveActions({ a: "same", b: "delete" });
    expect(f.ops("delete")).toEqual([]);
    expect(f.stack.resources().map((r) => r.name)).toEqual(["a", "b"]);
  });
});

describe("empty plan after up", () => {
  const restless = () => void new Record("restless", { key: "restless", unstable: true });

  test("up fails when the preview that follows it still plans changes", async () => {
    const f = await fixtureStack(restless);
    await expect(f.stack.up()).rejects.toThrow('a preview right after up plans 1 change(s), expected none:\n  update pulumi-nodejs:dynamic/fixture:Record "restless"');
  });

  test("the check can be turned off with expectEmptyPlanAfterUp: false", async () => {
    const f = await fixtureStack(restless, { expectEmptyPlanAfterUp: false });
    await expect(f.stack.up()).resolves.toHaveActions({ restless: "create" });
    expect(await f.stack.preview()).not.toHaveNoChanges();
  });
});
