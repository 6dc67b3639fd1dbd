/**
 * examples/gitops as its CI workflow runs it, merge after merge: each run on a fresh runner (a new
 * working folder: whatever a run leaves there is gone), the stack's state kept by the Pulumi backend
 * (a state file kept between runs), the configuration that Pulumi.yaml and the workflow step's
 * environment give (secrets from the repository), and the platform (here an emulator that outlives
 * the runs, as a platform does). The configuration is read from the example's own files.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import * as testing from "../../src/testing";
import { SETTINGS } from "../../src/provider/config";
import { startEmulator, type Emulator } from "../../src/emulator";
import { gitops, loadDesired, type Desired } from "../../examples/gitops/program";

testing.registerMatchers();

const root = path.join(__dirname, "..", "..");
const example = path.join(root, "examples", "gitops");

type Event = "push" | "pull_request";
type Json = Record<string, unknown>;

/** The stack config Pulumi.yaml sets (`config: { key: { value } | value }`), as strings. */
function projectConfig(): Record<string, string> {
  const project = parseYaml(fs.readFileSync(path.join(example, "Pulumi.yaml"), "utf8")) as { config?: Record<string, unknown> };
  const config: Record<string, string> = {};
  for (const [key, v] of Object.entries(project.config ?? {})) config[key] = String(v !== null && typeof v === "object" && "value" in v ? (v as Json).value : v);
  return config;
}

/** The workflow's Pulumi step for an event: its command and stack, and the environment the job and the step set. */
function pulumiStep(event: Event, secrets: Record<string, string>): { command: string; stack: string; env: Record<string, string> } {
  const workflow = parseYaml(fs.readFileSync(path.join(example, ".github", "workflows", "pulumi.yml"), "utf8")) as {
    jobs: Record<string, { env?: Json; steps: Array<{ uses?: string; if?: string; env?: Json; with?: Json }> }>;
  };
  const [job] = Object.values(workflow.jobs);
  const steps = job.steps.filter((s) => s.uses?.startsWith("pulumi/actions@") && s.if?.includes(`github.event_name == '${event}'`));
  if (steps.length !== 1) throw new Error(`the workflow has ${steps.length} Pulumi steps for ${event} events, expected one`);
  const [step] = steps;
  /** A value with `${{ secrets.NAME }}` filled in; any other expression is beyond this test. */
  const value = (v: unknown): string =>
    String(v).replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
      const secret = /^secrets\.(\w+)$/.exec(expr);
      if (!secret || !(secret[1] in secrets)) throw new Error(`the workflow's expression \${{ ${expr} }} is not a secret this test gives`);
      return secrets[secret[1]];
    });
  const env = Object.fromEntries(Object.entries({ ...job.env, ...step.env }).map(([k, v]) => [k, value(v)]));
  return { command: String(step.with?.command), stack: String(step.with?.["stack-name"]), env };
}

/** What the provider reads: the stack config first, the SVC_* environment as its fallback. */
function providerConfig(env: Record<string, string>): Record<string, string> {
  const fromEnv = Object.entries(SETTINGS).flatMap(([key, variable]) => (env[variable] !== undefined ? [[`svc:${key}`, env[variable]]] : []));
  return { ...Object.fromEntries(fromEnv), ...projectConfig() };
}

describe("examples/gitops in CI: consecutive merges on fresh runners", () => {
  let platform: Emulator;
  let work: string;
  let secrets: Record<string, string>;
  const statePath = () => path.join(work, "backend", "prod.json");

  beforeAll(async () => {
    platform = await startEmulator({});
    work = fs.mkdtempSync(path.join(os.tmpdir(), "svc-gitops-ci-"));
    fs.mkdirSync(path.join(work, "backend"));
    secrets = { PULUMI_ACCESS_TOKEN: "pul-test", SVC_BASE_URL: platform.baseUrl, SVC_CLIENT_ID: "svc-admin", SVC_CLIENT_SECRET: "svc-admin-secret" };
  });
  afterAll(async () => {
    await platform?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  /** One CI run for `event`: a fresh runner folder with the example installed, the stack `prod` from the kept state. */
  async function ciRun<T>(event: Event, desired: Desired, body: (stack: testing.TestStack) => Promise<T>): Promise<T> {
    const runner = fs.mkdtempSync(path.join(work, "runner-"));
    // `npm install` on the runner: the provider host resolves pulumi-svc from the runner's folder.
    fs.symlinkSync(path.join(root, "node_modules"), path.join(runner, "node_modules"), "dir");
    const step = pulumiStep(event, secrets);
    const stack = await testing.stack(() => Promise.resolve(gitops(desired)), {
      project: "svc-gitops",
      stack: step.stack,
      config: providerConfig(step.env),
      secretConfig: ["svc:clientSecret"],
      statePath: statePath(),
      cwd: runner,
    });
    try {
      return await body(stack);
    } finally {
      await stack.close();
      fs.rmSync(runner, { recursive: true, force: true });
    }
  }

  test("main runs up against the platform with the secrets' credentials; a pull request previews on the emulator", () => {
    const up = pulumiStep("push", secrets);
    expect(up.command).toBe("up");
    expect(providerConfig(up.env)).toEqual({ "svc:baseUrl": platform.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" });
    const preview = pulumiStep("pull_request", secrets);
    expect(preview.command).toBe("preview");
    expect(preview.stack).toBe(up.stack);
    expect(providerConfig(preview.env)).toEqual({ "svc:emulator": "true" });
  });

  test("merge, pull request preview, merge, merge: every run on a fresh runner applies what the one before left", async () => {
    const desired = loadDesired(path.join(example, "workloads.yaml"));
    const bumped: Desired = { ...desired, workloads: desired.workloads.map((w) => (w.name === "belt-monitor-hall-2" ? { ...w, version: "2.1.0" } : w)) };

    const first = await ciRun("push", desired, (s) => s.up());
    expect(first.operations.filter((o) => o.op === "create").map((o) => o.name)).toEqual(expect.arrayContaining(["belt-monitor-hall-1", "belt-monitor-hall-2"]));

    // The pull request that bumps a version: its preview (on the emulator, against prod's state) shows that one change.
    const preview = await ciRun("pull_request", bumped, (s) => s.preview());
    expect(preview.operations.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name} ${(o.diffs ?? []).join(",")}`)).toEqual(["update belt-monitor-hall-2 appVersion"]);

    // Its merge applies it to the platform; the next merge (nothing changed) plans nothing.
    const second = await ciRun("push", bumped, (s) => s.up());
    expect(second.operations.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`)).toEqual(["update belt-monitor-hall-2"]);
    const workload = await (await fetch(`${platform.baseUrl}/emulator/state`)).json();
    expect((workload as { workloads: Array<Json> }).workloads.find((w) => w.name === "belt-monitor-hall-2")).toMatchObject({ app_version: "2.1.0" });
    expect(await ciRun("push", bumped, (s) => s.up())).toHaveNoChanges();
  }, 240_000);
});
