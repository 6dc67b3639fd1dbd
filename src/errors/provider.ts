/** The error codes the provider (both adapters: the dynamic resources and the native plugin) raises; see ./index.ts. */
import type { CatalogEntry } from "./entry";

export const providerErrors = {
  SVC_MANIFEST_UNUSABLE: {
    meaning: "An app version's manifest file cannot be used: it cannot be read, it is not valid YAML, or it holds no mapping.",
    fix: "Give the path of a readable YAML file that holds the app manifest as a mapping; a relative path is relative to the program's working directory.",
  },
  SVC_KIND_UNWRITTEN: {
    meaning: "A resource kind's skeleton (npm run new:kind) was used before its calls were written.",
    fix: "Write the kind's calls in its declaration module (its endpoints, or create, read and delete), as docs/architecture.md's recipe for a new kind says.",
  },
} as const satisfies Record<string, CatalogEntry>;
