/** The error codes the testing kit (its engine, the svc kit, the CLI stack) raises; see ./index.ts. */
import type { CatalogEntry } from "./entry";

export const kitErrors = {
  SVC_PULUMI_CLI_MISSING: {
    meaning: 'A stack with `engine: "pulumi"` found no Pulumi CLI to run.',
    fix: "Install the Pulumi CLI on PATH, or pass `pulumiPath` (or set `SVC_PULUMI_DIR`) to the folder that holds it; in this repository `npm run --silent pulumi:path` builds it and prints its folder.",
  },
  SVC_AUTOMATION_API_UNSUPPORTED: {
    meaning:
      'A stack with `engine: "pulumi"` runs `pulumi up` through the Automation API\'s command runner (`PulumiCommand`), and the installed @pulumi/pulumi has none: it is outside the supported peer range.',
    fix: "Install a @pulumi/pulumi within this package's peer range (`npm ls @pulumi/pulumi` shows the one in use).",
  },
  SVC_RESOURCE_NOT_FOUND: {
    meaning: "A stack's `resource(name)` (or a call that takes a resource's name) named no resource of the stack; the message lists the names it has.",
    fix: "Use one of the names (or the URN) the message lists; a resource is in the state only after a run that registered it.",
  },
  SVC_RESOURCE_AMBIGUOUS: {
    meaning: "Several resources of the stack have the name given (children of different parents, or of different types).",
    fix: "Pass the resource's URN instead; the message lists them.",
  },
  SVC_STACK_CLOSED: {
    meaning: "A run or a read was asked of a stack after its `close()`.",
    fix: "Open a new stack (`testing.stack(...)`) on the same state file, or call `close()` after the last use.",
  },
  SVC_STACK_EXPORT_FAILED: {
    meaning: "`pulumi stack export`, which the CLI stack reads its state with, failed; the message quotes the CLI's error.",
    fix: "Read the CLI's error in the message (a backend that cannot be read, a wrong passphrase); the stack's backend folder is `statePath`.",
  },
  SVC_ENGINE_FAILED: {
    meaning: "The Pulumi engine reported a failure that names no resource (the program could not start, the backend refused); the message is the engine's.",
    fix: "Act on the engine's words in the message; `stack.hostOutput()` shows the provider host's output.",
  },
  SVC_IMPORT_ARGS_MISSING: {
    meaning: "`importResource` was not told the resource's type and serialized provider.",
    fix: "Pass `like` (the name of a resource of the same kind in the stack) or both `type` and `provider`.",
  },
  SVC_RESOURCE_EXISTS: {
    meaning: "`importResource` would record a resource whose URN the stack already has.",
    fix: "Import it under another name, or pass `{ record: false }` to read it without recording it.",
  },
  SVC_STATE_LOCKED: {
    meaning: "Another stack (in this process or another) has the state file open; a state is one stack's at a time.",
    fix: "Close the other stack (`stack.close()`) and try again; if the process the message names is gone, remove the lock folder it names.",
  },
  SVC_STATE_LOCK_FAILED: {
    meaning: "The state file could not be locked for a reason other than another holder (the folder cannot be written, say).",
    fix: "Make the state file's folder writable, or give another `statePath`.",
  },
  SVC_STATE_CIPHERTEXT_INVALID: {
    meaning: "A secret in the state file is not in the form the kit writes (`v1:<iv>:<ciphertext>`): the file was edited, or written by something else.",
    fix: "Restore the state file, or start from an empty one.",
  },
  SVC_STATE_PASSPHRASE_WRONG: {
    meaning: "The secrets in the state file cannot be decrypted: the passphrase differs from the one that wrote them.",
    fix: "Give the passphrase that wrote the state (`secretsPassphrase`, or `PULUMI_CONFIG_PASSPHRASE`).",
  },
  SVC_INVOKE_UNSUPPORTED: {
    meaning: "The program called a provider function (an invoke) the kit's engine does not serve.",
    fix: 'Run the test with `engine: "pulumi"`, under which the engine calls the function\'s provider, or leave the invoke out of the program under test.',
  },
  SVC_HOOK_UNCALLABLE: {
    meaning: "A resource hook or transform the program registered could not be called back (the SDK set up no callback server, or the call got no answer).",
    fix: "Register hooks from the program the stack runs, through the one `@pulumi/pulumi` the kit loads; if they are, report it with the test.",
  },
  SVC_PROGRAM_FAILED: {
    meaning: "The program under test threw, rejected a promise no one awaited, or logged an error (`pulumi.log.error`); the message quotes it, as `pulumi` does.",
    fix: "Fix the program: the error's `cause` is what the program threw.",
  },
  SVC_KIT_INTERNAL: {
    meaning: "The kit reached a state it should never reach (a mistake in the kit).",
    fix: "Report it with the test that reached it.",
  },
  SVC_NOT_A_RUN_RESULT: {
    meaning: "A matcher of `registerMatchers` (`toHaveNoChanges`, ...) was given something other than a run's result.",
    fix: "Pass what `up()`, `preview()`, `refresh()` or `destroy()` resolved to.",
  },
  SVC_MATCHERS_NO_EXPECT: {
    meaning: "`registerMatchers()` found no jest `expect` to extend.",
    fix: "Call it as `registerMatchers(expect)`.",
  },
  SVC_PROGRAM_FOLDER_MISSING: {
    meaning: "`testing.stack({ dir })` names a program folder that does not exist.",
    fix: "Give the folder that holds the program's Pulumi.yaml (relative paths are to the process's working directory).",
  },
  SVC_PROGRAM_ENTRY_MISSING: {
    meaning: "`testing.stack({ dir })` found no program entry in the folder (Pulumi.yaml's `main`, package.json's `main`, index.ts, index.js).",
    fix: "Add the entry, or point `main` in Pulumi.yaml at it.",
  },
  SVC_PLAN_NOT_EMPTY: {
    meaning: "The preview the kit runs right after an `up` plans changes: a diff that is not exact (the message lists the changes).",
    fix: "Read the changes listed: an arg the platform states otherwise than the program declares, or a diff the provider gets wrong. `expectEmptyPlanAfterUp: false` turns the check off.",
  },
  SVC_DRIFT_DETECTED: {
    meaning: "`expectNoDrift()`: the refresh found objects changed or gone on the platform, or the preview after it plans changes (the message lists them).",
    fix: "Find what changed the objects outside the program (or the arg the provider reads back otherwise than it was written).",
  },
  SVC_DESTROY_LEFT_OBJECTS: {
    meaning: "After destroy, objects the stack created still exist on the platform (or could not be read back); the message lists them.",
    fix: "Find why the delete did not remove them: a kind whose destroy should release them, or a delete the platform did not carry out.",
  },
  SVC_ADOPTION_NO_ID: {
    meaning: "`expectAdoptionMatchesCreate` was given a resource that has no id to adopt it by.",
    fix: "Run `up` first, and name a custom resource the stack created.",
  },
  SVC_ADOPTION_DIFFERS: {
    meaning: "Adopting the object by its id does not give the state its creation did (the message lists the paths that differ).",
    fix: "Make the kind's read give back what its create recorded, or `ignore` the paths the platform generates.",
  },
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
  SVC_KIT_JEST_ENVIRONMENT_MISSING: {
    meaning:
      "A jest config names `pulumi-svc/testing/jest-environment`, which extends jest's Node environment, and `jest-environment-node` cannot be loaded from where pulumi-svc is installed (jest installs it, but a package manager that does not hoist keeps it out of reach).",
    fix: "Install it beside jest (`npm install --save-dev jest-environment-node`, the version of your jest), or name jest's own `node` environment instead.",
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
