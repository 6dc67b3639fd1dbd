/**
 * Ownership (src/provider/ownership.ts): the record of which stack created an object, kept by the
 * platform's audit log as the request id of the create's calls, and what a create and an adoption
 * make of it. The provider's lifecycle runs here against the emulator over real HTTP; the same
 * behaviours under the dynamic-provider host and under `pulumi` are in ownership.e2e.test.ts and
 * test/cli/ownership.test.ts.
 */
import { startEmulator, type Emulator } from "../../src/emulator";
import { SvcClient } from "../../src/client";
import * as lifecycle from "../../src/provider/lifecycle";
import { kinds } from "../../src/provider/kinds";
import type { KindContext } from "../../src/provider/kind";
import { codeOf, rejection } from "../helpers/codes";
import { OWNER_KEY, ownerOf, ownerValue, parseRequestId, requestIdOf, withoutOwner } from "../../src/provider/ownership";

const owned = (stack: string, resource: string, args: Record<string, unknown>) => ({ ...args, [OWNER_KEY]: ownerValue("plant", stack, resource) });

let emulator: Emulator;
let client: SvcClient;
let ctx: KindContext;
let stderr: string[];
let spy: jest.SpyInstance;

beforeEach(async () => {
  emulator = await startEmulator({ log: () => undefined });
  client = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  ctx = { client, settings: { operationTimeoutSeconds: 5 } };
  stderr = [];
  spy = jest.spyOn(console, "error").mockImplementation((line: unknown) => void stderr.push(String(line)));
});

afterEach(async () => {
  spy.mockRestore();
  await client.close();
  await emulator.close();
});

const assetType = kinds.AssetType;
const typeTitle = async (name: string) => (await client.assets.typeGet({ params: { asset_type_name: name } })).title;

describe("the record: the request id of a create names the project, the stack, the resource and the object", () => {
  test("it round-trips names with characters a request id does not allow, and fits the platform's 128 characters", () => {
    const owner = { project: "plant_x", stack: "site.a", resource: "pump/type ü" };
    const id = requestIdOf(owner, "AssetType", "pump");
    expect(id).toMatch(/^[\w.-]{1,128}$/);
    expect(parseRequestId(id)).toMatchObject({ project: "plant_x", stack: "site.a", resource: "pump/type ü" });
    const long = { project: "p".repeat(100), stack: "s".repeat(100), resource: "r".repeat(100) };
    const longId = requestIdOf(long, "AssetType", "pump");
    expect(longId.length).toBeLessThanOrEqual(128);
    expect(parseRequestId(longId)).toBeDefined();
    expect(requestIdOf(long, "AssetType", "pump")).toBe(longId);
    expect(parseRequestId("6f1c2a7e-0000-4000-8000-000000000001")).toBeUndefined();
  });

  test("the hidden input names project, stack and resource, and is no arg of the kind", () => {
    expect(ownerOf({ [OWNER_KEY]: "plant/site-a/pumps/type" })).toEqual({ project: "plant", stack: "site-a", resource: "pumps/type" });
    expect(ownerOf({})).toBeUndefined();
    expect(withoutOwner({ name: "x", [OWNER_KEY]: "a/b/c" })).toEqual({ name: "x" });
    expect(lifecycle.check(assetType, undefined, owned("site-a", "type", { name: "pump", title: "Pump" }), Date.now()).failures).toEqual([]);
  });

  test("the platform's audit log keeps it with the create", async () => {
    await lifecycle.create(assetType, ctx, owned("site-a", "type", { name: "pump", title: "Pump" }));
    const entries = await client.instance.auditLogList({ query: { identifier: ["pump"] } });
    expect(entries.data.map((e) => parseRequestId(e.request_id))).toContainEqual(expect.objectContaining({ project: "plant", stack: "site-a", resource: "type" }));
  });
});

