/** The plan renderer: old => new values per property path, creates' inputs, forced replacements, secrets masked. */
import { renderPlan, propertyChanges, summaryLine, type OperationReport } from "../../src/testing";
import { reportedInputs } from "../../src/testing/engine/report";
import { UNKNOWN } from "../../src/pulumi/values";
import { secret } from "../../src/testing/engine/values";
import * as pulumi from "@pulumi/pulumi";
import * as svc from "../../src";
import { assets } from "../../src/api/assets";
import { SvcClient } from "../../src/client";
import * as testing from "../../src/testing";
import { Record } from "./fixtures/record";
import { closeStacks, fixtureStack } from "./fixtures/harness";

const T = "pulumi-nodejs:dynamic/svc:";
const op = (o: Partial<OperationReport> & Pick<OperationReport, "op" | "name" | "type">): OperationReport => ({
  urn: `urn:pulumi:test::test::${T}${o.type}::${o.name}`,
  ...o,
  type: `${T}${o.type}`,
});

const operations: OperationReport[] = [
  op({
    op: "create",
    type: "Bridge",
    name: "mqtt-in",
    newInputs: reportedInputs({ __provider: "serialized", name: "mqtt-in", config: { broker: "tcp://b:1883", password: secret("hunter2") }, topics: ["a", "b"] }),
  }),
  op({
    op: "update",
    type: "Workload",
    name: "line-monitor-hall-b",
    diffs: ["appVersion", "runtime"],
    oldInputs: { appVersion: "1.4.0", runtime: { resources: [{ resource: "krn:asset:line-1" }, { resource: "krn:asset:line-2" }], cpu: "1" }, title: "same" },
    newInputs: { appVersion: "2.0.0", runtime: { resources: [{ resource: "krn:asset:line-1" }, { resource: "krn:asset:line-3" }], memory: "1Gi" }, title: "same" },
  }),
  op({
    op: "replace",
    type: "Label",
    name: "anomaly",
    diffs: ["name", "title"],
    replaces: ["name"],
    oldInputs: { name: "anomaly", title: "A" },
    newInputs: { name: "anomalies", title: "B" },
  }),
  op({
    op: "update",
    type: "Cluster",
    name: "edge",
    diffs: ["token"],
    oldInputs: reportedInputs({ token: secret("old-token") }),
    newInputs: reportedInputs({ token: secret("new-token") }),
  }),
  op({ op: "delete", type: "Asset", name: "old-pump", oldInputs: { name: "old-pump", title: "Old pump" } }),
  op({ op: "same", type: "Asset", name: "riverside" }),
  op({ op: "create", type: "Asset", name: "adopted", adopt: true, newInputs: { name: "adopted", adopt: true } }),
];

describe("renderPlan", () => {
  test("text: per resource, old => new by nested path, a create's inputs, the forcing property, secrets masked; then the counts", () => {
    expect(renderPlan({ kind: "preview", operations })).toBe(
      [
        "+ svc:Bridge mqtt-in create",
        '    + config.broker: "tcp://b:1883"',
        "    + config.password: [secret]",
        '    + name: "mqtt-in"',
        '    + topics[0]: "a"',
        '    + topics[1]: "b"',
        "~ svc:Workload line-monitor-hall-b update",
        '    ~ appVersion: "1.4.0" => "2.0.0"',
        '    - runtime.cpu: "1"',
        '    + runtime.memory: "1Gi"',
        '    ~ runtime.resources[1].resource: "krn:asset:line-2" => "krn:asset:line-3"',
        "+- svc:Label anomaly replace (name forces replacement)",
        '    ~ name: "anomaly" => "anomalies" (forces replacement)',
        '    ~ title: "A" => "B"',
        "~ svc:Cluster edge update",
        "    ~ token: [secret] => [secret]",
        "- svc:Asset old-pump delete",
        '    - name: "old-pump"',
        '    - title: "Old pump"',
        "= svc:Asset adopted create (adopt)",
        "    + adopt: true",
        '    + name: "adopted"',
        "",
        "1 to create, 1 to adopt, 2 to update, 1 to replace, 1 to delete, 1 unchanged",
        "",
      ].join("\n"),
    );
  });

  test("no secret value reaches a report or its rendering", () => {
    const all = JSON.stringify(operations) + renderPlan({ operations }, { format: "markdown" }) + renderPlan({ operations });
    for (const s of ["hunter2", "old-token", "new-token"]) expect(all).not.toContain(s);
  });

  test("markdown: a heading, the counts in bold, the changes in a diff block with each sign first", () => {
    const md = renderPlan({ kind: "preview", operations: operations.slice(1, 3) }, { format: "markdown" });
    expect(md).toBe(
      [
        "### Preview",
        "",
        "**1 to update, 1 to replace**",
        "",
        "```diff",
        "~ svc:Workload line-monitor-hall-b update",
        '~     appVersion: "1.4.0" => "2.0.0"',
        '-     runtime.cpu: "1"',
        '+     runtime.memory: "1Gi"',
        '~     runtime.resources[1].resource: "krn:asset:line-2" => "krn:asset:line-3"',
        "+- svc:Label anomaly replace (name forces replacement)",
        '~     name: "anomaly" => "anomalies" (forces replacement)',
        '~     title: "A" => "B"',
        "```",
        "",
      ].join("\n"),
    );
    expect(renderPlan({ kind: "adoption", operations: [operations[5]] }, { format: "markdown" })).toBe("### Adoption plan\n\n**no changes (1 unchanged)**\n");
  });

  test("past tense for a run that applied; changes of a report without the provider's list found from the values", () => {
    expect(summaryLine({ kind: "up", operations: [operations[0], operations[4], { ...operations[4], released: true }] })).toBe("1 created, 1 deleted, 1 released");
    // A release says the object stays as it is (a cluster stays ready and online), in a preview and in the run.
    const cluster = { ...operations[4], type: "pulumi-nodejs:dynamic/svc:Cluster", name: "plant-a", oldInputs: { name: "plant-a" }, released: true };
    for (const kind of ["preview", "up"] as const)
      expect(renderPlan({ kind, operations: [cluster] }).split("\n")[0]).toBe("- svc:Cluster plant-a release (stays on the platform as it is; only leaves the stack)");
    const bare = { ...operations[1], diffs: undefined };
    expect(propertyChanges(bare).map((c) => c.path)).toEqual(["appVersion", "runtime.cpu", "runtime.memory", "runtime.resources[1].resource"]);
  });
});

