// A user's jest test of a program, in plain JavaScript, under the package's jest environment
// (jest.config.js beside it names pulumi-svc/testing/jest-environment).
/* global test, expect */
require("pulumi-svc/testing/jest");
const svc = require("pulumi-svc");
const testing = require("pulumi-svc/testing");

/** An error made `depth` calls deep. */
const deep = (depth, make) => (depth === 0 ? make() : deep(depth - 1, make));
const frames = (stack) => stack.split("\n").filter((l) => /^ {4}at /.test(l)).length;

test("a program goes up, re-runs unchanged and is destroyed; its message-less stacks are V8's, its other errors jest's", async () => {
  const stacks = [];
  const program = () => {
    stacks.push(deep(30, () => new Error()).stack, deep(30, () => new Error("named")).stack);
    new svc.Label("anomaly", { name: "anomaly", title: "Anomaly" });
  };
  const stack = await testing.stack(program, { emulator: true });
  try {
    expect(await stack.up()).toHaveActions({ anomaly: "create" });
    expect(await stack.preview()).toHaveNoChanges();
    await stack.destroy();
  } finally {
    await stack.close();
  }
  const [plain, named] = stacks;
  expect(plain.split("\n")[0]).toBe("Error");
  expect(frames(plain)).toBe(10);
  expect(frames(named)).toBeGreaterThan(30);
});
