/**
 * examples/gitops's workflow under the real `pulumi` CLI: a merge runs `up` against the platform (an
 * emulator over HTTP, with the credentials the workflow takes from the repository's secrets), then a
 * pull request runs `pulumi preview --diff` against the embedded emulator (`SVC_EMULATOR=true`) and
 * gets the comment the action builds from its output. Each run is on a fresh copy of the example (a
 * runner's checkout), with the stack's state kept in a local file backend instead of Pulumi Cloud.
 * The program runs inline (examples/gitops/inline.ts): the CLI built here has no Node.js language host.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { parse as parseYaml, stringify as toYaml } from "yaml";
import { startEmulator, type Emulator } from "../../src/emulator";
import { pulumiWorkspace } from "../../src/testing/cli-stack";
import { DEFAULT_PASSPHRASE } from "../../src/testing/engine/secrets";
import { pullRequestComment, runStep, type StepResult } from "../../examples/gitops/inline";
import { loadDesired, type Desired } from "../../examples/gitops/program";
import { describeCli, pulumiDir, tempDir } from "./harness";

const root = path.join(__dirname, "..", "..");
const example = path.join(root, "examples", "gitops");

interface WorkflowStep {
  with: { command: string; "stack-name": string; diff?: boolean; "comment-on-pr"?: boolean };
  env: Record<string, string>;
}

/** The workflow's Pulumi step for `event`, its `${{ secrets.NAME }}` filled from `secrets`. */
function workflowStep(event: "push" | "pull_request", secrets: Record<string, string>): WorkflowStep {
  const workflow = parseYaml(fs.readFileSync(path.join(example, ".github", "workflows", "pulumi.yml"), "utf8")) as {
    jobs: Record<string, { steps: Array<{ uses?: string; if?: string; env?: Record<string, string>; with: WorkflowStep["with"] }> }>;
  };
  const step = Object.values(workflow.jobs)[0].steps.find((s) => s.uses?.startsWith("pulumi/actions@") && s.if?.includes(`'${event}'`));
  if (!step) throw new Error(`the workflow has no Pulumi step for ${event}`);
  const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, v.replace(/\$\{\{\s*secrets\.(\w+)\s*\}\}/g, (_, name: string) => secrets[name])]));
  return { with: step.with, env };
}

describeCli("examples/gitops's pull-request comment under `pulumi`", () => {
  let platform: Emulator;
  let work: string;
  let cli: Awaited<ReturnType<typeof pulumiWorkspace>>;
  let secrets: Record<string, string>;

  beforeAll(async () => {
    platform = await startEmulator({});
    work = tempDir("svc-gitops-cli-");
    secrets = { SVC_BASE_URL: platform.baseUrl, SVC_CLIENT_ID: "svc-admin", SVC_CLIENT_SECRET: "svc-admin-secret" };
    fs.mkdirSync(path.join(work, "backend"));
    cli = await pulumiWorkspace({ pulumi: path.join(pulumiDir!, "pulumi"), dir: work, backend: path.join(work, "backend"), passphrase: DEFAULT_PASSPHRASE });
  });
  afterAll(async () => {
    await platform?.close();
  });

  /** A runner's checkout of the example with `desired` as its workloads.yaml (`npm install` done: node_modules linked). */
  function checkout(desired: Desired): string {
    const dir = fs.mkdtempSync(path.join(work, "runner-"));
    fs.cpSync(example, dir, { recursive: true, filter: (src) => path.basename(src) !== "node_modules" });
    fs.writeFileSync(path.join(dir, "workloads.yaml"), toYaml(desired));
    fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
    return dir;
  }

  /** The workflow's step for `event` on a fresh checkout of `desired`, and the comment it posts on a pull request. */
  async function ciRun(event: "push" | "pull_request", desired: Desired): Promise<StepResult & { comment?: string }> {
    const step = workflowStep(event, secrets);
    const command = step.with.command as "preview" | "up";
    const workDir = checkout(desired);
    const result = await runStep({
      command,
      stackName: step.with["stack-name"],
      workDir,
      diff: step.with.diff,
      workspace: { envVars: { ...cli.env, ...step.env }, pulumiCommand: cli.command, pulumiHome: cli.env.PULUMI_HOME },
    });
    return { ...result, comment: step.with["comment-on-pr"] ? pullRequestComment(command, "svc-gitops", step.with["stack-name"], result.stdout) : undefined };
  }

  const desired = loadDesired(path.join(example, "workloads.yaml"));

  test("the workflow previews pull requests with --diff on the embedded emulator and comments; main runs up", () => {
    const pr = workflowStep("pull_request", secrets);
    expect(pr.with).toMatchObject({ command: "preview", diff: true, "comment-on-pr": true });
    expect(pr.env).toEqual({ SVC_EMULATOR: "true" });
    expect(workflowStep("push", secrets)).toMatchObject({ with: { command: "up", "stack-name": pr.with["stack-name"] }, env: secrets });
  });

  test("a merge creates the stack; a pull request that renames the asset type's title gets a comment with the CLI's diff", async () => {
    // `pulumi stack init prod`, once, as the example's README asks.
    const stackName = workflowStep("push", secrets).with["stack-name"];
    await LocalWorkspace.createStack(
      { stackName, projectName: "svc-gitops", program: async () => undefined },
      { workDir: checkout(desired), envVars: cli.env, pulumiCommand: cli.command, pulumiHome: cli.env.PULUMI_HOME, secretsProvider: "passphrase" },
    );
    const merged = await ciRun("push", desired);
    expect(merged.changes).toMatchObject({ create: expect.any(Number) });
    expect(merged.comment).toBeUndefined();

    const retitled: Desired = { ...desired, assetType: { ...desired.assetType, title: "Conveyor belt" } };
    const pr = await ciRun("pull_request", retitled);
    expect(pr.changes).toEqual({ same: expect.any(Number), update: 1 });
    const comment = pr.comment!;
    expect(comment.startsWith("#### :tropical_drink: `preview` on svc-gitops/prod\n")).toBe(true);
    expect(comment).toContain("<summary>Pulumi report</summary>");
    // The CLI's --diff: the asset type is updated, its title old => new.
    expect(comment).toMatch(/~ pulumi-nodejs:dynamic\/svc:AssetType: \(update\)\s*\n\s*\[id=conveyor\]/);
    expect(comment).toMatch(/~ title\s*: "Conveyor" => "Conveyor belt"/);
    expect(comment).toMatch(/1 to update/);
    expect(comment).not.toContain("\u001b[");
    // A preview changes nothing on the platform: the title there is the merged one.
    const onPlatform = (await (await fetch(`${platform.baseUrl}/emulator/state`)).json()) as { asset_types?: Array<{ name: string; title: string }> };
    expect(onPlatform.asset_types?.find((t) => t.name === "conveyor")).toMatchObject({ title: "Conveyor" });
  });

  test("a pull request that changes nothing gets a comment saying so", async () => {
    const pr = await ciRun("pull_request", desired);
    expect(Object.keys(pr.changes)).toEqual(["same"]);
    expect(pr.comment).toMatch(/Resources:\s*\n\s*\d+ unchanged/);
    expect(pr.comment).not.toMatch(/to (create|update|replace|delete)/);
  });
});
