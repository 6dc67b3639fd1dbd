/**
 * Bugs the model tests found (test/robustness/model.test.ts), each kept as its shrunk reproduction:
 * a sequence of programs and operations replayed through the same runner, which checks every
 * promise after each step (empty preview after up, the platform equal to the program, a refresh
 * without drift, destroy leaving only what the platform cannot delete, nothing lost or duplicated,
 * no secret in the state or the logs).
 */
import type { Decl, ProgramSpec } from "./program";
import { runSequence, type Sequence } from "./run";

jest.setTimeout(120_000);

const replay = (steps: Sequence["steps"], parallel = 1) => runSequence({ parallel, steps });
const up = (program: ProgramSpec) => ({ op: "up" as const, program });
const with_ = (program: ProgramSpec, name: string, change: (d: Decl) => void): ProgramSpec =>
  program.map((d) => {
    if (d.name !== name) return d;
    const copy = JSON.parse(JSON.stringify(d)) as Decl;
    change(copy);
    return copy;
  });

describe("shrunk reproductions of what the model tests found", () => {
  test("setting adopt on a resource that exists, then a refresh: the refresh reported `adopt` as changed on the platform", async () => {
    const program: ProgramSpec = [{ kind: "Label", name: "label-1", args: { name: "label-1", title: "Label 1" } }];
    await replay([up(program), up(with_(program, "label-1", (d) => (d.args.adopt = true))), { op: "refresh" }]);
  });
});
