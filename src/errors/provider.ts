/** The error codes the provider (both adapters: the dynamic resources and the native plugin) raises; see ./index.ts. */
import type { CatalogEntry } from "./entry";

export const providerErrors = {
  SVC_CONFIG_INVALID: {
    meaning:
      "A setting of the provider's configuration is missing from the ones it needs, or has a value it cannot take (the message names the keys, the value given and the form it takes; never a secret's value).",
    fix: "Set the key the message names to a value of that form (`pulumi config set svc:<key> <value>`, or its `SVC_` environment variable), then run again.",
  },
  SVC_CONFIG_MISSING: {
    meaning: "The provider has no platform to talk to: neither `svc:baseUrl` (or `SVC_BASE_URL`) nor `svc:emulator` is set.",
    fix: "Set `svc:baseUrl` with credentials (`svc:clientId` and `svc:clientSecret`, a user and password, or `svc:token`), or `svc:emulator` to true to run against the embedded emulator. The message lists keys that were set but not recognised.",
  },
  SVC_PLATFORM_URL_WRONG: {
    meaning: "The platform's base URL answers 404 where the login or the API should be: the address is wrong; the credentials were not tried.",
    fix: "Set `svc:baseUrl` (or `SVC_BASE_URL`) to the platform's root, under which the API lives at `/api/v4` and the login at `/auth/realms/svc`.",
  },
  SVC_CREDENTIALS_REFUSED: {
    meaning: "The platform refused the credentials the provider checked when it was configured (the message names the keys used, never their values).",
    fix: "Correct the credentials in the keys the message names, or give other ones. `svc:skipCredentialsCheck` skips the check (the first call then fails instead).",
  },
  SVC_CREDENTIALS_UNVERIFIED: {
    meaning: "The credentials could not be checked: the platform gave no answer (refused connection, unknown host, timeout).",
    fix: "Check that the base URL is reachable from where `pulumi` runs (VPN, proxy, firewall), then run again.",
  },
  SVC_PLATFORM_REFUSED: {
    meaning:
      "The platform answered a call of a create, read, update or delete with an error; the message names the resource, the operation and quotes the platform's answer (field and rule).",
    fix: "Correct what the platform's message names (an arg's value, a missing object another resource must create first, a permission of the credentials), then run again. The error's `cause` is the client's `SvcApiError`, with the status and the request id.",
  },
  SVC_PLATFORM_UNREACHABLE: {
    meaning: "A call of a create, read, update or delete got no answer from the platform, after the client's retries.",
    fix: "Check that the platform is reachable and up, then run again. The error's `cause` is the client's `SvcNetworkError`, whose `maybeSent` tells whether the request may have reached the platform.",
  },
  SVC_PLATFORM_ANSWER_INVALID: {
    meaning: "The platform answered a call with a success whose body does not match the API's schema (the message names the field).",
    fix: "The platform and this package disagree on the API: upgrade pulumi-svc, or report the field and the request id the message names.",
  },
  SVC_OPERATION_FAILED: {
    meaning: "A create, read, update or delete failed for a reason other than the platform's answer; the message names the resource and the operation.",
    fix: "Read the reason after `failed:`; if it names no mistake of the program, report it with the message.",
  },
  SVC_ALREADY_EXISTS: {
    meaning: "A create was answered 409: the object already exists on the platform; the message says who created it, when the audit log tells.",
    fix: "Follow the message: set `adopt: true` to take over an object no stack manages; read one another stack manages with its lookup instead of declaring it; give a renamed resource an alias.",
  },
  SVC_ADOPT_REFUSED: {
    meaning: "`adopt: true` names an object another stack, or another resource of this stack, created and manages; adopting it would make two owners of one object.",
    fix: "Remove `adopt` and read the object with its lookup, or (a renamed resource of this stack) give the resource an alias to its old name.",
  },
  SVC_TAKEOVER_CONFLICT: {
    meaning:
      "An existing object cannot be taken over: an arg that cannot change in place has another value on the platform than in the program (the message names the arg and both values).",
    fix: "Declare the platform's value for that arg, or give the resource another identity (name) so that a new object is created.",
  },
  SVC_OBJECT_GONE: {
    meaning: "An update found that the object no longer exists on the platform.",
    fix: "Run `pulumi refresh` (the state forgets the object), then `pulumi up` to create it again.",
  },
  SVC_UPDATE_UNSUPPORTED: {
    meaning: "An update was asked of a kind the platform cannot update in place.",
    fix: "The provider plans a replacement for such a change; report the resource and the change if an update was planned.",
  },
  SVC_KIND_UNKNOWN: {
    meaning: "The state names a resource kind the installed pulumi-svc does not have, typically because the package is older than the one that wrote the state.",
    fix: "Install the pulumi-svc version the stack was last deployed with, or a newer one.",
  },
  SVC_KIND_DUPLICATE: {
    meaning: "Two resource kinds were declared with the same name (a mistake in the package, met when it loads).",
    fix: "Give one of the two declarations another name (src/provider/resources/).",
  },
  SVC_BODY_INVALID: {
    meaning:
      "A request body the provider built from checked inputs does not satisfy the API's schema; refused before it reaches the platform (the message names the field and the rule).",
    fix: "A check of the kind's args lets through what the API refuses: report the resource and its args; meanwhile correct the field the message names.",
  },
  SVC_LOOKUP_NOT_FOUND: {
    meaning: "A lookup (`getApp`, `getAssetType`, ...) asked for an object the platform does not have. Tell it with `isLookupNotFound(error)`.",
    fix: "Declare the object in the stack that owns the objects your stacks share and run that stack's `pulumi up` first, or correct the name the lookup was given.",
  },
  SVC_EMULATOR_STATE_HELD: {
    meaning: "The embedded emulator's state file is held by another process that did not publish its address in time.",
    fix: "Stop the other process (an `svc-emulator serve --state` on the same file, or an older pulumi-svc), or point `svc:emulator` at another state file.",
  },
  SVC_NATIVE_TYPE_UNKNOWN: {
    meaning:
      "The engine asked the native provider about a resource type it does not serve (a type token other than `svc:index:<Kind>` of one of its kinds); the message lists the types it serves.",
    fix: "Correct the type in the program (or the state), or install the pulumi-svc plugin version that has the kind.",
  },
  SVC_NATIVE_SCHEMA_VERSION: {
    meaning: "The engine asked the native provider for a version of the package schema other than the one it writes (0).",
    fix: "Use a Pulumi CLI that asks for schema version 0 (every 3.x release does), or report the CLI's version.",
  },
  SVC_MANIFEST_UNUSABLE: {
    meaning: "An app version's manifest file cannot be used: it cannot be read, it is not valid YAML, or it holds no mapping.",
    fix: "Give the path of a readable YAML file that holds the app manifest as a mapping; a relative path is relative to the program's working directory.",
  },
  SVC_KIND_UNWRITTEN: {
    meaning: "A resource kind's skeleton (npm run new:kind) was used before it was written: its calls in its declaration module, or a part of its test module.",
    fix: "Write what the message names: the kind's calls in src/provider/resources/<kind>.ts (its endpoints, or create, read and delete), or the named part of test/kinds/<kind>.ts, as docs/architecture.md's recipe for a new kind says.",
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
