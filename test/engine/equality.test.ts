/** The value equality and unknown sentinel the provider and the kit's engine share (src/pulumi/values.ts). */
import { containsUnknown, deepEqual, UNKNOWN } from "../../src/pulumi/values";

test("key order is ignored; an absent key equals one holding undefined; null is a value", () => {
  expect(deepEqual({ a: 1, b: [1, { c: "x" }] }, { b: [1, { c: "x" }], a: 1 })).toBe(true);
  expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
  expect(deepEqual({ a: null }, {})).toBe(false);
  expect(deepEqual([1, 2], [2, 1])).toBe(false);
  expect(deepEqual({ a: [] }, { a: {} })).toBe(false);
  expect(deepEqual(null, undefined)).toBe(false);
});

test("an unknown anywhere inside a value is found", () => {
  expect(containsUnknown({ a: [1, { b: UNKNOWN }] })).toBe(true);
  expect(containsUnknown({ a: [1, { b: "known" }] })).toBe(false);
});
