#!/usr/bin/env node
// The main job without the Pulumi CLI: runs the quickstart program (examples/quickstart) through the
// engine kit and the real dynamic-provider host, against the provider's embedded emulator, and prints
// what it did. State persists in .svc-emulator/, so a second run plans no changes;
// `npm run quickstart -- --destroy` removes everything again, except what API v4 cannot delete (the
// cluster): destroy releases it, and the next run takes it over again.
const path = require("node:path");
const testing = require("pulumi-svc/testing");
const { quickstart } = require("../.build/examples/quickstart/program.js");

const root = path.join(__dirname, "..");
const dir = path.join(root, ".svc-emulator");

async function main() {
  const destroy = process.argv.includes("--destroy");
  const stack = await testing.stack(quickstart, {
    project: "svc-quickstart",
    stack: "dev",
    config: { "svc:emulator": path.join(dir, "quickstart-emulator.json") },
    statePath: path.join(dir, "quickstart-stack.json"),
    cwd: root,
  });
  try {
    const result = destroy ? await stack.destroy() : await stack.up();
    // Each change with its values (old => new, a create's inputs, secrets masked), then the counts; a
    // delete that released its object (API v4 cannot delete it: it stays on the platform) says so.
    process.stdout.write(testing.renderPlan(result, { format: "text" }));
    const changed = result.operations.filter((o) => o.op !== "same" && o.op !== "read").length;
    const released = result.operations.filter((o) => o.released).length;
    const it = released === 1 ? "it" : "them";
    const kept = released ? ` (${released} released: API v4 cannot delete ${it}, so ${it} stay${released === 1 ? "s" : ""} on the platform and the next up takes ${it} over)` : "";
    console.log(`\n${destroy ? "destroy" : "up"}: ${changed} change(s)${kept}, ${result.operations.length - changed} unchanged`);
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
