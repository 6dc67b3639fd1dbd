/** The error codes the provider (both adapters: the dynamic resources and the native plugin) raises; see ./index.ts. */
import type { CatalogEntry } from "./entry";

export const providerErrors = {} as const satisfies Record<string, CatalogEntry>;
