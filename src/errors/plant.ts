/** The error codes the brownfield tools (snapshot, parity, generate, adopt) raise; see ./index.ts. */
import type { CatalogEntry } from "./entry";

export const plantErrors = {
  SVC_PLATFORM_NO_ANSWER: {
    meaning:
      "A call of `svc-emulator snapshot` or `parity` to the platform got no usable answer (no connection, or a status worth retrying) after every retry; the message names the call and the platform.",
    fix: "Check that the platform is reachable and answering, then run again.",
  },
  SVC_LOGIN_REFUSED: {
    meaning: "The platform's login refused the credentials a brownfield tool was given; the message quotes the answer.",
    fix: "Correct the credentials (`--client-id`/`--client-secret` or `SVC_CLIENT_ID`/`SVC_CLIENT_SECRET`, or `SVC_USERNAME`/`SVC_PASSWORD`).",
  },
  SVC_SNAPSHOT_UNREADABLE: {
    meaning: "`svc-emulator generate` could not read the snapshot file as YAML (or JSON); the message names the file and the parser's complaint.",
    fix: "Give a file written by `svc-emulator snapshot`, or correct the line the parser names.",
  },
  SVC_SNAPSHOT_INVALID: {
    meaning:
      "The snapshot file reads, but is not a snapshot: not a mapping of sections, or a section that is not a list of entries (the message names the section and what it holds).",
    fix: "Give a file written by `svc-emulator snapshot`, or correct the section the message names.",
  },
  SVC_PACK_FAILED: {
    meaning: "`svc-emulator generate` could not pack the running pulumi-svc into the generated program's folder (`npm pack` failed, or wrote another file than expected).",
    fix: "Name another source of the package with `--package-spec` (a version range, a git URL or a tarball).",
  },
  SVC_PARITY_EMULATOR_REFUSED: {
    meaning: "`svc-emulator parity`: the emulator seeded from the snapshot refused a read the platform answered; the message names the operation and quotes the answer.",
    fix: "The snapshot and the emulator disagree: report the operation and the answer the message names.",
  },
  SVC_TYPESCRIPT_MISSING: {
    meaning: "`svc-emulator adopt-plan --program` found no TypeScript compiler in the program's project.",
    fix: "Install it there: `npm install --save-dev typescript`.",
  },
  SVC_PROGRAM_MAIN_MISSING: {
    meaning: "`svc-emulator adopt-plan --program` found no program entry in the folder (package.json `main`, default index.ts).",
    fix: "Point `--program` at the program's folder, or set `main` in its package.json.",
  },
} as const satisfies Record<string, CatalogEntry>;
