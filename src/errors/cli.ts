/** The error codes the svc-emulator command line raises; see ./index.ts. */
import type { CatalogEntry } from "./entry";

export const cliErrors = {} as const satisfies Record<string, CatalogEntry>;
