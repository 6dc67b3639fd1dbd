/**
 * Pulumi's resource URN, `urn:pulumi:<stack>::<project>::<qualified type>::<name>`, read and written
 * in one place. As the engine reads it (sdk/go/common/resource/urn.go), the name is everything after
 * the third `::`, so a name may itself hold `::`; the qualified type is the resource's own type
 * preceded by its parents' types, joined with `$` (the root stack is no part of it). Imports nothing:
 * the provider and the kit's engine both read URNs with it.
 */

export const URN_PREFIX = "urn:pulumi:";
const DELIMITER = "::";
const TYPE_DELIMITER = "$";

/** The type of the root stack resource, which gives its children no type prefix. */
export const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";

export interface UrnParts {
  stack: string;
  project: string;
  /** The own type, preceded by the parents' types: `parent:index:Type$own:index:Type`. */
  qualifiedType: string;
  name: string;
}

/** The parts of a URN; a part a malformed URN lacks is empty. */
export function parseUrn(urn: string): UrnParts {
  const body = urn.startsWith(URN_PREFIX) ? urn.slice(URN_PREFIX.length) : urn;
  const [stack = "", project = "", qualifiedType = "", ...name] = body.split(DELIMITER);
  return { stack, project, qualifiedType, name: name.join(DELIMITER) };
}

export function formatUrn(parts: UrnParts): string {
  return `${URN_PREFIX}${[parts.stack, parts.project, parts.qualifiedType, parts.name].join(DELIMITER)}`;
}

/** The resource's name: everything after the third `::`. */
export const urnName = (urn: string): string => parseUrn(urn).name;

/** The resource's type with its parents' types: what a child's qualified type begins with. */
export const urnQualifiedType = (urn: string): string => parseUrn(urn).qualifiedType;

/** The resource's own type, without its parents'. */
export const urnType = (urn: string): string => urnQualifiedType(urn).split(TYPE_DELIMITER).pop() ?? "";

/** The URN the engine gives a resource of `type` named `name` under `parent` (the root stack adds no type prefix). */
export function resourceUrn(scope: { project: string; stack: string }, type: string, name: string, parent?: string): string {
  const parentType = parent ? urnQualifiedType(parent) : "";
  const qualifiedType = parentType && parentType !== ROOT_STACK_TYPE ? `${parentType}${TYPE_DELIMITER}${type}` : type;
  return formatUrn({ stack: scope.stack, project: scope.project, qualifiedType, name });
}
