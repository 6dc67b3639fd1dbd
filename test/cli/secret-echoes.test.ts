/**
 * Secret args stay secret in everything `pulumi` writes: one resource of every kind with a secret
 * canary in each arg that can hold one, an up and an update that changes the canaries, then a search
 * of the whole file backend (the stack's state, its `.bak`, `backups/` and `history/`), the CLI's
 * home and work folders the kit keeps (its logs among them) and every other temporary file of the run
 * for every canary (see test/helpers/secret-canaries.ts). One stack holds every kind: a CLI command
 * costs seconds.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
// Everything the run writes to the temporary folder goes under this one, which the search covers.
const root = fs.mkdtempSync(path.join(os.tmpdir(), "secret-echoes-cli-"));
process.env.TMPDIR = root;
import * as pulumi from "@pulumi/pulumi";
import * as svc from "../../src";
import * as testing from "../../src/testing";
import { kinds } from "../../src/provider/kinds";
import { describeSecretEchoes } from "../helpers/secret-canaries";
import { describeCli, pulumiDir } from "./harness";

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describeSecretEchoes(
  "secret args under `pulumi`",
  () => root,
  (log, folder) => testing.stack(() => undefined, { engine: "pulumi", pulumiPath: pulumiDir, emulator: true, statePath: path.join(root, folder), log }),
  kinds,
  [/^main\/\.pulumi\/stacks\/.*\.json$/, /^main\/\.pulumi\/stacks\/.*\.bak$/, /^main\/\.pulumi\/history\//, /^main\/\.pulumi\/backups\//],
  describeCli,
);

describeCli("secret args in the provider's messages under `pulumi`", () => {
  // `pulumi` masks secret configuration in what it prints, not the values of secret inputs: the provider does.
  test("a check failure of a secret arg and a failed create do not print its value", async () => {
    const long = `canary_message_${"x".repeat(70)}`;
    const stack = await testing.stack(
      () => {
        new svc.AssetProperty("property", { assetName: "no-such-asset", name: "serial", title: pulumi.secret(long), value: 1 });
      },
      { engine: "pulumi", pulumiPath: pulumiDir, emulator: true },
    );
    try {
      const checked = (await stack.preview().catch((e: unknown) => e)) as Error;
      expect(checked.message).toContain("title");
      expect(checked.message).toContain("[secret]");
      expect(checked.message).not.toContain("canary_message_");
      const created = (await stack
        .up(() => {
          new svc.AssetProperty("property", { assetName: pulumi.secret("canary-asset-name"), name: "serial", value: 1 });
        })
        .catch((e: unknown) => e)) as Error;
      expect(created.message).toContain("[secret]");
      expect(created.message).not.toContain("canary-asset-name");
    } finally {
      await stack.close();
    }
  });
});
