/** The error codes the testing kit (its engine, the svc kit, the CLI stack) raises; see ./index.ts. */
import type { CatalogEntry } from "./entry";

export const kitErrors = {} as const satisfies Record<string, CatalogEntry>;
