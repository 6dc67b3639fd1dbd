/**
 * The Automation API's command for a CLI is made once per process: `PulumiCommand.get` runs
 * `pulumi version` each time, and a CLI stack makes a workspace per stack. A stand-in `pulumi` (a
 * script that records its arguments) counts the runs.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiWorkspace } from "../../src/testing/cli-stack";
import { tempDir } from "./fixtures/harness";

/** A `pulumi` in `dir` that records its arguments and prints `version` whatever it is asked. */
function standIn(dir: string, version = "3.274.1"): { pulumi: string; runs: () => string[] } {
  standIns.push(fs.realpathSync(dir));
  const log = path.join(dir, "runs.log");
  const pulumi = path.join(dir, "pulumi");
  fs.writeFileSync(pulumi, `#!/bin/sh\necho "$@" >> '${log}'\necho v${version}\n`, { mode: 0o755 });
  return { pulumi, runs: () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").trim().split("\n") : []) };
}

/** The stand-ins' folders: the links to them the commands run (`<root>/bin/pulumi`, in a shared temporary folder) are removed after each test. */
const standIns: string[] = [];
afterEach(() => {
  const shared = path.join(os.tmpdir(), "pulumi-svc-cli");
  for (const root of fs.readdirSync(shared)) {
    const target = fs.readlinkSync(path.join(shared, root, "bin", "pulumi"));
    if (standIns.some((dir) => target.startsWith(dir + path.sep))) fs.rmSync(path.join(shared, root), { recursive: true, force: true });
  }
});

const workspace = (pulumi: string, dir: string) => pulumiWorkspace({ pulumi, dir, backend: path.join(dir, "backend"), passphrase: "p" });

describe("pulumiWorkspace's command", () => {
  test("one `pulumi version` for any number of workspaces of the same CLI; another for a changed or another CLI", async () => {
    const dir = tempDir("pulumi-command-");
    const cli = standIn(dir);
    const first = await workspace(cli.pulumi, tempDir("ws-"));
    const second = await workspace(cli.pulumi, tempDir("ws-"));
    expect(cli.runs()).toEqual(["version"]);
    expect(second.command).toBe(first.command);
    expect(first.command.version?.version).toBe("3.274.1");
    expect(fs.realpathSync(first.command.command)).toBe(fs.realpathSync(cli.pulumi));

    // A rebuilt CLI (another size) is asked again.
    fs.appendFileSync(cli.pulumi, "# rebuilt\n");
    const rebuilt = await workspace(cli.pulumi, tempDir("ws-"));
    expect(cli.runs()).toEqual(["version", "version"]);
    expect(rebuilt.command).not.toBe(first.command);

    const other = standIn(tempDir("pulumi-command-"));
    await workspace(other.pulumi, tempDir("ws-"));
    expect(other.runs()).toEqual(["version"]);
  });

  test("a CLI too old for the Automation API is refused, and asked again on the next workspace", async () => {
    const old = standIn(tempDir("pulumi-command-"), "3.1.0");
    await expect(workspace(old.pulumi, tempDir("ws-"))).rejects.toThrow(/Minimum version requirement failed/);
    await expect(workspace(old.pulumi, tempDir("ws-"))).rejects.toThrow(/Minimum version requirement failed/);
    expect(old.runs()).toEqual(["version", "version"]);
  });
});
