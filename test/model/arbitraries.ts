/**
 * fast-check arbitraries of operation sequences. A sequence starts with an up of a random program
 * (a handful of additions, each bringing what it needs) and continues with random steps: ups with
 * random edits (some under injected faults), previews, refreshes, destroys and out-of-band edits.
 * Edits carry seeds and are interpreted against the program of the moment, so shrinking can drop any
 * step or edit and what remains is still a valid sequence.
 */
import fc from "fast-check";
import { EDITS, type Edit, type Faults, type Sequence, type Step } from "./run";

const seed = fc.integer({ min: 1, max: 2 ** 31 - 1 });
const edit: fc.Arbitrary<Edit> = fc.record({ type: fc.constantFrom(...EDITS), seed });
const add: fc.Arbitrary<Edit> = fc.record({ type: fc.constant("add" as const), seed });
const faults: fc.Arbitrary<Faults> = fc.record({
  mode: fc.constantFrom("before" as const, "after_apply" as const),
  seed: fc.nat({ max: 2 ** 31 - 1 }),
  percent: fc.integer({ min: 10, max: 30 }),
});

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant("up" as const), edits: fc.array(edit, { minLength: 1, maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("up" as const), edits: fc.array(edit, { minLength: 1, maxLength: 3 }), faults }) },
  { weight: 1, arbitrary: fc.constant({ op: "preview" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "refresh" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "destroy" as const }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("drift" as const), seed }) },
);

/** Sequences of `length` steps, the first an up of 3 to 8 additions. */
export function sequences(length: number): fc.Arbitrary<Sequence> {
  return fc
    .record({
      parallel: fc.constantFrom(1, 4, 16),
      first: fc.array(add, { minLength: 3, maxLength: 8 }),
      rest: fc.array(step, { minLength: length - 1, maxLength: length - 1 }),
    })
    .map(({ parallel, first, rest }) => ({ parallel, steps: [{ op: "up" as const, edits: first }, ...rest] }));
}
