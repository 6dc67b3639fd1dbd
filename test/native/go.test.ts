/**
 * A Go program of the generated Go SDK (sdk/go/svc, which `npm run sdk` writes and builds) builds,
 * and runs: it deploys a small plant to the emulator through the Go Automation API as an inline
 * program (`auto.UpsertStackInlineSource`: the program runs in the Go process, which serves the
 * engine the language runtime's protocol itself, so no Go language host is needed) with the real CLI
 * and the native provider: up, an identical preview (empty), destroy; the records are checked
 * through the client. The program's module requires the Pulumi Go SDK at the version the SDK's
 * go.mod names (the CLI's, tools/pulumi/go.mod), and starts its go.sum from the SDK's and the CLI's,
 * so the module cache the CLI's build filled serves it, but for the three modules the Automation API
 * adds (fsnotify, nxadm/tail, tomb), which the module proxy serves once. Skips without Go or sdk/.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { SvcClient } from "../../src/client";
import { pulumiWorkspace } from "../../src/testing/cli-stack";
import { describeCli, pulumiDir } from "../cli/harness";
import { pluginBuilt, pluginDir, repoRoot } from "./harness";

const sdk = path.join(repoRoot, "sdk");
const hasGo = spawnSync("go", ["version"]).status === 0;
const generated = fs.existsSync(path.join(sdk, "go", "svc", "asset.go")) && fs.existsSync(path.join(sdk, "go.mod"));
if (!hasGo || !generated) {
  const why = !hasGo ? "Go is not installed" : "the Go SDK is not generated (npm run sdk writes sdk/go)";
  if (process.env.CI) throw new Error(`CI builds and runs a Go program of the Go SDK, but ${why}`);
  console.warn(`skipping the Go SDK's test: ${why}`);
}

jest.setTimeout(900_000);

/**
 * The program: the plant, deployed by the Go Automation API as an inline program, one step per run
 * (`plant up|preview|destroy`). The stack lives in $SVC_WORK_DIR (whose Pulumi.yaml names the
 * plugin's folder) on the file backend of $PULUMI_BACKEND_URL; $SVC_PULUMI_ROOT/bin/pulumi is the
 * CLI. Prints one JSON line: the step's resource changes (without "same") and the stack's outputs.
 */
const PROGRAM = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi-svc/pulumi-svc/sdk/go/svc"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func plant(ctx *pulumi.Context) error {
	pump, err := svc.NewAssetType(ctx, "pump", &svc.AssetTypeArgs{Name: pulumi.String("pump"), Title: pulumi.String("Pump")})
	if err != nil {
		return err
	}
	asset, err := svc.NewAsset(ctx, "pump-1", &svc.AssetArgs{
		Name:          pulumi.String("pump-1"),
		Title:         pulumi.String("Pump 1"),
		AssetTypeName: pump.Name,
		Location:      &svc.AssetLocationArgs{Lat: pulumi.Float64(48.1), Lon: pulumi.Float64(11.6)},
	})
	if err != nil {
		return err
	}
	if _, err := svc.NewLabel(ctx, "anomaly", &svc.LabelArgs{Name: pulumi.String("anomaly"), Title: pulumi.String("Anomaly")}); err != nil {
		return err
	}
	ctx.Export("path", asset.Path)
	return nil
}

// withoutSame drops the count of unchanged resources.
func withoutSame[K ~string](counts map[K]int) map[string]int {
	out := map[string]int{}
	for op, n := range counts {
		if op != "same" {
			out[string(op)] = n
		}
	}
	return out
}

func run(ctx context.Context, step string) (map[string]any, error) {
	cli, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: os.Getenv("SVC_PULUMI_ROOT")})
	if err != nil {
		return nil, err
	}
	stack, err := auto.UpsertStackInlineSource(ctx, "dev", "svc-go", plant,
		auto.WorkDir(os.Getenv("SVC_WORK_DIR")), auto.Pulumi(cli), auto.SecretsProvider("passphrase"))
	if err != nil {
		return nil, err
	}
	err = stack.SetAllConfig(ctx, auto.ConfigMap{
		"svc:baseUrl":      {Value: os.Getenv("SVC_BASE_URL")},
		"svc:clientId":     {Value: os.Getenv("SVC_CLIENT_ID")},
		"svc:clientSecret": {Value: os.Getenv("SVC_CLIENT_SECRET"), Secret: true},
	})
	if err != nil {
		return nil, err
	}
	switch step {
	case "up":
		res, err := stack.Up(ctx)
		if err != nil {
			return nil, err
		}
		outputs := map[string]any{}
		for k, v := range res.Outputs {
			outputs[k] = v.Value
		}
		return map[string]any{"changes": withoutSame(*res.Summary.ResourceChanges), "outputs": outputs}, nil
	case "preview":
		res, err := stack.Preview(ctx)
		if err != nil {
			return nil, err
		}
		return map[string]any{"changes": withoutSame(res.ChangeSummary)}, nil
	case "destroy":
		res, err := stack.Destroy(ctx)
		if err != nil {
			return nil, err
		}
		return map[string]any{"changes": withoutSame(*res.Summary.ResourceChanges)}, nil
	}
	return nil, fmt.Errorf("unknown step %q: up, preview or destroy", step)
}

