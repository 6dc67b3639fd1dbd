/**
 * The package's jest environment (pulumi-svc/testing/jest-environment), which this repository's jest
 * config names as users do: this file runs under it. Run under jest's own `node` environment
 * (`npx jest test/engine/jest-environment.test.ts --testEnvironment node`), the first test fails.
 */
/** An error made `depth` calls deep. */
const deep = (depth: number, make: () => Error): Error => (depth === 0 ? make() : deep(depth - 1, make));
const frames = (stack: string | undefined) => (stack ?? "").split("\n").filter((l) => /^ {4}at /.test(l)).length;

test("a message-less Error (as @pulumi/pulumi makes for every promise) has V8's stack: its first line and Node's 10 frames", () => {
  // Jest raises the limit for the test's realm.
  expect(Error.stackTraceLimit).toBeGreaterThan(10);
  const stack = deep(30, () => new Error()).stack!;
  expect(stack.split("\n")[0]).toBe("Error");
  expect(frames(stack)).toBe(10);
});

test("while the limit is infinite (as @pulumi/pulumi takes a resource's source position), the whole stack is kept", () => {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = Infinity;
  try {
    expect(frames(deep(30, () => new Error()).stack)).toBeGreaterThan(30);
  } finally {
    Error.stackTraceLimit = limit;
  }
});

test("an error with a message, or of another class, keeps jest's stack: up to jest's limit of frames", () => {
  expect(frames(deep(30, () => new Error("boom")).stack)).toBeGreaterThan(30);
  expect(frames(deep(30, () => new TypeError()).stack)).toBeGreaterThan(30);
  expect(deep(0, () => new TypeError("bad")).stack!.split("\n")[0]).toBe("TypeError: bad");
});

test("without jest-environment-node where pulumi-svc is installed, loading it says what to install", () => {
  jest.isolateModules(() => {
    jest.doMock("jest-environment-node", () => {
      throw Object.assign(new Error("Cannot find module 'jest-environment-node' from 'src/testing/jest-environment.ts'"), { code: "MODULE_NOT_FOUND" });
    });
    expect(() => require("../../src/testing/jest-environment")).toThrow(
      expect.objectContaining({ code: "SVC_KIT_JEST_ENVIRONMENT_MISSING", message: expect.stringContaining("jest-environment-node cannot be loaded") }),
    );
  });
});
