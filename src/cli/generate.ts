/** `svc-emulator generate`: a TypeScript Pulumi program that declares every object of a snapshot with adopt: true. */
import type { Command } from "commander";

export function generateCommand(program: Command): void {
  program
    .command("generate")
    .description("write a TypeScript Pulumi program that declares every object of a snapshot with adopt: true")
    .requiredOption("--from <snapshot.yaml>", "the snapshot (a fixture document, as `snapshot` writes it)")
    .requiredOption("--out <dir>", "folder to write the program to (created when missing)")
    .option("--project <name>", "project name in Pulumi.yaml and package.json", "svc-plant")
    .option(
      "--package-spec <spec>",
      "where package.json installs pulumi-svc from (a version range, a git URL, file:TARBALL); default: a tarball of this package, packed into the program's vendor/",
    )
    .action(async (opts: { from: string; out: string; project: string; packageSpec?: string }) => {
      // Loaded only for this command: serving does not load the provider's resources.
      const { generateFromFile } = await import("../plant/generate");
      const files = generateFromFile(opts.from, opts.out, { project: opts.project, packageSpec: opts.packageSpec });
      process.stdout.write(`svc-emulator generate: wrote ${Object.keys(files).sort().join(", ")} to ${opts.out}\n`);
    });
}
