/**
 * pulumi-svc/testing/jest-environment: jest's Node environment for test files that run programs
 * through the kit, with the stacks @pulumi/pulumi takes of message-less errors formatted by V8's own
 * rules instead of jest's.
 *
 *   // jest.config.js
 *   module.exports = { testEnvironment: "pulumi-svc/testing/jest-environment" };
 *
 * Why: @pulumi/pulumi reads the stack of a fresh message-less error for every promise it makes
 * (`debuggablePromise` keeps it for its leak report at exit) and for every resource a program
 * declares. A program the kit runs runs in the test file's realm, whose `Error` has no
 * `prepareStackTrace`, so Node formats with the main realm's, which jest sets to its source-mapping
 * formatter: that one clones every call site of every stack, up to jest's 100 frames. In this
 * repository's test files that run the largest programs, it was a quarter of the test process's CPU.
 *
 * Here a message-less `Error` (what those reads make) is formatted as V8 formats it, without source
 * maps and with Node's default 10 frames, except while `Error.stackTraceLimit` is infinite:
 * @pulumi/pulumi sets it so to take a resource's source position, which keeps the position mapped
 * to the test's source. Every other error keeps jest's stack, so failures read as before.
 *
 * It extends `jest-environment-node`, which jest installs with itself (an optional peer dependency
 * of this package: install it where a package manager does not hoist it).
 */
import type * as NodeEnvironment from "jest-environment-node";
import { SvcError } from "../errors";

type NodeEnvironmentModule = typeof NodeEnvironment;

function nodeEnvironment(): NodeEnvironmentModule {
  try {
    // Loaded here, not imported, so that its absence is told as such.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require("jest-environment-node") as NodeEnvironmentModule;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err?.code === "MODULE_NOT_FOUND" && err.message.includes("'jest-environment-node'")) {
      throw new SvcError(
        "SVC_KIT_JEST_ENVIRONMENT_MISSING",
        "pulumi-svc/testing/jest-environment extends jest's Node environment, and jest-environment-node cannot be loaded from pulumi-svc's folder",
        { cause: err },
      );
    }
    throw e;
  }
}

/** The frames as V8 writes them after an error's first line. */
const atLines = (frames: readonly NodeJS.CallSite[]) => frames.map((frame) => `\n    at ${frame}`).join("");

/** How many frames V8 keeps by default (Node does not change it). */
const V8_FRAMES = 10;

export default class PulumiSvcEnvironment extends nodeEnvironment().TestEnvironment {
  constructor(...args: ConstructorParameters<NodeEnvironmentModule["TestEnvironment"]>) {
    super(...args);
    const TestError = this.global.Error;
    TestError.prepareStackTrace = (error: Error, frames: NodeJS.CallSite[]) => {
      if (error.message === "" && error.name === "Error" && TestError.stackTraceLimit !== Infinity) return `Error${atLines(frames.slice(0, V8_FRAMES))}`;
      // Jest's formatter, which it sets on this (the main) realm's Error before each test file runs.
      if (Error.prepareStackTrace) return Error.prepareStackTrace(error, frames);
      return `${error.name}: ${error.message}${atLines(frames)}`;
    };
  }
}
