/**
 * The promise every kind keeps (issue 25): a refresh right after an up is empty, and a refresh never
 * makes the next up change anything the program did not change. Per kind, a property over random
 * valid args (each kind's `scenario` in test/kinds/<kind>.ts, with the helpers of test/robustness/kind-scenarios.ts: optional args left out, platform defaults, values
 * the platform normalises, manifests that explicit args override): up (whose preview right after
 * must be empty, the kit checks it), refresh (must be empty), preview (must be empty).
 *
 * Each kind has one stack, against one emulator for the file: a scenario (with names of its own) is
 * added to what the stack's program already declares, so every refresh reads the earlier scenarios
 * back too. A failing scenario leaves its stack behind, and the next one starts on a fresh stack.
 * The fast variant (`npm test`) draws a few scenarios per kind; the soak (`npm run soak`) many more,
 * from a drawn seed it prints. ROUNDTRIP_KINDS=AppVersion,Workload runs those kinds only.
 */
import fc from "fast-check";
import * as testing from "../../src/testing";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { KINDS, SCENARIOS } from "../kinds";
import { programText, toProgram, type ProgramSpec } from "../model/program";
import { SEED, SOAK } from "./helpers";

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? (SOAK ? 100 : 3));
const ONLY = process.env.ROUNDTRIP_KINDS?.split(",");
jest.setTimeout(SOAK ? 4 * 3600_000 : 5 * 60_000);

// Started by the first test that needs it: the kinds' tests run concurrently.
let emulator: Promise<TestEmulator> | undefined;
let unique = 0;
/** A stack starts afresh once its program holds this many resources (the soak's hundreds of scenarios would slow every run). */
const MAX_RESOURCES = 40;

/** One kind's stack and the program it has deployed so far. */
class KindStack {
  private stack: testing.TestStack | undefined;
  private program: ProgramSpec = [];

  /** Adds `spec` to the program (a declaration with a logical name the program has replaces it); up, refresh, preview. */
  async roundTrip(spec: ProgramSpec): Promise<void> {
    if (this.program.length > MAX_RESOURCES) await this.close();
    const emu = await (emulator ??= startTestEmulator());
    const config = { "svc:baseUrl": emu.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" };
    const program = [...this.program.filter((d) => !spec.some((s) => s.name === d.name)), ...spec];
    this.stack ??= await testing.stack(toProgram([]), { config, secretConfig: ["svc:clientSecret"] });
    const earlier = this.program.length ? ` (on a stack that holds ${this.program.length} resource(s) of earlier scenarios)` : "";
    const fail = (step: string, detail: string) => new Error(`${step}${earlier}:\n${detail}\nthe scenario's program:\n${programText(spec)}`);
    try {
      try {
        await this.stack.up(toProgram(program));
      } catch (e) {
        throw fail("the up failed, or the preview right after it planned changes", (e as Error).message);
      }
      const refreshed = await this.stack.refresh();
      if (refreshed.changes > 0) throw fail("the refresh right after the up is not empty", refreshed.render());
      const planned = await this.stack.preview();
      if (planned.changes > 0) throw fail("the preview after the refresh plans changes the program did not make", planned.render());
      this.program = program;
    } catch (e) {
      await this.close();
      throw e;
    }
  }

  async close(): Promise<void> {
    const stack = this.stack;
    this.stack = undefined;
    this.program = [];
    await stack?.close();
  }
}

const stacks = new Map(KINDS.map((k) => [k, new KindStack()]));
afterAll(async () => {
  await Promise.all([...stacks.values()].map((s) => s.close()));
  await (await emulator)?.close();
});

// The kinds run concurrently: most of a scenario's time is spent waiting on a provider host or the emulator.
test.concurrent.each(KINDS.filter((k) => !ONLY || ONLY.includes(k)))(`%s: ${RUNS} random declarations: up, then refresh and preview are empty (seed ${SEED})`, async (kind) => {
  const stack = stacks.get(kind)!;
  await fc.assert(
    fc.asyncProperty(SCENARIOS[kind], async (scenario) => stack.roundTrip(scenario(++unique))),
    { seed: SEED, numRuns: RUNS, endOnFailure: !SOAK },
  );
});
