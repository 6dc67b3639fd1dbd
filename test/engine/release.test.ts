/**
 * What destroy does to objects API v4 cannot delete: a Cluster and a DataType are released (they stay
 * on the platform and leave the stack), the InstanceSettings are reset. The kit reports the release,
 * its check after destroy expects them there, and the next create takes them over. Provider-side args
 * (`adopt`) never reach the platform.
 */
import fs from "node:fs";
import path from "node:path";
import { clusters } from "../../src/api/clusters";
import { datatypes } from "../../src/api/datatypes";
import { SvcClient } from "../../src/client";
import { startEmulator, type Emulator } from "../../src/emulator";
import * as svc from "../../src";
import * as testing from "../../src/testing";
import { defineKind } from "../../src/provider/kind";
import * as lifecycle from "../../src/provider/lifecycle";
import { kinds } from "../../src/provider/kinds";

testing.registerMatchers();

const TYPE = (kind: string) => `pulumi-nodejs:dynamic/svc:${kind}`;

let emulator: Emulator;
let client: SvcClient;
const open: testing.TestStack[] = [];

beforeEach(async () => {
  emulator = await startEmulator({});
  client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  await client.close();
  await emulator.close();
});

/** A stack on the test's emulator (the platform outlives the stacks). */
async function stackOf(program: testing.Program): Promise<testing.TestStack> {
  const stack = await testing.stack(program, {
    config: { "svc:baseUrl": emulator.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" },
    secretConfig: ["svc:clientSecret"],
  });
  open.push(stack);
  return stack;
}

const icd = (fieldType: string) => ({ name: "plant.pump_reading", className: "PumpReading", version: "1.0.0", fields: [{ name: "pressure", type: fieldType }] });

const plant = (title: string) => async () => {
  new svc.Cluster("plant-r", { name: "plant-r", title, ready: true });
  new svc.DataType("reading", { icd: icd("number") });
  new svc.InstanceSettings("settings", { acp: { metrics: { enabled: true, interval: 45 } } });
  new svc.Label("anomaly", { name: "anomaly", title: "Anomaly" });
};

describe("destroy of objects API v4 cannot delete", () => {
  test("reports the cluster and the data type released, checks the rest is gone, and the next up takes them over", async () => {
    const stack = await stackOf(plant("Plant R"));
    await stack.up();
    const created = stack.resource("plant-r").outputs.created;

    // The kit's check after destroy is on (the default): released and reset objects are not "left behind".
    const down = await stack.destroy();
    const byName = Object.fromEntries(down.operations.map((o) => [o.name, o]));
    expect(byName["plant-r"]).toMatchObject({ op: "delete", released: true });
    expect(byName.reading).toMatchObject({ op: "delete", released: true });
    expect(byName.settings.released).toBeUndefined();
    expect(byName.anomaly.released).toBeUndefined();
    expect(down.totals).toEqual({ delete: 4 });
    expect(stack.resources()).toEqual([]);
    await expect(client.call(clusters.get, { params: { cluster_name: "plant-r" } })).resolves.toMatchObject({ title: "Plant R" });

    // Up again, with a new title: the create takes the released cluster over and brings it to the program.
    const again = await stack.up(plant("Plant R, again"));
    expect(again).toHaveActions({ "plant-r": "create", reading: "create", settings: "create", anomaly: "create" });
    expect(stack.resource("plant-r").outputs).toMatchObject({ title: "Plant R, again", created });
    await expect(client.call(clusters.get, { params: { cluster_name: "plant-r" } })).resolves.toMatchObject({ title: "Plant R, again", ready: true });
    await stack.expectNoDrift();
    await stack.destroy();
  });

  test("a destroy's failure message names a released object as released", async () => {
    const stack = await stackOf(plant("Plant R"));
    await stack.up();
    const down = await stack.destroy();
    expect(() => expect(down).toHaveNoChanges()).toThrow(`release ${TYPE("Cluster")} "plant-r"`);
  });
});

describe("taking over an existing object", () => {
  test("a Cluster with adopt: true takes over a cluster made outside the stack (adopt is never sent)", async () => {
    await client.call(clusters.create, { body: { name: "plant-x", title: "Outside" } });
    const stack = await stackOf(async () => void new svc.Cluster("plant-x", { name: "plant-x", title: "Managed", ready: true, telemetryScrapeInterval: 60, adopt: true }));
    expect(await stack.up()).toHaveActions({ "plant-x": "create" });
    await expect(client.call(clusters.get, { params: { cluster_name: "plant-x" } })).resolves.toMatchObject({ title: "Managed", ready: true, telemetry_scrape_interval: 60 });
    // An update of a resource holding `adopt` sends only the changed platform fields.
    await stack.up(async () => void new svc.Cluster("plant-x", { name: "plant-x", title: "Managed 2", ready: true, telemetryScrapeInterval: 60, adopt: true }));
    await expect(client.call(clusters.get, { params: { cluster_name: "plant-x" } })).resolves.toMatchObject({ title: "Managed 2" });
    await stack.expectNoDrift();
  });

  test("a create reads as an adoption only when it takes an existing object over", async () => {
    await client.call(clusters.create, { body: { name: "plant-y", title: "Outside" } });
    const program = async () => {
      new svc.Cluster("existing", { name: "plant-y", adopt: true });
      new svc.Cluster("missing", { name: "plant-z", adopt: true });
    };
    const stack = await stackOf(program);
    for (const run of [await stack.preview(), await stack.up()]) {
      expect(run.operations.map((o) => `${o.name} ${o.adopt && o.op === "create" ? "create (adopt)" : o.op}`).sort()).toEqual(["existing create (adopt)", "missing create"]);
      expect(run.render()).toContain("= svc:Cluster existing create (adopt)");
      expect(run.render()).toContain("+ svc:Cluster missing create");
    }
  });

  test("an existing cluster of another type is refused, naming the resource, the field and both values", async () => {
    await client.call(clusters.create, { body: { name: "plant-d", title: "Docker", type: "docker" } });
    const stack = await stackOf(async () => void new svc.Cluster("plant-d", { name: "plant-d", type: "k3s" }));
    await expect(stack.up()).rejects.toThrow(
      `Cluster 'plant-d': create failed: the cluster exists on the platform with type "docker" where the program declares "k3s". type cannot change in place, so it cannot be taken over`,
    );
    expect(stack.resources()).toEqual([]);
  });

  test("an existing data type version with another definition is refused; the same definition is taken over", async () => {
    await client.call(datatypes.create, {
      body: { icd: { name: "plant.pump_reading", class_name: "PumpReading", description: "", version: "1.0.0", fields: [{ name: "pressure", type: "number" }] } },
    });
    const other = await stackOf(async () => void new svc.DataType("reading", { icd: icd("string") }));
    await expect(other.up()).rejects.toThrow(
      /DataType 'plant\.pump_reading:1\.0\.0': create failed: the data type exists on the platform with icd \{.*"type":"number".*\} where the program declares \{.*"type":"string".*\}\. icd cannot change in place/,
    );
    const same = await stackOf(async () => void new svc.DataType("reading", { icd: icd("number") }));
    expect(await same.up()).toHaveActions({ reading: "create" });
    expect(same.resource("reading").id).toBe("plant.pump_reading:1.0.0");
  });
});

describe("provider-side args", () => {
  const settings = { operationTimeoutSeconds: 1 };
  const seen: Array<{ call: string; args: Record<string, unknown>; changed?: string[] }> = [];
  const fake = defineKind<Record<string, unknown>>({
    name: "Fake",
    platformTerm: "fake",
    args: { name: { required: true, replaces: true }, title: {}, adopt: { local: true } },
    id: (i) => String(i.name),
    create: async (_ctx, args) => (seen.push({ call: "create", args }), { name: args.name, title: args.title }),
    read: async (_ctx, id) => (id === "exists" ? { name: "exists", title: "old" } : undefined),
    update: async (_ctx, _id, args, _olds, changed) => (seen.push({ call: "update", args, changed }), { name: args.name, title: args.title }),
    delete: async (_ctx, _id, args) => void seen.push({ call: "delete", args }),
    outputs: {},
  });
  const ctx = { client: { withDefaults: () => ({}) } as unknown as SvcClient, settings };

  test("never reach a kind's create, update (adoption included) or delete, nor its list of changed args", async () => {
    seen.length = 0;
    await lifecycle.create(fake, ctx, { name: "new", title: "t", adopt: true });
    const adopted = await lifecycle.create(fake, ctx, { name: "exists", title: "t", adopt: true });
    await lifecycle.update(fake, ctx, "exists", { name: "exists", title: "t" }, { name: "exists", title: "u", adopt: true });
    await lifecycle.remove(fake, ctx, "exists", { name: "exists", title: "u", adopt: true });
    expect(seen.map((s) => s.call)).toEqual(["create", "update", "update", "delete"]);
    for (const s of seen) {
      expect(s.args).not.toHaveProperty("adopt");
      expect(s.changed ?? []).not.toContain("adopt");
    }
    // The state still records what the program declared.
    expect(adopted.outs).toMatchObject({ adopt: true });
  });

  test("the README's conflicts table lists, by their platform terms, the kinds that take `adopt`, whose identity the program states and whose destroy deletes", () => {
    const readme = fs.readFileSync(path.join(__dirname, "../../README.md"), "utf8");
    const row = readme.split("\n").find((l) => l.startsWith("| An object of the same identity exists outside the stack ("));
    expect(row).toBeDefined();
    const listed = row!.slice(row!.indexOf("(") + 1, row!.indexOf(")")).split(", ");
    const expected = Object.values(kinds)
      .filter((k) => "adopt" in k.args && k.id !== undefined && (k.onDestroy ?? "delete") === "delete")
      .map((k) => k.platformTerm);
    expect(expected.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual([...expected].sort());
  });

  test("the README's resource table says what destroy does as each kind declares it", () => {
    const readme = fs.readFileSync(path.join(__dirname, "../../README.md"), "utf8");
    const rowOf = (name: string) => readme.split("\n").find((l) => l.startsWith("| ") && l.split("|")[1].includes(`\`${name}\``));
    const says = { release: /destroy releases it/, reset: /destroy restores the defaults/ };
    const declared = Object.values(kinds).map((k) => [k.name, k.onDestroy ?? "delete"] as const);
    expect(declared.filter(([, e]) => e !== "delete").length).toBeGreaterThan(0);
    for (const [name, effect] of declared) {
      const row = rowOf(name);
      expect(row).toBeDefined();
      for (const [e, pattern] of Object.entries(says)) expect([name, pattern.test(row!)]).toEqual([name, e === effect]);
    }
  });
});
