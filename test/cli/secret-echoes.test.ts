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
import * as testing from "../../src/testing";
import { kinds } from "../../src/provider/kinds";
import { describeSecretEchoes } from "../helpers/secret-canaries";
import { describeCli, pulumiDir } from "./harness";

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describeSecretEchoes(
  "secret args under `pulumi`",
  () => root,
  (log) => testing.stack(() => undefined, { engine: "pulumi", pulumiPath: pulumiDir, emulator: true, statePath: path.join(root, "backend"), log }),
  kinds,
  describeCli,
);
