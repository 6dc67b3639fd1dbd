/**
 * Jest's order of test files, with an estimate for the files it has no duration of.
 *
 * Jest starts the longest files first, so that its workers end together: it knows a file's duration
 * from the last run (kept in its cache), and without one it ranks files by size and starts them
 * before every file it has a duration of. A clean clone (CI) has no durations, and there a file that
 * runs the real `pulumi` CLI or a toolchain (a minute or more in a few kilobytes) starts after the
 * large files of quick HTTP tests, and may run alone at the end while the other worker idles. Here a
 * file without a duration is given one from its size and its kind, so that both kinds mix in one
 * order with the files that have durations.
 */
const Sequencer = require("@jest/test-sequencer").default;
const path = require("node:path");
const fs = require("node:fs");

/**
 * Measured milliseconds of CPU of the real-engine files and the longest others (one run, 2 cores,
 * `npm test`'s settings). Their size says little of their time: a CLI file runs a few engine
 * commands per test, 1.5 to 4 s of CPU each, and the killed-run scenarios are in killed-harness.ts.
 */
const MEASURED = {
  "cli/killed.test.ts": 95_000,
  "cli/differential.test.ts": 112_000,
  "cli/multi-site.test.ts": 81_000,
  "cli/lifecycle.test.ts": 62_000,
  "cli/differential-options.test.ts": 59_000,
  "cli/secret-echoes.test.ts": 56_000,
  "cli/differential-render.test.ts": 54_000,
  "cli/ownership.test.ts": 52_000,
  "plant/generate.test.ts": 50_000,
  "cli/killed-kit.test.ts": 39_000,
  "cli/warnings.test.ts": 32_000,
  "cli/schedule-conflicts.test.ts": 31_000,
  "provider/behaviour.e2e.test.ts": 30_000,
  "robustness/faults.test.ts": 30_000,
  "cli/identity-conflicts.test.ts": 29_000,
  "cli/refresh.test.ts": 28_000,
  "upgrade/baselines.test.ts": 24_000,
  "native/provider.test.ts": 19_000,
  "native/same-records.test.ts": 19_000,
  "cli/differential-error-hooks.test.ts": 15_000,
  "cli/gitops.test.ts": 14_000,
  "native/embedded.test.ts": 8_000,
};

/**
 * Otherwise, milliseconds of CPU per byte of test file: an emulator or client file takes about 0.2, a
 * file of the provider host's end-to-end runs (`*.e2e.test.ts`) 1.6, a CLI file 3 to 20. The folders
 * whose files run other toolchains (npm installs, the Python SDK and clients) are ranked with the CLI's.
 */
const MS_PER_BYTE = { cli: 8, native: 8, consumer: 8, vendor: 8, upgrade: 2 };
const E2E = 1.6;
const OTHER = 0.2;

const underTest = (file) => path.relative(path.join(__dirname, ".."), file).split(path.sep).join("/");
const msPerByte = (file) => MS_PER_BYTE[underTest(file).split("/")[0]] ?? (file.endsWith(".e2e.test.ts") ? E2E : OTHER);
const estimate = (file) => MEASURED[underTest(file)] ?? fs.statSync(file).size * msPerByte(file);

class LongestFirst extends Sequencer {
  time(test) {
    return super.time(test) ?? estimate(test.path);
  }
}

module.exports = LongestFirst;
