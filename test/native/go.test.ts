/**
 * A Go program builds against the generated Go SDK (sdk/go/svc, which `npm run sdk` writes and
 * builds). It is not run: the Go language host is not built here. Skips without Go or without sdk/.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "./harness";

const sdk = path.join(repoRoot, "sdk");
const hasGo = spawnSync("go", ["version"]).status === 0;
const generated = fs.existsSync(path.join(sdk, "go", "svc", "asset.go")) && fs.existsSync(path.join(sdk, "go.mod"));
if (!hasGo || !generated) {
  const why = !hasGo ? "Go is not installed" : "the Go SDK is not generated (npm run sdk writes sdk/go)";
  if (process.env.CI) throw new Error(`CI builds a Go program against the Go SDK, but ${why}`);
  console.warn(`skipping the Go SDK's test: ${why}`);
}

jest.setTimeout(900_000);

(hasGo && generated ? describe : describe.skip)("the Go SDK", () => {
  test("a program declaring a plant with it builds", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-go-"));
    try {
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
      fs.copyFileSync(path.join(sdk, "go.sum"), path.join(dir, "go.sum"));
      fs.writeFileSync(
        path.join(dir, "main.go"),
        `package main

import (
	"github.com/pulumi-svc/pulumi-svc/sdk/go/svc"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
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
		ctx.Export("path", asset.Path)
		return nil
	})
}
`,
      );
      // Not spawnSync: a build of several minutes would hold the test runner.
      const build = spawn("go", ["build", "-mod=mod", "-o", path.join(dir, "plant"), "."], { cwd: dir });
      let stderr = "";
      build.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => build.on("close", resolve));
      expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) });
      expect(fs.existsSync(path.join(dir, "plant"))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
