/**
 * What a stack under test shows of its resources, on either engine (the kit's TestStack, the CLI's
 * CliStack), and what adopting one by its id takes: types only, which the stacks and the assertions
 * over them share.
 */

/** A resource as tests look at it: values in plain form, with the paths of the secret ones. */
export interface ResourceView {
  urn: string;
  type: string;
  name: string;
  id?: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** Dotted paths of the outputs that are secret. */
  secretOutputs: string[];
  dependencies: string[];
  /** The serialized provider, as stored in the state. */
  provider?: string;
}

export interface ImportArgs {
  /** Name the adopted resource gets in the stack. */
  name: string;
  /** The object's id on the platform. */
  id: string;
  /** Take the type and the serialized provider from this resource of the stack. */
  like?: string;
  type?: string;
  /** The serialized provider (`__provider`) to read with. */
  provider?: string;
}

/** What an adoption check needs of a stack: its resources, and an import of one by its id. */
export interface AdoptableStack {
  resource(nameOrUrn: string): ResourceView;
  importResource(args: ImportArgs, options?: { record?: boolean }): Promise<ResourceView>;
}
