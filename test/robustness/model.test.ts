/**
 * Model-based tests of the provider's promises: random programs over every kind and random
 * sequences of operations on them (test/model), each run on its own stack and emulator through the
 * engine kit and the real dynamic-provider host, with the model's invariants checked after every step
 * (test/model/run.ts lists them). The fast variant runs a few short sequences; the soak
 * (`npm run soak`) at least 200 sequences of 20 steps. The seed is fixed (FUZZ_SEED overrides it; the
 * soak draws one and prints it), so a failure replays; fast-check then shrinks it, and the failure
 * prints the shrunk reproduction: each step with what it changed, the program as TypeScript, and the
 * sequence as data to keep as a regression test (test/model/regressions.test.ts).
 */
import fc from "fast-check";
import { KINDS } from "../kinds";
import { sequences } from "../model/arbitraries";
import { newCounts, runSequence } from "../model/run";
import { MODE, SEED, SOAK } from "./helpers";
import { Figures, report } from "./reliability";

const SEQUENCES = SOAK ? Number(process.env.MODEL_SEQUENCES ?? 200) : 3;
const STEPS = SOAK ? 20 : 8;
/** How long shrinking a failure may take before the smallest failing sequence found so far is reported. */
const SHRINK_BUDGET_MS = SOAK ? 20 * 60_000 : 5 * 60_000;

jest.setTimeout(SOAK ? 12 * 3600_000 : 20 * 60_000);

const figures = new Figures();
afterAll(() => report(__filename, MODE, figures));

test(`${SEQUENCES} random sequences of ${STEPS} steps over all ${KINDS.length} kinds keep every promise (seed ${SEED})`, async () => {
  const counts = newCounts();
  let failedAt: number | undefined;
  const property = fc.asyncProperty(sequences(STEPS), async (seq) => {
    // Past the budget, shrinking stops trying candidates: the last failing one is the reproduction.
    if (failedAt !== undefined && Date.now() - failedAt > SHRINK_BUDGET_MS) return;
    try {
      await runSequence({ ...seq, seed: SEED }, counts);
    } catch (e) {
      failedAt ??= Date.now();
      throw e;
    }
  });
  try {
    await fc.assert(property, { seed: SEED, numRuns: SEQUENCES });
  } catch (e) {
    figures.modelViolations++;
    throw e;
  } finally {
    figures.modelSequences += counts.sequences;
    figures.modelSteps += counts.steps;
    figures.modelInvariants += counts.invariants;
  }
  // Every kind took part in the soak's sequences; the fast variant's few cover at least 12.
  expect(counts.kinds.size).toBeGreaterThanOrEqual(SOAK ? KINDS.length : 12);
});
