/**
 * Warnings reach the run's results under both engines (issue 25): a mistyped `svc:` config key is
 * reported with the nearest setting in every run, as `pulumi` lists it under Diagnostics, and shows in
 * the rendered plan; so is a warning the program logs; a stack without either reports none.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "../../src";
import * as testing from "../../src/testing";
import { pulumiDir } from "./harness";

const program = async () => {
  new svc.AssetType("type", { name: "pump", title: "Pump" });
};

const MISTYPED = /^svc:emulater is not a setting of pulumi-svc and is ignored; did you mean svc:emulator\? \(settings: svc:baseUrl, .*svc:emulator, /;

const engines = [["kit", {}] as const, ...(pulumiDir ? [["pulumi", { engine: "pulumi", pulumiPath: pulumiDir }] as const] : [])];

describe.each(engines)("under the %s engine", (_name, engine) => {
  test("an unknown svc: key is a warning of every run, named with the nearest setting, and rendered", async () => {
    const stack = await testing.stack(program, { ...engine, emulator: true, config: { "svc:emulater": "true" } });
    try {
      for (const run of [await stack.preview(), await stack.up(), await stack.refresh(), await stack.destroy()]) {
        expect(run.warnings).toEqual([expect.stringMatching(MISTYPED)]);
      }
      const preview = await stack.preview();
      expect(preview.render()).toMatch(/\nwarning: svc:emulater is not a setting of pulumi-svc/);
      expect(preview.render({ format: "markdown" })).toMatch(/\*\*Warnings\*\*\n\n- svc:emulater is not a setting/);
    } finally {
      await stack.close();
    }
  });

  test("a warning the program logs (pulumi.log.warn) is a warning of its run", async () => {
    const warning = async () => {
      new svc.AssetType("type", { name: "pump", title: "Pump" });
      pulumi.log.warn("the site list is short");
    };
    const stack = await testing.stack(warning, { ...engine, emulator: true, skipPreview: true, expectEmptyPlanAfterUp: false });
    try {
      expect((await stack.up()).warnings).toEqual(["the site list is short"]);
    } finally {
      await stack.close();
    }
  });

  test("known keys only: no warnings", async () => {
    const stack = await testing.stack(program, { ...engine, emulator: true });
    try {
      expect((await stack.up()).warnings).toEqual([]);
    } finally {
      await stack.close();
    }
  });
});
