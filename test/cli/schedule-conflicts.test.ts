/**
 * A parameter schedule the platform would refuse (409: another schedule still waiting sets one of the
 * same parameters on one of the same assets of the app at the same time) is told by the preview, under
 * the kit and under `pulumi` (issue 31). Rolling line-1 to app version 2.0.0 moves its weekend cleaning
 * from the 1.0.0 schedule `cip-v1` to a new 2.0.0 schedule `cip-v2`: nothing orders the create of
 * `cip-v2` after the replacement of `cip-v1` that frees the slot, so the preview warns, naming
 * `cip-v1` and the dependency that fixes it; with that dependency the up succeeds. A clash that no
 * order resolves (the other schedule stays) fails the preview; a schedule outside the program is named
 * by its id.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as svc from "../../src";
import { SvcClient } from "../../src/client";
import * as testing from "../../src/testing";
import { pulumiDir } from "./harness";

testing.registerMatchers();

const AT = "2031-01-04T22:00:00Z";
const manifest = { parameters: [{ name: "cleaning", title: "Cleaning", data_type: "string" as const, default: "off" }] };

function base() {
  const type = new svc.AssetType("line", { name: "line", title: "Line" });
  const assets = ["line-1", "line-2"].map((n) => new svc.Asset(n, { name: n, title: n, assetTypeName: type.name }));
  const version = (v: string) => new svc.AppVersion(`cip-${v}`, { appName: "cip", version: v, type: "app", title: "CIP", manifest, image: `registry.local/cip:${v}` });
  return { assets, v1: version("1.0.0"), v2: version("2.0.0") };
}

type Version = ReturnType<typeof base>["v1"];
const schedule = (name: string, v: Version, resources: string[], opts: pulumi.CustomResourceOptions) =>
  new svc.ParameterSchedule(name, { appName: v.appName, appVersion: v.version, scheduledFor: AT, resources, parameters: { cleaning: "on" } }, opts);

/** Before the roll-out: `cip-v1` cleans both lines on 1.0.0. */
const before = async () => {
  const { assets, v1 } = base();
  schedule("cip-v1", v1, ["line-1", "line-2"], { dependsOn: assets });
};

/**
 * After: `cip-v1` for line-2 only, `cip-v2` on 2.0.0 for line-1, at the same time; `cip-v2` declared
 * first or last, and depending on `cip-v1` when `ordered`.
 */
const after = (options: { newFirst: boolean; ordered: boolean }) => async () => {
  const { assets, v1, v2 } = base();
  let old: svc.ParameterSchedule | undefined;
  const declareOld = () => (old = schedule("cip-v1", v1, ["line-2"], { dependsOn: assets }));
  const declareNew = () => schedule("cip-v2", v2, ["line-1"], { dependsOn: options.ordered ? [...assets, old!] : assets });
  if (options.newFirst && !options.ordered) {
    declareNew();
    declareOld();
  } else {
    declareOld();
    declareNew();
  }
};

const DEPEND = /^ParameterSchedule 'cip-v2': schedule \S+ .*'cip-v1'.*409.*make 'cip-v2' depend on 'cip-v1' \(the resource option dependsOn\)/;

const engines = [["kit", {}] as const, ...(pulumiDir ? [["pulumi", { engine: "pulumi", pulumiPath: pulumiDir }] as const] : [])];

describe.each(engines)("schedule conflicts under the %s engine", (_name, engine) => {
  let stack: testing.TestStack | testing.CliStack;
  let client: SvcClient;
  beforeAll(async () => {
    stack = await testing.stack(before, { ...engine, emulator: true });
    client = new SvcClient({ baseUrl: stack.emulator!.baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
    await stack.up();
  });
  afterAll(async () => {
    await client?.close();
    await stack?.close();
  });

  const pending = async () => (await client.schedules.list({ body: { states: ["scheduled"] } })).data.map((s) => `${s.app_version} ${s.resources.join(",")}`).sort();

  test.each([
    ["declared before", true],
    ["declared after", false],
  ])("the new schedule %s the old one: the preview warns, naming cip-v1 and the dependency to add", async (_order, newFirst) => {
    const preview = await stack.preview(after({ newFirst, ordered: false }));
    expect(preview).toHaveActions({ "cip-v1": "replace", "cip-v2": "create" });
    expect(preview.warnings).toContainEqual(expect.stringMatching(DEPEND));
  });

  test("a schedule outside the program is named by its id, with what to do", async () => {
    const hand = await client.schedules.create({
      body: { app_name: "cip", app_version: "1.0.0", scheduled_for: "2031-01-05T22:00:00Z", resources: ["krn:asset:line-1"], parameters: { cleaning: "on" } },
    });
    try {
      const outside = async () => {
        await before();
        new svc.ParameterSchedule("extra", { appName: "cip", appVersion: "1.0.0", scheduledFor: "2031-01-05T22:00:00Z", resources: ["line-1"], parameters: { cleaning: "on" } });
      };
      const preview = await stack.preview(outside);
      expect(preview.warnings).toContainEqual(expect.stringContaining(`ParameterSchedule 'extra': schedule ${hand.id} (app cip 1.0.0) already sets cleaning on krn:asset:line-1`));
      expect(preview.warnings).toContainEqual(expect.stringContaining("otherwise delete that schedule or change scheduledFor"));
    } finally {
      await client.schedules.delete({ params: { schedule_id: hand.id } });
    }
  });

  test.each([
    ["declared before", true],
    ["declared after", false],
  ])("a clash no order resolves (the other schedule stays), the new one %s it: the preview warns that the up will fail", async (_order, newFirst) => {
    const stays = async () => {
      const { assets, v1, v2 } = base();
      const declareNew = () => schedule("cip-v2", v2, ["line-1"], { dependsOn: assets });
      if (newFirst) declareNew();
      schedule("cip-v1", v1, ["line-1", "line-2"], { dependsOn: assets });
      if (!newFirst) declareNew();
    };
    const preview = await stack.preview(stays);
    expect(preview).toHaveActions({ "cip-v2": "create" });
    expect(preview.warnings).toContainEqual(
      expect.stringMatching(
        /^ParameterSchedule 'cip-v2': schedule \S+ (\(app cip 1\.0\.0, resource 'cip-v1'\) already sets cleaning on krn:asset:line-1 .*if 'cip-v1' keeps it|of 'cip-v1' .*'cip-v1' keeps it in this run),( so)? the up will fail/,
      ),
    );
  });

  test("following the advice (cip-v2 depends on cip-v1), the up succeeds", async () => {
    expect(await pending()).toEqual(["1.0.0 krn:asset:line-1,krn:asset:line-2"]);
    const up = await stack.up(after({ newFirst: true, ordered: true }));
    expect(up).toHaveActions({ "cip-v1": "replace", "cip-v2": "create" });
    expect(await pending()).toEqual(["1.0.0 krn:asset:line-2", "2.0.0 krn:asset:line-1"]);
    expect(await stack.preview()).toHaveNoChanges();
  });
});
