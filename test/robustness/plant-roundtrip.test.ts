/**
 * Soak only (`npm run soak`): the round trip of bringing a platform under code (test/plant/roundtrip.ts)
 * on a generated plant of 500 assets with a record of every kind a snapshot holds. About two minutes;
 * `npm test` runs the same round trip on the example plant (test/plant/roundtrip.test.ts).
 */
import { KIND_TESTS, KINDS } from "../kinds";
import { generatePlant } from "../plant/generate";
import { roundTrip } from "../plant/roundtrip";
import { SOAK } from "./helpers";

(SOAK ? test : test.skip)(
  "soak: a generated plant of 500 assets goes through snapshot, generate, compile and adopt, changing no record",
  async () => {
    const kinds = await roundTrip(generatePlant({ assets: 500 }), 500);
    // Every kind the program should declare (its test module's `inPlantProgram`) is in it.
    expect(kinds).toEqual(KINDS.filter((k) => KIND_TESTS[k].inPlantProgram).sort());
  },
  900_000,
);
