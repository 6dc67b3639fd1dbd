/**
 * The curl examples of README.md's emulator section, run as written against `svc-emulator serve`
 * (the built dist/cli/svc-emulator.js, which `npx svc-emulator` runs), on a free port instead of 4010.
 * Each command's answer must match the `# → ...` lines under it (`…` stands for any text); a command
 * with no such line must print nothing.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");
const CLI = resolve(ROOT, "dist/cli/svc-emulator.js");
const DOCUMENTED = "http://127.0.0.1:4010";

interface DocCommand {
  /** The command as written, continuation lines included. */
  text: string;
  /** The `# → ` lines under it, without the prefix. */
  expected: string[];
}

/** The `sh` blocks of a markdown section (from its `## title` to the next `## `). */
function shBlocks(markdown: string, section: string): string[] {
  const start = markdown.indexOf(`\n## ${section}\n`);
  if (start === -1) throw new Error(`README.md has no '## ${section}' section`);
  const next = markdown.indexOf("\n## ", start + 1);
  const text = markdown.slice(start, next === -1 ? undefined : next);
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** Splits a block into commands, each with the answer documented under it. */
function commandsOf(block: string): DocCommand[] {
  const out: DocCommand[] = [];
  let pending: string[] = [];
  for (const line of block.split("\n")) {
    if (pending.length > 0) {
      pending.push(line);
      if (!line.endsWith("\\")) {
        out.push({ text: pending.join("\n"), expected: [] });
        pending = [];
      }
      continue;
    }
    if (line.startsWith("# → ")) {
      if (out.length === 0) throw new Error(`an answer with no command before it: ${line}`);
      out[out.length - 1].expected.push(line.slice(4));
    } else if (line.trim() === "" || line.startsWith("#")) {
      continue;
    } else if (line.endsWith("\\")) {
      pending = [line];
    } else {
      out.push({ text: line, expected: [] });
    }
  }
  if (pending.length > 0) throw new Error(`a command continues past the end of its block: ${pending.join("\n")}`);
  return out;
}

/** The documented answer as a pattern: literal text, `…` for any run of characters. */
const answerPattern = (lines: string[]) =>
  new RegExp(
    `^${lines
      .map((l) =>
        l
          .split("…")
          .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
          .join("[^]*?"),
      )
      .join("\n")}$`,
  );

let emulator: ChildProcess | undefined;
afterAll(() => {
  if (emulator && emulator.exitCode === null && emulator.signalCode === null) emulator.kill("SIGKILL");
});

function serve(): Promise<string> {
  const proc = spawn(process.execPath, [CLI, "serve", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  emulator = proc;
  let stdout = "";
  let stderr = "";
  return new Promise((resolvePromise, reject) => {
    proc.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const m = /listening on (http:\/\/\S+) /.exec(stdout);
      if (m) resolvePromise(m[1]);
    });
    proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    proc.once("exit", (code) => reject(new Error(`svc-emulator exited with ${code}: ${stderr}`)));
  });
}

describe("README.md, the emulator section's curl examples", () => {
  const readme = readFileSync(resolve(ROOT, "README.md"), "utf8");
  const blocks = shBlocks(readme, "The emulator").filter((b) => b.includes("curl "));
  const commands = blocks.flatMap(commandsOf);

  test("there are examples for a token, a create, a list page and its cursor, the faults and the reset", () => {
    const all = commands.map((c) => c.text).join("\n");
    for (const what of ["/auth/realms/svc/protocol/openid-connect/token", "/create", "/list?page_size=", "starting_after=$NEXT", "/emulator/faults", "/emulator/reset"]) {
      expect(all).toContain(what);
    }
    // They address the emulator where `npx svc-emulator serve` listens by default.
    expect(commands.filter((c) => c.text.includes("curl ")).every((c) => c.text.includes(DOCUMENTED))).toBe(true);
    const help = spawnSync(process.execPath, [CLI, "serve", "--help"], { encoding: "utf8" }).stdout;
    expect(help).toMatch(/--port <port>[^]*?\(default: 4010\)/);
    expect(help).toMatch(/--host <host>[^]*?\(default: "127\.0\.0\.1"\)/);
  });

  test("run as written, every command answers what the README shows", async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first with 'npm run build'`);
    if (spawnSync("curl", ["--version"]).status !== 0) throw new Error("these examples need curl on the PATH");
    const baseUrl = await serve();
    // One shell for the whole section, so variables ($TOKEN, $NEXT) carry over as in a terminal.
    const script = ["set -eu -o pipefail", ...commands.map((c, i) => `printf '\\n@@%d@@\\n' ${i}\n${c.text.split(DOCUMENTED).join(baseUrl)}`)].join("\n");
    const run = spawnSync("bash", ["-c", script], { encoding: "utf8", timeout: 30_000 });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    const outputs = run.stdout.split(/\n@@(\d+)@@\n/);
    const answers = new Map<number, string>();
    for (let i = 1; i < outputs.length; i += 2) answers.set(Number(outputs[i]), outputs[i + 1].trim());
    const mismatches: string[] = [];
    commands.forEach((c, i) => {
      const got = answers.get(i) ?? "";
      const ok = c.expected.length === 0 ? got === "" : answerPattern(c.expected).test(got);
      if (!ok) mismatches.push(`${c.text}\n  README: ${c.expected.join("\n") || "(no output)"}\n  got:    ${got}`);
    });
    expect(mismatches).toEqual([]);
  });
});
