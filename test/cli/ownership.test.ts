/**
 * Ownership under the real `pulumi` CLI as under the kit (issue 31, items 2 and 3): a run whose
 * creates reached the platform but never the state (killed, or its answers lost) converges on the
 * next up, with nothing made twice; and a second site stack that declares the objects the first one
 * created (asset class, asset type, app version) is told who manages them, its `adopt: true` is
 * refused, and destroying it leaves the first site's objects. Each engine runs the same steps against
 * an emulator of its own, shared by the two stacks of a scenario; their outcomes must agree.
 */
import * as svc from "../../src";
import { SvcClient } from "../../src/client";
import { startEmulator, type Emulator } from "../../src/emulator";
import * as testing from "../../src/testing";
import { describeCli, pulumiDir } from "./harness";

testing.registerMatchers();

type Engine = "kit" | "pulumi";

/** A site: the objects every site shares (asset class, asset type, app version) and an asset of its own. */
const site = (asset: string, adopt?: boolean) => () => {
  const line = new svc.AssetClass("line", { name: "line", title: "Line", adopt });
  const pump = new svc.AssetType("pump-type", { name: "pump", title: "Pump", assetClassName: line.name, adopt });
  new svc.AppVersion("monitor", { appName: "monitor", version: "1.0.0", type: "app", adopt });
  new svc.Asset(asset, { name: asset, title: asset, assetTypeName: pump.name });
};

const config = (emulator: Emulator) => ({ "svc:baseUrl": emulator.baseUrl, "svc:clientId": "svc-admin", "svc:clientSecret": "svc-admin-secret" });

async function stackOf(engine: Engine, emulator: Emulator, stack: string, program: () => void): Promise<testing.TestStack | testing.CliStack> {
  const options = { project: "plant", stack, config: config(emulator), secretConfig: ["svc:clientSecret"] };
  return engine === "pulumi" ? testing.stack(program, { ...options, engine: "pulumi", pulumiPath: pulumiDir }) : testing.stack(program, options);
}

/** What the platform holds: asset classes, asset types, app versions and assets, by name. */
async function platform(client: SvcClient) {
  const names = (items: Array<{ name: string }>) => items.map((i) => i.name).sort();
  return {
    classes: names((await client.assets.classList({ query: {} })).data),
    types: names((await client.assets.typeList({ query: {} })).data),
    versions: await client.apps.versionGet({ params: { app_name: "monitor", app_version: "1.0.0" } }).then(
      (v) => [v.version],
      () => [],
    ),
    assets: names((await client.assets.list({ query: {} })).data),
  };
}

const ops = (r: testing.RunResult) => Object.fromEntries(r.operations.map((o) => [o.name, o.op]));
const failure = (e: unknown) => (e instanceof testing.RunError ? (e.providerMessage ?? e.message) : String(e));

/** Site A goes up; then the same stack with a state that never kept those creates goes up again. */
async function interrupted(engine: Engine) {
  const emulator = await startEmulator({ log: () => undefined });
  const client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  const first = await stackOf(engine, emulator, "site-a", site("pump-a-1"));
  let again: testing.TestStack | testing.CliStack | undefined;
  try {
    await first.up();
    const made = await platform(client);
    // The same stack, its state as a killed run leaves it after `pulumi cancel` (the creates are not in it).
    again = await stackOf(engine, emulator, "site-a", site("pump-a-1"));
    const up = await again.up();
    const after = await platform(client);
    const preview = await again.preview();
    await again.destroy();
    return { made, up: ops(up), after, preview: ops(preview), destroyed: await platform(client) };
  } finally {
    await again?.close();
    await first.close();
    await client.close();
    await emulator.close();
  }
}

/** Site A goes up; site B, a copy of it, declares the shared objects plainly, then with adopt: true; then B is destroyed. */
async function twoSites(engine: Engine) {
  const emulator = await startEmulator({ log: () => undefined });
  const client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  const a = await stackOf(engine, emulator, "site-a", site("pump-a-1"));
  const b = await stackOf(engine, emulator, "site-b", site("pump-b-1"));
  try {
    await a.up();
    const plain = failure(await b.up().catch((e: unknown) => e));
    const adopting = failure(await b.up(site("pump-b-1", true)).catch((e: unknown) => e));
    const titleAfterB = (await client.assets.typeGet({ params: { asset_type_name: "pump" } })).title;
    await b.destroy();
    const afterB = await platform(client);
    const previewA = await a.preview();
    return { plain, adopting, titleAfterB, afterB, previewA: ops(previewA) };
  } finally {
    await b.close();
    await a.destroy().catch(() => undefined);
    await a.close();
    await client.close();
    await emulator.close();
  }
}

const expectInterrupted = (r: Awaited<ReturnType<typeof interrupted>>) => {
  const held = { classes: ["line"], types: ["pump"], versions: ["1.0.0"], assets: ["pump-a-1"] };
  expect(r.made).toEqual(held);
  // The next up takes each object over as the create of its resource: nothing fails, nothing is made twice.
  expect(r.up).toMatchObject({ line: "create", "pump-type": "create", monitor: "create", "pump-a-1": "create" });
  expect(r.after).toEqual(held);
  expect(Object.values(r.preview).every((op) => op === "same")).toBe(true);
  expect(r.destroyed).toEqual({ classes: [], types: [], versions: [], assets: [] });
};

const expectTwoSites = (r: Awaited<ReturnType<typeof twoSites>>) => {
  // The first shared object B creates collides; which one depends on the order, each names site A.
  expect(r.plain).toMatch(/create failed: .*409.*created by stack 'plant\/site-a' \(its resource '(line|pump-type|monitor)'\), which manages it/);
  expect(r.plain).toMatch(/Do not set `adopt: true`.*(svc\.getAssetClass|svc\.getAssetType|svc\.getAppVersion)/);
  expect(r.adopting).toMatch(/'(line|pump|monitor@1\.0\.0)': adopt: true: it was created by stack 'plant\/site-a' .*, which manages it, so it is not adopted/);
  expect(r.titleAfterB).toBe("Pump");
  // Destroying B deleted what B created, and nothing of A's.
  expect(r.afterB).toEqual({ classes: ["line"], types: ["pump"], versions: ["1.0.0"], assets: ["pump-a-1"] });
  expect(Object.values(r.previewA).every((op) => op === "same")).toBe(true);
};

describe("ownership under the kit", () => {
  test("a run whose creates reached the platform but not the state converges on the next up, nothing made twice", async () => {
    expectInterrupted(await interrupted("kit"));
  });

  test("a second site stack is told who manages the shared objects, its adopt: true is refused, and destroying it leaves the first site's", async () => {
    expectTwoSites(await twoSites("kit"));
  });
});

describeCli("ownership under `pulumi` as under the kit", () => {
  test("a run whose creates reached the platform but not the state converges on the next up, nothing made twice", async () => {
    expectInterrupted(await interrupted("pulumi"));
  });

  test("a second site stack is told who manages the shared objects, its adopt: true is refused, and destroying it leaves the first site's", async () => {
    expectTwoSites(await twoSites("pulumi"));
  });
});
