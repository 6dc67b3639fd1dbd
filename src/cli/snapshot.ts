/** `svc-emulator snapshot`: a platform's inventory as a fixture that `serve --seed` loads. */
import type { Command } from "commander";
import { describeProblems, platformFlags, progressDisplay, requireUrl, clientOptions, type PlatformOptions } from "./platform";

export function snapshotCommand(program: Command): void {
  platformFlags(
    program
      .command("snapshot")
      .description("read a platform's inventory into a fixture that `serve --seed` loads; credentials are never written")
      .option("--from <url>", "the platform's base URL (SVC_BASE_URL)")
      .requiredOption("--out <file.yaml>", "the fixture to write (replaced only when the snapshot is complete)"),
  ).action(async (opts: PlatformOptions & { from?: string; out: string }) => {
    requireUrl("--from", opts.from);
    // Loaded here, so that `serve` starts without the client.
    const { snapshot, resolveOnly } = await import("../plant");
    const { SvcClient } = await import("../client");
    const { mergeOptions, optionsFromEnv } = await import("../client/config");
    resolveOnly(opts.only);
    const options = clientOptions(opts.from, opts);
    const client = SvcClient.fromEnv(process.env, { ...options, retry: { maxAttempts: 10, maxElapsedMs: 120_000 } });
    const resolved = mergeOptions(options, optionsFromEnv(process.env));
    const display = progressDisplay();
    const started = Date.now();
    try {
      const result = await snapshot(
        client,
        {
          out: opts.out,
          only: opts.only,
          clusters: opts.cluster,
          assetPath: opts.assetPath,
          pageSize: opts.pageSize,
          knownSecrets: [resolved.password, resolved.clientSecret, resolved.token],
        },
        (e) => display.event(e),
      );
      display.end();
      const entries = Object.values(result.counts).reduce((a, b) => a + b, 0);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stderr.write(
        `svc-emulator: snapshot written to ${opts.out}: ${entries} entries in ${Object.keys(result.counts).length} sections ` +
          `(${Object.entries(result.counts)
            .map(([s, n]) => `${s} ${n}`)
            .join(", ")}); ` +
          `${client.stats.requests} requests, ${client.stats.retries} repeated, ${seconds} s\n` +
          describeProblems(result.problems),
      );
    } finally {
      display.end();
      await client.close();
    }
  });
}
