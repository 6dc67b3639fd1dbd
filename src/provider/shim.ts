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

/**
 * The `__provider` module text of a kind; `secretArgs` names the args that are secret in the program,
 * whose values the provider then masks in every message (it never sees the marking itself).
 */
export function providerModule(kind: string, secretArgs: readonly string[] = []): string {
  const options = secretArgs.length ? `, ${JSON.stringify({ secretArgs })}` : "";
  return `exports.handler = () => require("pulumi-svc/provider").shim(${JSON.stringify(kind)}${options});\n`;
}

/** What a resource class knows of its kind (never the kind itself: see registry.ts). */
interface KindFace {
  readonly name: string;
  /** The computed outputs, which the class registers. */
  readonly outputNames: readonly string[];
  /** The outputs that state args' values, each with those args (the output map's `echoes`). */
  readonly outputEchoes: Readonly<Record<string, readonly string[]>>;
}

/**
 * Base of every resource class: registers the kind's computed outputs (the names of its output map)
 * so the program can read them, under the type token `pulumi-nodejs:dynamic/svc:<Kind>`, the token
 * `pulumi.dynamic.Resource` gives, so the engine hands it to the dynamic-provider host.
 *
 * An output that states an arg's value is kept secret in the state whenever that arg is secret in the
 * program. The engine keeps secret only an output whose same-named input is secret (the provider never
 * sees the marking: the dynamic-provider host does not accept secrets) or that the resource names in
 * `additionalSecretOutputs`; so the class names there the echoing outputs of this resource's secret
 * args. Whether an arg is secret is known only once its value resolves, while the options are taken
 * at construction: the list is filled as the args resolve, before the `__provider` module text (which
 * also tells the provider the secret args' names, for its messages) resolves; the SDK resolves every
 * property before it sends the registration, and with it the list.
 */
export abstract class SvcResource extends pulumi.CustomResource {
  // The kind is described by its name and outputs only, so that the public declarations of the
  // resource classes never describe a kind (see registry.ts).
  protected constructor(kind: KindFace, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    const secretOutputs = [...(opts?.additionalSecretOutputs ?? [])];
    const provider = secretArgsOf(args as Record<string, unknown>).then((secretArgs) => {
      for (const [output, from] of Object.entries(kind.outputEchoes)) {
        if (!secretOutputs.includes(output) && from.some((a) => secretArgs.includes(a))) secretOutputs.push(output);
      }
      return providerModule(kind.name, secretArgs);
    });
    const owner = ownerInput(name);
    const props = {
      ...Object.fromEntries(kind.outputNames.map((o) => [o, undefined])),
      ...args,
      [PROVIDER_KEY]: provider,
      ...(owner ? { [OWNER_KEY]: owner } : {}),
    };
    super(TYPE_TOKEN_PREFIX + kind.name, name, props, { ...opts, additionalSecretOutputs: secretOutputs });
  }
}

/** Whether a value, once resolved, is or holds a secret at any depth. A value that fails to resolve fails the registration by itself. */
async function holdsSecret(value: unknown): Promise<boolean> {
  if (value === undefined || value === null) return false;
  try {
    return await pulumi.isSecret(pulumi.output(value));
  } catch {
    return false;
  }
}

/** The names of the args that are secret in the program (or hold a secret). */
async function secretArgsOf(args: Record<string, unknown>): Promise<string[]> {
  const names = Object.keys(args);
  const secret = await Promise.all(names.map((n) => holdsSecret(args[n])));
  return names.filter((_, i) => secret[i]);
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
