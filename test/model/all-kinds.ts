/**
 * The program of every kind: the quickstart, then one resource of each kind it leaves out, as that
 * kind's test module declares it (its `allKinds` part, in the order of test/kinds/index.ts), with real
 * references between them. The faults test runs its whole life under injected faults, and the
 * upgrade test replays it over the state release 0.1.0 wrote with it: a kind added since is a create.
 */
import * as pulumi from "@pulumi/pulumi";
import { quickstart } from "../../examples/quickstart/program";
import { KIND_TESTS, KINDS } from "../kinds";
import type { Declared } from "../kinds/kind-tests";

export function allKinds() {
  const outputs = quickstart();
  const round = {
    cluster: outputs.cluster,
    // The quickstart's pump-1, as an output of the pumps (so that what refers to it comes after it).
    pump1: pulumi.all(outputs.assetPaths).apply(() => "pump-1"),
    before: {} as Declared,
  };
  for (const kind of KINDS) {
    const part = KIND_TESTS[kind].allKinds;
    if (part === "quickstart") continue;
    const declared = part(round);
    if (declared) Object.assign(round.before, { [kind]: declared });
  }
  // The stack outputs release 0.1.0 recorded.
  return { ...outputs, dataType: round.before.DataType?.id, bridgeWorkload: round.before.Bridge?.workloadName };
}
