/**
 * The kit as users load it: by package name (the built package, as `npm test` builds and links it),
 * in the shape the README shows.
 */
// Loaded by package name at run time; typed from the sources (the repository's TypeScript settings
// predate package "exports" resolution).
const testing = require("pulumi-svc/testing") as typeof Testing;
import type * as Testing from "../../src/testing";
import { Record } from "./fixtures/record";
import { tempDir } from "./fixtures/harness";

testing.registerMatchers();

test("stack → up → empty preview → destroy → close, against an in-process emulator", async () => {
  const program = () => {
    const r = new Record("my-record", { key: "my-record", value: "v1" });
    return { id: r.id };
  };
  const stack = await testing.stack(program, { emulator: true, config: { "fixture:storeDir": tempDir() } });
  try {
    const up = await stack.up();
    expect(up).toHaveActions({ "my-record": "create" });
    expect(await stack.preview()).toHaveNoChanges();
    expect(stack.outputs.id).toBe(stack.resource("my-record").id);
    await stack.destroy();
    expect(stack.state.resources).toEqual([]);
  } finally {
    await stack.close();
  }
});
