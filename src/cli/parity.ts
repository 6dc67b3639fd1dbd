/** `svc-emulator parity`: a platform's answers compared with those of an emulator seeded from its snapshot. */
import type { Command } from "commander";
import { clientOptions, platformFlags, progressDisplay, requireUrl, type PlatformOptions } from "./platform";

export function parityCommand(program: Command): void {
  platformFlags(
    program
      .command("parity")
      .description("compare a platform's answers with those of an emulator seeded from its snapshot (exit 1 when they differ)")
      .option("--against <url>", "the platform's base URL (SVC_BASE_URL)")
      .option("--snapshot <file.yaml>", "the snapshot to seed the emulator from (default: take one from the platform first)")
      .option("--json", "print the report as JSON"),
  ).action(async (opts: PlatformOptions & { against?: string; snapshot?: string; json?: boolean }) => {
    requireUrl("--against", opts.against);
    const { parity, formatParity, resolveOnly } = await import("../plant");
    resolveOnly(opts.only);
    const displays = { snapshot: progressDisplay(process.stderr, "snapshot: "), compare: progressDisplay(process.stderr, "comparing: ") };
    let report;
    try {
      report = await parity(
        clientOptions(opts.against, opts),
        { snapshot: opts.snapshot, only: opts.only, clusters: opts.cluster, assetPath: opts.assetPath, pageSize: opts.pageSize },
        (e) => {
          if (e.event.type !== "problem" || e.phase === "snapshot") displays[e.phase].event(e.event);
        },
      );
    } catch (err) {
      displays.snapshot.end();
      displays.compare.end();
      process.stderr.write(`svc-emulator: parity: ${(err as Error).message}\n`);
      process.exit(2);
    }
    displays.snapshot.end();
    displays.compare.end();
    process.stdout.write(opts.json ? JSON.stringify(report, null, 2) + "\n" : formatParity(report));
    process.exitCode = report.differing.length > 0 ? 1 : 0;
  });
}