describe("a create answered 409 (the object exists)", () => {
  test("an object this same resource of this same stack created (a run that never recorded it) is taken over and brought to the declared state", async () => {
    await lifecycle.create(assetType, ctx, owned("site-a", "type", { name: "pump", title: "Pump" }));
    // The state never kept that create: the next run creates again.
    const again = await lifecycle.create(assetType, ctx, owned("site-a", "type", { name: "pump", title: "Pump, declared" }));
    expect(again.id).toBe("pump");
    expect(again.outs).toMatchObject({ name: "pump", title: "Pump, declared" });
    expect(await typeTitle("pump")).toBe("Pump, declared");
    expect((await client.assets.typeList({ query: {} })).data).toHaveLength(1);
    expect(stderr.join("\n")).toMatch(/AssetType 'pump': the platform already holds it, created by this resource of this stack in an earlier run that did not finish/);
    expect(stderr.filter((l) => l.startsWith("warning: "))).toEqual([]);
  });

  test("a create whose answer was lost, and which could not be confirmed before the run ended, is recognised by the next create (the emulator's lost answer)", async () => {
    const shortRetries = new SvcClient({ baseUrl: emulator.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret", retry: { maxAttempts: 2, baseDelayMs: 0 } });
    try {
      // The create is applied and its answer lost; so is every answer to the reads that would confirm it.
      emulator.faults.configure({ rate: 1, mode: "after_apply", after_apply_action: "502", paths: ["/api/v4/assets/types/*"], retry_after_s: 0 });
      const lost = lifecycle.create(assetType, { ...ctx, client: shortRetries }, owned("site-a", "type", { name: "pump", title: "Pump" }));
      expect(codeOf(await rejection(lost))).toBe("SVC_PLATFORM_REFUSED");
      emulator.faults.configure({ rate: 0 });
      expect(await typeTitle("pump")).toBe("Pump");
      const next = await lifecycle.create(assetType, ctx, owned("site-a", "type", { name: "pump", title: "Pump" }));
      expect(next.id).toBe("pump");
      expect((await client.assets.typeList({ query: {} })).data).toHaveLength(1);
    } finally {
      await shortRetries.close();
    }
  });

  test("an object another stack created fails the create, naming that stack and the lookup to use instead of adopting", async () => {
    await lifecycle.create(assetType, ctx, owned("site-a", "type", { name: "pump", title: "Pump" }));
    const err = (await lifecycle.create(assetType, ctx, owned("site-b", "type", { name: "pump", title: "Pump B" })).catch((e: Error) => e)) as Error;
    expect(codeOf(err)).toBe("SVC_ALREADY_EXISTS");
    for (const named of ["AssetType 'pump'", "stack 'plant/site-a'", "resource 'type'", "svc.getAssetType"]) expect(err.message).toContain(named);
    expect(await typeTitle("pump")).toBe("Pump");
  });

  test("an object another resource of this stack created fails the create, with the alias to give a renamed resource", async () => {
    await lifecycle.create(assetType, ctx, owned("site-a", "old-type", { name: "pump", title: "Pump" }));
    const err = await rejection(lifecycle.create(assetType, ctx, owned("site-a", "type", { name: "pump", title: "Pump" })));
    expect(codeOf(err)).toBe("SVC_ALREADY_EXISTS");
    expect(err.message).toContain(`aliases: [{ name: "old-type" }]`);
  });

  test("an object no stack created fails the create with both ways: adopt when no stack manages it, a lookup when one does", async () => {
    await client.assets.typeCreate({ body: { name: "pump", title: "By hand" } });
    const err = await rejection(lifecycle.create(assetType, ctx, owned("site-a", "type", { name: "pump", title: "Pump" })));
    expect(codeOf(err)).toBe("SVC_ALREADY_EXISTS");
    for (const named of ["adopt: true", "svc.getAssetType"]) expect(err.message).toContain(named);
  });

  test("a resource without the hidden identity (written before it existed) is never taken as this stack's", async () => {
    await lifecycle.create(assetType, ctx, owned("site-a", "type", { name: "pump", title: "Pump" }));
    expect(codeOf(await rejection(lifecycle.create(assetType, ctx, { name: "pump", title: "Pump" })))).toBe("SVC_ALREADY_EXISTS");
  });
});

describe("adopt: true", () => {
  test("is refused on an object another stack created, naming the object, the stack and what to do; the object is left as it is", async () => {
    await lifecycle.create(assetType, ctx, owned("site-a", "type", { name: "pump", title: "Pump" }));
    const err = (await lifecycle.create(assetType, ctx, owned("site-b", "shared-type", { name: "pump", title: "Pump B", adopt: true })).catch((e: Error) => e)) as Error;
    expect(codeOf(err)).toBe("SVC_ADOPT_REFUSED");
    for (const named of ["AssetType 'pump'", "stack 'plant/site-a'", "resource 'type'", "svc.getAssetType"]) expect(err.message).toContain(named);
    expect(await typeTitle("pump")).toBe("Pump");
  });

  test("is refused on an object another resource of this stack created", async () => {
    await lifecycle.create(assetType, ctx, owned("site-a", "type", { name: "pump", title: "Pump" }));
    const err = await rejection(lifecycle.create(assetType, ctx, owned("site-a", "type-2", { name: "pump", title: "Pump", adopt: true })));
    expect(codeOf(err)).toBe("SVC_ADOPT_REFUSED");
    expect(err.message).toContain("this stack's resource 'type'");
  });

  test("takes over an object no stack created, and one this resource created, as before", async () => {
    await client.assets.typeCreate({ body: { name: "pump", title: "By hand" } });
    await lifecycle.create(assetType, ctx, owned("site-a", "type", { name: "pump", title: "Pump", adopt: true }));
    expect(await typeTitle("pump")).toBe("Pump");
    await lifecycle.create(kinds.AssetClass, ctx, owned("site-a", "class", { name: "line", title: "Line" }));
    await lifecycle.create(kinds.AssetClass, ctx, owned("site-a", "class", { name: "line", title: "Line 2", adopt: true }));
    expect(stderr.filter((l) => l.startsWith("warning: "))).toEqual([]);
  });

  test("warns, and goes ahead, where the audit log cannot be read", async () => {
    await lifecycle.create(assetType, ctx, owned("site-a", "type", { name: "pump", title: "Pump" }));
    emulator.faults.configure({ rate: 1, statuses: [500], paths: ["/api/v4/instance/auditlog/*"], retry_after_s: 0 });
    await lifecycle.create(assetType, ctx, owned("site-b", "type", { name: "pump", title: "Pump B", adopt: true }));
    emulator.faults.configure({ rate: 0 });
    expect(stderr.filter((l) => l.startsWith("warning: ")).join("\n")).toMatch(
      /AssetType 'pump': adopt: true: could not check whether another stack manages it \(the platform's audit log could not be read/,
    );
  });
});

describe("a kind whose destroy releases its objects (a Cluster) takes an existing one over without adopt", () => {
  test("as before when this resource created it; with a warning naming the stack when another did", async () => {
    const cluster = kinds.Cluster;
    await lifecycle.create(cluster, ctx, owned("site-a", "cluster", { name: "plant-a", title: "Plant A" }));
    await lifecycle.create(cluster, ctx, owned("site-a", "cluster", { name: "plant-a", title: "Plant A" }));
    expect(stderr.filter((l) => l.startsWith("warning: "))).toEqual([]);
    await lifecycle.create(cluster, ctx, owned("site-b", "cluster", { name: "plant-a", title: "Plant A" }));
    expect(stderr.filter((l) => l.startsWith("warning: ")).join("\n")).toMatch(/Cluster 'plant-a': taking over the existing object: it was created by stack 'plant\/site-a'/);
  });
});
