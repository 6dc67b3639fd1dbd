/**
 * The same programs through the kit's engine and through `pulumi`: for each scenario, the operation
 * per resource of every run (or that it failed, and the engine's words), the state's inputs and
 * outputs, and the backend's records must agree. A difference fails the test unless the scenario
 * names it as a documented limitation of the kit (the README's "Where the kit and `pulumi` differ").
 *
 * The cases follow the engine's own lifecycle tests: TestRetainOnDelete, TestDBRProtect,
 * TestSingleResourceIgnoreChanges, TestImportOption, replacement_trigger_test.go and the
 * replaceOnChanges handling of step_generator.go (applyReplaceOnChanges).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { log } from "@pulumi/pulumi";
import type * as pulumi from "@pulumi/pulumi";
import * as testing from "../../src/testing";
import { Record as RecordResource } from "../engine/fixtures/record";
import { bothEngines, comparable, failure, type RunTrace } from "./differential-harness";
import { describeCli, pulumiDir, tempDir } from "./harness";

describeCli("the kit and `pulumi` agree", () => {
  test("a program that logs an error fails its run, in the engine's words, and its preview creates nothing; a logged warning fails nothing", async () => {
    const program = (say: "error" | "warn") => () => {
      new RecordResource("a", { key: "a" });
      log[say](`the site list is ${say === "error" ? "empty" : "short"}`);
    };
    const { kit, cli } = await bothEngines([
      { run: "up", program: program("error") },
      { run: "up", program: program("warn") },
    ]);
    expect(failure(cli, 0)).toContain("One or more errors occurred. Check logs for more details");
    expect(failure(kit, 0)).toContain("One or more errors occurred. Check logs for more details");
    expect(cli.runs[1]).toEqual({ ops: { a: "create" } });
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("retainOnDelete with delete-before-replace: the old object stays, the replacement is created beside it", async () => {
    const program = (key: string) => () => void new RecordResource("kept", { key, deleteBeforeReplace: true }, { retainOnDelete: true });
    const { kit, cli } = await bothEngines([
      { run: "up", program: program("a") },
      { run: "up", program: program("b") },
    ]);
    expect(cli.records.map((r) => r.key)).toEqual(["a", "b"]);
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("a protected dependent of a delete-before-replace is not replaced: the run fails with the engine's words", async () => {
    const program = (key: string) => () => {
      const parent = new RecordResource("parent", { key, deleteBeforeReplace: true });
      new RecordResource("child", { key: parent.key.apply((k) => `child-of-${k}`) }, { protect: true });
    };
    const { kit, cli } = await bothEngines([
      { run: "up", program: program("a") },
      { run: "up", program: program("b") },
    ]);
    expect(failure(cli, 1)).toContain("as part of replacing");
    expect(failure(kit, 1)).toContain("unable to replace resource");
    expect(failure(kit, 1)).toContain("as part of replacing");
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("protect removed and a replacement in the same up: allowed", async () => {
    const { kit, cli } = await bothEngines([
      { run: "up", program: () => void new RecordResource("vault", { key: "a" }, { protect: true }) },
      { run: "up", program: () => void new RecordResource("vault", { key: "b" }, { protect: false }) },
    ]);
    expect(cli.runs[1]).toEqual({ ops: { vault: "replace" } });
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("a protected resource to replace: refused with the engine's words", async () => {
    const { kit, cli } = await bothEngines([
      { run: "up", program: () => void new RecordResource("vault", { key: "a" }, { protect: true }) },
      { run: "up", program: () => void new RecordResource("vault", { key: "b" }, { protect: true }) },
    ]);
    expect(failure(cli, 1)).toContain("as it is currently marked for protection");
    expect(failure(kit, 1)).toContain("as it is currently marked for protection");
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("replaceOnChanges: the dynamic-provider host names no changed keys, so the engine updates in place", async () => {
    const program = (note: string) => () => void new RecordResource("r", { key: "r", note }, { replaceOnChanges: ["note"] });
    const { kit, cli } = await bothEngines([
      { run: "up", program: program("n1") },
      { run: "up", program: program("n2") },
    ]);
    expect(cli.runs[1]).toEqual({ ops: { r: "update" } });
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("replacementTrigger: a changed trigger replaces the resource, an unchanged one does not", async () => {
    const program = (trigger: string) => () => void new RecordResource("r", { key: "r" }, { replacementTrigger: trigger });
    const { kit, cli } = await bothEngines([
      { run: "up", program: program("t1") },
      { run: "up", program: program("t1") },
      { run: "up", program: program("t2") },
    ]);
    expect(cli.runs.slice(1)).toEqual([{ ops: { r: "same" } }, { ops: { r: "replace" } }]);
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("replaceWith: a resource is replaced when the one it names is", async () => {
    const program = (key: string) => () => {
      const base = new RecordResource("base", { key });
      new RecordResource("follower", { key: "follower" }, { replaceWith: [base] });
    };
    const { kit, cli } = await bothEngines([
      { run: "up", program: program("a") },
      { run: "up", program: program("b") },
    ]);
    expect(cli.runs[1]).toEqual({ ops: { base: "replace", follower: "replace" } });
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("transforms: a resource transform changes the inputs the provider sees", async () => {
    const upper: pulumi.ResourceTransform = (args) => ({ props: { ...args.props, value: "transformed" }, opts: args.opts });
    const { kit, cli } = await bothEngines([{ run: "up", program: () => void new RecordResource("t", { key: "t", value: "plain" }, { transforms: [upper] }) }]);
    expect(cli.records.map((r) => r.value)).toEqual(["transformed"]);
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("a nested ignoreChanges path keeps only that value: the rest of the object updates", async () => {
    const program = (a: string, b: string) => () => void new RecordResource("r", { key: "r", meta: { a, b } }, { ignoreChanges: ["meta.a"] });
    const { kit, cli } = await bothEngines([
      { run: "up", program: program("1", "1") },
      { run: "up", program: program("2", "2") },
    ]);
    expect(cli.state.r).toMatchObject({ meta: { a: "1", b: "2" } });
    expect(comparable(kit)).toEqual(comparable(cli));
  });

  test("up previews first, with values of resources created in the same run unknown: a Check that refuses them fails the up", async () => {
    // `serial` is computed at create, so in the preview `b`'s value is unknown, which its Check refuses.
    const program = () => {
      const a = new RecordResource("a", { key: "a" });
      new RecordResource("b", { key: "b", value: a.serial.apply((n) => `b-${n}`), refuseUnknowns: true });
    };
    const previewed = await bothEngines([{ run: "up", program }]);
    expect(failure(previewed.cli, 0)).toContain("value must be known");
    expect(failure(previewed.kit, 0)).toContain("value must be known");
    expect(comparable(previewed.kit)).toEqual(comparable(previewed.cli));
    // Without the preview (`pulumi up --skip-preview`, the Automation API's up), both create them.
    const skipped = await bothEngines([{ run: "up", program }], { skipPreview: true });
    expect(skipped.cli.runs).toEqual([{ ops: { a: "create", b: "create" } }]);
    expect(comparable(skipped.kit)).toEqual(comparable(skipped.cli));
  });

  test("the import option: the dynamic-provider host cannot read without inputs, so the import fails", async () => {
    const runs: RunTrace[] = [];
    for (const engine of ["kit", "pulumi"] as const) {
      const storeDir = tempDir("svc-diff-");
      fs.mkdirSync(path.join(storeDir, "records"), { recursive: true });
      fs.writeFileSync(path.join(storeDir, "records", "imp-0001.json"), JSON.stringify({ key: "imp", value: "default", revision: 1 }));
      const program = () => void new RecordResource("imp", { key: "imp" }, { import: "imp-0001" });
      const options = { config: { "fixture:storeDir": storeDir } };
      const stack = engine === "pulumi" ? await testing.stack(program, { ...options, engine: "pulumi", pulumiPath: pulumiDir }) : await testing.stack(program, options);
      try {
        runs.push(
          await stack.up().then(
            (r) => ({ ops: Object.fromEntries(r.operations.map((o) => [o.name, o.op])) }),
            (e: Error) => ({ failed: e.message }),
          ),
        );
      } finally {
        await stack.close();
      }
    }
    const [kit, cli] = runs;
    expect("failed" in cli && cli.failed).toContain("code must be a string, not undefined");
    expect("failed" in kit && kit.failed).toContain("code must be a string, not undefined");
    expect("failed" in kit && kit.failed).toContain("adopt: true");
  });
});
