/** The parallelism limit bounds how many provider operations run at once. */
import * as testing from "../../src/testing";
import { Record } from "./fixtures/record";
import { closeStacks, fixtureStack } from "./fixtures/harness";

testing.registerMatchers();
afterEach(closeStacks);

const six = (delayMs: number) => () => {
  for (let i = 0; i < 6; i++) new Record(`r${i}`, { key: `r${i}`, delayMs });
};

const peak = (ops: Array<{ inflight?: number }>) => Math.max(...ops.map((o) => o.inflight ?? 0));

describe("parallelism", () => {
  test("with parallel: 2, at most two creates, and two deletes, run at once (and two do)", async () => {
    const f = await fixtureStack(six(150), { parallel: 2, expectEmptyPlanAfterUp: false });
    await f.stack.up();
    expect(peak(f.ops("create"))).toBe(2);
    await f.stack.destroy();
    expect(peak(f.ops("delete"))).toBe(2);
  });

  test("independent resources otherwise run together (default limit 16)", async () => {
    const f = await fixtureStack(six(150), { expectEmptyPlanAfterUp: false });
    await f.stack.up();
    expect(peak(f.ops("create"))).toBe(6);
  });
});
