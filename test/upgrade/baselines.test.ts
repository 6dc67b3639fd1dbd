/**
 * Upgrading pulumi-svc never changes a stack: a state written under the real `pulumi` CLI by an
 * earlier version of the package, read by this build, previews with an empty plan and refreshes with
 * no change, for every kind and every option that changes what the state stores.
 *
 * `baselines/<package version>/<scenario>/` holds what a user of that version has after deploying the
 * scenario's program (baseline-programs.ts) with `pulumi up` to a platform (here the emulator):
 * - `stack.json`: the stack as `pulumi stack export` writes it (secrets encrypted with the passphrase below);
 * - `emulator-state.json`: the platform's state, the emulator's state file;
 * - `baseline.json`: the package version, the CLI's version, the resources and kinds the state holds.
 * For each baseline of each version, the test starts an emulator on the recorded platform state,
 * imports the recorded stack into a fresh stack of a local file backend (`pulumi stack import`, through
 * the Automation API's importStack), and runs the scenario's program under the current build:
 * `pulumi preview` must plan nothing (no create, update, replace or delete), `pulumi refresh` must
 * change nothing, and the preview after it must plan nothing. A kind whose stored state changes shape
 * (an output renamed, a field stored in another form) fails it. Baselines are the approach of Pulumi's
 * provider upgrade tests (providertest's PreviewProviderUpgrade).
 *
 * To record the baselines of the package's current version (package.json's `version`), after
 * `npm run build && node scripts/link-self.js`, with the CLI built (`npm run --silent pulumi:path`):
 * `RECORD_UPGRADE_BASELINES=1 npx jest test/upgrade/baselines.test.ts`. Record a version's baselines
 * once, when it is released; a program of baseline-programs.ts must not change once a baseline holds
 * its state (add a scenario instead). The earlier versions' baselines stay and are checked too.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type * as automation from "@pulumi/pulumi/automation";
import { SvcClient } from "../../src/client";
import { startEmulator, type Emulator } from "../../src/emulator";
import { kinds } from "../../src/provider/kinds";
import * as testing from "../../src/testing";
import { pulumiWorkspace } from "../../src/testing/cli-stack";
import { urnName } from "../../src/pulumi/urn";
import { describeCli, pulumiDir, tempDir } from "../cli/harness";
import { scenarios } from "./baseline-programs";
import { BASELINES, newestScenarios, newestVersion, recorded } from "./recorded";

testing.registerMatchers();

const VERSION = (JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as { version: string }).version;
const RECORD = process.env.RECORD_UPGRADE_BASELINES === "1";
const PROJECT = "svc-upgrade";
const PASSPHRASE = "pulumi-svc-upgrade-baseline";
const FILES = { stack: "stack.json", emulator: "emulator-state.json", meta: "baseline.json" };
const DYNAMIC = "pulumi-nodejs:dynamic/svc:";

interface Meta {
  packageVersion: string;
  pulumiVersion: string;
  /** The resources of the state, `<type> <name>`, the engine's own (stack, providers) included. */
  resources: string[];
  /** The kinds the state holds. */
  kinds: string[];
}

