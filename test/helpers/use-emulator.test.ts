/**
 * useEmulator: one emulator per scope, each test starting from the seed (a fixture and records made
 * over HTTP) whatever the test before it changed; an unseeded one starts empty.
 */
import { clusters } from "../../src/api/clusters";
import { pathOf, useEmulator } from "./emulator";

const names = (a: { body: { data: Array<{ name: string }> } }) => a.body.data.map((c) => c.name).sort();

describe("seeded with a fixture and records", () => {
  const emu = useEmulator({
    seed: {
      fixture: { clusters: [{ name: "plant-a" }] },
      records: async (e) => {
        expect((await e.send(clusters.create, { body: { name: "plant-b" } })).status).toBe(201);
      },
    },
  });

  test("a test changes the state", async () => {
    expect(names(await emu.send(clusters.list))).toEqual(["plant-a", "plant-b"]);
    expect((await emu.send(clusters.create, { body: { name: "plant-c" } })).status).toBe(201);
    expect((await emu.post(pathOf(clusters.update, { cluster_name: "plant-a" }), { title: "Changed" })).status).toBe(200);
  });

  test("the next one starts from the seed again, and its tokens still work", async () => {
    expect(names(await emu.send(clusters.list))).toEqual(["plant-a", "plant-b"]);
    expect((await emu.send(clusters.get, { params: { cluster_name: "plant-a" } })).body.title).toBe("plant-a");
  });
});

describe("unseeded", () => {
  const emu = useEmulator();

  test("a test leaves a record", async () => {
    expect((await emu.send(clusters.create, { body: { name: "plant-a" } })).status).toBe(201);
  });

  test("the next one starts empty", async () => {
    expect(names(await emu.send(clusters.list))).toEqual([]);
  });
});

describe("the emulator outside its lifetime", () => {
  const emu = useEmulator();
  const early = (() => {
    try {
      return emu.baseUrl;
    } catch (e) {
      return (e as Error).message;
    }
  })();

  test("is refused, naming what was read", () => {
    expect(early).toBe("the emulator is used before it started (its beforeAll) or after it closed; reading 'baseUrl'");
  });

  test("send fills the path values percent-encoded, and names a missing one", async () => {
    expect(pathOf(clusters.get, { cluster_name: "a/b" })).toBe("/orchestration/clusters/a%2Fb/get");
    expect((await emu.send(clusters.get, { params: { cluster_name: "nope" } })).status).toBe(404);
    expect(() => pathOf(clusters.get, {} as never)).toThrow("clusters.get: missing path parameter 'cluster_name'");
  });
});

/** Compile-time checks of the path values (never called). */
export function typedPaths(): void {
  const emu = useEmulator();
  // @ts-expect-error clusters.get needs its cluster_name
  void emu.send(clusters.get, {});
  // @ts-expect-error cluster is not a path value of clusters.get
  void pathOf(clusters.get, { cluster: "a" });
  // @ts-expect-error clusters.list has no path values
  void pathOf(clusters.list, { cluster_name: "a" });
}
