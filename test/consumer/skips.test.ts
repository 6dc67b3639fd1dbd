/**
 * The consumer suite says why it skips: without CONSUMER=full, the scenarios that run only with it
 * are reported as skipped with the reason in their titles and on stderr (jest alone says "skipped").
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = path.join(__dirname, "..", "..");

test("without CONSUMER=full, the skipped lifecycle scenarios say that they run only with it", async () => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CONSUMER;
  const jest = path.join(root, "node_modules", "jest", "bin", "jest.js");
  const { stdout, stderr } = await run(process.execPath, [jest, "--json", "--runTestsByPath", "test/consumer/lifecycle.test.ts"], { cwd: root, env, maxBuffer: 64 << 20 });
  const report = JSON.parse(stdout) as { numPendingTests: number; testResults: Array<{ assertionResults: Array<{ status: string; fullName: string }> }> };
  const skipped = report.testResults.flatMap((r) => r.assertionResults).filter((a) => a.status === "pending");
  expect(skipped.length).toBe(report.numPendingTests);
  expect(skipped.length).toBeGreaterThan(0);
  for (const a of skipped) expect(a.fullName).toContain("(SKIPPED: runs only with CONSUMER=full)");
  expect(stderr).toContain("test/consumer/lifecycle.test.ts: the program's whole life from a consumer project: SKIPPED: runs only with CONSUMER=full");
}, 120_000);
