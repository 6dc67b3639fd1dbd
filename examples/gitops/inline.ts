/**
 * The workflow's Pulumi step (`pulumi/actions`) with this program run inline, by the Automation API,
 * rather than by the Node.js language host: for a machine whose `pulumi` has no language host (the
 * CLI built from Go sources has none), and for the repository's tests. On GitHub the workflow does
 * not need it: the CLI the action installs comes with the language host and runs `index.ts` itself.
 *
 * It does what the action does with the step's inputs: selects the stack in `work-dir`, runs
 * `preview` (with `diff: true`, `pulumi preview --diff`) or `up`, and for `comment-on-pr` builds the
 * comment from the command's output as the action's `handlePullRequestMessage` does
 * (pulumi/actions, src/libs/pr.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type LocalWorkspaceOptions, type OpType } from "@pulumi/pulumi/automation";
import { parse } from "yaml";
import { gitops, loadDesired } from "./program";

export interface StepInputs {
  command: "preview" | "up";
  stackName: string;
  /** The folder holding Pulumi.yaml and workloads.yaml (the step's `work-dir`). */
  workDir: string;
  diff?: boolean;
  /** Environment of the CLI and the provider (the job's and the step's `env`), and the CLI to run. */
  workspace?: Pick<LocalWorkspaceOptions, "envVars" | "pulumiCommand" | "pulumiHome">;
}

export interface StepResult {
  /** The command's standard output: what the action logs and comments. */
  stdout: string;
  /** Resources per operation, as the engine counted them. */
  changes: Partial<Record<OpType, number>>;
}

/** Runs the step's command on the program of `workDir` (its workloads.yaml), inline. */
export async function runStep(inputs: StepInputs): Promise<StepResult> {
  const project = parse(fs.readFileSync(path.join(inputs.workDir, "Pulumi.yaml"), "utf8")) as { name: string };
  // What the language host would run: index.ts of the work-dir, whose program reads the work-dir's workloads.yaml.
  const program = async () => gitops(loadDesired(path.join(inputs.workDir, "workloads.yaml")));
  const stack = await LocalWorkspace.selectStack({ stackName: inputs.stackName, projectName: project.name, program }, { ...inputs.workspace, workDir: inputs.workDir });
  if (inputs.command === "preview") {
    const result = await stack.preview({ diff: inputs.diff, color: "never" });
    return { stdout: result.stdout, changes: result.changeSummary };
  }
  const result = await stack.up({ diff: inputs.diff, color: "never" });
  return { stdout: result.stdout, changes: result.summary.resourceChanges ?? {} };
}

/** GitHub's limit on a comment is 65,535 characters; the action keeps to 64,000 of output. */
const MAX_OUTPUT = 64_000;

/**
 * The pull-request comment of a step's output: a heading naming the command and the stack, then the
 * output, without terminal colour codes, in a collapsed "Pulumi report" (cut at the end if too long).
 */
export function pullRequestComment(command: string, project: string, stackName: string, output: string): string {
  // eslint-disable-next-line no-control-regex -- the colour codes are control characters
  const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
  const trimmed = plain.length > MAX_OUTPUT;
  return [
    `#### :tropical_drink: \`${command}\` on ${project}/${stackName}`,
    "",
    "<details>",
    "<summary>Pulumi report</summary>",
    "",
    "<pre>",
    trimmed ? plain.slice(0, MAX_OUTPUT) : plain,
    "</pre>",
    ...(trimmed ? [":warning: **Warn**: The output was too long and trimmed."] : []),
    "</details>",
  ].join("\n");
}