describe("the kit's runs carry old and new inputs", () => {
  afterEach(closeStacks);

  test("a preview renders old => new values of an update, nested; a secret input shows as [secret]", async () => {
    const program = (value: string, nested: number) => () => {
      // Inputs the fixture's args do not type: the record backend stores whatever it is given.
      new Record("a", { key: "a", value, ...({ extra: { list: [1, nested] }, token: pulumi.secret(`t-${value}`) } as object) });
    };
    const f = await fixtureStack(program("one", 2));
    const up = await f.stack.up();
    expect(up.render()).toContain(`+ value: "one"`);
    expect(up.render()).toContain(`+ token: [secret]`);
    const plan = await f.stack.preview(program("two", 3));
    const text = plan.render();
    expect(text).toContain(`    ~ extra.list[1]: 2 => 3\n`);
    expect(text).toContain(`    ~ value: "one" => "two"\n`);
    expect(text).toContain(`    ~ token: [secret] => [secret]\n`);
    expect(text).not.toMatch(/t-one|t-two/);
    expect(plan.operations[0]).toMatchObject({ op: "update", oldInputs: { value: "one" }, newInputs: { value: "two" } });
    // A destroy lists what it deletes.
    expect((await f.stack.destroy()).render()).toContain(`- fixture:Record a delete\n    - extra.list[0]: 1\n`);
  });
});

describe("a refresh renders what drifted, old => new, as a preview does (issue 25)", () => {
  test("an asset's title changed by hand: the text and the Markdown name the property and both values", async () => {
    const program = () => {
      const type = new svc.AssetType("pump", { name: "pump", title: "Pump" });
      new svc.Asset("a", { name: "a", title: "Pump A", assetTypeName: type.name });
    };
    const stack = await testing.stack(program, { emulator: true });
    try {
      await stack.up();
      const client = new SvcClient({ baseUrl: stack.emulator!.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
      await client.call(assets.update, { params: { asset_name: "a" }, body: { title: "Pump A (moved)" } });
      await client.close();
      const refreshed = await stack.refresh();
      const text = refreshed.render();
      expect(text).toMatch(/^~ svc:Asset a update\n {4}~ title: "Pump A" => "Pump A \(moved\)"\n {4}~ updated: "[^"]+" => "[^"]+"\n\n1 updated, 1 unchanged\n$/);
      const md = refreshed.render({ format: "markdown" });
      expect(md).toContain('### Refresh\n\n**1 updated, 1 unchanged**\n\n```diff\n~ svc:Asset a update\n~     title: "Pump A" => "Pump A (moved)"\n');
    } finally {
      await stack.close();
    }
  });
});

describe("values not known until the run applies render as unknown, as pulumi shows them (issue 25)", () => {
  test("a workload replaced with the app version it runs (deleted first): its inputs from that version are output<string>, not old => old", async () => {
    const program = (title: string) => () => {
      const v = new svc.AppVersion("v", { appName: "app", version: "1.0.0", type: "app", title });
      const c = new svc.Cluster("c", { name: "c1" });
      new svc.Workload("w", { name: "w1", appName: v.appName, appVersion: v.version, clusterName: c.name });
    };
    const stack = await testing.stack(program("One"), { emulator: true });
    try {
      await stack.up();
      const text = (await stack.preview(program("Two"))).render();
      expect(text).toContain('+- svc:AppVersion v replace (title forces replacement)\n    ~ title: "One" => "Two" (forces replacement)\n');
      expect(text).toContain('+- svc:Workload w replace (appName forces replacement)\n    ~ appName: "app" => output<string> (forces replacement)\n');
      expect(renderPlan({ operations: [op({ op: "update", type: "Asset", name: "x", diffs: ["title"], oldInputs: { title: "a" }, newInputs: { title: UNKNOWN } })] })).toContain(
        '    ~ title: "a" => output<string>\n',
      );
    } finally {
      await stack.close();
    }
  });
});
