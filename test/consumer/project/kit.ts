/**
 * A user's test of the consumer project: runs one scenario of the program's life through the testing
 * kit, from inside the project, against the package as installed from its tarball, and prints what
 * each step did as one line `KIT-RESULT {json}`.
 *
 *   node bin/kit.js short|pulumi|life|import|lookup|cluster|week
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";
import { areas } from "pulumi-svc/api";
import { SvcApiError, SvcClient } from "pulumi-svc/client";
import { startEmulator, type Emulator } from "pulumi-svc/emulator";
import { snapshot } from "pulumi-svc/plant";
import * as testing from "pulumi-svc/testing";
import type PulumiSvcEnvironment from "pulumi-svc/testing/jest-environment";
import { plant } from "./plant";

// A user's own jest environment may extend the package's (the entry's declarations compile too).
export const ownEnvironment = (Base: typeof PulumiSvcEnvironment): typeof PulumiSvcEnvironment => class extends Base {};

// The declarations carry real types, not `any`: each line below must be a type error.
// @ts-expect-error a Label needs a title
export const missingTitle: svc.LabelArgs = { name: "x" };
// @ts-expect-error an asset's path is a string output
export const wrongOutput = (a: svc.Asset): pulumi.Output<number> => a.path;
// @ts-expect-error a cluster record's name is a string
export const wrongRecord = async (c: SvcClient): Promise<number> => (await c.clusters.get({ params: { cluster_name: "x" } })).name;
// @ts-expect-error a snapshot reads through a client, not from a bare address
export const wrongSnapshot = () => snapshot("http://127.0.0.1:4010", {});
// @ts-expect-error a run's kind is one of the kit's kinds
export const wrongKind: testing.RunResult["kind"] = "deploy";

interface Step {
  step: string;
  ok: boolean;
  value?: unknown;
  error?: string;
}

const steps: Step[] = [];

/** Runs one step; a failure is recorded and the scenario goes on, so later steps still report. */
async function step<T>(name: string, fn: () => Promise<T>, show: (v: T) => unknown = (v) => v): Promise<T | undefined> {
  try {
    const value = await fn();
    steps.push({ step: name, ok: true, value: show(value) });
    return value;
  } catch (e) {
    steps.push({ step: name, ok: false, error: (e as Error).stack ?? String(e) });
    return undefined;
  }
}

/** A run as the assertions read it: counts, and one line per change (`update line-1 (title)`). */
const run = (r: testing.RunResult) => ({
  totals: r.totals,
  changes: r.changes,
  ops: r.operations
    .filter((o) => o.op !== "same" && o.op !== "read")
    .map((o) => `${o.op} ${o.name}${o.diffs?.length ? ` (${o.diffs.join(", ")})` : ""}`)
    .sort(),
  outputs: r.outputs,
});

/** Whether the platform still has the asset, asked through the client. */
async function assetExists(client: SvcClient, name: string): Promise<boolean> {
  try {
    const a = await client.assets.get({ params: { asset_name: name } });
    return a.name === name;
  } catch (e) {
    if (e instanceof SvcApiError && e.status === 404) return false;
    throw e;
  }
}

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile());
}

/** An emulator this script starts, the stack options that reach it, and a client of it. */
async function platform(): Promise<{ options: testing.StackOptions; client: SvcClient; close(): Promise<void> }> {
  const emulator: Emulator = await startEmulator({});
  const credentials = { clientId: "svc-admin", clientSecret: "svc-admin-secret" };
  const client = new SvcClient({ baseUrl: emulator.baseUrl, ...credentials });
  const options = {
    config: { "svc:baseUrl": emulator.baseUrl, "svc:clientId": credentials.clientId, "svc:clientSecret": credentials.clientSecret },
    secretConfig: ["svc:clientSecret"],
  };
  return { options, client, close: async () => (await client.close(), await emulator.close()) };
}

/** A stack of `program` against an emulator this script starts, and a client of that emulator. */
async function withEmulator(program: testing.Program, body: (stack: testing.TestStack, client: SvcClient) => Promise<void>): Promise<void> {
  const { options, client, close } = await platform();
  const stack = await testing.stack(program, options);
  try {
    await body(stack, client);
  } finally {
    await stack.close();
    await close();
  }
}

