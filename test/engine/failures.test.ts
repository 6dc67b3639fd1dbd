/**
 * A failing operation stops the run: the error names the resource, the operation and the provider's
 * message; the state (saved after every operation) holds exactly what succeeded.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as testing from "../../src/testing";
import { Record, type RecordArgs } from "./fixtures/record";
import { closeStacks, fixtureStack, tempDir } from "./fixtures/harness";

testing.registerMatchers();
afterEach(closeStacks);

const TYPE = "pulumi-nodejs:dynamic/fixture:Record";

const program =
  (c: Partial<RecordArgs> = {}) =>
  () => {
    const a = new Record("a", { key: "a" });
    const b = new Record("b", { key: "b", ref: a.serial });
    new Record("c", { key: "c", ref: b.serial, ...c });
  };

const savedNames = (file: string) => (JSON.parse(fs.readFileSync(file, "utf8")) as testing.StackState).resources.map((r) => r.name);

describe("a failure during up", () => {
  test("rejects naming the resource, the operation and the provider's message; the state file keeps what succeeded", async () => {
    const statePath = path.join(tempDir("state-"), "stack.json");
    const f = await fixtureStack(program({ fail: "create" }), { statePath });
    const error = (await f.stack.up().catch((e: unknown) => e)) as testing.RunError;
    expect(error).toBeInstanceOf(testing.RunError);
    expect(error.message).toBe(`up failed: create of ${TYPE} "c" failed: record c: create refused by the backend (fail=create) [SVC_KIT_PROVIDER_FAILED]`);
    expect(error.failures[0]).toMatchObject({ code: "SVC_KIT_PROVIDER_FAILED" });
    expect(error.resource?.name).toBe("c");
    expect(error.operation).toBe("create");
    expect(error.providerMessage).toBe("record c: create refused by the backend (fail=create)");
    expect(error.operations.map((o) => `${o.op} ${o.name}`)).toEqual(["create a", "create b"]);

    expect(savedNames(statePath)).toEqual(["a", "b"]);
    expect(Object.keys(f.records())).toHaveLength(2);

    // Fixed, the next run only creates what is missing.
    expect(await f.stack.up(program())).toHaveActions({ a: "same", b: "same", c: "create" });
    expect(savedNames(statePath)).toEqual(["a", "b", "c"]);
  });

  test("a failed update keeps the old state of the resource", async () => {
    const f = await fixtureStack(program());
    await f.stack.up();
    await expect(f.stack.up(program({ value: "new", fail: "update" }))).rejects.toThrow(`update of ${TYPE} "c" failed`);
    expect(f.stack.resource("c").outputs).toMatchObject({ value: "default", revision: 1 });
  });

  test("a failed replacement (create-then-delete) keeps the old object as the live one", async () => {
    const f = await fixtureStack(program());
    await f.stack.up();
    const id = f.stack.resource("c").id;
    await expect(f.stack.up(program({ key: "c2", fail: "create" }))).rejects.toThrow(`create of ${TYPE} "c" failed`);
    expect(f.stack.resource("c").id).toBe(id);
    expect(f.stack.state.resources.filter((r) => r.delete)).toEqual([]);
    expect(await f.stack.preview(program())).toHaveNoChanges();
  });

  test("the program's own error rejects the run and deletes nothing", async () => {
    const f = await fixtureStack(program());
    await f.stack.up();
    const broken = () => {
      new Record("a", { key: "a" });
      throw new Error("the program is broken");
    };
    await expect(f.stack.up(broken)).rejects.toThrow("up failed: the program failed: the program is broken");
    expect(f.stack.resources().map((r) => r.name)).toEqual(["a", "b", "c"]);
  });
});

describe("errors the program leaves uncaught or logs fail the run, as under the engine", () => {
  // Under jest a program's stray rejection goes to jest, which fails the test: jest gives the test
  // file its own copy of `process`, whose listeners the real process never calls (nor the Automation
  // API's, for an inline program). A plain Node process, as a script or another test runner has it:
  test("a promise rejected with no one waiting: the run fails with its message, and the preview before the up creates nothing", () => {
    const script = `
      const pulumi = require("@pulumi/pulumi");
      const testing = require(${JSON.stringify(path.join(__dirname, "../../dist/testing"))});
      const provider = { async create() { return { id: "a", outs: {} }; } };
      (async () => {
        const stack = await testing.stack(() => {
          new pulumi.dynamic.Resource(provider, "a", {});
          void Promise.reject(new Error("boom"));
        });
        const failure = await stack.up().then(() => "none", (e) => e.message);
        console.log(JSON.stringify({ failure, resources: stack.resources().map((r) => r.name) }));
        await stack.close();
      })().catch((e) => { console.error(e); process.exit(1); });`;
    const out = execFileSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(JSON.parse(out.trim().split("\n").pop()!)).toEqual({ failure: "up failed: the program failed: One or more errors occurred: boom [SVC_PROGRAM_FAILED]", resources: [] });
  });

  test("an error the program logs (pulumi.log.error): the run fails pointing at the logs", async () => {
    const f = await fixtureStack(() => {
      new Record("a", { key: "a" });
      void pulumi.log.error("the site list is empty");
    });
    await expect(f.stack.up()).rejects.toThrow("up failed: the program failed: One or more errors occurred. Check logs for more details");
    expect(f.stack.resources()).toEqual([]);
  });

  test("a warning the program logs fails nothing", async () => {
    const f = await fixtureStack(() => {
      new Record("a", { key: "a" });
      void pulumi.log.warn("the site list is short");
    });
    await f.stack.up();
    expect(f.stack.resources().map((r) => r.name)).toEqual(["a"]);
  });
});

describe("a failure during destroy", () => {
  test("deletes dependents first, then stops at the failing delete, which stays in the state", async () => {
    const statePath = path.join(tempDir("state-"), "stack.json");
    const f = await fixtureStack(
      () => {
        const a = new Record("a", { key: "a", fail: "delete" });
        new Record("b", { key: "b", ref: a.id });
      },
      { statePath },
    );
    await f.stack.up();
    await expect(f.stack.destroy()).rejects.toThrow(`destroy failed: delete of ${TYPE} "a" failed: record a: delete refused by the backend (fail=delete)`);
    expect(savedNames(statePath)).toEqual(["a"]);
  });
});

describe("the state file", () => {
  test("a new TestStack on the same state file continues where the last one stopped", async () => {
    const statePath = path.join(tempDir("state-"), "stack.json");
    const first = await fixtureStack(program(), { statePath });
    await first.stack.up();
    await first.stack.close();
    const second = await fixtureStack(program(), { statePath, storeDir: first.storeDir });
    expect(await second.stack.preview()).toHaveNoChanges();
    expect(second.stack.resources().map((r) => r.id)).toEqual(["a", "b", "c"].map((n) => first.stack.resource(n).id));
    await second.stack.destroy();
    expect(second.records()).toEqual({});
  });
});

/**
 * A resource whose Check waits until the gate file exists (at most 30 s), and whose create writes
 * `created-<name>` next to it: a step that starts after the gate opened leaves that file.
 */
