/**
 * One run of the killed-run tests (killed-harness.ts), in a process of its own so that the test can kill
 * it (`kill -9` of its process group: this process, and under `pulumi` the CLI and the provider host
 * it started; under the kit's engine, the kit's provider host). Loads the built package by name, as a
 * user's install does.
 *
 * argv[2] is a JSON object: { engine: "kit" | "pulumi", pulumiDir, statePath, baseUrl, program: "v1" |
 * "v2", command: "up" | "destroy" | "cancel" | "clear-pending" | "state" }. Prints one JSON line:
 * { ok: true, pending, resources, cleared? } (the state's pending operations and resources after the
 * command) or { ok: false, error }.
 */
const svc = require("pulumi-svc");
const testing = require("pulumi-svc/testing");

const PROGRAMS = {
  // Nine objects: a class, a type of it, five assets of that type, two labels.
  v1: () => {
    const cls = new svc.AssetClass("k-class", { name: "k-class", title: "Killed class" });
    const type = new svc.AssetType("k-type", { name: "k-type", title: "Killed type", assetClassName: cls.name });
    for (let i = 1; i <= 5; i++) new svc.Asset(`k-asset-${i}`, { name: `k-asset-${i}`, title: `Asset ${i}`, assetTypeName: type.name });
    new svc.Label("k-label-1", { name: "k-label-1", title: "Label 1" });
    new svc.Label("k-label-2", { name: "k-label-2", title: "Label 2" });
  },
  // An update: two titles change, a sixth asset comes, the second label goes.
  v2: () => {
    const cls = new svc.AssetClass("k-class", { name: "k-class", title: "Killed class" });
    const type = new svc.AssetType("k-type", { name: "k-type", title: "Killed type", assetClassName: cls.name });
    for (let i = 1; i <= 6; i++) new svc.Asset(`k-asset-${i}`, { name: `k-asset-${i}`, title: i <= 2 ? `Asset ${i}, renamed` : `Asset ${i}`, assetTypeName: type.name });
    new svc.Label("k-label-1", { name: "k-label-1", title: "Label 1" });
  },
};

async function main() {
  const args = JSON.parse(process.argv[2]);
  const program = PROGRAMS[args.program ?? "v1"];
  const stack = await testing.stack(program, {
    engine: args.engine,
    pulumiPath: args.pulumiDir,
    statePath: args.statePath,
    project: "killed",
    stack: "dev",
    config: { "svc:baseUrl": args.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" },
    secretConfig: ["svc:clientSecret"],
    // The run is the subject, not the preview after it.
    expectEmptyPlanAfterUp: false,
    skipPreview: true,
    checkDestroy: false,
  });
  try {
    let result = {};
    if (args.command === "up") await stack.up();
    else if (args.command === "destroy") await stack.destroy();
    else if (args.command === "cancel") await stack.cancel();
    else if (args.command === "clear-pending") result = { cleared: await stack.clearPendingOperations() };
    else if (args.command !== "state") throw new Error(`unknown command ${args.command}`);
    const resources = stack.resources().map((r) => ({ name: r.name, type: r.type, id: r.id, title: r.outputs.title }));
    process.stdout.write(JSON.stringify({ ok: true, pending: stack.pendingOperations(), ...result, resources }) + "\n");
  } finally {
    await stack.close();
  }
}

main().catch((e) => {
  process.stdout.write(JSON.stringify({ ok: false, error: e && e.stack ? e.stack : String(e) }) + "\n");
  process.exitCode = 1;
});
