/**
 * The plugin's program: `pulumi-resource-svc` (bin/pulumi-resource-svc starts node on it) serves the
 * native provider and prints its port, as the Pulumi engine starts every resource plugin. With the
 * command `import-file` (which no engine address can be) it writes the file that moves a stack from
 * the dynamic resources to this provider instead (move.ts).
 */
// First: Node's module compile cache for the modules loaded after it (compile-cache.ts). The engine
// starts the plugin afresh for every command, and compiling @pulumi/pulumi, zod, undici and the
// package anew each time is about a third of the CPU of its start (1.0 s against 0.7 s on 2 cores).
import "../compile-cache";

const args = process.argv.slice(2);

if (args[0] === "import-file") {
  void import("./move").then(({ importFileCommand }) => (process.exitCode = importFileCommand(args.slice(1))));
} else {
  void import("./server").then(({ serve }) =>
    serve(args).catch((e: unknown) => {
      console.error(`pulumi-resource-svc: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    }),
  );
}
