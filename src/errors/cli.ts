/** The error codes the svc-emulator command line raises; see ./index.ts. */
import type { CatalogEntry } from "./entry";

export const cliErrors = {
  SVC_PLATFORM_URL_REQUIRED: {
    meaning: "A command that reads the platform (`snapshot`, `parity`) was given no base URL.",
    fix: "Pass the platform's base URL with the flag the message names (`--from` for `snapshot`, `--against` for `parity`), e.g. `https://platform.example.com`, or set `SVC_BASE_URL`.",
  },
  SVC_FAULT_FLAG_INVALID: {
    meaning: "`svc-emulator serve`: a `--fault-*` flag has a value the fault injector cannot take (the message names the flag and the rule).",
    fix: "Correct the flag's value as the message says (`svc-emulator serve --help` lists the flags).",
  },
} as const satisfies Record<string, CatalogEntry>;
