/** `svc-emulator adopt-plan`: what adopting a program's objects would change, read from the platform before adopting. */
import { InvalidArgumentError, type Command } from "commander";
import { isSecretKey } from "../emulator/redaction";
import { keyValue } from "./flags";

export function adoptPlanCommand(program: Command): void {
  program
    .command("adopt-plan")
    .description("before adopting: read each object the program adopts from the platform and print what adopting would change (exit 2 when it would change something)")
    .requiredOption("--program <dir>", "the Pulumi TypeScript program's folder (as `generate` writes it)")
    .option("--config <key=value>", "stack configuration, repeatable: svc:baseUrl, svc:clientId, svc:clientSecret, ...", keyValue, {})
    .option("--format <format>", "text or markdown", "text")
    .action(async (opts: { program: string; config: Record<string, string>; format: string }) => {
      if (opts.format !== "text" && opts.format !== "markdown") throw new InvalidArgumentError(`--format: '${opts.format}' is not text or markdown`);
      const { loadTypeScriptProgram } = await import("../plant/load-program");
      const testing = await import("../testing");
      const secretConfig = Object.keys(opts.config).filter(isSecretKey);
      const plan = await testing.adoptionPlan(loadTypeScriptProgram(opts.program), {
        cwd: opts.program,
        config: opts.config,
        secretConfig,
        checkDestroy: false,
        expectEmptyPlanAfterUp: false,
      });
      process.stdout.write(plan.render({ format: opts.format }));
      if (plan.changes > 0) process.exitCode = 2;
    });
}
