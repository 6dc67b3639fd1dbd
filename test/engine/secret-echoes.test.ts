/**
 * Secret args stay secret in everything the kit's engine writes: one resource of every kind with a
 * secret canary in each arg that can hold one, an up and an update that changes the canaries, then a
 * search of the state file, every file beside it, the engine's temporary folders and the provider's
 * log for every canary (see test/helpers/secret-canaries.ts; test/cli/secret-echoes.test.ts runs the
 * same under `pulumi`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
// Everything the run writes to the temporary folder goes under this one, which the search covers.
const root = fs.mkdtempSync(path.join(os.tmpdir(), "secret-echoes-"));
process.env.TMPDIR = root;
import * as testing from "../../src/testing";
import { kinds } from "../../src/provider/kinds";
import { describeSecretEchoes } from "../helpers/secret-canaries";

jest.setTimeout(300_000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describeSecretEchoes(
  "secret args under the kit's engine",
  () => root,
  (log, folder) => testing.stack(() => undefined, { emulator: true, statePath: path.join(root, folder, "stack.json"), log }),
  kinds,
  [/^main\/stack\.json$/],
);

test("the README's Secrets section lists every output that follows an arg's secrecy, with its args", () => {
  const readme = fs.readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Secrets"), readme.indexOf("\n## ", readme.indexOf("### Secrets")));
  const rows = new Map(
    section
      .split("\n")
      .filter((l) => l.startsWith("| `"))
      .map((l) => [/^\| `(\w+)`/.exec(l)![1], l]),
  );
  const expected = Object.entries(kinds).filter(([, k]) => Object.keys(k.outputEchoes).length > 0);
  expect([...rows.keys()].sort()).toEqual(expected.map(([n]) => n).sort());
  for (const [name, k] of expected) {
    for (const [output, args] of Object.entries(k.outputEchoes)) {
      expect(rows.get(name)).toContain(`\`${output}\``);
      for (const a of args) expect(rows.get(name)).toContain(`\`${a}\``);
    }
  }
});
