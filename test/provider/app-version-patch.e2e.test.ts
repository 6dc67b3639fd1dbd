/**
 * AppVersion's in-place changes reach the platform's record: a patch sends each changed key, and
 * what the program removes from `defaults` or `schemas` is removed on the platform too (issue 25: a
 * removal used to send `{}`, which the platform's patch takes as no change).
 */
import * as svc from "../../src";
import * as testing from "../../src/testing";
import { SvcClient } from "../../src/client";

testing.registerMatchers();

type Defaults = svc.AppVersionArgs["defaults"];
type Schemas = svc.AppVersionArgs["schemas"];

const program = (defaults?: Defaults, schemas?: Schemas, image?: string) => async () => {
  new svc.AppVersion("v1", { appName: "monitor", version: "1.0.0", type: "app", image, defaults, schemas });
};

async function record(baseUrl: string) {
  const client = new SvcClient({ baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
  try {
    return await client.apps.versionGet({ params: { app_name: "monitor", app_version: "1.0.0" } });
  } finally {
    await client.close();
  }
}

test("removing parts of defaults and schemas, then the args, removes them on the platform, in place and with nothing left to refresh", async () => {
  const parameters = { type: "object", properties: { threshold: { type: "number" } } };
  const stack = await testing.stack(program({ deployment: { maxResources: 2 }, system: { privileged: true } }, { parameters }, "reg/monitor:1.0.0"), { emulator: true });
  try {
    await stack.up();
    const url = stack.emulator!.baseUrl;
    expect((await record(url)).defaults).toMatchObject({ deployment: { max_resources: 2 }, system: { privileged: true } });

    // One key of defaults goes: the platform's record loses it.
    expect(await stack.up(program({ deployment: { maxResources: 2 } }, { parameters }, "reg/monitor:1.0.0"))).toHaveActions({ v1: "update" });
    const afterOne = await record(url);
    expect(afterOne.defaults?.system).toBeUndefined();
    expect(afterOne.defaults?.deployment?.max_resources).toBe(2);
    expect(afterOne.schemas?.parameters).toEqual(parameters);
    expect(afterOne.image).toEqual({ mode: "manual", uri: "reg/monitor:1.0.0" });
    expect(await stack.refresh()).toHaveActions({ v1: "same" });

    // Both args go: nothing the program declared stays on the platform; the image is kept.
    expect(await stack.up(program(undefined, undefined, "reg/monitor:1.0.0"))).toHaveActions({ v1: "update" });
    const afterAll = await record(url);
    expect(afterAll.defaults?.deployment?.max_resources).toBeUndefined();
    expect(afterAll.schemas?.parameters).toBeUndefined();
    expect(afterAll.image).toEqual({ mode: "manual", uri: "reg/monitor:1.0.0" });
    expect(await stack.refresh()).toHaveActions({ v1: "same" });
    expect(await stack.preview()).toHaveActions({ v1: "same" });

    // An image change alone is still a patch of the image only.
    expect(await stack.up(program(undefined, undefined, "reg/monitor:1.0.1"))).toHaveActions({ v1: "update" });
    expect((await record(url)).image).toEqual({ mode: "manual", uri: "reg/monitor:1.0.1" });
  } finally {
    await stack.close();
  }
});
