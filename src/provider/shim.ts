/**
 * The serialized provider. Pulumi stores this object's code with every resource as `__provider`; it
 * captures only the kind's name and loads the implementation from the installed package by name,
 * so the state stays small, a package upgrade takes effect without replacing resources, and a
 * state written on one machine works on another.
 */
import * as pulumi from "@pulumi/pulumi";

const shims = new Map<string, pulumi.dynamic.ResourceProvider>();

function makeShim(kind: string): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) => require("pulumi-svc/provider").configure(req),
    check: (olds, news) => require("pulumi-svc/provider").dispatch(kind, "check", olds, news),
    diff: (id, olds, news) => require("pulumi-svc/provider").dispatch(kind, "diff", id, olds, news),
    create: (inputs) => require("pulumi-svc/provider").dispatch(kind, "create", inputs),
    read: (id, props) => require("pulumi-svc/provider").dispatch(kind, "read", id, props),
    update: (id, olds, news) => require("pulumi-svc/provider").dispatch(kind, "update", id, olds, news),
    delete: (id, props) => require("pulumi-svc/provider").dispatch(kind, "delete", id, props),
  };
}

export function providerFor(kind: string): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(kind);
  if (!shim) {
    shim = makeShim(kind);
    shims.set(kind, shim);
  }
  return shim;
}

/**
 * Base of every resource class: declares the kind's computed outputs so the program can read them,
 * and registers under the type token `pulumi-nodejs:dynamic/svc:<Kind>`.
 */
export abstract class SvcResource extends pulumi.dynamic.Resource {
  protected constructor(kind: string, name: string, args: object, outputs: readonly string[], opts?: pulumi.CustomResourceOptions) {
    const props = { ...Object.fromEntries(outputs.map((o) => [o, undefined])), ...args };
    super(providerFor(kind), name, props, opts, "svc", kind);
  }
}
