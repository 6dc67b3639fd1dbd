/** Resource options the engine honours: protect, retainOnDelete, ignoreChanges, replaceOnChanges, parents, get. */
import * as pulumi from "@pulumi/pulumi";
import * as testing from "../../src/testing";
import { Record } from "./fixtures/record";
import { closeStacks, fixtureStack } from "./fixtures/harness";

testing.registerMatchers();
afterEach(closeStacks);

const TYPE = "pulumi-nodejs:dynamic/fixture:Record";

class Group extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("fixture:index:Group", name, {}, opts);
    new Record(`${name}-member`, { key: `${name}-member` }, { parent: this });
    this.registerOutputs({});
  }
}

describe("protect and retainOnDelete", () => {
  test("a protected resource is neither deleted when dropped from the program nor by destroy", async () => {
    const f = await fixtureStack(() => void new Record("vault", { key: "vault" }, { protect: true }));
    await f.stack.up();
    await expect(f.stack.up(() => undefined)).rejects.toThrow(
      `delete of ${TYPE} "vault" failed: resource "urn:pulumi:test::test::${TYPE}::vault" cannot be deleted\nbecause it is protected`,
    );
    await expect(f.stack.destroy()).rejects.toMatchObject({ failures: [expect.objectContaining({ code: "SVC_KIT_PROTECTED" })] });
    await f.stack.up(() => void new Record("vault", { key: "vault" }, { protect: false }));
    await expect(f.stack.destroy()).resolves.toMatchObject({ totals: { delete: 1 } });
  });

  test("retainOnDelete leaves the object on the platform and out of the check after destroy", async () => {
    const f = await fixtureStack(() => void new Record("kept", { key: "kept" }, { retainOnDelete: true }));
    await f.stack.up();
    const id = f.stack.resource("kept").id!;
    await f.stack.destroy();
    expect(f.stack.resources()).toEqual([]);
    expect(Object.keys(f.records())).toEqual([id]);
  });
});

describe("ignoreChanges and replaceOnChanges", () => {
  const program = (value: string, note: string) => () => void new Record("r", { key: "r", value, note }, { ignoreChanges: ["value"], replaceOnChanges: ["note"] });

  test("an ignored property keeps its old value; replaceOnChanges does not replace, since the dynamic-provider host names no changed keys", async () => {
    const f = await fixtureStack(program("one", "n1"));
    await f.stack.up();
    expect(await f.stack.up(program("two", "n1"))).toHaveActions({ r: "same" });
    expect(f.stack.resource("r").inputs.value).toBe("one");
    // The engine applies replaceOnChanges to the keys the provider reports changed (applyReplaceOnChanges);
    // the Node dynamic-provider host reports none, so `pulumi up` updates in place (test/cli/differential.test.ts).
    const updated = await f.stack.up(program("two", "n2"));
    expect(updated).toHaveActions({ r: "update" });
    expect(updated.operations[0]).toMatchObject({ diffs: ["note"] });
  });
});

describe("components and get", () => {
  test("children carry their parent's type in the URN and are deleted before it", async () => {
    const f = await fixtureStack(() => void new Group("g"));
    await f.stack.up();
    expect(f.stack.resource("g-member").urn).toBe(`urn:pulumi:test::test::fixture:index:Group$${TYPE}::g-member`);
    const result = await f.stack.up(() => undefined);
    expect(result.operations.map((o) => `${o.op} ${o.name}`)).toEqual(["delete g-member", "delete g"]);
  });

  test("get reads an object the stack does not manage; destroy leaves it alone", async () => {
    const owner = await fixtureStack(() => void new Record("x", { key: "x" }));
    await owner.stack.up();
    const id = owner.stack.resource("x").id!;
    const reader = await fixtureStack(
      () => {
        const seen = new Record("seen", { key: "x" }, { id });
        return { serial: seen.serial };
      },
      { storeDir: owner.storeDir },
    );
    expect(await reader.stack.up()).toHaveActions({ seen: "read" });
    expect(reader.stack.outputs).toEqual({ serial: 1 });
    await reader.stack.destroy();
    expect(Object.keys(reader.records())).toEqual([id]);
  });
});
