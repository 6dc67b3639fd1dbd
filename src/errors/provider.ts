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
  SVC_KIND_DECLARATION_INVALID: {
    meaning:
      "A resource kind's declaration cannot be served as written: a call it needs is missing, or what it names does not fit (an echoed arg it does not declare, an endpoint without an object body, path values without the kind's id, two kinds of one name).",
    fix: "Correct the kind's declaration in src/provider/resources/<kind>.ts as the message says; this is the package's own error, so report it when it reaches a program.",
  },
  SVC_KIND_INPUTS_INCOMPLETE: {
    meaning: "An operation of a resource reached the provider with inputs that lack a required arg, which check should have refused.",
    fix: "Set the named args on the resource; if they are set, report it: the engine passed inputs that check did not see.",
  },
  SVC_APP_STILL_RUNS: {
    meaning: "An app could not be deleted: workloads still run it after the operation timeout.",
    fix: "Delete the workloads that run the app first (a workload outside this stack keeps it), or raise svc:operationTimeoutSeconds.",
  },
  SVC_STAGED_VERSION_NOT_APPLIED: {
    meaning:
      "A workload's staged version (deploymentType staged+instant-apply) was not applied: its package did not download, or not within the operation timeout; the workload still runs its previous version.",
    fix: "Run up again to stage it again once the package can download, raise svc:operationTimeoutSeconds, or use deploymentType staged-only and apply it on the platform.",
  },
} as const satisfies Record<string, CatalogEntry>;
