/**
 * Runs inline programs of native `svc:index:<Kind>` resources through the real `pulumi` CLI (the
 * Automation API, a local file backend), with the plugin `pulumi-resource-svc` of this repository
 * (bin/, which runs the built dist/) found through the project's `plugins.providers[].path`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type * as automation from "@pulumi/pulumi/automation";
import { pulumiWorkspace } from "../../src/testing/cli-stack";

export const repoRoot = path.resolve(__dirname, "..", "..");
/** The folder holding the plugin's executable. */
export const pluginDir = path.join(repoRoot, "bin");

/** A native resource: `svc:index:<kind>` with its args, its outputs readable. */
export class Native extends pulumi.CustomResource {
  constructor(kind: string, name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions, outputs: readonly string[] = []) {
    super(`svc:index:${kind}`, name, { ...Object.fromEntries(outputs.map((o) => [o, undefined])), ...args }, opts);
  }

  /** The output property `name` (an arg, or one of the `outputs` the constructor named). */
  out(name: string): pulumi.Output<unknown> {
    return (this as unknown as Record<string, pulumi.Output<unknown>>)[name];
  }
}

export interface NativeStack {
  stack: automation.Stack;
  workDir: string;
  /** The file backend's folder. */
  backend: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** An inline program's stack whose project finds the plugin in `pluginDir`; `config` is set on it (`secrets` as secrets). */
export async function nativeStack(o: {
  pulumi: string;
  program: automation.PulumiFn;
  config: Record<string, string>;
  secrets?: string[];
  project?: string;
  /** The project names no plugin folder: the engine uses the plugin installed in the CLI's home. */
  installedPlugin?: boolean;
  /** The PATH of the CLI's commands (default: the CLI's folder, node's, and the PATH of the tests). */
  path?: string;
}): Promise<NativeStack> {
  const auto = (await import("@pulumi/pulumi/automation")) as typeof automation;
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "svc-native-"));
  const backend = path.join(temp, "backend");
  const workDir = path.join(temp, "work");
  fs.mkdirSync(backend);
  fs.mkdirSync(workDir);
  const { env, command } = await pulumiWorkspace({ pulumi: o.pulumi, dir: temp, backend, passphrase: "native-test" });
  if (o.path !== undefined) env.PATH = o.path;
  // The engine would take a `pulumi-resource-svc` on PATH (this package's bin, linked into node_modules/.bin) first.
  if (o.installedPlugin) env.PULUMI_IGNORE_AMBIENT_PLUGINS = "true";
  const project = o.project ?? "svc-native";
  fs.writeFileSync(
    path.join(workDir, "Pulumi.yaml"),
    [
      `name: ${project}`,
      "runtime: nodejs",
      "backend:",
      `  url: ${env.PULUMI_BACKEND_URL}`,
      ...(o.installedPlugin ? [] : ["plugins:", "  providers:", "    - name: svc", `      path: ${pluginDir}`]),
      "",
    ].join("\n"),
  );
  const stack = await auto.LocalWorkspace.createOrSelectStack(
    { projectName: project, stackName: "dev", program: o.program },
    { workDir, pulumiHome: env.PULUMI_HOME, pulumiCommand: command, envVars: env, secretsProvider: "passphrase" },
  );
  const all: automation.ConfigMap = {};
  for (const [key, value] of Object.entries(o.config)) all[key] = { value, secret: (o.secrets ?? []).includes(key) };
  await stack.setAllConfig(all);
  return {
    stack,
    workDir,
    backend,
    env,
    close: async () => {
      await stack.workspace.removeStack("dev", { force: true }).catch(() => undefined);
      fs.rmSync(temp, { recursive: true, force: true });
    },
  };
}

/** The plugin needs the built package: dist/provider/native/main.js. */
export const pluginBuilt = fs.existsSync(path.join(repoRoot, "dist", "provider", "native", "main.js"));