/** The first part of the program's life, on either engine: up, an identical re-run, an edit previewed then applied, refresh. */
async function editedLife(stack: testing.TestStack | testing.CliStack, client: SvcClient): Promise<void> {
  const edited = () => plant({ edited: true });
  await step("up", () => stack.up(), run);
  await step("outputs", async () => stack.outputs);
  await step("re-run", () => stack.up(), run);
  await step("preview of the edit", () => stack.preview(edited), run);
  await step("up of the edit", () => stack.up(edited), run);
  await step("line title on the platform", async () => (await client.assets.get({ params: { asset_name: "line-1" } })).title);
  await step("refresh", () => stack.refresh(), run);
}

/** The cluster scenario's program: a cluster and a label. */
const clusterProgram = () => {
  const cluster = new svc.Cluster("plant-a", { name: "plant-a", title: "Plant A", ready: true });
  const label = new svc.Label("anomaly", { name: "anomaly", title: "Anomaly" });
  return { cluster: cluster.name, clusterStatus: cluster.status, label: label.name };
};

const scenarios: Record<string, () => Promise<void>> = {
  /** The fast check: up, an identical re-run, destroy, each confirmed through the API. */
  short: () =>
    withEmulator(plant, async (stack, client) => {
      await step("up", () => stack.up(), run);
      await step("outputs", async () => stack.outputs);
      await step("exists after up", () => assetExists(client, "pump-1"));
      await step("re-run", () => stack.up(), run);
      await step("destroy", () => stack.destroy(), run);
      await step("exists after destroy", () => assetExists(client, "pump-1"));
    }),

  /**
   * The same program under the real engine (`engine: "pulumi"`, the CLI in SVC_PULUMI_DIR): up, an
   * identical re-run, an edit previewed then applied, refresh, destroy; and the state the CLI wrote
   * holds the client secret only encrypted.
   */
  pulumi: async () => {
    const { options, client, close } = await platform();
    const backend = fs.mkdtempSync(path.join(os.tmpdir(), "svc-consumer-pulumi-"));
    const stack = await testing.stack(plant, { ...options, engine: "pulumi", statePath: backend });
    try {
      await editedLife(stack, client);
      await step("state types", async () => [...new Set(stack.resources().map((r) => r.type))].sort());
      await step("client secret in the backend's files", async () => filesUnder(backend).filter((f) => fs.readFileSync(f, "utf8").includes("svc-admin-secret")));
      await step("destroy", () => stack.destroy(), run);
      await step("exists after destroy", () => assetExists(client, "pump-1"));
    } finally {
      await stack.close();
      await close();
      fs.rmSync(backend, { recursive: true, force: true });
    }
  },

  /** The whole life: up, re-run, edit previewed then applied, refresh, destroy, up again, destroy. */
  life: () =>
    withEmulator(plant, async (stack, client) => {
      await editedLife(stack, client);
      await step("destroy", () => stack.destroy(), run);
      await step("exists after destroy", () => assetExists(client, "pump-1"));
      await step("up after destroy", () => stack.up(), run);
      await step("exists after up again", () => assetExists(client, "pump-1"));
      await step("destroy again", () => stack.destroy(), run);
    }),

  /** The kit's importResource: an object made outside the program is read into the state, then declared. */
  import: () =>
    withEmulator(plant, async (stack, client) => {
      await step("up", () => stack.up(), run);
      await step(
        "create outside the program",
        () => client.datalabels.labelCreate({ body: { name: "legacy", title: "Legacy" } }),
        (l) => l.name,
      );
      await step(
        "importResource",
        () => stack.importResource({ name: "legacy", id: "legacy", like: "anomaly" }),
        (v) => ({ id: v.id, type: v.type, title: v.outputs.title }),
      );
      const declaring = () => {
        const out = plant();
        new svc.Label("legacy", { name: "legacy", title: "Legacy" });
        return out;
      };
      await step("up declaring it", () => stack.up(declaring), run);
      await step("destroy", () => stack.destroy(), run);
      await step("legacy label after destroy", async () => {
        const names: string[] = [];
        for await (const l of client.paginate(areas.datalabels.labelList)) names.push(l.name);
        return names.includes("legacy");
      });
    }),

  /** Lookups in the program, with the provider's embedded emulator (svc:emulator). */
  lookup: async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-consumer-lookup-"));
    const stack = await testing.stack(plant, { config: { "svc:emulator": path.join(dir, "emulator.json") }, statePath: path.join(dir, "stack.json") });
    try {
      await step("up", () => stack.up(), run);
      const looking = () => ({
        ...plant(),
        found: svc.getAsset("pump-1").then((a) => `${a.name} in ${a.asset_parent_name ?? "-"}`),
        listed: svc.listAssets({ assetTypeNames: ["centrifugal-pump"] }).then((l) => l.map((a) => a.name).sort()),
      });
      await step("up with lookups", () => stack.up(looking), run);
      await step("looked up", async () => ({ found: stack.outputs.found, listed: stack.outputs.listed }));
      await step("destroy", () => stack.destroy(), run);
    } finally {
      await stack.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },

  /**
   * What a platform team's first week broke (issue 25), tried from the installed package: a refresh
   * right after an up that overrides the manifest's image is empty and leaves the next up empty; a
   * refresh says what drifted; a mistyped arg is refused with the nearest field; a mistyped config key
   * is a warning of the run; a second stack on a locked state file fails naming the holder.
   */
  week: async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-consumer-week-"));
    const version = () => {
      const t = new svc.AssetType("pump", { name: "pump", title: "Pump" });
      new svc.Asset("pump-1", { name: "pump-1", title: "Pump 1", assetTypeName: t.name });
      new svc.AppVersion("monitor", {
        appName: "monitor",
        version: "1.0.0",
        type: "app",
        image: "reg/monitor:1.1.0",
        manifest: { image: "reg/monitor:1.0.0", io: [{ name: "pressure", data_type: "number" }] },
      });
    };
    try {
      await withEmulator(version, async (stack, client) => {
        await step("up", () => stack.up(), run);
        await step("refresh right after", () => stack.refresh(), run);
        await step("preview after the refresh", () => stack.preview(), run);
        await client.assets.update({ params: { asset_name: "pump-1" }, body: { title: "Renamed by hand" } });
        await step(
          "refresh of a drift",
          () => stack.refresh(),
          (r) => r.render(),
        );
      });
      const mistyped = () => {
        const t = new svc.AssetType("pump", { name: "pump", title: "Pump" });
        new svc.Asset("pump-1", { name: "pump-1", title: "Pump 1", assetTypeName: t.name, ...{ locaton: { lat: 1, lon: 2 } } });
      };
      await step("a mistyped arg", async () => {
        const stack = await testing.stack(mistyped, { emulator: true });
        try {
          return await stack.up().then(
            () => "accepted",
            (e: Error) => e.message,
          );
        } finally {
          await stack.close();
        }
      });
      await step("a mistyped config key", async () => {
        const stack = await testing.stack(version, { emulator: true, config: { "svc:emulater": "true" } });
        try {
          return (await stack.preview()).warnings;
        } finally {
          await stack.close();
        }
      });
      await step("a second stack on a locked state", async () => {
        const statePath = path.join(dir, "stack.json");
        const first = await testing.stack(version, { emulator: true, statePath });
        try {
          return await testing.stack(version, { emulator: true, statePath }).then(
            async (second) => {
              await second.close();
              return "opened";
            },
            (e: Error) => e.message,
          );
        } finally {
          await first.close();
        }
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },

  /** A cluster: API v4 cannot delete it, destroy releases it; the stack goes up again after destroy. */
  cluster: () =>
    withEmulator(clusterProgram, async (stack, client) => {
      await step("up", () => stack.up(), run);
      await step("destroy", () => stack.destroy(), run);
      await step("cluster after destroy", async () => (await client.clusters.get({ params: { cluster_name: "plant-a" } })).name);
      await step("up after destroy", () => stack.up(), run);
      await step("destroy again", () => stack.destroy(), run);
    }),
};

async function main(): Promise<void> {
  const name = process.argv[2] ?? "";
  const scenario = scenarios[name];
  if (!scenario) throw new Error(`unknown scenario "${name}"; one of: ${Object.keys(scenarios).join(", ")}`);
  await scenario();
}

/** Prints the result line the consumer tests read. */
function report(extra: Record<string, unknown> = {}): void {
  process.stdout.write(`KIT-RESULT ${JSON.stringify({ pulumi: require("@pulumi/pulumi/package.json").version, node: process.version, steps, ...extra })}\n`);
}

// A failure outside the steps (e.g. a lookup's rejection the program never awaited) ends the run with what happened so far.
for (const event of ["uncaughtException", "unhandledRejection"] as const) {
  process.on(event, (e: unknown) => {
    report({ error: `${event}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` });
    process.exit(1);
  });
}

main().then(
  () => {
    report();
    process.exit(0);
  },
  (e: Error) => {
    report({ error: e.stack ?? String(e) });
    process.exit(1);
  },
);
