#!/usr/bin/env node
// The main job without the Pulumi CLI: runs the quickstart program (examples/quickstart) through the
// engine kit and the real dynamic-provider host, against the provider's embedded emulator, and prints
// what it did. State persists in .svc-emulator/, so a second run plans no changes;
// `npm run quickstart -- --destroy` removes everything again.
const path = require("node:path");
const testing = require("pulumi-svc/testing");
const { quickstart } = require("../.build/examples/quickstart/program.js");

const root = path.join(__dirname, "..");
const dir = path.join(root, ".svc-emulator");

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join("  ")).join("\n");
}

async function main() {
  const destroy = process.argv.includes("--destroy");
  const stack = await testing.stack(quickstart, {
    project: "svc-quickstart",
    stack: "dev",
    config: { "svc:emulator": path.join(dir, "quickstart-emulator.json") },
    statePath: path.join(dir, "quickstart-stack.json"),
    cwd: root,
    // API v4 has no cluster delete: destroy releases the cluster and leaves it on the platform.
    checkDestroy: false,
  });
  try {
    const result = destroy ? await stack.destroy() : await stack.up();
    const rows = [["operation", "type", "name"], ...result.operations.map((o) => [o.op, o.type.replace("pulumi-nodejs:dynamic/svc:", "svc:"), o.name])];
    console.log(table(rows));
    const changed = result.operations.filter((o) => o.op !== "same" && o.op !== "read").length;
    console.log(`\n${destroy ? "destroy" : "up"}: ${changed} change(s), ${result.operations.length - changed} unchanged`);
    if (!destroy) {
      console.log("\noutputs:");
      for (const [k, v] of Object.entries(stack.outputs)) console.log(`  ${k}: ${JSON.stringify(v)}`);
      console.log(`\nstate: ${path.relative(root, dir)}/ (run again: no changes; npm run quickstart -- --destroy to remove)`);
    }
  } finally {
    await stack.close();
  }
}

main().catch((err) => {
  console.error(err.message ?? err);
  process.exit(1);
});
