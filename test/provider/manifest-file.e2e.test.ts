/**
 * An AppVersion `manifest` given as a YAML file path: read when the program runs, relative to the
 * program's working directory. A file that cannot be used fails the resource's check with one
 * message (the resource, the property, the path tried and the directory it was resolved against):
 * no crash of the program, no unhandled rejection, and the run fails instead of succeeding empty.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as svc from "../../src";
import * as testing from "../../src/testing";
import { SvcClient } from "../../src/client";

testing.registerMatchers();

const adminClient = (baseUrl: string) => new SvcClient({ baseUrl, clientId: "svc-admin", clientSecret: "svc-admin-secret" });
const versionWith = (manifest: string) => async () => {
  new svc.AppVersion("monitor-1.0.0", { appName: "monitor", version: "1.0.0", type: "app", manifest });
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

let dir: string;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-manifest-"));
  process.on("unhandledRejection", onUnhandled);
});
afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  unhandled.length = 0;
});

describe("a manifest file that cannot be used fails the resource's check", () => {
  const where = (relative: string) => `manifest file '${relative}' (relative to the program's working directory ${process.cwd()}: ${path.resolve(relative)})`;
  test.each([
    ["missing", "no-such-manifest.yaml", undefined, (w: string) => `cannot read the ${w}: no such file (ENOENT)`],
    ["not YAML", "broken.yaml", "io: [unclosed\n", (w: string) => expect.stringMatching(new RegExp(`^the ${escape(w)} is not valid YAML: .+`))],
    ["not a mapping", "list.yaml", "- a\n- b\n", (w: string) => `the ${w} must hold a YAML mapping (the app manifest); it holds a list`],
  ])("%s: up and preview fail naming the resource, the property, the path and the directory", async (_case, file, content, reason) => {
    const relative = path.relative(process.cwd(), path.join(dir, file));
    if (content !== undefined) fs.writeFileSync(path.join(dir, file), content);
    const stack = await testing.stack(versionWith(relative), { emulator: true });
    try {
      for (const run of [() => stack.preview(), () => stack.up()]) {
        const err = (await run().then(
          () => undefined,
          (e: unknown) => e,
        )) as testing.RunError;
        expect(err).toBeInstanceOf(testing.RunError);
        expect(err.failures).toHaveLength(1);
        expect(err.resource?.name).toBe("monitor-1.0.0");
        expect(err.operation).toBe("check");
        expect(err.providerMessage).toEqual(expect.stringMatching(/^manifest: /));
        expect(err.providerMessage!.slice("manifest: ".length)).toEqual(reason(where(relative)));
        expect(err.operations).toEqual([]);
      }
      expect(stack.resources()).toEqual([]);
      const client = adminClient(stack.emulator!.baseUrl);
      expect((await client.apps.list({ query: {} })).data).toEqual([]);
      await client.close();
      expect(unhandled).toEqual([]);
    } finally {
      await stack.close();
    }
  });
});

test("a relative manifest path is read from the program's working directory and its content is what the platform gets", async () => {
  const file = path.join(dir, "manifest.yaml");
  fs.writeFileSync(file, "parameters:\n  - name: threshold\n    data_type: number\n    default: 75\n");
  const relative = path.relative(process.cwd(), file);
  expect(path.isAbsolute(relative)).toBe(false);
  const stack = await testing.stack(versionWith(relative), { emulator: true });
  try {
    await stack.up();
    const client = adminClient(stack.emulator!.baseUrl);
    const version = await client.apps.versionGet({ params: { app_name: "monitor", app_version: "1.0.0" } });
    expect(version.parameters?.map((p: { name: string }) => p.name)).toEqual(["threshold"]);
    await client.close();
    expect(stack.resource("monitor-1.0.0").outputs.parameterNames).toEqual(["threshold"]);
  } finally {
    await stack.close();
  }
});
