/**
 * pulumi-svc/testing: run real Pulumi programs end to end in a test, without the Pulumi CLI. The kit
 * plays the engine: it runs the program in-process, and sends each resource through the real
 * dynamic-provider host of @pulumi/pulumi (a child process, spoken to over gRPC), keeping a state.
 *
 *   const stack = await testing.stack(program, { emulator: true });
 *   await stack.up();
 *   expect(await stack.preview()).toHaveNoChanges();
 *   await stack.destroy();
 *   await stack.close();
 */
import * as path from "node:path";
import { CliStack } from "./cli-stack";
import { folderProgram, isProgramFolder, type ProgramFolder } from "./program-folder";
import type { Program } from "./program";
import type { RenderedRunResult } from "./render";
import { stackConfig, startOwnEmulator, TestStack, type StackOptions } from "./test-stack";

/**
 * Starts a stack for `program`: its provider host, its state, and the emulator when asked for. With
 * `engine: "pulumi"`, a stack whose runs are the Pulumi CLI's (see CliStack).
 */
export function stack(program: Program | ProgramFolder, options: StackOptions & { engine: "pulumi" }): Promise<CliStack>;
export function stack(program: Program | ProgramFolder, options?: StackOptions): Promise<TestStack>;
export function stack(source: Program | ProgramFolder, options: StackOptions = {}): Promise<TestStack | CliStack> {
  // A program folder is loaded afresh for each run; its provider host resolves packages from the folder.
  let program: Program;
  try {
    program = isProgramFolder(source) ? folderProgram(source) : source;
  } catch (e) {
    return Promise.reject(e);
  }
  const opts = isProgramFolder(source) ? { cwd: path.resolve(source.dir), ...options } : options;
  return opts.engine === "pulumi" ? startCliStack(program, opts) : TestStack.start(program, opts);
}

async function startCliStack(program: Program, options: StackOptions): Promise<CliStack> {
  const emulator = options.emulator ? await startOwnEmulator(options.emulator) : undefined;
  try {
    const { config, secretKeys } = stackConfig(options, emulator);
    return await CliStack.start(program, options, emulator, config, secretKeys);
  } catch (e) {
    await emulator?.close();
    throw e;
  }
}

/**
 * The adoption plan of `program` (see TestStack.adoptionPlan): what adopting the objects it declares
 * with `adopt: true` would change on the platform. Starts a stack with `options`, plans, and closes it.
 */
export async function adoptionPlan(program: Program, options: StackOptions = {}): Promise<RenderedRunResult> {
  const s = await TestStack.start(program, options);
  try {
    return await s.adoptionPlan();
  } finally {
    await s.close();
  }
}

export { CliStack, findPulumi } from "./cli-stack";
export { TestStack, RunError, type StackOptions, type ResourceView, type ImportArgs, type UpOptions } from "./test-stack";
export type { Program } from "./program";
export type { ProgramFolder } from "./program-folder";
export type { RunResult, RunKind, OperationReport, OperationKind } from "./engine/report";
export type { RenderedRunResult } from "./render";
export {
  renderPlan,
  summaryLine,
  propertyChanges,
  formatValue,
  shortType,
  type RenderOptions,
  type RenderFormat,
  type RenderableRun,
  type PropertyChange,
  type PropertyChangeKind,
} from "./render";
export type { StackState, ResourceState } from "./engine/state";
export { EngineError } from "./engine/context";
export { expectAdoptionMatchesCreate, type AdoptionOptions } from "./assertions";
export { registerMatchers, toHaveNoChanges, toHaveActions, type ExpectedAction } from "./matchers";
export { UNKNOWN as unknownValue } from "../pulumi/values";
