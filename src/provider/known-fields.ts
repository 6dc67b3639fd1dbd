/**
 * The one rule for unknown args, whatever the kind: a key of the inputs that is not an arg, and a
 * field inside an arg's value that the wire schema it is sent under does not name, at any depth, is
 * refused, naming the path and the nearest known one. Where the schema leaves a value free-form (a
 * record, a free JSON object, a value of unknown shape), every key is data. Programs built from data
 * (parsed YAML) get the same answer as a typo the compiler would have caught.
 */
import { z } from "zod";
import { PROVIDER_KEY, wireNameOf, type ArgSpec, type Kind } from "./kind";
import { nearest } from "./nearest";
import { camel, insideFreeForm, isPlainObject, snake } from "./values";

type Schema = z.core.$ZodType;

const WRAPPERS = ["optional", "nullable", "default", "prefault", "catch", "readonly", "nonoptional"];

/** The schema that decides a value's shape, under its wrappers: optional, default, lazy, and a preprocess or transform around it. */
function shapeSchema(schema: Schema): Schema {
  let s = schema;
  for (let depth = 0; depth < 20; depth++) {
    const d = s._zod.def;
    if (WRAPPERS.includes(d.type)) s = (d as z.core.$ZodOptionalDef).innerType;
    else if (d.type === "lazy") s = (d as z.core.$ZodLazyDef).getter();
    else if (d.type === "pipe") {
      const pipe = d as z.core.$ZodPipeDef;
      s = pipe.in._zod.def.type === "transform" ? pipe.out : pipe.in;
    } else break;
  }
  return s;
}

/** How the keys of a value are spelled: by the program (`toUser`) and on the wire (`toWire`), below the wire path `parent`. */
interface Naming {
  toWire(key: string, parent: string): string;
  toUser(wireKey: string, parent: string): string;
}

const AS_WRITTEN: Naming = { toWire: (k) => k, toUser: (k) => k };

/** A key the schema does not know: its path inside the value (the program's spelling) and the keys known there. */
interface UnknownField {
  path: string;
  key: string;
  known: string[];
}

const childPath = (path: string, key: string) => (path ? `${path}.${key}` : key);
const childWire = (wirePath: string, key: string) => (wirePath ? `${wirePath}.${key}` : key);

/** Whether a value can be of the kind a schema describes (an object, an array), so the walk may go down that way. */
function fits(value: unknown, schema: Schema): boolean {
  const type = shapeSchema(schema)._zod.def.type;
  if (Array.isArray(value)) return type === "array";
  if (isPlainObject(value)) return type === "object" || type === "record";
  return false;
}

/** Every key of `value` that `schema` does not know, at every depth. */
function unknownFields(value: unknown, schema: Schema, naming: Naming, path = "", wirePath = ""): UnknownField[] {
  const d = shapeSchema(schema)._zod.def;
  if (d.type === "object" && isPlainObject(value)) {
    const { shape, catchall } = d as z.core.$ZodObjectDef;
    // An object that takes any further key (a loose object) leaves them free.
    if (catchall && catchall._zod.def.type !== "never") return [];
    return Object.entries(value).flatMap(([key, v]) => {
      if (v === undefined) return [];
      const wire = naming.toWire(key, wirePath);
      if (!Object.prototype.hasOwnProperty.call(shape, wire)) return [{ path: childPath(path, key), key, known: Object.keys(shape).map((k) => naming.toUser(k, wirePath)) }];
      return unknownFields(v, shape[wire], naming, childPath(path, key), childWire(wirePath, wire));
    });
  }
  if (d.type === "array" && Array.isArray(value)) {
    const { element } = d as z.core.$ZodArrayDef;
    return value.flatMap((v, i) => unknownFields(v, element, naming, `${path}[${i}]`, childWire(wirePath, "*")));
  }
  if (d.type === "record" && isPlainObject(value)) {
    const { valueType } = d as z.core.$ZodRecordDef;
    return Object.entries(value).flatMap(([key, v]) => unknownFields(v, valueType, naming, childPath(path, key), childWire(wirePath, naming.toWire(key, wirePath))));
  }
  if (d.type === "union") {
    // The option the value is closest to: the one that finds the fewest unknown keys in it.
    const found = (d as z.core.$ZodUnionDef).options.filter((o) => fits(value, o)).map((o) => unknownFields(value, o, naming, path, wirePath));
    return found.length === 0 ? [] : found.reduce((a, b) => (b.length < a.length ? b : a));
  }
  return [];
}

/** The wire schema of an arg's value: its spec's, else its field in the kind's schema. */
function wireSchemaOf(kind: Kind, name: string): Schema | undefined {
  const spec = kind.args[name];
  if (spec.schema) return spec.schema;
  return kind.schema instanceof z.ZodObject ? (kind.schema.shape as Record<string, Schema | undefined>)[wireNameOf(name, spec)] : undefined;
}

/** How an arg's keys are spelled on the wire: snake_cased where the arg is nested, except below its free-form paths. */
function namingOf(spec: ArgSpec): Naming {
  if (!spec.nested) return AS_WRITTEN;
  const free = spec.freeForm ?? [];
  const asIs = (parent: string) => parent !== "" && insideFreeForm(parent, free);
  return { toWire: (k, parent) => (asIs(parent) ? k : snake(k)), toUser: (k, parent) => (asIs(parent) ? k : camel(k)) };
}

const didYouMean = (typed: string, known: readonly string[], what: string) =>
  known.length ? `did you mean ${nearest(typed, known)}? (${what}: ${known.join(", ")})` : "there are none here";

/** Adds a failure for each unknown arg of the inputs, and for each unknown field inside an arg, under the arg. */
export function refuseUnknownArgs(kind: Kind, news: Record<string, unknown>, add: (property: string, reason: string) => void): void {
  const names = Object.keys(kind.args);
  for (const key of Object.keys(news)) {
    if (key === PROVIDER_KEY || key in kind.args || news[key] === undefined) continue;
    add(key, `is not an arg of ${kind.name}; ${didYouMean(key, names, "its args")}`);
  }
  for (const [name, spec] of Object.entries(kind.args)) {
    const schema = wireSchemaOf(kind, name);
    if (news[name] === undefined || spec.local || !schema) continue;
    for (const f of unknownFields(news[name], schema, namingOf(spec))) add(name, `${f.path}: unknown field; ${didYouMean(f.key, f.known, "fields there")}`);
  }
}