func main() {
	out, err := run(context.Background(), os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	line, _ := json.Marshal(out)
	fmt.Println(string(line))
}
`;

/** The lines of go.sum files, each once: the program's go.sum to start from. */
function mergedSums(...files: string[]): string {
  const lines = new Set(files.flatMap((f) => fs.readFileSync(f, "utf8").split("\n")).filter((l) => l.trim() !== ""));
  return [...lines].join("\n") + "\n";
}

/** Runs a command to its end (not spawnSync: the emulator answers from this process, whose event loop must keep running). */
async function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(cmd, args, opts);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}

(hasGo && generated ? describe : describe.skip)("the Go SDK", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-go-"));
  });
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a program deploying a plant with it through the Automation API builds", async () => {
    const pulumiVersion = /github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/.exec(fs.readFileSync(path.join(sdk, "go.mod"), "utf8"))![1];
    fs.writeFileSync(
      path.join(dir, "go.mod"),
      [
        "module example.com/plant",
        "",
        "go 1.24",
        "",
        "require (",
        "\tgithub.com/pulumi-svc/pulumi-svc/sdk v0.0.0",
        `\tgithub.com/pulumi/pulumi/sdk/v3 ${pulumiVersion}`,
        ")",
        "",
        `replace github.com/pulumi-svc/pulumi-svc/sdk => ${sdk}`,
        "",
      ].join("\n"),
    );
    fs.writeFileSync(path.join(dir, "go.sum"), mergedSums(path.join(sdk, "go.sum"), path.join(repoRoot, "tools", "pulumi", "go.sum")));
    fs.writeFileSync(path.join(dir, "main.go"), PROGRAM);
    const build = await run("go", ["build", "-mod=mod", "-o", path.join(dir, "plant"), "."], { cwd: dir });
    expect({ code: build.code, stderr: build.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(fs.existsSync(path.join(dir, "plant"))).toBe(true);
  });

  (pluginBuilt ? describeCli : describe.skip)("the program, run", () => {
    let emulator: Emulator;
    let client: SvcClient;
    let env: NodeJS.ProcessEnv;

    beforeAll(async () => {
      emulator = await startEmulator({ log: () => undefined });
      client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
      const stackDir = path.join(dir, "stack");
      const backend = path.join(stackDir, "backend");
      const workDir = path.join(stackDir, "work");
      fs.mkdirSync(backend, { recursive: true });
      fs.mkdirSync(workDir);
      const ws = await pulumiWorkspace({ pulumi: path.join(pulumiDir!, "pulumi"), dir: stackDir, backend, passphrase: "go-test" });
      fs.writeFileSync(
        path.join(workDir, "Pulumi.yaml"),
        ["name: svc-go", "runtime: go", "plugins:", "  providers:", "    - name: svc", `      path: ${pluginDir}`, ""].join("\n"),
      );
      env = {
        ...ws.env,
        HOME: os.homedir(),
        SVC_WORK_DIR: workDir,
        SVC_PULUMI_ROOT: ws.root,
        SVC_BASE_URL: emulator.baseUrl,
        SVC_CLIENT_ID: "svc-admin",
        SVC_CLIENT_SECRET: "svc-admin-secret",
      };
    });
    afterAll(async () => {
      await client?.close();
      await emulator?.close();
    });

    /** One step of the program: its resource changes and the stack's outputs. */
    async function step(name: string): Promise<{ changes: Record<string, number>; outputs?: Record<string, unknown> }> {
      const r = await run(path.join(dir, "plant"), [name], { env });
      if (r.code !== 0) throw new Error(`plant ${name} failed (exit ${r.code}):\n${r.stderr}\n${r.stdout}`);
      return JSON.parse(r.stdout.trim().split("\n").pop()!) as { changes: Record<string, number>; outputs?: Record<string, unknown> };
    }

    test("up creates the plant on the platform; the identical preview after it is empty", async () => {
      expect(fs.existsSync(path.join(dir, "plant"))).toBe(true);
      const up = await step("up");
      expect(up).toEqual({ changes: { create: 4 }, outputs: { path: "pump-1" } });
      expect(await client.assets.typeGet({ params: { asset_type_name: "pump" } })).toMatchObject({ name: "pump", title: "Pump" });
      expect(await client.assets.get({ params: { asset_name: "pump-1" } })).toMatchObject({ title: "Pump 1", asset_type_name: "pump", location: { lat: 48.1, lon: 11.6 } });
      expect((await client.datalabels.labelGet({ params: { label_name: "anomaly" } })).title).toBe("Anomaly");
      expect((await step("preview")).changes).toEqual({});
    });

    test("destroy deletes the plant", async () => {
      expect((await step("destroy")).changes).toEqual({ delete: 4 });
      await expect(client.assets.get({ params: { asset_name: "pump-1" } })).rejects.toMatchObject({ status: 404 });
      await expect(client.assets.typeGet({ params: { asset_type_name: "pump" } })).rejects.toMatchObject({ status: 404 });
      await expect(client.datalabels.labelGet({ params: { label_name: "anomaly" } })).rejects.toMatchObject({ status: 404 });
    });
  });
});
