/**
 * Every resource kind through the real dynamic-provider host (the engine kit), against the emulator:
 * create; a re-run plans nothing (the kit checks an empty plan after every up); update in place;
 * replace; destroy leaves nothing behind (checked through the provider's Read).
 */
import type { KindName } from "../../src/provider/kinds";
import * as testing from "../../src/testing";
import { KIND_TESTS, KINDS } from "../kinds";
import type { E2eCase, Variant } from "../kinds/kind-tests";

testing.registerMatchers();

type Case = E2eCase & { kind: KindName };

/** The kinds' cases, from their test modules (test/kinds). */
const cases: Case[] = KINDS.map((kind) => ({ kind, ...KIND_TESTS[kind].e2e }));

const program = (c: Case, v: Variant) => async () => {
  c.program(v);
};

describe("every resource kind goes up, re-runs clean, updates, replaces and is destroyed", () => {
  test.each(cases.map((c) => [c.kind, c] as const))("%s", async (_kind, c) => {
    const stack = await testing.stack(program(c, 0), { emulator: true, checkDestroy: !c.retained });
    try {
      const created = await stack.up();
      expect(created).toHaveActions({ subject: "create" });
      expect(await stack.up()).toHaveNoChanges();
      expect(await stack.up(program(c, 1))).toHaveActions({ subject: c.actions[0] === "none" ? "same" : c.actions[0] });
      expect(await stack.up(program(c, 2))).toHaveActions({ subject: c.actions[1] === "none" ? "same" : c.actions[1] });
      await stack.expectNoDrift();
      const destroyed = await stack.destroy();
      expect(destroyed.operations.find((o) => o.name === "subject")?.op).toBe("delete");
      expect(stack.resources()).toEqual([]);
      if (c.kind === "InstanceSettings") {
        const settings = (await fetch(`${stack.emulator!.baseUrl}/emulator/state`).then((r) => r.json())) as { instance_settings?: unknown };
        expect(JSON.stringify(settings.instance_settings ?? [])).toContain('"metrics":{"enabled":true,"interval":60}');
      }
    } finally {
      await stack.close();
    }
  });
});
