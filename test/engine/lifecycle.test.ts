import * as testing from "../../src/testing";
import { Record } from "./fixtures/record";
import { closeStacks, fixtureStack } from "./fixtures/harness";

testing.registerMatchers();
afterEach(closeStacks);

test("create then no-op", async () => {
  let t = Date.now();
  const lap = (what: string) => { console.log(what, Date.now() - t); t = Date.now(); };
  const f = await fixtureStack(() => {
    const a = new Record("a", { key: "a", value: "one" });
    const b = new Record("b", { key: "b", ref: a.serial });
    return { aSerial: a.serial, bId: b.id };
  });
  lap("start");
  await f.stack.up();
  lap("up");
  expect(await f.stack.preview()).toHaveNoChanges();
  lap("preview");
  await f.stack.destroy();
  lap("destroy");
});
