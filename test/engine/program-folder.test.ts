/**
 * `testing.stack({ dir })`: a program in a folder (what `pulumi new typescript` and `svc-emulator
 * generate` write) is loaded afresh for every run, so a second run registers its resources again
 * instead of finding a cached module that registers nothing (and planning to delete everything).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as testing from "../../src/testing";
import { closeStacks, tempDir } from "./fixtures/harness";

testing.registerMatchers();
afterEach(closeStacks);

const artifacts = path.join(__dirname, "..", ".artifacts");
const record = path.join(__dirname, "fixtures", "record");

function writeProgram(dir: string, value: string) {
  fs.writeFileSync(
    path.join(dir, "index.ts"),
    `import { Record } from ${JSON.stringify(record)};\n` +
      `const r = new Record("r", { key: "r", value: ${JSON.stringify(value)} });\n` +
      `export const key = r.key;\nexport const value = r.value;\n`,
  );
}

test("under jest, each run registers the folder's TypeScript program again: re-runs are empty, outputs are its exports", async () => {
  fs.mkdirSync(artifacts, { recursive: true });
  const dir = fs.mkdtempSync(path.join(artifacts, "program-folder-"));
  try {
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: folder\nruntime: nodejs\n");
    writeProgram(dir, "one");
    const stack = await testing.stack({ dir }, { config: { "fixture:storeDir": tempDir() } });
    try {
      expect(await stack.up()).toHaveActions({ r: "create" });
      expect(stack.outputs).toEqual({ key: "r", value: "one" });
      expect(await stack.up()).toHaveActions({ r: "same" });
      expect(await stack.preview()).toHaveActions({ r: "same" });
    } finally {
      await stack.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("in a plain Node process (the built package), an edit of the folder's program between runs is seen", () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: folder\nruntime: nodejs\nmain: bin/\n");
  fs.mkdirSync(path.join(dir, "bin"));
  fs.writeFileSync(path.join(dir, "bin", "package.json"), JSON.stringify({ main: "main.js" }));
  // A JavaScript program (a built one, as `tsc` leaves it) with its own dynamic resource over the record backend.
  const pulumiPath = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const write = (value: string) =>
    fs.writeFileSync(
      path.join(dir, "bin", "main.js"),
      [
        `const pulumi = require(${JSON.stringify(pulumiPath)});`,
        `const BACKEND = ${JSON.stringify(path.join(__dirname, "fixtures", "record-backend.js"))};`,
        "const provider = {",
        "  async configure(req) { require(BACKEND).configure(req.config); },",
        "  async check(olds, news) { return require(BACKEND).check(olds, news); },",
        "  async diff(id, olds, news) { return require(BACKEND).diff(id, olds, news); },",
        "  async create(inputs) { return require(BACKEND).create(inputs); },",
        "  async read(id, props) { return require(BACKEND).read(id, props); },",
        "  async update(id, olds, news) { return require(BACKEND).update(id, olds, news); },",
        "  async delete(id, props) { return require(BACKEND).delete(id, props); },",
        "};",
        `const r = new pulumi.dynamic.Resource(provider, "r", { key: "r", value: ${JSON.stringify(value)} }, undefined, "fixture", "Record");`,
        "exports.value = r.value;",
      ].join("\n"),
    );
  write("one");
  const script = `
    const testing = require(${JSON.stringify(path.join(__dirname, "../../dist/testing"))});
    (async () => {
      const stack = await testing.stack({ dir: ${JSON.stringify(dir)} }, { config: { "fixture:storeDir": ${JSON.stringify(tempDir())} } });
      const ops = (r) => r.operations.map((o) => o.name + ":" + o.op).join(",");
      const seen = [ops(await stack.up()), ops(await stack.up())];
      require("node:fs").writeFileSync(${JSON.stringify(path.join(dir, "bin", "main.js"))}, require("node:fs").readFileSync(${JSON.stringify(path.join(dir, "bin", "main.js"))}, "utf8").replace('"one"', '"two"'));
      seen.push(ops(await stack.up()), JSON.stringify(stack.outputs));
      await stack.close();
      console.log(JSON.stringify(seen));
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const out = execFileSync(process.execPath, ["-e", script], { encoding: "utf8" });
  expect(JSON.parse(out.trim().split("\n").pop()!)).toEqual(["r:create", "r:same", "r:update", JSON.stringify({ value: "two" })]);
});

test("a folder without a program entry is refused, naming what was looked for", async () => {
  const dir = tempDir();
  await expect(testing.stack({ dir })).rejects.toThrow(`testing.stack({ dir }): no program entry in ${dir} (looked for package.json's main, index.ts and index.js)`);
});
