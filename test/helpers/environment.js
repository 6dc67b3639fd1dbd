/**
 * Jest's Node environment, with stack traces of message-less errors formatted by V8's own rules.
 *
 * @pulumi/pulumi reads `new Error().stack` for every promise it makes (`debuggablePromise` keeps it for
 * its leak report at exit) and every resource a program declares. A program the kit runs runs in the
 * test file's realm, whose `Error` has no `prepareStackTrace`: Node then formats with the main realm's,
 * which jest sets to its source-mapping formatter, and that clones every call site of every stack (up
 * to jest's 100 frames). Measured with `--cpu-prof`, that was 9 s of the 22 s of CPU the test process
 * of test/plant/roundtrip.test.ts spent, and the three program-heavy files refresh-roundtrip, faults
 * and plant/generate took 141 s of CPU with it and 101 s without.
 *
 * Here a message-less `Error` (what those reads make) is formatted as V8 formats it, without source
 * maps and with Node's default 10 frames, except while `Error.stackTraceLimit` is infinite:
 * @pulumi/pulumi sets it so to take a resource's source position, which keeps the mapped position in
 * the test's source. Every other error keeps jest's mapped stack, so failures read as before.
 */
const { TestEnvironment } = require("jest-environment-node");

class Environment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const TestError = this.global.Error;
    TestError.prepareStackTrace = (error, frames) => {
      if (error.message === "" && error.name === "Error" && TestError.stackTraceLimit !== Infinity) return `Error${atLines(frames.slice(0, 10))}`;
      // Jest's formatter, installed on the main realm's Error before each test file runs.
      if (Error.prepareStackTrace) return Error.prepareStackTrace(error, frames);
      return `${error.name}: ${error.message}${atLines(frames)}`;
    };
  }
}

const atLines = (frames) => frames.map((frame) => `\n    at ${frame}`).join("");

module.exports = Environment;
