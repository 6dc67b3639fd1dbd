/** The error codes the brownfield tools (snapshot, parity, generate, adopt) raises; see ./index.ts. */
import type { CatalogEntry } from "./entry";

export const plantErrors = {} as const satisfies Record<string, CatalogEntry>;
