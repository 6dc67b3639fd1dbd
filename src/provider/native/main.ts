/**
 * The plugin's program: `pulumi-resource-svc` (bin/pulumi-resource-svc starts node on it) serves the
 * native provider and prints its port, as the Pulumi engine starts every resource plugin.
 */
import { serve } from "./server";

serve(process.argv.slice(2)).catch((e: unknown) => {
  console.error(`pulumi-resource-svc: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
