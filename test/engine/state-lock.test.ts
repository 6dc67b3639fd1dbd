/** A state file is one stack's at a time, as a Pulumi backend locks a stack during an update. */
import * as path from "node:path";
import { hostname } from "node:os";
import * as testing from "../../src/testing";
import { Record } from "./fixtures/record";
import { closeStacks, fixtureStack, tempDir } from "./fixtures/harness";

afterEach(closeStacks);

test("a second stack on the same state file fails at once, naming the process that holds it; it opens once the first closes", async () => {
  const statePath = path.join(tempDir(), "nested", "stack.json");
  const program = () => void new Record("r", { key: "r" });
  const first = await fixtureStack(program, { statePath });
  await first.stack.up();
  const second = testing.stack(program, { statePath, config: { "fixture:storeDir": first.storeDir } });
  await expect(second).rejects.toThrow(`the state file ${statePath} is locked by process ${process.pid} on ${hostname()} since `);
  await expect(testing.stack(program, { statePath, config: { "fixture:storeDir": first.storeDir } })).rejects.toThrow("another stack is open on it");
  await first.stack.close();
  const third = await fixtureStack(program, { statePath, storeDir: first.storeDir });
  expect(await third.stack.preview()).toMatchObject({ changes: 0 });
});
