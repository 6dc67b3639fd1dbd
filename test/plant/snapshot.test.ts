/**
 * Snapshot (src/plant/snapshot.ts) through HTTP: an emulator seeded from a fixture is snapshotted, a
 * second emulator is seeded from the snapshot, and the two compare equal table by table.
 */
import { resolve } from "node:path";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { generatePlant } from "./generate";
import { fileWith, tables, take } from "./helpers";

const PLANT = resolve(__dirname, "../../examples/fixtures/plant.yaml");

const open: TestEmulator[] = [];
async function emulator(seed?: NonNullable<Parameters<typeof startTestEmulator>[0]>["seed"]): Promise<TestEmulator> {
  const emu = await startTestEmulator({ seed });
  open.push(emu);
  return emu;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

describe.each([
  ["examples/fixtures/plant.yaml", () => PLANT],
  ["a generated plant of 600 assets with every area", () => generatePlant({ assets: 600 })],
])("Round trip of %s", (_name, seedOf) => {
  test("seeded from the snapshot, a second emulator holds the same tables; its snapshot is the same file", async () => {
    const a = await emulator(seedOf());
    const first = await take(a);
    expect(first.problems).toEqual([]);
    const b = await emulator(fileWith(first.text));
    expect(await tables(b)).toEqual(await tables(a));
    const second = await take(b);
    expect(second.text).toBe(first.text);
  });
});
