/**
 * Lists sorted by a version follow semver precedence (as the `semver` package compares): numbers
 * numerically, a pre-release before its release, numeric pre-release identifiers numerically
 * (rc.2 < rc.10), fewer identifiers first (rc < rc.1), identifiers compared whole (a.1 < a-b).
 */
import fc from "fast-check";
import semver from "semver";
import { versionSortKey } from "../../src/emulator/version-order";
import { areas } from "../../src/api/endpoints";
import { useEmulator, pathOf } from "../helpers/emulator";

/** Versions whose string order differs from their precedence, in a scrambled order. */
const VERSIONS = ["1.0.0", "1.0.0-rc.10", "0.9.0", "1.0.0-rc.2", "1.10.0", "1.0.0-rc", "1.0.0-alpha-b", "1.2.0", "1.0.0-alpha.1", "1.0.0-rc.1", "1.0.0-beta", "1.0.0-alpha"];
const BY_PRECEDENCE = [...VERSIONS].sort(semver.compare);

test("the expected order is semver's (the data really needs it)", () => {
  expect(BY_PRECEDENCE).toEqual([
    "0.9.0",
    "1.0.0-alpha",
    "1.0.0-alpha.1",
    "1.0.0-alpha-b",
    "1.0.0-beta",
    "1.0.0-rc",
    "1.0.0-rc.1",
    "1.0.0-rc.2",
    "1.0.0-rc.10",
    "1.0.0",
    "1.2.0",
    "1.10.0",
  ]);
  expect([...VERSIONS].sort()).not.toEqual(BY_PRECEDENCE);
});

describe("the sort key", () => {
  // Mostly small pools, so that versions often share their release and a prefix of their
  // identifiers: the cases a careless key gets wrong (rc.2 and rc.10, rc and rc.1, a.1 and a-b).
  const identifier = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom("0", "1", "2", "10", "11", "a", "a-b", "ab", "rc", "-", "A", "1a") },
    { weight: 1, arbitrary: fc.nat({ max: 10 ** 12 }).map(String) },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9A-Za-z-]{1,6}$/).filter((s) => !/^[0-9]+$/.test(s)) },
  );
  const part = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(0, 1, 10) }, { weight: 1, arbitrary: fc.nat({ max: 10 ** 9 }) });
  const version = fc
    .tuple(part, part, part, fc.array(identifier, { maxLength: 3 }), fc.option(fc.constantFrom("b1", "x.y")))
    .map(([ma, mi, pa, pre, build]) => `${ma}.${mi}.${pa}${pre.length ? `-${pre.join(".")}` : ""}${build ? `+${build}` : ""}`)
    .filter((v) => semver.valid(v) !== null);

  test("compares as semver.compare does, as plain strings", () => {
    fc.assert(
      fc.property(fc.array(version, { minLength: 2, maxLength: 16 }), (vs) => {
        for (const a of vs) {
          for (const b of vs) {
            const ka = versionSortKey(a);
            const kb = versionSortKey(b);
            if ((ka < kb ? -1 : ka > kb ? 1 : 0) !== semver.compare(a, b)) throw new Error(`${a} against ${b}: keys ${ka} and ${kb}`);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  test("the fixed cases sort by precedence; null and text that is no version keep their value", () => {
    expect([...VERSIONS].sort((a, b) => (versionSortKey(a) < versionSortKey(b) ? -1 : 1))).toEqual(BY_PRECEDENCE);
    expect(versionSortKey(null)).toBeNull();
    expect(versionSortKey("latest")).toBe("latest");
  });
});

describe("lists sorted by version, over HTTP", () => {
  const emu = useEmulator();

  const appManifest = (name: string, version: string) => ({ name, title: name, description: "d", type: "app", version });
  /** App `app-<i>` whose only version is VERSIONS[i]. */
  const appName = (v: string) => `app-${VERSIONS.indexOf(v)}`;

  test("apps by latest_version, both directions and page by page", async () => {
    for (const v of VERSIONS) expect((await emu.post(pathOf(areas.apps.create), appManifest(appName(v), v))).status).toBe(201);
    const latest = (a: { body: { data: Array<{ latest_version: string }> } }) => a.body.data.map((x) => x.latest_version);
    expect(latest(await emu.get(pathOf(areas.apps.list), { sort_by: ["latest_version"] }))).toEqual(BY_PRECEDENCE);
    expect(latest(await emu.get(pathOf(areas.apps.list), { sort_by: ["latest_version"], direction: "desc" }))).toEqual([...BY_PRECEDENCE].reverse());
    const pages: string[] = [];
    let next: string | undefined;
    do {
      const a = await emu.get(pathOf(areas.apps.list), { sort_by: ["latest_version"], page_size: 5, next });
      pages.push(...latest(a));
      next = a.body.pagination.next_page ?? undefined;
    } while (next);
    expect(pages).toEqual(BY_PRECEDENCE);
  });

  test("workloads by app_version (the list walks the store's index), with and without an app_versions filter", async () => {
    await emu.post(pathOf(areas.clusters.create), { name: "plant" });
    for (const v of VERSIONS) expect((await emu.post(pathOf(areas.apps.create), appManifest("sim", v))).status).toBe(201);
    for (const v of VERSIONS) {
      const w = await emu.post(pathOf(areas.workloads.create), { name: `w-${VERSIONS.indexOf(v)}`, app_name: "sim", app_version: v, cluster_name: "plant" });
      expect(w.status).toBe(201);
    }
    const versions = (a: { body: { data: Array<{ app_version: string }> } }) => a.body.data.map((x) => x.app_version);
    expect(versions(await emu.get(pathOf(areas.workloads.list), { sort_by: ["app_version"] }))).toEqual(BY_PRECEDENCE);
    expect(versions(await emu.get(pathOf(areas.workloads.list), { sort_by: ["app_version"], direction: "desc" }))).toEqual([...BY_PRECEDENCE].reverse());
    const some = ["1.0.0", "1.0.0-rc.10", "1.0.0-rc.2", "1.0.0-alpha-b", "1.0.0-alpha.1"];
    expect(versions(await emu.get(pathOf(areas.workloads.list), { sort_by: ["app_version"], app_versions: some }))).toEqual([...some].sort(semver.compare));
  });

  test("data types by data_type.version", async () => {
    for (const v of VERSIONS) {
      const a = await emu.post(pathOf(areas.datatypes.create), { icd: { name: "sensor.temp", class_name: "Reading", version: v, fields: [{ name: "value", type: "float64" }] } });
      expect(a.status).toBe(201);
    }
    const list = await emu.get(pathOf(areas.datatypes.list), { all: true, sort_by: "data_type.version", page_size: 100 });
    expect(list.body.data.map((t: { version: string }) => t.version)).toEqual(BY_PRECEDENCE);
  });

  test("registry apps by app.latest_version", async () => {
    for (const v of VERSIONS) expect((await emu.post(pathOf(areas.appregistry.create), { payload: { name: appName(v), version: v, type: "svc" } })).status).toBe(201);
    const list = await emu.get(pathOf(areas.appregistry.list), { sort_by: "app.latest_version", page_size: 100 });
    expect(list.body.data.map((a: { latest_version: string }) => a.latest_version)).toEqual(BY_PRECEDENCE);
  });
});
