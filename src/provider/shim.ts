/**
 * The serialized provider. The dynamic-provider host that ships with @pulumi/pulumi loads the text
 * stored with every resource as `__provider` as a module and calls its `handler()` for the provider.
 * `pulumi.dynamic.Resource` would fill it by serializing a provider object's closures (about 2 KB per
 * copy, and Pulumi keeps a copy in the inputs and one in the outputs). This package writes the module
 * itself instead: one line that names the kind and loads the implementation from the installed package
 * by name. The state stays small, a package upgrade takes effect without replacing resources, and a
 * state written on one machine works on another.
 */
import * as pulumi from "@pulumi/pulumi";
import { PROVIDER_KEY, TYPE_TOKEN_PREFIX } from "./kind";
import { OWNER_KEY, ownerValue } from "./ownership";

/** The `__provider` module text of a kind. */
export function providerModule(kind: string): string {
  return `exports.handler = () => require("pulumi-svc/provider").shim(${JSON.stringify(kind)});\n`;
}

/**
 * Base of every resource class: registers the kind's computed outputs (the names of its output map)
 * so the program can read them, under the type token `pulumi-nodejs:dynamic/svc:<Kind>`, the token
 * `pulumi.dynamic.Resource` gives, so the engine hands it to the dynamic-provider host.
 */
export abstract class SvcResource extends pulumi.CustomResource {
  // The kind is described by its name and output names only, so that the public declarations of the
  // resource classes never describe a kind (see registry.ts).
  protected constructor(kind: { readonly name: string; readonly outputNames: readonly string[] }, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    const owner = ownerInput(name);
    const props = {
      ...Object.fromEntries(kind.outputNames.map((o) => [o, undefined])),
      ...args,
      [PROVIDER_KEY]: providerModule(kind.name),
      ...(owner ? { [OWNER_KEY]: owner } : {}),
    };
    super(TYPE_TOKEN_PREFIX + kind.name, name, props, opts);
  }
}

/**
 * The hidden input naming the resource's project, stack and name, by which a create records who made
 * the object (ownership.ts); none outside a stack (a program run without an engine).
 */
function ownerInput(name: string): string | undefined {
  try {
    const project = pulumi.getProject();
    const stack = pulumi.getStack();
    return project && stack ? ownerValue(project, stack, name) : undefined;
  } catch {
    return undefined;
  }
}
