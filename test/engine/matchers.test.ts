/** The jest matchers over run results, and their messages. */
import * as testing from "../../src/testing";
import type { RunResult } from "../../src/testing";

testing.registerMatchers();

const TYPE = "pulumi-nodejs:dynamic/fixture:Record";
const op = (name: string, kind: testing.OperationKind, extra: Partial<testing.OperationReport> = {}) => ({
  urn: `urn:pulumi:test::test::${TYPE}::${name}`,
  type: TYPE,
  name,
  op: kind,
  ...extra,
});
const result = (...operations: testing.OperationReport[]): RunResult => ({ kind: "preview", operations, totals: {}, changes: 0, outputs: {}, warnings: [] });

describe("toHaveNoChanges", () => {
  test("passes when every operation is same or read", () => {
    expect(result(op("a", "same"), op("b", "read"))).toHaveNoChanges();
  });

  test("fails listing the changes", () => {
    expect(() => expect(result(op("a", "same"), op("b", "update", { diffs: ["value"] }))).toHaveNoChanges()).toThrow(
      `expected the preview to change nothing, but it has 1 change(s):\n  update ${TYPE} "b" (value)`,
    );
  });
});

describe("toHaveActions", () => {
  test("passes when each named resource (by name or URN) has the expected operation; `none` means absent", () => {
    expect(result(op("a", "update"), op("b", "replace"))).toHaveActions({ a: "update", [`urn:pulumi:test::test::${TYPE}::b`]: "replace", c: "none" });
  });

  test("`none`: the run does nothing to it, so an unchanged (`same`) resource passes and a changed one fails", () => {
    expect(result(op("a", "same"))).toHaveActions({ a: "none", b: "none" });
    expect(() => expect(result(op("a", "update"))).toHaveActions({ a: "none" })).toThrow('"a": expected none, got update');
  });

  test("`release` is a delete that released the object; `delete` matches either", () => {
    const released = result(op("c", "delete", { released: true }), op("d", "delete"));
    expect(released).toHaveActions({ c: "release", d: "delete" });
    expect(released).toHaveActions({ c: "delete" });
    expect(() => expect(released).toHaveActions({ d: "release" })).toThrow('"d": expected release, got delete');
  });

  test("fails naming each mismatch", () => {
    expect(() => expect(result(op("a", "update"))).toHaveActions({ a: "replace", b: "create" })).toThrow('"a": expected replace, got update\n  "b": expected create, got none');
  });

  test("rejects what is not a run result", () => {
    expect(() => expect({}).toHaveActions({})).toThrow("expected the result of up(), preview(), refresh() or destroy()");
  });
});
