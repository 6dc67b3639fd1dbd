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
 * Milliseconds of CPU per byte of test file, measured on 2 cores: an emulator or client file takes
 * about 0.2; a file of the provider host's end-to-end runs (`*.e2e.test.ts`) 1.6; the upgrade
 * baselines 2; a CLI file 7 to 8. The folders whose files run other toolchains (npm installs, the
 * Python SDK and clients) are ranked with the CLI's.
 */
const MS_PER_BYTE = { cli: 8, native: 8, consumer: 8, vendor: 8, upgrade: 2 };
const E2E = 1.6;
const OTHER = 0.2;
/**
 * Files whose size says little of their time, with their measured milliseconds of CPU: the killed-run
 * scenarios are in killed-harness.ts, and the CLI lifecycle runs the quickstart's 14 resources.
 */
const MEASURED = { "cli/killed.test.ts": 95_000, "cli/killed-kit.test.ts": 39_000, "cli/lifecycle.test.ts": 62_000 };

const underTest = (file) => path.relative(path.join(__dirname, ".."), file).split(path.sep).join("/");
const msPerByte = (file) => MS_PER_BYTE[underTest(file).split("/")[0]] ?? (file.endsWith(".e2e.test.ts") ? E2E : OTHER);
const estimate = (file) => MEASURED[underTest(file)] ?? fs.statSync(file).size * msPerByte(file);

class LongestFirst extends Sequencer {
  time(test) {
    return super.time(test) ?? estimate(test.path);
  }
}

module.exports = LongestFirst;
