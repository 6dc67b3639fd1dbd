/**
 * Lookups and resources of one program under `svc:emulator`: the lookups run in the program's
 * process (here, the test's), the resources in the provider host's, and both use the one embedded
 * emulator of the state file, in either order; when the process serving it goes away, the other
 * takes over with the same state.
 */
import * as pulumi from "@pulumi/pulumi";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as svc from "../../src";
import { shutdown } from "../../src/provider/runtime";
import * as testing from "../../src/testing";

testing.registerMatchers();

let dir: string;
let stack: testing.TestStack | undefined;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-lookups-"));
});
afterEach(async () => {
  await shutdown();
  await stack?.close();
  stack = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

const open = async (program: testing.Program) => {
  stack = await testing.stack(program, { config: { "svc:emulator": path.join(dir, "state.json") } });
  return stack;
};

test("a lookup before any resource, then resources: one emulator, whichever process serves it", async () => {
  const seen: string[][] = [];
  const program = async () => {
    // The lookup comes first: nothing serves the state file yet, so this process starts serving it.
    seen.push((await svc.listAssets()).map((a) => a.name));
    const type = new svc.AssetType("type", { name: "pump", title: "Pump" });
    new svc.Asset("pump", { name: "pump-1", title: "Pump 1", assetTypeName: type.name });
    const cluster = await svc.getCluster("plant-a").catch((e: Error) => e.message);
    return { cluster: typeof cluster === "string" ? cluster : cluster.name };
  };
  const s = await open(program);
  const up = await s.up();
  expect(up).toHaveActions({ type: "create", pump: "create" });
  // The preview that `pulumi up` runs first and the up itself saw nothing; the preview after up (same
  // process) saw the asset the provider host created.
  expect(seen).toEqual([[], [], ["pump-1"]]);
  expect(s.outputs.cluster).toMatch(/404.*cluster 'plant-a' not found/);
});

test("resources first, then a lookup of what they created: the lookup reaches the emulator the provider host serves", async () => {
  const program = async () => {
    const cluster = new svc.Cluster("plant", { name: "plant-a", title: "Plant A" });
    // A lookup in this process of the provider host's record, once the cluster exists. Not in a preview
    // (the one `pulumi up` runs first included): there the cluster's name is known but the cluster does
    // not exist yet, and the lookup would fail the run.
    const title = cluster.name.apply(async (n) => (pulumi.runtime.isDryRun() ? undefined : (await svc.getCluster(n)).title));
    return { title };
  };
  const s = await open(program);
  await s.up();
  expect(s.outputs.title).toBe("Plant A");
});

test("when the process serving the emulator ends, the provider host takes it over with the same state", async () => {
  const withLookup = async () => {
    const before = (await svc.listAssets()).map((a) => a.name);
    const type = new svc.AssetType("type", { name: "pump", title: "Pump" });
    new svc.Asset("pump", { name: "pump-1", title: "Pump 1", assetTypeName: type.name });
    return { before };
  };
  const s = await open(withLookup);
  await s.up();
  // This process served the emulator (the lookup came first); it stops, as a program's process does when it ends.
  await shutdown();
  // The next run deletes the asset: the provider host finds the emulator gone, serves it itself, and carries on.
  expect(await s.up(async () => void new svc.AssetType("type", { name: "pump", title: "Pump" }))).toHaveActions({ type: "same", pump: "delete" });
  const published = JSON.parse(fs.readFileSync(path.join(dir, "state.json.addr"), "utf8")) as { pid: number };
  expect(published.pid).not.toBe(process.pid);
  // A lookup now connects to the emulator the provider host serves, and sees the state after the delete.
  expect(
    await s.up(async () => {
      new svc.AssetType("type", { name: "pump", title: "Pump" });
      return { names: (await svc.listAssets()).map((a) => a.name) };
    }),
  ).toHaveActions({ type: "same" });
  expect(s.outputs.names).toEqual([]);
});
