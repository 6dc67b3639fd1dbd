/** The error codes the testing kit (its engine, the svc kit, the CLI stack) raises; see ./index.ts. */
import type { CatalogEntry } from "./entry";

export const kitErrors = {
  SVC_KIT_PROVIDER_FAILED: {
    meaning: "A provider call of a resource's step (check, diff, create, read, update, delete) failed; the message names the resource, the step and the provider's own words.",
    fix: "Read the provider's words after `failed:`; when they end with a code of their own, that code's entry says what to do.",
  },
  SVC_KIT_CHECK_REFUSED: {
    meaning: "The provider's Check refused the resource's inputs: each refused property is named with the reason.",
    fix: "Change the named inputs in the program as the reasons say.",
  },
  SVC_KIT_PROTECTED: {
    meaning: "The run would delete or replace a resource marked `protect`, as `pulumi` refuses it.",
    fix: "Remove the `protect` option from the resource (or set it to false) and run again; then the delete or replacement goes ahead.",
  },
  SVC_KIT_DUPLICATE_URN: {
    meaning: "Two resources of the program have the same type, name and parent, so the same URN.",
    fix: "Give one of them another name.",
  },
  SVC_KIT_IMPORT_UNSUPPORTED: {
    meaning:
      "A dynamic resource was given the `import` option: the engine imports with a Read that carries no inputs, and the dynamic-provider host needs the serialized provider among them.",
    fix: "Take an existing object over with the kind's `adopt: true` instead of `import`.",
  },
  SVC_KIT_NO_SUCH_OBJECT: {
    meaning: "A `get` (or an import by id) named an object the platform does not hold.",
    fix: "Check the id; the object may have been deleted.",
  },
  SVC_KIT_HOOK_FAILED: {
    meaning: "A resource hook or an error hook of the program failed, or a resource names a hook the program did not register in this run.",
    fix: "Read the hook's own message; register every hook a resource names (`new pulumi.ResourceHook(...)`) in each run of the program.",
  },
  SVC_KIT_HOOK_NAME_TAKEN: {
    meaning: "A resource hook or error hook was registered with an empty name or a name already registered (the two kinds share one space of names).",
    fix: "Give each hook its own non-empty name.",
  },
  SVC_KIT_HOOK_RETRIES_EXHAUSTED: {
    meaning: "Error hooks asked for a retry of the same operation until the engine's limit of attempts (100) was reached.",
    fix: "Let the error hook answer no retry once retrying cannot help (it is told every failure so far).",
  },
  SVC_KIT_RUN_STOPPED: {
    meaning: "A registration arrived after the run had already failed (or ended): the engine starts no new step, as `pulumi` does.",
    fix: "Look for the run's first failure: it is the one to fix.",
  },
  SVC_KIT_HOST_START_FAILED: {
    meaning: "The dynamic-provider host of @pulumi/pulumi did not start: it exited, printed something other than its port, or did not report its port in time.",
    fix: "Read the host's output quoted in the message; check that @pulumi/pulumi is installed where the stack runs.",
  },
  SVC_KIT_STATE_UNREADABLE: {
    meaning: "The state file cannot be used: it was written by another state version, or it holds another project's or stack's state.",
    fix: "Point `statePath` at this stack's own state file (or a new one).",
  },
  SVC_KIT_PARALLEL_INVALID: {
    meaning: "The `parallel` option is not a positive integer.",
    fix: "Set `parallel` to 1 or more (default 16).",
  },
} as const satisfies Record<string, CatalogEntry>;