const waitingProvider: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    const fsm = require("node:fs") as typeof fs;
    const deadline = Date.now() + 30_000;
    while (!fsm.existsSync(String(news.gate)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return { inputs: news };
  },
  async create(inputs) {
    const fsm = require("node:fs") as typeof fs;
    const pathm = require("node:path") as typeof path;
    fsm.writeFileSync(pathm.join(pathm.dirname(String(inputs.gate)), `created-${String(inputs.name)}`), "");
    return { id: String(inputs.name), outs: inputs };
  },
};

class Waiting extends pulumi.dynamic.Resource {
  constructor(name: string, args: { gate: string; after: pulumi.Input<unknown> }, opts?: pulumi.CustomResourceOptions) {
    super(waitingProvider, name, { name, ...args }, opts, "fixture", "Waiting");
  }
}

/** A resource whose create opens the gate (writes the file), then fails. */
const failingProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    (require("node:fs") as typeof fs).writeFileSync(String(inputs.gate), "");
    throw new Error(`${String(inputs.name)}: create refused`);
  },
};

class Failing extends pulumi.dynamic.Resource {
  constructor(name: string, args: { gate: string; after: pulumi.Input<unknown> }) {
    super(failingProvider, name, { name, ...args }, undefined, "fixture", "Failing");
  }
}

describe("after a failed create", () => {
  test("no new step starts, not even one whose resource depends only on finished ones (as the engine's step executor)", async () => {
    const dir = tempDir("gate-");
    const gate = path.join(dir, "gate");
    const f = await fixtureStack(
      () => {
        const cls = new Record("class", { key: "class" });
        // Both register once "class" is created: "type"'s Check waits until "bad"'s create has failed.
        new Failing("bad", { gate, after: cls.key });
        new Waiting("type", { gate, after: cls.key });
      },
      { skipPreview: true },
    );
    const error = (await f.stack.up().catch((e: unknown) => e)) as testing.RunError;
    expect(error).toBeInstanceOf(testing.RunError);
    expect(error.resource?.name).toBe("bad");
    expect(fs.existsSync(gate)).toBe(true);
    expect(fs.existsSync(path.join(dir, "created-type"))).toBe(false);
    expect(f.stack.resources().map((r) => r.name)).toEqual(["class"]);
  });
});
