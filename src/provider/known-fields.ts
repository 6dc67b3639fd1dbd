/**
 * The fields an arg's value may have, from the wire schema it is sent under: check refuses every
 * other key, at every depth, naming the path and the nearest known field. Where the schema leaves a
 * value free-form (a record, a free JSON object, a value of unknown shape), every key is data.
 */
import type { z } from "zod";

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
export interface Naming {
  toWire(key: string, parent: string): string;
  toUser(wireKey: string, parent: string): string;
}

export const AS_WRITTEN: Naming = { toWire: (k) => k, toUser: (k) => k };

/** A key the schema does not know: its path inside the value (the program's spelling) and the keys known there. */
export interface UnknownField {
  path: string;
  key: string;
  known: string[];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
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
export function unknownFields(value: unknown, schema: Schema, naming: Naming, path = "", wirePath = ""): UnknownField[] {
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