const config = (emulator: Emulator) => ({ "svc:baseUrl": emulator.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" });
const stackOptions = (scenario: string, backend: string, emulator: Emulator) => ({
  engine: "pulumi" as const,
  pulumiPath: pulumiDir,
  project: PROJECT,
  stack: scenario,
  statePath: backend,
  secretsPassphrase: PASSPHRASE,
  config: config(emulator),
  secretConfig: ["svc:clientSecret"],
});

interface Exported {
  version: number;
  deployment: { resources?: { urn: string; type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }[] };
}

/**
 * The recorded stack, at the address the platform has now: the default provider's state keeps the
 * configuration it ran with, and a refresh configures the provider from it. A user's platform keeps
 * its address; the emulator of each run listens on another port.
 */
function atAddress(e: Exported, baseUrl: string): Exported {
  const resources = (e.deployment.resources ?? []).map((r) =>
    r.type.startsWith("pulumi:providers:") ? { ...r, inputs: { ...r.inputs, "svc:baseUrl": baseUrl }, outputs: { ...r.outputs, "svc:baseUrl": baseUrl } } : r,
  );
  return { ...e, deployment: { ...e.deployment, resources } };
}
const listed = (e: Exported) => (e.deployment.resources ?? []).map((r) => `${r.type} ${urnName(r.urn)}`).sort();
/** Each resource as the state stores it: its id, the options the engine keeps, and the names of its outputs. */
const shapes = (e: Exported) =>
  (e.deployment.resources ?? [])
    .filter((r) => !r.type.startsWith("pulumi:"))
    .map((r) => {
      const o = r as Record<string, unknown>;
      const options = ["protect", "retainOnDelete", "deleteBeforeReplace", "additionalSecretOutputs", "aliases"]
        .filter((k) => o[k] !== undefined)
        .map((k) => `${k}=${JSON.stringify(o[k])}`);
      return `${r.urn} id=${String(o.id)} parent=${String(o.parent)} ${options.join(" ")} outputs=${Object.keys(r.outputs ?? {})
        .sort()
        .join(",")}`;
    })
    .sort();
const kindsOf = (e: Exported) => [...new Set((e.deployment.resources ?? []).filter((r) => r.type.startsWith(DYNAMIC)).map((r) => r.type.slice(DYNAMIC.length)))].sort();

describeCli("upgrade baselines recorded under `pulumi`", () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir("svc-baseline-");
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  (RECORD ? test.each(Object.keys(scenarios)) : test.skip.each(Object.keys(scenarios)))(`records the %s baseline of version ${VERSION}`, async (name) => {
    const scenario = scenarios[name];
    const emulatorState = path.join(dir, FILES.emulator);
    const emulator = await startEmulator({ statePath: emulatorState, log: () => undefined });
    let exported: Exported;
    try {
      if (scenario.beforeFirstUp) {
        const client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
        try {
          await scenario.beforeFirstUp(client);
        } finally {
          await client.close();
        }
      }
      const stack = await testing.stack(scenario.phases[0], stackOptions(name, path.join(dir, "backend"), emulator));
      try {
        for (const phase of scenario.phases) await stack.up(phase);
        exported = { version: 3, deployment: stack.state as Exported["deployment"] };
      } finally {
        await stack.close();
      }
    } finally {
      // Closing folds the emulator's log into its snapshot: one file holds the whole platform.
      await emulator.close();
    }
    const out = path.join(BASELINES, VERSION, name);
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, FILES.stack), JSON.stringify(exported, null, 2) + "\n");
    fs.copyFileSync(emulatorState, path.join(out, FILES.emulator));
    const meta: Meta = { packageVersion: VERSION, pulumiVersion: cliVersion(), resources: listed(exported), kinds: kindsOf(exported) };
    fs.writeFileSync(path.join(out, FILES.meta), JSON.stringify(meta, null, 2) + "\n");
  });

  if (RECORD) return;
  test("the baselines of the current version cover every kind the package serves", () => {
    expect(newestVersion).toBeDefined();
    const covered = new Set(newestScenarios.flatMap((s) => readMeta(newestVersion!, s).kinds));
    // A new kind needs the baselines recorded again (RECORD_UPGRADE_BASELINES=1, above).
    expect([...covered].sort()).toEqual(Object.keys(kinds).sort());
  });

  test.each(recorded)("the %s baseline %s previews empty and refreshes with no change under this build", async (version, name) => {
    const scenario = scenarios[name];
    expect(scenario).toBeDefined();
    const from = path.join(BASELINES, version, name);
    const meta = readMeta(version, name);
    const exported = JSON.parse(fs.readFileSync(path.join(from, FILES.stack), "utf8")) as Exported;
    expect(listed(exported)).toEqual(meta.resources);
    // Secrets were recorded encrypted.
    expect(fs.readFileSync(path.join(from, FILES.stack), "utf8")).not.toMatch(/opcua-line-1-password|line-2-token|svc-admin-secret/);

    fs.copyFileSync(path.join(from, FILES.emulator), path.join(dir, FILES.emulator));
    const emulator = await startEmulator({ statePath: path.join(dir, FILES.emulator), log: () => undefined });
    const backend = path.join(dir, "backend");
    try {
      await importStack(name, backend, atAddress(exported, emulator.baseUrl));
      const stack = await testing.stack(scenario.program, stackOptions(name, backend, emulator));
      try {
        const custom = meta.resources.filter((r) => r.startsWith(DYNAMIC)).length;
        expect(stack.resources().filter((r) => r.type.startsWith(DYNAMIC))).toHaveLength(custom);

        const preview = await stack.preview();
        expect(preview).toHaveNoChanges();
        expect(preview.operations.filter((o) => o.op === "same" && o.type.startsWith(DYNAMIC))).toHaveLength(custom);

        const refreshed = await stack.refresh();
        expect(refreshed.operations.filter((o) => o.op !== "same")).toEqual([]);
        expect(await stack.preview()).toHaveNoChanges();
        // The refresh read every object back as recorded: the state is still the recorded one.
        const after = { version: 3, deployment: stack.state as Exported["deployment"] };
        expect(listed(after)).toEqual(meta.resources);
        expect(shapes(after)).toEqual(shapes(exported));
      } finally {
        await stack.close();
      }
    } finally {
      await emulator.close();
    }
  });

  /** A fresh stack of a local file backend in `backend`, holding the recorded deployment (`pulumi stack import`). */
  async function importStack(stackName: string, backend: string, exported: Exported): Promise<void> {
    const auto = (await import("@pulumi/pulumi/automation")) as typeof automation;
    const home = path.join(dir, "import");
    const workDir = path.join(home, "work");
    fs.mkdirSync(workDir, { recursive: true });
    fs.mkdirSync(backend, { recursive: true });
    const { env, command } = await pulumiWorkspace({ pulumi: path.join(pulumiDir!, "pulumi"), dir: home, backend, passphrase: PASSPHRASE });
    const stack = await auto.LocalWorkspace.createStack(
      { projectName: PROJECT, stackName, program: async () => undefined },
      { workDir, pulumiHome: env.PULUMI_HOME, pulumiCommand: command, envVars: env, secretsProvider: "passphrase", projectSettings: { name: PROJECT, runtime: "nodejs" } },
    );
    await stack.importStack(exported);
  }
});

function readMeta(version: string, name: string): Meta {
  return JSON.parse(fs.readFileSync(path.join(BASELINES, version, name, FILES.meta), "utf8")) as Meta;
}

function cliVersion(): string {
  return spawnSync(path.join(pulumiDir!, "pulumi"), ["version"], { encoding: "utf8" }).stdout.trim();
}
